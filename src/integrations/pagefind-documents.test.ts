import { describe, expect, it } from 'vitest';
import { documentsOf, indexableText, pageFile, pageUrl, searchRecords } from './pagefind-documents';

const page = (body: string) =>
  `<!DOCTYPE html><html lang="fr" data-at-top><head><title>T</title><meta http-equiv="content-security-policy" content="script-src 'self'"></head><body>${body}</body></html>`;

describe('page URLs', () => {
  it('are the canonical ones, without index.html or a trailing slash', () => {
    expect(pageUrl('index.html')).toBe('/');
    expect(pageUrl('articles/2026/x/index.html')).toBe('/articles/2026/x');
    expect(pageUrl('faq/index.html')).toBe('/faq');
    expect(pageUrl('404.html')).toBe('/404');
    expect(pageUrl('dossiers\\eau\\index.html')).toBe('/dossiers/eau');
  });
});

describe('indexable text', () => {
  it('uses the ASCII apostrophe, where Pagefind splits elided words', () => {
    expect(indexableText('<p>L’école d&rsquo;Orléans, l&#8217;eau</p>')).toBe("<p>L'école d'Orléans, l'eau</p>");
  });

  it('separates adjacent elements, but not the parts of a word', () => {
    expect(indexableText('<p><span>Par <a>Léa</a></span><span>Climat</span></p>')).toBe('<p><span>Par <a>Léa</a></span> <span>Climat</span></p>');
    expect(indexableText('<p>le 1<sup>er</sup> janvier, <em>in</em>dispensable</p>')).toBe('<p>le 1<sup>er</sup> janvier, <em>in</em>dispensable</p>');
  });
});

describe('documents of a built page', () => {
  it('indexes a page with a marked body, from its <main> only', () => {
    const docs = documentsOf(
      'faq/index.html',
      page(
        '<header>Menu</header><main id="contenu"><article data-pagefind-body><h1>Questions fréquentes</h1><p>L’abonnement</p></article></main><footer>Pied</footer>',
      ),
    );
    expect(docs).toEqual([
      {
        url: '/faq',
        content: `<!doctype html><html lang="fr"><body><main id="contenu"><article data-pagefind-body><h1>Questions fréquentes</h1> <p>L'abonnement</p></article></main></body></html>`,
      },
    ]);
  });

  it('falls back to the body of a page without <main>, leaving out the head', () => {
    const docs = documentsOf('x/index.html', page('<article data-pagefind-body><h1>X</h1></article>'));
    expect(docs[0]!.content).toBe('<!doctype html><html lang="fr"><body><article data-pagefind-body><h1>X</h1></article></body></html>');
  });

  it('leaves out pages without a marked body (lists, accounts)', () => {
    expect(documentsOf('articles/index.html', page('<h1>Articles</h1><ul><li>…</li></ul>'))).toEqual([]);
  });

  it('makes each record of a list page a document of its own, at its canonical anchor', () => {
    const breve = (slug: string, text: string) =>
      `<article class="breve" id="breve-${slug}" data-search-url="/breves/page/2#breve-${slug}" data-search-kind="Brève"><h2 data-pagefind-meta="title">${slug}</h2><div class="prose"><p>${text}</p></div></article>`;
    const html = page(`<h1>Brèves</h1>${breve('un', 'L’eau')}${breve('deux', 'Une <article>citation</article> imbriquée')}`);
    const docs = documentsOf('breves/page/2/index.html', html);
    expect(docs.map((d) => d.url)).toEqual(['/breves/page/2#breve-un', '/breves/page/2#breve-deux']);
    expect(docs[0]!.content).toMatch(/^<!doctype html><html lang="fr"><body><article data-pagefind-body class="breve" id="breve-un" /);
    expect(docs[0]!.content).toContain("<p>L'eau</p></div></article></body></html>");
    expect(docs[0]!.content).not.toContain('deux');
    expect(docs[1]!.content).toContain('imbriquée</p></div></article></body>');
  });

  it('finds nothing in unbalanced markup rather than swallowing the page', () => {
    expect(searchRecords('<article data-search-url="/x"><p>no end')).toEqual([]);
  });

  it('decodes the record URL', () => {
    expect(searchRecords('<article data-search-url="/a?b=1&amp;c=2#d"></article>')[0]!.url).toBe('/a?b=1&c=2#d');
  });
});

describe('pageFile', () => {
  it('names the file Astro writes for the address it renders, which pageUrl turns back into the address', () => {
    expect(pageFile('/')).toBe('index.html');
    expect(pageFile('/articles/2026/un-titre/')).toBe('articles/2026/un-titre/index.html');
    expect(pageFile('/articles/page/2')).toBe('articles/page/2/index.html');
    expect(pageFile('/tags/%C3%A9cologie/')).toBe('tags/écologie/index.html');
    for (const url of ['/', '/articles/2026/un-titre', '/tags/écologie']) expect(pageUrl(pageFile(`${url}/`.replace('//', '/')))).toBe(url);
  });
});
