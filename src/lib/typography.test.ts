import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NBSP, NNBSP, RULES, frenchHtml, frenchPage, frenchText, frenchTypographyPlugin, typesetResponse } from './typography';

/** Expected strings, readable: `_` is a narrow no-break space, `~` a no-break space. */
const t = (s: string) => s.replace(/_/g, NNBSP).replace(/~/g, NBSP);

describe('French typography, rule by rule', () => {
  it('puts narrow no-break spaces inside guillemets, whatever space was there', () => {
    expect(frenchText('Cantines scolaires : le « durable » qui n’existait pas')).toBe(t('Cantines scolaires~: le «_durable_» qui n’existait pas'));
    expect(frenchText('le «durable» et le « local »')).toBe(t('le «_durable_» et le «_local_»'));
    // A line break in running text is a space: it must not be left as a place to break.
    expect(frenchText('dit «\ndurable\n» ou')).toBe(t('dit «_durable_» ou'));
  });

  it('puts a narrow no-break space before ; ! and ?, inserting it when missing', () => {
    expect(frenchText('Pourquoi ? Parce que ; enfin !')).toBe(t('Pourquoi_? Parce que_; enfin_!'));
    expect(frenchText('Vraiment?! Oui!')).toBe(t('Vraiment_?! Oui_!'));
    expect(frenchText('« Qui paie ? »')).toBe(t('«_Qui paie_?_»'));
  });

  it('puts a no-break space before the colon, inserting it when missing', () => {
    expect(frenchText('Durée : 12 min')).toBe(t('Durée~: 12_min'));
    expect(frenchText('Note: la suite')).toBe(t('Note~: la suite'));
    expect(frenchText('Illustration : Contrechamp')).toBe(t('Illustration~: Contrechamp'));
  });

  it('binds a number to its unit, and the minutes to the hour', () => {
    expect(frenchText('à 20 km de Rennes, 3 t par an')).toBe(t('à 20_km de Rennes, 3_t par an'));
    expect(frenchText('12 octobre 2026 à 6 h 00')).toBe(t('12~octobre 2026 à 6_h_00'));
    expect(frenchText('1 h 02 min, 45 s, 400 MWh')).toBe(t('1_h_02_min, 45_s, 400_MWh'));
    expect(frenchText('20 °C')).toBe(t('20_°C'));
  });

  it('binds a number to the word it counts', () => {
    expect(frenchText('12 millions de repas, 3 milliards, 40 euros')).toBe(t('12~millions de repas, 3~milliards, 40~euros'));
  });

  it('puts a narrow no-break space before %, inserting it when missing', () => {
    expect(frenchText('54 % de produits, dont 21% de bio, 2,1 %')).toBe(t('54_% de produits, dont 21_% de bio, 2,1_%'));
  });

  it('puts a no-break space between an amount and its currency', () => {
    expect(frenchText('6,80 € par mois, 7€, 3 M€')).toBe(t('6,80~€ par mois, 7~€, 3~M€'));
  });

  it('groups digits with narrow no-break spaces, and leaves years and codes alone', () => {
    expect(frenchText('7 400 repas, 1 234 567 euros')).toBe(t('7_400 repas, 1_234_567~euros'));
    expect(frenchText('En 2024, 1912 références')).toBe('En 2024, 1912 références');
    expect(frenchText('en 2026 200 personnes')).toBe('en 2026 200 personnes');
    expect(frenchText('IBAN FR14 2004 1010 0505 0001 3M02 606')).toBe('IBAN FR14 2004 1010 0505 0001 3M02 606');
    expect(frenchText('01 42 12 34 56')).toBe('01 42 12 34 56');
  });

  it('keeps the day with its month', () => {
    expect(frenchText('le 1er octobre et le 12 mai')).toBe(t('le 1er~octobre et le 12~mai'));
  });

  it('keeps n° and § with their number', () => {
    expect(frenchText('facture n° 12, n°13, § 4')).toBe(t('facture n°~12, n°~13, §~4'));
  });

  it('has a test above for every rule', () => {
    expect(RULES.map((r) => r.name)).toHaveLength(10);
  });
});

describe('French typography leaves alone', () => {
  it('addresses, times and e-mail addresses', () => {
    for (const text of [
      'https://contrechamp.media/activer-cadeau?code=AB12&x=1',
      'www.exemple.fr/page?a=b;c=d',
      'à 19:30, 1:02:05',
      'écrire à lea.moreau@exemple.fr',
      'mailto:redaction@exemple.fr',
      'voir (?) et [!]',
    ]) {
      expect(frenchText(text)).toBe(text);
    }
    expect(frenchText('Voir https://exemple.fr/a?b=c ?')).toBe(t('Voir https://exemple.fr/a?b=c_?'));
    expect(frenchText('Écrivez-nous : lea@exemple.fr !')).toBe(t('Écrivez-nous~: lea@exemple.fr_!'));
  });

  it('text without French punctuation or numbers, unchanged and fast', () => {
    const text = 'Le mot local revient partout, y compris dans les collectivités.';
    expect(frenchText(text)).toBe(text);
  });

  it('text already set right', () => {
    const right = t('Cantines~: le «_durable_»_? 54_%, 6,80~€, 7_400 repas, le 1er~octobre à 6_h_00.');
    expect(frenchText(right)).toBe(right);
  });

  it('changes nothing but spaces, and gives the same text when run twice', () => {
    const piece = fc.constantFrom(
      ' ',
      '\n',
      NBSP,
      NNBSP,
      '«',
      '»',
      ':',
      ';',
      '!',
      '?',
      '%',
      '€',
      ',',
      '.',
      '(',
      ')',
      '/',
      '@',
      'a',
      'é',
      'Z',
      '0',
      '1',
      '7',
      '42',
      '400',
      'km',
      'h',
      'min',
      'octobre',
      '1er',
      'n°',
      'https://x.fr/',
      'euros',
      'M€',
    );
    const texts = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''));
    const letters = (s: string) => s.replace(/[\s\u00a0\u202f]/g, '');
    fc.assert(
      fc.property(texts, (text) => {
        const once = frenchText(text);
        expect(frenchText(once)).toBe(once);
        expect(letters(once)).toBe(letters(text));
      }),
      { numRuns: 2000 },
    );
  });
});

describe('French typography in HTML', () => {
  it('sets the text between tags, across inline elements', () => {
    expect(frenchHtml('<h1>Le « durable » : <em>enquête</em> !</h1>')).toBe(t('<h1>Le «_durable_»~: <em>enquête</em>_!</h1>'));
    expect(frenchHtml('<p><strong>Attention</strong> : le « <a href="/x">lien</a> »</p>')).toBe(
      t('<p><strong>Attention</strong>~: le «_<a href="/x">lien</a>_»</p>'),
    );
  });

  it('never touches attributes, comments, scripts, styles, code, form fields or islands', () => {
    const untouched = [
      '<a href="/rechercher?q=a ; b" title="Durée : 3 min" data-x=\'45 %\'>lien</a>',
      '<!-- Durée : 3 min -->',
      '<script type="application/ld+json">{"headline":"Le « durable » : 45 %"}</script>',
      '<script>if (a < b ? c : d) x = "« »";</script>',
      '<style>.a::before { content: " : "; }</style>',
      '<pre><code>a ? b : c; // 45 %</code></pre>',
      '<textarea name="message">Bonjour ! Voici : 45 %</textarea>',
      '<astro-island uid="1"><p>Durée : <b>3</b> min !</p></astro-island>',
      '<svg viewBox="0 0 1 1"><title>a : b</title></svg>',
    ];
    for (const html of untouched) expect(frenchHtml(html)).toBe(html);
    expect(frenchHtml('<p>a : b</p><code>c : d</code><p>e : f</p>')).toBe(t('<p>a~: b</p><code>c : d</code><p>e~: f</p>'));
    expect(frenchHtml('<astro-island><astro-island>x</astro-island> a : b</astro-island><p>c : d</p>')).toBe(
      t('<astro-island><astro-island>x</astro-island> a : b</astro-island><p>c~: d</p>'),
    );
    // An island's slots are Astro's HTML, kept as is by the browser: typeset.
    expect(frenchHtml('<astro-island><nav>a : b<astro-slot><a href="/p">Qui ?</a><code>x ? y</code></astro-slot> c : d</nav></astro-island>')).toBe(
      t('<astro-island><nav>a : b<astro-slot><a href="/p">Qui_?</a><code>x ? y</code></astro-slot> c : d</nav></astro-island>'),
    );
    expect(frenchHtml('<astro-island><template data-astro-template>Qui ?</template>a : b</astro-island>')).toBe(
      t('<astro-island><template data-astro-template>Qui_?</template>a : b</astro-island>'),
    );
  });

  it('reads entities, and writes back only the text nodes it changed', () => {
    expect(frenchHtml('<p>L&#39;enquête&nbsp;: R&amp;D &laquo; durable &raquo; ?</p>')).toBe(t("<p>L'enquête~: R&amp;D «_durable_»_?</p>"));
    expect(frenchHtml('<p>a &lt; b &amp;c ; d</p>')).toBe(t('<p>a &lt; b &amp;c_; d</p>'));
    // An entity the rules do not know stays as written.
    expect(frenchHtml('<p>&copy; Contrechamp : 2026</p>')).toBe(t('<p>&copy; Contrechamp~: 2026</p>'));
    const unchanged = '<p>L&#39;enquête &amp; la suite</p>';
    expect(frenchHtml(unchanged)).toBe(unchanged);
  });

  it('is idempotent on a whole page', () => {
    const page =
      '<!doctype html><html lang="fr"><head><title>Le « durable » : enquête</title><meta name="description" content="Le « durable » : 45 %"></head><body><main><h1>Le « durable » ?</h1><p>54 % de 7 400 repas : 6,80 €.</p></main></body></html>';
    const once = frenchHtml(page);
    expect(once).toContain(t('<title>Le «_durable_»~: enquête</title>'));
    expect(once).toContain('content="Le « durable » : 45 %"');
    expect(frenchHtml(once)).toBe(once);
  });
});

describe('the Markdown plugin', () => {
  // A hast tree as Sätteri hands its nodes over, with their parents.
  const p = { type: 'element', tagName: 'p' };
  const code = { type: 'element', tagName: 'code' };
  const pre = { type: 'element', tagName: 'pre' };
  const parents = new Map<object, object>([[code, pre]]);
  const child = (node: { type: 'text'; value: string }, parent: object) => (parents.set(node, parent), node);
  const ctx = { parent: (node: object) => parents.get(node) as never };

  it('sets text, and leaves code as written', () => {
    expect(frenchTypographyPlugin.text(child({ type: 'text', value: 'Le « durable » : 54 %' }, p), ctx)).toEqual({
      type: 'text',
      value: t('Le «_durable_»~: 54_%'),
    });
    expect(frenchTypographyPlugin.text(child({ type: 'text', value: 'a ? b : c' }, code), ctx)).toBeUndefined();
    expect(frenchTypographyPlugin.text(child({ type: 'text', value: 'rien à changer' }, p), ctx)).toBeUndefined();
  });

  it('sets raw HTML between its tags only', () => {
    expect(frenchTypographyPlugin.raw({ type: 'raw', value: '<span title="a : b">c : d</span>' })).toEqual({
      type: 'raw',
      value: t('<span title="a : b">c~: d</span>'),
    });
  });
});

describe('pages on their way out', () => {
  it('are typeset when they are HTML, with their status and headers', async () => {
    const page = new Response('<p>Durée : 3 min</p>', {
      status: 422,
      headers: { 'Content-Type': 'text/html; charset=utf-8', 'Set-Cookie': 'a=1', 'Content-Length': '24' },
    });
    const out = await typesetResponse(page);
    expect(await out.text()).toBe(t('<p>Durée~: 3_min</p>'));
    expect(out.status).toBe(422);
    expect(out.headers.get('set-cookie')).toBe('a=1');
    expect(out.headers.get('content-length')).toBeNull();
  });

  it('leave feeds, JSON and redirects as they are', async () => {
    for (const response of [
      new Response('<title>Durée : 3 min</title>', { headers: { 'Content-Type': 'application/rss+xml' } }),
      new Response('{"a":"b : c"}', { headers: { 'Content-Type': 'application/json' } }),
      Response.redirect('http://localhost/x', 303),
    ]) {
      expect(await typesetResponse(response)).toBe(response);
    }
  });

  // The layout's part of a page is kept once typeset (frenchPage): the page must come out as if
  // typeset whole, whatever its own part holds, on the first request and on the next ones.
  const layout = (main: string, head = '') =>
    `<!doctype html><html><head><title>Mon compte : Contrechamp</title>${head}</head><body><nav>Contact : ici</nav>` +
    `<main id="contenu" tabindex="-1">${main}</main><footer>© 2026 : 45 %</footer></body></html>`;

  it('come out as if typeset whole when the layout is kept', () => {
    for (const main of ['<p>Bonjour Léa !</p>', '<p>Vous payez 6,80 € : merci</p>', '<astro-island><p>a : b</p></astro-island><p>c : d</p>']) {
      const page = layout(main);
      expect(frenchPage(page)).toBe(frenchHtml(page));
      expect(frenchPage(page)).toBe(frenchHtml(page));
    }
    expect(frenchPage(layout('<p>x</p>'))).toContain(t('<footer>© 2026~: 45_%</footer>'));
    expect(frenchPage(layout('<p>x</p>'))).toContain(t('<nav>Contact~: ici</nav>'));
  });

  it('are typeset whole when a cut would fall inside a script, a comment or an island', () => {
    const cases = [
      layout('<p>a : b</p>', '<script type="application/ld+json">{"x": "<main id=\\"contenu\\">"}</script>'),
      layout('<p>a : b</p>', '<!-- <main id="contenu"> -->'),
      `<p>a : b</p><astro-island><main id="contenu"><p>c : d</p></main></astro-island><p>e : f</p>`,
      `<p>a : b</p><main id="contenu"><astro-island><p>c : d</p></main><p>e : f</p>`,
    ];
    for (const page of cases) {
      expect(frenchPage(page)).toBe(frenchHtml(page));
      expect(frenchPage(page)).toBe(frenchHtml(page));
    }
  });

  it('are typeset whole when the layout is not there', () => {
    const page = '<p>Durée : 3 min</p>';
    expect(frenchPage(page)).toBe(t('<p>Durée~: 3_min</p>'));
  });
});
