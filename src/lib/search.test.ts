import { describe, expect, it } from 'vitest';
import { NO_FILTERS, excerptParts, normaliseQuery, readSearchParams, resultsLabel, searchUrl, typeset } from './search';

describe('search queries', () => {
  it('trims and collapses spaces, keeps accents, and uses the index’s apostrophe', () => {
    expect(normaliseQuery('  l’école   publique \n')).toBe("l'école publique");
    expect(normaliseQuery('electricite')).toBe('electricite');
    // A decomposed "é" (as some keyboards send it) is composed.
    expect(normaliseQuery('e\u0301cole')).toBe('école');
    expect(normaliseQuery('   ')).toBe('');
    expect(normaliseQuery('a'.repeat(500))).toHaveLength(200);
  });
});

describe('excerpts', () => {
  it('keeps Pagefind’s highlights and nothing else as markup', () => {
    expect(excerptParts('la <mark>réforme</mark> des retraites')).toEqual([
      { text: 'la ', mark: false },
      { text: 'réforme', mark: true },
      { text: ' des retraites', mark: false },
    ]);
  });

  it('gives back the page’s text, escaped markup included, as plain text', () => {
    const parts = excerptParts('un &lt;script&gt;alert(1)&lt;/script&gt; et <mark>&lt;b&gt;</mark> & co');
    expect(parts).toEqual([
      { text: 'un <script>alert(1)</script> et ', mark: false },
      { text: '<b>', mark: true },
      { text: ' & co', mark: false },
    ]);
  });

  it('prints the typographic apostrophe that the index replaced', () => {
    expect(excerptParts("<mark>l'électricité</mark> d'origine")).toEqual([
      { text: 'l’électricité', mark: true },
      { text: ' d’origine', mark: false },
    ]);
    expect(typeset("Fin de l'Arenh")).toBe('Fin de l’Arenh');
  });

  it('puts back the no-break spaces of French typography, which the index drops', () => {
    expect(typeset('Cantines scolaires : le « durable » ?')).toBe('Cantines scolaires\u00a0: le «\u202fdurable\u202f»\u202f?');
    expect(excerptParts('déclarés « <mark>durables</mark> » au titre de 54 %')).toEqual([
      { text: 'déclarés «\u202f', mark: false },
      { text: 'durables', mark: true },
      { text: '\u202f» au titre de 54\u202f%', mark: false },
    ]);
  });

  it('merges adjacent highlights and survives stray tags', () => {
    expect(excerptParts('<mark>eau</mark><mark>x</mark>')).toEqual([{ text: 'eaux', mark: true }]);
    expect(excerptParts('</mark>texte')).toEqual([{ text: 'texte', mark: false }]);
    expect(excerptParts('')).toEqual([]);
  });
});

describe('the search page’s address', () => {
  it('round-trips a query and filters', () => {
    const url = searchUrl('école rurale', { kinds: ['Article', 'Brève'], year: '2026' });
    expect(url).toBe('/rechercher?q=%C3%A9cole+rurale&type=Article&type=Br%C3%A8ve&annee=2026');
    expect(readSearchParams(url.slice(url.indexOf('?')))).toEqual({ query: 'école rurale', filters: { kinds: ['Article', 'Brève'], year: '2026' } });
    expect(searchUrl('', NO_FILTERS)).toBe('/rechercher');
  });

  it('ignores unknown kinds and malformed years', () => {
    expect(readSearchParams('?q=eau&type=Recette&type=Article&type=Article&annee=deux')).toEqual({
      query: 'eau',
      filters: { kinds: ['Article'], year: '' },
    });
    expect(readSearchParams('')).toEqual({ query: '', filters: NO_FILTERS });
  });
});

describe('result counts', () => {
  it('are said in French', () => {
    expect(resultsLabel(0, 'zzz')).toBe('Aucun résultat pour «\u202fzzz\u202f»');
    expect(resultsLabel(1, 'eau')).toBe('1 résultat pour «\u202feau\u202f»');
    expect(resultsLabel(12, 'eau')).toBe('12 résultats pour «\u202feau\u202f»');
    expect(resultsLabel(1250, 'eau')).toBe('1\u202f250 résultats pour «\u202feau\u202f»');
  });
});
