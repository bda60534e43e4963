import { AstroErrorData } from 'astro/errors';
import { describe, expect, it } from 'vitest';
import { entryName, explainBuildFailure, fieldName } from './build-errors';
import { editorFailure } from './publisher';

/** Astro's InvalidContentEntryDataError, as `astro build` prints it (NO_COLOR: the bold marks half-eaten). */
const astroCli = (collection: string, id: string, ...issues: string[]) =>
  [
    '15:35:18 [content] Syncing content',
    `[InvalidContentEntryDataError] ${collection} → ${id} data does not match collection schema.`,
    '',
    ...issues.map((issue) => `  ${issue}`),
    '',
    '  Hint:',
    '    See https://docs.astro.build/en/guides/content-collections/ for more information on content schemas.',
    '  Error reference:',
    '    https://docs.astro.build/en/reference/errors/invalid-content-entry-data-error/',
    '  Location:',
    `    /srv/contrechamp/src/content/${collection}/x.md:0:0`,
    '  Stack trace:',
    '    at getEntryData (file:///srv/contrechamp/node_modules/astro/dist/content/utils.js:160:26)',
    '',
  ].join('\n');

/** The same error through the resident builder (src/host/builder.ts strips the bold marks). */
const resident = (collection: string, id: string, ...issues: string[]) =>
  `[contrechamp:staged-pages] 0 pages kept from the last build, 0 no longer built removed\n\n[InvalidContentEntryDataError] ${collection} → ${id} data does not match collection schema.\n\n${issues.map((i) => `  ${i}`).join('\n')}\n\n    at getEntryData (file:///x/utils.js:1:1)\n`;

describe('explainBuildFailure', () => {
  it('reads the error as the installed Astro words it (its public `astro/errors`): a tripwire for an upgrade', () => {
    const { name, message } = AstroErrorData.InvalidContentEntryDataError;
    const printed = `[${name}] ${message('stories', 'articles/mon-article', { issues: [{ path: ['title'], message: 'Required' }] } as never)}`;
    expect(explainBuildFailure(printed)).toBe('L’article « mon-article » : le titre est manquant.');
  });

  it('names the entry and the missing field as editors do', () => {
    expect(explainBuildFailure(astroCli('stories', 'articles/mon-article', 'title**: **title: Required'))).toBe(
      'L’article « mon-article » : le titre est manquant.',
    );
    expect(explainBuildFailure(resident('stories', 'articles/mon-article', 'title: Required'))).toBe('L’article « mon-article » : le titre est manquant.');
    expect(explainBuildFailure(resident('stories', 'breves/greve-du-rail', 'published: published: Required'))).toBe(
      'La brève « greve-du-rail » : la date de publication est manquante.',
    );
    // zod's own English, without Astro's error map.
    expect(explainBuildFailure(resident('stories', 'emissions/le-debat', 'lead: Invalid input: expected string, received undefined'))).toBe(
      'L’émission « le-debat » : le chapô est manquant.',
    );
  });

  it('says what is wrong: a wrong type, too long, too short, an invalid date, a value not in the list', () => {
    const story = (issue: string) => explainBuildFailure(astroCli('stories', 'articles/mon-article', issue));
    expect(story('title**: **title: Expected type `"string"`, received `"number"`')).toBe(
      'L’article « mon-article » : le titre devrait être du texte, pas un nombre.',
    );
    expect(story('title**: Too big: expected string to have <=160 characters')).toBe(
      'L’article « mon-article » : le titre est trop long (160 caractères au plus).',
    );
    expect(story('lead**: Too small: expected string to have >=10 characters')).toBe(
      'L’article « mon-article » : le chapô est trop court (au moins 10 caractères).',
    );
    expect(story('published**: **published**: Expected type `"date"`, received `"object"`')).toBe(
      'L’article « mon-article » : la date de publication n’est pas une date valide (par exemple 2026-11-23 ou 2026-11-23T10:00:00+01:00).',
    );
    expect(story('authors**: Too small: expected array to have >=1 items')).toBe(
      'L’article « mon-article » : la liste des auteurs est vide (il en faut au moins un).',
    );
    expect(story('cover.alt**: Too small: expected string to have >=3 characters')).toBe(
      'L’article « mon-article » : le texte alternatif de l’image de couverture est trop court (au moins 3 caractères).',
    );
    expect(story('****: Unrecognized key: "titre"')).toBe('L’article « mon-article » : le champ « titre » n’est pas prévu (une faute de frappe ?).');
    expect(story('slug**: Un slug ne contient que des minuscules sans accents, des chiffres et des tirets.')).toBe(
      'L’article « mon-article » : l’identifiant dans l’adresse (slug) : un slug ne contient que des minuscules sans accents, des chiffres et des tirets.',
    );
    expect(explainBuildFailure(astroCli('tags', 'climat', 'scheme**: Invalid option: expected one of "TOPIC"|"PLACE"|"PERSON"|"PODCAST"'))).toBe(
      'Le mot-clé « climat » : la famille du mot-clé n’a pas une valeur prévue (valeurs possibles : « TOPIC », « PLACE », « PERSON », « PODCAST »).',
    );
    const union = resident(
      'stories',
      'articles/mon-article',
      'scheme: scheme: Did not match union.',
      '> Expected `scheme` to be `"articles"` | `"emissions"` | `"breves"`',
      '> Received `{ "scheme": "podcast" }`',
    );
    expect(explainBuildFailure(union)).toBe(
      'L’article « mon-article » : le type de contenu n’a pas une valeur prévue (valeurs possibles : « articles », « emissions », « breves »).',
    );
  });

  it('lists every issue of the entry, and names list items and nested fields', () => {
    const log = resident(
      'episodes',
      'la-fabrique/episode-12',
      'duration: Too small: expected number to be >0',
      'attributes.podcast.filename: Invalid string: must match pattern /^[\\w.-]+\\.(mp3|m4a|ogg|opus)$/',
    );
    expect(explainBuildFailure(log)).toBe(
      'L’épisode « episode-12 » du podcast « la-fabrique » : la durée doit être supérieure à 0 ; le nom du fichier audio n’a pas la forme attendue.',
    );
    expect(explainBuildFailure(resident('stories', 'articles/mon-article', 'authors.0: **inconnu** does not exist in collection **authors**'))).toBe(
      'L’article « mon-article » : l’auteur « inconnu » n’existe pas (l’auteur n° 1).',
    );
  });

  it('reads the unknown references found by the corpus checks and by Astro', () => {
    expect(
      explainBuildFailure(
        '[ContentError] Content error in stories/articles/mon-article: unknown author "jeanne-d"\n    at buildCorpus (file:///x/corpus.js:1:1)',
      ),
    ).toBe('L’article « mon-article » : l’auteur « jeanne-d » n’existe pas.');
    expect(explainBuildFailure('Content error in stories/breves/x: unknown tag "climat"')).toBe('La brève « x » : le mot-clé « climat » n’existe pas.');
    expect(explainBuildFailure('Content error in stories/articles/x: category "journal" belongs to breves, not articles')).toBe(
      'L’article « x » : la rubrique « journal » est une rubrique des breves, pas des articles.',
    );
    expect(
      explainBuildFailure(
        '12:00:01 [ERROR] [content] Invalid content reference: entry "articles/x" in collection "stories" (field: tags[2]) references "meteo" in collection "tags", but that entry does not exist.',
      ),
    ).toBe('L’article « x » : le mot-clé « meteo » n’existe pas (le mot-clé n° 3).');
  });

  it('puts the content API’s refusals in the same words (the log line tests/unit/content-api-build.test.ts checks)', () => {
    const id = 'articles/meubles-de-tourisme-marseille-les-societes-ecrans';
    const log = `[ContentSourceError] Contenu refusé (collection « stories », entrée « ${id} », champ « lead ») : Trop petit : chaîne de caractères doit avoir >=10 caractères\n`;
    expect(explainBuildFailure(log)).toBe(
      'L’article « meubles-de-tourisme-marseille-les-societes-ecrans » : le chapô est trop court (au moins 10 caractères).',
    );
    const more = `Contenu refusé (collection « stories », entrée « ${id} », champ « title ») : Entrée invalide : chaîne de caractères attendu, indéfini reçu (et 2 autres erreurs : lead, published)`;
    expect(explainBuildFailure(more)).toBe(
      'L’article « meubles-de-tourisme-marseille-les-societes-ecrans » : le titre est manquant (et 2 autres erreurs : le chapô, la date de publication).',
    );
    expect(
      explainBuildFailure(
        'Contenu refusé (collection « tags », entrée « climat », champ « extra ») : champ inconnu au niveau de l’entrée (attendus : id, data, body, updatedAt).',
      ),
    ).toBe('Le mot-clé « climat » : le champ « extra » : champ inconnu au niveau de l’entrée (attendus : id, data, body, updatedAt).');
  });

  it('names the entry when the problem is not one it knows, and gives up when no entry is named', () => {
    expect(explainBuildFailure(resident('authors', 'jeanne', 'bio: Something new went wrong'))).toBe(
      'La fiche de l’auteur « jeanne » : la biographie n’est pas valide.',
    );
    expect(explainBuildFailure('[InvalidContentEntryDataError] dossiers → logement data does not match collection schema.\n\n  Hint:\n')).toBe(
      'Le dossier « logement » ne correspond pas au modèle attendu : vérifiez ses champs.',
    );
    expect(explainBuildFailure('Content error in podcasts/la-fabrique: something unexpected')).toBe(
      'Le podcast « la-fabrique » n’a pas pu être publié tel quel : vérifiez ses champs.',
    );
    expect(explainBuildFailure('[vite] Internal server error: Cannot find module ./x\n')).toBeUndefined();
  });

  it('maps field paths and entries to the newsroom’s words', () => {
    expect(fieldName('photo.credit', 'authors').label).toBe('le crédit du portrait');
    expect(fieldName('chapters[1].start', 'stories').label).toBe('le début du chapitre 2');
    expect(fieldName('video.id').label).toBe('l’identifiant de la vidéo');
    expect(fieldName('pubDate').label).toBe('la date de publication');
    expect(fieldName('mystere.champ').label).toBe('le champ « mystere.champ »');
    expect(entryName('pages', 'mentions-legales')).toBe('La page « mentions-legales »');
    expect(entryName('autre', 'x')).toBe('L’entrée « x » de la collection « autre »');
  });
});

describe('a refused transcript', () => {
  it('names the episode and the cue', () => {
    const log =
      '[build] generating static routes\nTranscriptError: Transcription refusée pour l’épisode « les-voix-du-terrain/x », repère n° 2 (00:00:07.000) : le repère commence avant la fin du précédent (00:00:08.000) : les repères doivent se suivre sans se chevaucher.\n    at parseTranscript (file:///x.js:1:1)\n';
    expect(explainBuildFailure(log)).toBe(
      'Transcription refusée pour l’épisode « les-voix-du-terrain/x », repère n° 2 (00:00:07.000) : le repère commence avant la fin du précédent (00:00:08.000) : les repères doivent se suivre sans se chevaucher.',
    );
  });
});

describe('editorFailure', () => {
  it('is French for the editors, whatever the build printed', () => {
    expect(editorFailure(resident('stories', 'articles/mon-article', 'title: Required'))).toBe(
      'La construction a échoué. L’article « mon-article » : le titre est manquant.',
    );
    expect(editorFailure('\nLe constructeur résident s’est arrêté pendant la construction.\n')).toBe(
      'La construction a échoué : Le constructeur résident s’est arrêté pendant la construction.',
    );
    const technical = editorFailure(
      '[build] 12 cached pages linked\n[RollupError] Could not resolve "./missing" from "src/pages/index.astro"\n    at error (file:///x.js:1:1)\n',
    );
    expect(technical).toBe('La construction a échoué sur une erreur technique, sans contenu mis en cause : le détail est dans le journal de la construction.');
  });
});
