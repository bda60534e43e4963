/**
 * Why a build failed, in words an editor understands: the entry (« L’article « mon-article » ») and
 * the field (« le titre ») named as the newsroom names them, and what is wrong with it, in French.
 * The build's log keeps Astro's English line (and the server log names it too): this is only what
 * /redaction shows as the cause.
 *
 * It reads what a failed build prints about content:
 * - Astro's InvalidContentEntryDataError (`stories → articles/x data does not match collection
 *   schema.` then one `field: message` line per zod issue, in Astro's English or zod's);
 * - the content API loader's refusals (`Contenu refusé (collection « … », entrée « … », champ « … ») :`,
 *   zod's French locale, src/lib/content-source/errors.ts);
 * - a transcript's refusal (`Transcription refusée pour l’épisode « … », repère n° … : …`, src/lib/transcripts.ts);
 * - the corpus checks (`Content error in stories/articles/x: unknown author "y"`, src/lib/corpus.ts)
 *   and Astro's `Invalid content reference` line.
 * Anything else gives undefined: the caller says the build failed, without details.
 */

type Agreement = 'm' | 'f' | 'mp' | 'fp';
interface Field {
  /** With its article: « le titre », « la date de publication », « les auteurs ». */
  label: string;
  agreement: Agreement;
}

const f = (label: string, agreement: Agreement = 'm'): Field => ({ label, agreement });

/** The fields of src/lib/content-schemas.ts, by name (the last named segment of the path). */
const FIELDS: Record<string, Field> = {
  title: f('le titre'),
  lead: f('le chapô'),
  description: f('la description', 'f'),
  summary: f('le résumé'),
  published: f('la date de publication', 'f'),
  pubDate: f('la date de publication', 'f'),
  updated: f('la date de mise à jour', 'f'),
  authors: f('les auteurs', 'mp'),
  tags: f('les mots-clés', 'mp'),
  dossier: f('le dossier'),
  category: f('la rubrique', 'f'),
  cover: f('l’image de couverture', 'f'),
  image: f('l’image', 'f'),
  photo: f('le portrait'),
  draft: f('la case « brouillon »', 'f'),
  slug: f('l’identifiant dans l’adresse (slug)'),
  scheme: f('le type de contenu'),
  video: f('la vidéo', 'f'),
  provider: f('l’hébergeur de la vidéo'),
  instance: f('l’adresse de l’instance PeerTube', 'f'),
  duration: f('la durée', 'f'),
  chapters: f('le sommaire (chapitres)'),
  name: f('le nom'),
  role: f('la fonction', 'f'),
  bio: f('la biographie', 'f'),
  label: f('le libellé'),
  featured: f('la mise en avant', 'f'),
  stories: f('la liste des contenus', 'f'),
  itunesCategory: f('la catégorie Apple Podcasts', 'f'),
  itunesSubcategory: f('la sous-catégorie Apple Podcasts', 'f'),
  explicit: f('la mention « contenu explicite »', 'f'),
  apps: f('les applications de podcasts', 'fp'),
  applePodcasts: f('la page Apple Podcasts', 'f'),
  spotify: f('la page Spotify', 'f'),
  others: f('les autres applications', 'fp'),
  url: f('l’adresse', 'f'),
  podcast: f('le podcast'),
  content_folder_url: f('le dossier du fichier audio'),
  filename: f('le nom du fichier audio'),
  size: f('la taille du fichier audio', 'f'),
  type: f('le type du fichier audio'),
};

/** A field's meaning in one collection only. */
const COLLECTION_FIELDS: Record<string, Record<string, Field>> = {
  tags: { scheme: f('la famille du mot-clé', 'f') },
  categories: { scheme: f('le type de contenus de la rubrique') },
  dossiers: { stories: f('la liste des articles du dossier', 'f') },
};

/** « du portrait », « de l’image de couverture »: a parent field after « de ». */
const of = (field: Field): string =>
  field.label
    .replace(/^le /, 'du ')
    .replace(/^les /, 'des ')
    .replace(/^(la |l’)/, 'de $1');

const ILLUSTRATION_PARTS: Record<string, (parent: Field) => Field> = {
  src: (p) => f(`le fichier ${of(p)}`),
  alt: (p) => f(`le texte alternatif ${of(p)}`),
  credit: (p) => f(`le crédit ${of(p)}`),
};

/** What one item of a list is called: « l’auteur n° 2 ». */
const ITEMS: Record<string, string> = { authors: 'l’auteur', tags: 'le mot-clé', chapters: 'le chapitre', stories: 'le contenu', others: 'l’application' };

/** A field path (`cover.alt`, `authors.0`, `authors[0]`, `chapters.1.start`) in the editors' words. */
export function fieldName(path: string, collection?: string): Field {
  const parts = path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter(Boolean);
  if (parts.length === 0) return f('l’entrée', 'f');
  const named = (name: string) => (collection ? COLLECTION_FIELDS[collection]?.[name] : undefined) ?? FIELDS[name];
  const last = parts.at(-1)!;
  const index = /^\d+$/.test(last) ? Number(last) : undefined;
  if (index !== undefined) {
    const list = parts.at(-2) ?? '';
    return f(`${ITEMS[list] ?? `l’élément de ${named(list)?.label ?? `« ${list} »`}`} n° ${index + 1}`);
  }
  const parentName = parts.length > 1 ? parts.at(-2)! : undefined;
  if (parentName && /^\d+$/.test(parentName) && parts.at(-3) === 'chapters') {
    const chapter = Number(parentName) + 1;
    return last === 'start' ? f(`le début du chapitre ${chapter}`) : f(`le titre du chapitre ${chapter}`);
  }
  if (parentName && ILLUSTRATION_PARTS[last] && named(parentName)) return ILLUSTRATION_PARTS[last](named(parentName)!);
  if (parentName === 'video' && last === 'id') return f('l’identifiant de la vidéo');
  return named(last) ?? f(`le champ « ${parts.join('.')} »`);
}

/** The entry, as the start of a sentence: « L’article « mon-article » ». */
export function entryName(collection: string, id: string): string {
  const [head, ...rest] = id.split('/');
  const tail = rest.join('/');
  switch (collection) {
    case 'stories':
      if (head === 'articles' && tail) return `L’article « ${tail} »`;
      if (head === 'emissions' && tail) return `L’émission « ${tail} »`;
      if (head === 'breves' && tail) return `La brève « ${tail} »`;
      return `Le contenu « ${id} »`;
    case 'episodes':
      return tail ? `L’épisode « ${tail} » du podcast « ${head} »` : `L’épisode « ${id} »`;
    case 'authors':
      return `La fiche de l’auteur « ${id} »`;
    case 'tags':
      return `Le mot-clé « ${id} »`;
    case 'categories':
      return `La rubrique « ${id} »`;
    case 'dossiers':
      return `Le dossier « ${id} »`;
    case 'podcasts':
      return `Le podcast « ${id} »`;
    case 'pages':
      return `La page « ${id} »`;
    default:
      return `L’entrée « ${id} » de la collection « ${collection} »`;
  }
}

const agree = (field: Field, forms: Record<Agreement, string>) => forms[field.agreement];
const is = (field: Field) => (field.agreement.endsWith('p') ? 'sont' : 'est');
const isNot = (field: Field) => (field.agreement.endsWith('p') ? 'ne sont pas' : 'n’est pas');
const must = (field: Field) => (field.agreement.endsWith('p') ? 'doivent' : 'doit');

/** A zod type, as in « devrait être du texte, pas un nombre ». */
const TYPES: Record<string, string> = {
  string: 'du texte',
  'chaîne de caractères': 'du texte',
  number: 'un nombre',
  nombre: 'un nombre',
  int: 'un nombre entier',
  bigint: 'un nombre entier',
  boolean: 'oui ou non (true ou false)',
  booléen: 'oui ou non (true ou false)',
  array: 'une liste',
  tableau: 'une liste',
  object: 'un ensemble de champs',
  objet: 'un ensemble de champs',
  date: 'une date',
  null: 'une valeur vide',
  nul: 'une valeur vide',
};
const typeName = (raw: string) => TYPES[raw.replace(/["`]/g, '').trim()] ?? `« ${raw.replace(/["`]/g, '').trim()} »`;

const REFERENCED: Record<string, string> = {
  authors: 'l’auteur',
  author: 'l’auteur',
  tags: 'le mot-clé',
  tag: 'le mot-clé',
  dossiers: 'le dossier',
  dossier: 'le dossier',
  categories: 'la rubrique',
  category: 'la rubrique',
  stories: 'le contenu',
  story: 'le contenu',
  podcasts: 'le podcast',
  podcast: 'le podcast',
};

const values = (list: string) =>
  list
    .split(/\s*\|\s*/)
    .map((v) => v.replace(/["`]/g, '').trim())
    .filter(Boolean)
    .map((v) => `« ${v} »`)
    .join(', ');

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1);

/** One zod issue (Astro's English, zod's English or its French locale), as a French clause. */
export function issueClause(path: string, message: string, collection?: string): string {
  const field = fieldName(path, collection);
  const text = message.replaceAll('**', '').replace(/\s+/g, ' ').trim();
  let m: RegExpExecArray | null;
  if (
    /^Required$/i.test(text) ||
    /(received|reçu) ?[`"]?(undefined|indéfini)[`"]?( reçu)?$/i.test(text) ||
    /^Entrée invalide : .* attendu, indéfini reçu$/.test(text)
  ) {
    return `${field.label} ${is(field)} ${agree(field, { m: 'manquant', f: 'manquante', mp: 'manquants', fp: 'manquantes' })}`;
  }
  if ((m = /^Unrecognized keys?: (.+)$/i.exec(text) ?? /^Clés? non reconnues? ?: (.+)$/i.exec(text))) {
    const keys = m[1]!.split(/,\s*/).map((k) => k.replace(/["`]/g, '').trim());
    const where = path ? ` dans ${field.label}` : '';
    return keys.length === 1
      ? `le champ « ${keys[0]} »${where} n’est pas prévu (une faute de frappe ?)`
      : `les champs ${keys.map((k) => `« ${k} »`).join(', ')}${where} ne sont pas prévus (une faute de frappe ?)`;
  }
  if (/Expected type `"date"`/.test(text) || /expected date/i.test(text) || /date attendu/.test(text) || /^Invalid date$/i.test(text)) {
    return `${field.label} ${isNot(field)} une date valide (par exemple 2026-11-23 ou 2026-11-23T10:00:00+01:00)`;
  }
  if (
    (m =
      /Expected type `(.+?)`, received `(.+?)`/.exec(text) ??
      /expected (\w+), received (\w+)/i.exec(text) ??
      /^Entrée invalide : (.+?) attendu, (.+?) reçu$/.exec(text))
  ) {
    return `${field.label} ${field.agreement.endsWith('p') ? 'devraient' : 'devrait'} être ${typeName(m[1]!)}, pas ${typeName(m[2]!)}`;
  }
  if ((m = /(?:Too big|Trop grand)\b.*?(?:string|chaîne de caractères).*?<=?\s*(\d+)/i.exec(text))) {
    return `${field.label} ${is(field)} trop ${agree(field, { m: 'long', f: 'longue', mp: 'longs', fp: 'longues' })} (${m[1]} caractères au plus)`;
  }
  if ((m = /(?:Too small|Trop petit)\b.*?(?:string|chaîne de caractères).*?>=?\s*(\d+)/i.exec(text))) {
    return `${field.label} ${is(field)} trop ${agree(field, { m: 'court', f: 'courte', mp: 'courts', fp: 'courtes' })} (au moins ${m[1]} caractères)`;
  }
  if ((m = /(?:Too small|Trop petit)\b.*?(?:array|tableau|set).*?>=?\s*(\d+)/i.exec(text))) {
    const list = field.agreement.endsWith('p') ? `la liste ${of(field)}` : field.label;
    return Number(m[1]) <= 1 ? `${list} est vide (il en faut au moins un)` : `${list} compte trop peu d’éléments (au moins ${m[1]})`;
  }
  if ((m = /(?:Too big|Trop grand)\b.*?(?:array|tableau|set).*?<=?\s*(\d+)/i.exec(text))) {
    const list = field.agreement.endsWith('p') ? `la liste ${of(field)}` : field.label;
    return `${list} compte trop d’éléments (${m[1]} au plus)`;
  }
  if ((m = /(?:Too small|Trop petit)\b.*?(>=?)\s*(-?[\d.]+)/i.exec(text))) {
    return m[1] === '>'
      ? `${field.label} ${must(field)} être ${agree(field, { m: 'supérieur', f: 'supérieure', mp: 'supérieurs', fp: 'supérieures' })} à ${m[2]}`
      : `${field.label} ${must(field)} valoir au moins ${m[2]}`;
  }
  if ((m = /(?:Too big|Trop grand)\b.*?(<=?)\s*(-?[\d.]+)/i.exec(text))) {
    return m[1] === '<'
      ? `${field.label} ${must(field)} être ${agree(field, { m: 'inférieur', f: 'inférieure', mp: 'inférieurs', fp: 'inférieures' })} à ${m[2]}`
      : `${field.label} ${must(field)} valoir au plus ${m[2]}`;
  }
  if (
    (m =
      /Invalid (?:option|enum value|input): expected one of (.+?)(?:, received .*)?$/i.exec(text) ??
      /Option invalide : une valeur parmi (.+) attendue/.exec(text) ??
      /> Expected `\w+` to be (.+?)(?: > Received|$)/.exec(text))
  ) {
    return `${field.label} n’a pas une valeur prévue (valeurs possibles : ${values(m[1]!)})`;
  }
  if (/Did not match union|^Entrée invalide$|^Invalid input$/i.test(text)) {
    return `${field.label} ne correspond à aucune des formes prévues`;
  }
  if ((m = /^(.+?) does not exist in collection (\w+)/.exec(text) ?? /references "(.+?)" in collection "(\w+)", but that entry does not exist/.exec(text))) {
    return `${REFERENCED[m[2]!] ?? 'l’entrée'} « ${m[1]} » n’existe pas${path && /\d\]?$/.test(path) ? ` (${fieldName(path, collection).label})` : ''}`;
  }
  if (/Invalid (string|url|URL|email)|must match pattern|Chaîne invalide|format invalide/i.test(text)) {
    return `${field.label} n’${field.agreement.endsWith('p') ? 'ont' : 'a'} pas la forme attendue`;
  }
  // The schemas' own messages are French already (« Un slug ne contient que… »).
  if (/[àâçéèêëîïôûùœ’«]/i.test(text) || /^(Un|Une|Les|Le|La|Il|Elle|Chaque)\b/.test(text)) {
    return `${field.label} : ${lowerFirst(text.replace(/\.$/, ''))}`;
  }
  return `${field.label} ${isNot(field)} ${agree(field, { m: 'valide', f: 'valide', mp: 'valides', fp: 'valides' })}`;
}

const sentence = (entry: string, clauses: string[]) => `${entry} : ${clauses.join(' ; ')}.`;

/** Astro's InvalidContentEntryDataError, its header and the issue lines under it. */
function schemaError(log: string): string | undefined {
  const lines = log.split('\n');
  const at = lines.findLastIndex((l) => /data does not match collection schema/.test(l));
  if (at < 0) return undefined;
  const header = /(\S+) → (.+?) data does not match collection schema/.exec(lines[at]!.replaceAll('**', ''));
  if (!header) return undefined;
  const [, collection, id] = header as unknown as [string, string, string];
  const issues: { path: string; message: string }[] = [];
  for (const raw of lines.slice(at + 1)) {
    const line = raw.replaceAll('**', '').trim();
    if (!line) continue;
    if (/^(Hint|Error reference|Location|Stack trace|at )\b/i.test(line) || /^\[\w+\]/.test(line)) break;
    if (line.startsWith('>') && issues.length > 0) {
      issues.at(-1)!.message += ` ${line}`;
      continue;
    }
    const issue = /^([\w.[\]-]*): (?:\1: )?(.+)$/.exec(line);
    if (!issue) break;
    issues.push({ path: issue[1]!, message: issue[2]! });
  }
  const entry = entryName(collection, id);
  if (issues.length === 0) return `${entry} ne correspond pas au modèle attendu : vérifiez ses champs.`;
  return sentence(
    entry,
    issues.map((i) => issueClause(i.path, i.message, collection)),
  );
}

/** The content API loader's refusal (src/lib/content-source/errors.ts), already French, in the newsroom's words. */
function sourceRefusal(log: string): string | undefined {
  const m = /Contenu refusé \(collection « (\w+) », entrée « ([^»]+?) »(?:, champ « ([^»]+?) »)?\) : (.+)/.exec(log);
  if (!m) return undefined;
  const [, collection, id, path, rest] = m as unknown as [string, string, string, string | undefined, string];
  const others = /^(.*?) \(et (\d+) autres? erreurs? : (.+)\)\s*$/.exec(rest.trim());
  const message = others ? others[1]! : rest.trim();
  const clause =
    path === undefined && !/^(Trop|Entrée invalide|Option invalide|Clé)/.test(message)
      ? lowerFirst(message.replace(/\.$/, ''))
      : issueClause(path ?? '', message, collection);
  const more = others
    ? ` (et ${others[2]} autre${Number(others[2]) > 1 ? 's' : ''} erreur${Number(others[2]) > 1 ? 's' : ''} : ${others[3]!
        .split(', ')
        .map((p) => (p === 'entrée' ? 'l’entrée' : fieldName(p, collection).label))
        .join(', ')})`
    : '';
  return sentence(entryName(collection, id), [`${clause}${more}`.replace(/\.$/, '')]);
}

/** The corpus checks of src/lib/corpus.ts, and Astro's check of references. */
function corpusError(log: string): string | undefined {
  let m = /Content error in (\w+)\/(\S+?): (.+)/.exec(log);
  if (m) {
    const [, collection, id, problem] = m as unknown as [string, string, string, string];
    const entry = entryName(collection, id);
    let p: RegExpExecArray | null;
    if ((p = /^unknown (\w+) "(.+?)"/.exec(problem))) return sentence(entry, [`${REFERENCED[p[1]!] ?? 'l’entrée'} « ${p[2]} » n’existe pas`]);
    if ((p = /^category "(.+?)" belongs to (\w+), not (\w+)/.exec(problem)))
      return sentence(entry, [`la rubrique « ${p[1]} » est une rubrique des ${p[2]}, pas des ${p[3]}`]);
    if ((p = /^listed by dossier "(.+?)" but its dossier field says "(.*?)"/.exec(problem))) {
      return sentence(entry, [
        p[2]
          ? `le dossier « ${p[1]} » le liste, mais son champ dossier indique « ${p[2]} »`
          : `le dossier « ${p[1]} » le liste, mais son champ dossier est vide`,
      ]);
    }
    if ((p = /^names dossier "(.+?)" which does not list it/.exec(problem))) return sentence(entry, [`il indique le dossier « ${p[1]} », qui ne le liste pas`]);
    if ((p = /^"(.+?)" is not a podcast category/.exec(problem))) return sentence(entry, [`« ${p[1]} » n’est pas une catégorie de podcast`]);
    return `${entry} n’a pas pu être publié tel quel : vérifiez ses champs.`;
  }
  m = /Invalid content reference: entry "(.+?)" in collection "(\w+)"(?: \(field: (.+?)\))? references "(.+?)" in collection "(\w+)"/.exec(log);
  if (m)
    return sentence(entryName(m[2]!, m[1]!), [issueClause(m[3] ?? '', `references "${m[4]}" in collection "${m[5]}", but that entry does not exist`, m[2])]);
  return undefined;
}

/** A transcript refused at build (src/lib/transcripts.ts): its message is already the editors' French, naming the entry and the cue. */
function transcriptError(log: string): string | undefined {
  return /Transcription refusée pour [^\n]*?\.(?=\s|$)/.exec(log)?.[0];
}

/**
 * The cause of a failed build for the editors, in French, naming the entry and its field; undefined
 * when the log names no content at fault.
 */
export function explainBuildFailure(log: string): string | undefined {
  return schemaError(log) ?? sourceRefusal(log) ?? corpusError(log) ?? transcriptError(log);
}
