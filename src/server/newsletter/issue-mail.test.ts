import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import { BRAND } from '../mail/layout';
import { introHtml, personaliseIssueMail, RECIPIENT_LINKS, renderIssueMail, renderIssueWebBody, type IssueMailInput } from './issue-mail';

const siteUrl = new URL('https://journal.contrechamp.test');
const SITE = 'https://journal.contrechamp.test';
const PREFS = new URL('https://journal.contrechamp.test/mon-compte/lettres?u=42');
const UNSUB = new URL('https://journal.contrechamp.test/mailinglist/unsubscribe?token=tok_abc');

function issue(over: Partial<IssueMailInput> = {}): IssueMailInput {
  return {
    siteUrl,
    newsletter: { id: 'hebdo', name: 'L’Hebdo', description: 'Le meilleur de la semaine.', cadence: 'Chaque samedi matin' },
    number: 12,
    // Friday 23:30 in UTC is already Saturday in Paris.
    date: new Date('2026-11-27T23:30:00Z'),
    subject: 'L’Hebdo n° 12 : la chaleur dans les écoles',
    preheader: 'Trois enquêtes et une émission.',
    intro: 'Bonjour,\n\nCette semaine, **trois enquêtes**. Lisez [notre dossier](/dossiers/chaleur).',
    stories: [
      {
        url: '/articles/ecoles-chaleur',
        title: 'Dans les écoles, 35 °C en classe',
        kicker: 'Enquête',
        lead: 'Nous avons relevé les températures de 40 écoles.',
        image: { src: '/images/ecole.jpg', alt: 'Une salle de classe aux stores baissés' },
      },
      { url: '/emissions/ilots', title: 'Où sont passés les 12 millions ?', kicker: 'Émission', lead: 'Le plan n’a planté que 300 arbres.', image: null },
    ],
    supportBlock: true,
    webUrl: new URL('/lettres/hebdo/12', siteUrl),
    ...over,
  };
}

/** French spacing puts no-break spaces in the text: a reader sees spaces. */
const spaces = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

function dom(markup: string) {
  return parseDocument(markup);
}
const all = (markup: string, tag: string) => DomUtils.getElementsByTagName(tag, dom(markup).children, true);
const links = (markup: string) => all(markup, 'a').map((a) => ({ href: a.attribs['href'] ?? '', text: spaces(DomUtils.textContent(a)).trim() }));
/** The text a reader sees: without the hidden preheader, the <title> and the <style>. */
function visibleText(markup: string): string {
  const doc = dom(markup);
  for (const hidden of DomUtils.findAll((e) => e.name === 'title' || e.name === 'style' || (e.attribs['style'] ?? '').includes('display:none'), doc.children)) {
    DomUtils.removeElement(hidden);
  }
  return spaces(DomUtils.textContent(doc)).replace(/\s+/g, ' ');
}
const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe('renderIssueMail', () => {
  it('shows the newsletter’s name, its number and the Paris date, in French', () => {
    const mail = renderIssueMail(issue());
    const h1 = all(mail.html, 'h1');
    expect(h1.map((h) => DomUtils.textContent(h))).toEqual(['L’Hebdo']);
    expect(visibleText(mail.html)).toContain('n° 12 · samedi 28 novembre 2026');
    expect(spaces(mail.text)).toMatch(/^L’Hebdo — n° 12\nsamedi 28 novembre 2026\n/);
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="fr"/);
    expect(mail.html).toContain('<meta name="color-scheme" content="light">');
  });

  it('offers the web version first, then the intro, the stories and the support block, in that order', () => {
    const mail = renderIssueMail(issue());
    const hrefs = links(mail.html).map((l) => l.href);
    expect(links(mail.html)[0]).toEqual({ href: `${SITE}/lettres/hebdo/12`, text: 'Voir la version en ligne' });
    const order = [
      `${SITE}/dossiers/chaleur`,
      `${SITE}/articles/ecoles-chaleur`,
      `${SITE}/emissions/ilots`,
      `${SITE}/soutenir?source=lettre-hebdo`,
      RECIPIENT_LINKS.preferences,
    ];
    expect(order.map((h) => hrefs.indexOf(h))).toEqual([...order.map((h) => hrefs.indexOf(h))].sort((a, b) => a - b));
    expect(order.every((h) => hrefs.includes(h))).toBe(true);
  });

  it('shows each story as a card: full-width image with its size and alt, kicker, linked title, lead', () => {
    const mail = renderIssueMail(issue());
    const [img, ...others] = all(mail.html, 'img');
    expect(others).toEqual([]); // the second story has no image, and nothing else is an image
    expect(img!.attribs).toMatchObject({ src: `${SITE}/images/ecole.jpg`, alt: 'Une salle de classe aux stores baissés', width: '536', height: '302' });
    // Readable on a 390 px phone: the image shrinks with the column, keeping its proportions.
    expect(img!.attribs['style']).toMatch(/width:100%;max-width:536px;height:auto/);
    const titles = all(mail.html, 'h2').map((h) => ({
      text: spaces(DomUtils.textContent(h)),
      href: DomUtils.getElementsByTagName('a', [h])[0]?.attribs['href'],
    }));
    expect(titles).toEqual([
      { text: 'Dans les écoles, 35 °C en classe', href: `${SITE}/articles/ecoles-chaleur` },
      { text: 'Où sont passés les 12 millions ?', href: `${SITE}/emissions/ilots` },
    ]);
    const kicker = DomUtils.findOne((e) => e.name === 'p' && DomUtils.textContent(e) === 'Enquête', dom(mail.html).children)!;
    expect(kicker.attribs['style']).toContain(`color:${BRAND.green}`);
    expect(kicker.attribs['style']).toContain('text-transform:uppercase');
    expect(visibleText(mail.html)).toContain('Nous avons relevé les températures de 40 écoles.');
  });

  it('is one column at most 600 px wide, scaled for phones', () => {
    const mail = renderIssueMail(issue());
    expect(mail.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    const boxes = all(mail.html, 'table').filter((t) => (t.attribs['style'] ?? '').includes('max-width:600px'));
    expect(boxes.length).toBeGreaterThan(0);
    for (const box of boxes) expect(box.attribs['width']).toBe('100%');
    // No row of the layout holds two cells side by side.
    for (const row of all(mail.html, 'tr')) expect(row.children.filter((c) => 'name' in c && c.name === 'td')).toHaveLength(1);
  });

  it('hides the preheader in the body, as the site’s other mails do', () => {
    const mail = renderIssueMail(issue({ preheader: 'Trois enquêtes et une émission.' }));
    const hidden = DomUtils.findOne((e) => (e.attribs['style'] ?? '').startsWith('display:none'), dom(mail.html).children)!;
    expect(DomUtils.textContent(hidden)).toMatch(/^Trois enquêtes et une émission\./);
    expect(visibleText(mail.html)).not.toContain('Trois enquêtes et une émission');
  });

  it('puts the subject on one line, with French spacing, at most 150 characters', () => {
    expect(renderIssueMail(issue({ subject: 'Canicule: écoles en alerte\r\nBcc: tous@exemple.fr' })).subject).toBe(
      'Canicule\u00a0: écoles en alerte Bcc\u00a0: tous@exemple.fr',
    );
    const long = renderIssueMail(issue({ subject: `${'Une lettre très longue : '.repeat(10)}fin` })).subject;
    expect(long.length).toBeLessThanOrEqual(150);
    expect(long.endsWith('…')).toBe(true);
  });

  it('escapes what editors type: markup shows as text and never becomes an element or attribute', () => {
    const hostile = '<script>alert(1)</script>" onmouseover="alert(2)';
    const mail = renderIssueMail(
      issue({
        subject: `Alerte ${hostile}`,
        preheader: `<b>${hostile}</b>`,
        intro: `Texte ${hostile}\n\n<div onclick="alert(3)">bloc</div>\n\n<img src="https://traceur.example/p.gif" width="1" height="1">`,
        newsletter: { id: 'hebdo', name: `L’Hebdo <i>${hostile}</i>`, description: 'x'.repeat(20), cadence: 'Chaque samedi' },
        stories: [
          {
            url: '/articles/a?x="><script>',
            title: `Titre ${hostile}`,
            kicker: `<em>${hostile}</em>`,
            lead: `Chapô ${hostile}`,
            image: { src: '/images/a.jpg', alt: `Photo ${hostile}` },
          },
        ],
      }),
    );
    const doc = dom(mail.html);
    for (const tag of ['script', 'div', 'b', 'i', 'em']) {
      expect(DomUtils.findAll((e) => e.name === tag && (tag !== 'div' || !(e.attribs['style'] ?? '').startsWith('display:none')), doc.children)).toEqual([]);
    }
    expect(DomUtils.findAll((e) => Object.keys(e.attribs).some((a) => a.startsWith('on')), doc.children)).toEqual([]);
    const imgs = all(mail.html, 'img');
    expect(imgs.map((i) => i.attribs['src'])).toEqual([`${SITE}/images/a.jpg`]);
    expect(imgs[0]!.attribs['alt']).toBe(`Photo ${hostile}`);
    // The reader sees what the editor typed, as text.
    const text = visibleText(mail.html);
    expect(text).toContain(`Titre ${hostile}`);
    expect(text).toContain(`Texte ${hostile}`);
    expect(text).toContain('<div onclick="alert(3)">bloc</div>');
    expect(all(mail.html, 'title').map((t) => DomUtils.textContent(t))).toEqual([mail.subject]);
    expect(mail.subject).toContain('<script>alert(1)</script>');
  });

  it('builds every link from siteUrl, absolute, and the support link names the newsletter', () => {
    const other = new URL('https://autre-hote.contrechamp.test');
    const mail = renderIssueMail(issue({ siteUrl: other, webUrl: new URL('/lettres/hebdo/12', other), intro: 'Voir [le dossier](dossiers/chaleur).' }));
    const hrefs = links(mail.html).map((l) => l.href);
    const placeholders: string[] = Object.values(RECIPIENT_LINKS);
    for (const href of hrefs.filter((h) => !placeholders.includes(h))) expect(href.startsWith('https://autre-hote.contrechamp.test/')).toBe(true);
    expect(hrefs).toContain('https://autre-hote.contrechamp.test/dossiers/chaleur');
    expect(hrefs).toContain('https://autre-hote.contrechamp.test/soutenir?source=lettre-hebdo');
    expect(all(mail.html, 'img').map((i) => i.attribs['src'])).toEqual(['https://autre-hote.contrechamp.test/images/ecole.jpg']);
    expect(mail.text).toContain('https://autre-hote.contrechamp.test/articles/ecoles-chaleur');
    expect(mail.text).not.toContain(SITE);
  });

  it('refuses story links, images and a web version that would leave the site', () => {
    const story = issue().stories[0]!;
    expect(() => renderIssueMail(issue({ stories: [{ ...story, url: '//ailleurs.example/x' }] }))).toThrow(/sur le site/);
    expect(() => renderIssueMail(issue({ stories: [{ ...story, url: 'javascript:alert(1)' }] }))).toThrow(/sur le site/);
    expect(() => renderIssueMail(issue({ stories: [{ ...story, image: { src: 'https://pixel.example/p.gif', alt: '' } }] }))).toThrow(/sur le site/);
    expect(() => renderIssueMail(issue({ webUrl: new URL('https://ailleurs.example/lettres/hebdo/12') }))).toThrow(/sur le site/);
  });

  it('shows the support block only when asked', () => {
    const support = `${SITE}/soutenir?source=lettre-hebdo`;
    const withIt = renderIssueMail(issue({ supportBlock: true }));
    expect(links(withIt.html).filter((l) => l.href === support)).toEqual([{ href: support, text: 'Je soutiens Contrechamp' }]);
    expect(visibleText(withIt.html)).toContain('Contrechamp ne vit que grâce à ses lectrices et à ses lecteurs');
    expect(spaces(withIt.text)).toContain(`Contrechamp ne vit que grâce à ses lectrices et à ses lecteurs`);
    expect(spaces(withIt.text)).toContain(`Je soutiens Contrechamp : ${support}`);

    const without = renderIssueMail(issue({ supportBlock: false }));
    expect(without.html).not.toContain('/soutenir');
    expect(without.text).not.toContain('/soutenir');
    expect(visibleText(without.html)).not.toContain('ne vit que grâce à ses lectrices');
    expect(without.text).not.toContain('ne vit que grâce à ses lectrices');
  });

  it('says in the footer why the reader gets it, how to leave, who publishes it and that nothing tracks them', () => {
    const mail = renderIssueMail(issue());
    const text = visibleText(mail.html);
    expect(text).toContain('Vous recevez cette lettre parce que votre adresse est inscrite à L’Hebdo.');
    expect(text).toContain('Cette lettre ne contient aucun pixel de suivi : nous ne savons pas si vous l’ouvrez ni sur quoi vous cliquez.');
    expect(text).toContain(BRAND.postalAddress);
    expect(links(mail.html).filter((l) => l.href.includes('\uE000'))).toEqual([
      { href: RECIPIENT_LINKS.preferences, text: 'Gérer mes lettres' },
      { href: RECIPIENT_LINKS.unsubscribe, text: 'Se désinscrire de L’Hebdo' },
    ]);
  });

  it('contracts « à » and « de » before names that start with Le or Les', () => {
    const mail = renderIssueMail(issue({ newsletter: { id: 'coulisses', name: 'Les Coulisses', description: 'x'.repeat(20), cadence: 'Une fois par mois' } }));
    expect(visibleText(mail.html)).toContain('inscrite aux Coulisses.');
    expect(links(mail.html).map((l) => l.text)).toContain('Se désinscrire des Coulisses');
    expect(spaces(mail.text)).toContain(`Se désinscrire des Coulisses : ${RECIPIENT_LINKS.unsubscribe}`);
  });

  it('says the same things in the text part', () => {
    const mail = renderIssueMail(
      issue({ intro: 'Bonjour,\n\nLisez [notre dossier](/dossiers/chaleur) et écrivez à <redaction@contrechamp.media>.\n\n- un\n- deux' }),
    );
    const text = spaces(mail.text);
    expect(text).toContain(`Voir la version en ligne :\n${SITE}/lettres/hebdo/12`);
    expect(text).toContain(`Lisez notre dossier (${SITE}/dossiers/chaleur) et écrivez à redaction@contrechamp.media.`);
    expect(text).toContain('- un\n- deux');
    expect(text).toContain(`ENQUÊTE — Dans les écoles, 35 °C en classe\nNous avons relevé les températures de 40 écoles.\n${SITE}/articles/ecoles-chaleur`);
    expect(text).toContain(`ÉMISSION — Où sont passés les 12 millions ?\nLe plan n’a planté que 300 arbres.\n${SITE}/emissions/ilots`);
    expect(text).toContain('Vous recevez cette lettre parce que votre adresse est inscrite à L’Hebdo.');
    expect(text).toContain(`Gérer mes lettres : ${RECIPIENT_LINKS.preferences}`);
    expect(text).toContain(`Se désinscrire de L’Hebdo : ${RECIPIENT_LINKS.unsubscribe}`);
    expect(text).toContain('Cette lettre ne contient aucun pixel de suivi');
    expect(text).toContain(BRAND.postalAddress);
    expect(text).not.toMatch(/<\/?(p|a|strong|em|ul|li)\b/);
  });

  it('carries no tracking: no tiny image, no image from elsewhere, nothing that differs between two renders', () => {
    const mail = renderIssueMail(issue({ intro: 'Voir ![pixel](https://traceur.example/p.gif) et ![logo](/logo.png)' }));
    const imgs = all(mail.html, 'img');
    expect(imgs).toHaveLength(1); // the one story image; the intro's images keep their words only
    for (const img of imgs) {
      expect(Number(img.attribs['width'])).toBeGreaterThan(1);
      expect(Number(img.attribs['height'])).toBeGreaterThan(1);
    }
    expect(mail.html).not.toContain('traceur.example');
    expect(visibleText(mail.html)).toContain('Voir pixel et logo');
    expect(renderIssueMail(issue({ intro: 'Voir ![pixel](https://traceur.example/p.gif) et ![logo](/logo.png)' }))).toEqual(mail);
  });
});

describe('recipient links', () => {
  it('appear exactly once in each part, and every one is replaced for a recipient', () => {
    const mail = renderIssueMail(issue());
    for (const placeholder of Object.values(RECIPIENT_LINKS)) {
      expect(count(mail.html, placeholder)).toBe(1);
      expect(count(mail.text, placeholder)).toBe(1);
    }
    const copy = personaliseIssueMail(mail, { preferences: PREFS, unsubscribe: UNSUB });
    expect(copy.html).not.toContain('\uE000');
    expect(copy.text).not.toContain('\uE000');
    expect(copy.subject).toBe(mail.subject);
    expect(links(copy.html).filter((l) => l.href === PREFS.href || l.href === UNSUB.href)).toEqual([
      { href: PREFS.href, text: 'Gérer mes lettres' },
      { href: UNSUB.href, text: 'Se désinscrire de L’Hebdo' },
    ]);
    expect(spaces(copy.text)).toContain(`Gérer mes lettres : ${PREFS.href}\nSe désinscrire de L’Hebdo : ${UNSUB.href}\n`);
    // Only the two links change: the rest is the record of what was sent.
    expect(copy.html.replace(PREFS.href.replace('&', '&amp;'), '').replace(UNSUB.href, '')).toBe(
      mail.html.replace(RECIPIENT_LINKS.preferences, '').replace(RECIPIENT_LINKS.unsubscribe, ''),
    );
  });

  it('inserts URLs exactly, escaped in HTML, whatever characters they hold', () => {
    const mail = renderIssueMail(issue());
    const odd = new URL("https://journal.contrechamp.test/lettres?a=1&b=$&c=$'&d=$1");
    const copy = personaliseIssueMail(mail, { preferences: odd, unsubscribe: UNSUB });
    expect(odd.href).toContain('$&');
    expect(copy.html).toContain(`href="https://journal.contrechamp.test/lettres?a=1&amp;b=$&amp;c=$%27&amp;d=$1"`);
    expect(links(copy.html).map((l) => l.href)).toContain(odd.href);
    expect(copy.text).toContain(`: ${odd.href}\n`);
  });

  it('cannot be typed by an editor: a placeholder in any field stays text and never becomes a link', () => {
    const { preferences, unsubscribe } = RECIPIENT_LINKS;
    const mail = renderIssueMail(
      issue({
        subject: `Sujet ${preferences}`,
        preheader: unsubscribe,
        intro: `[Cliquez ici](${preferences}) ou [là](<${unsubscribe}>) : ${preferences}\n\n[ref]: ${unsubscribe}\n\n[encore][ref]`,
        stories: [
          {
            url: `/articles/${preferences}`,
            title: `Titre ${unsubscribe}`,
            kicker: preferences,
            lead: unsubscribe,
            image: { src: `/images/${preferences}.jpg`, alt: unsubscribe },
          },
        ],
      }),
    );
    for (const placeholder of [preferences, unsubscribe]) {
      expect(count(mail.html, placeholder)).toBe(1);
      expect(count(mail.text, placeholder)).toBe(1);
    }
    expect(mail.subject).not.toContain('\uE000');
    const copy = personaliseIssueMail(mail, { preferences: PREFS, unsubscribe: UNSUB });
    expect(
      links(copy.html)
        .filter((l) => l.href === PREFS.href)
        .map((l) => l.text),
    ).toEqual(['Gérer mes lettres']);
    expect(
      links(copy.html)
        .filter((l) => l.href === UNSUB.href)
        .map((l) => l.text),
    ).toEqual(['Se désinscrire de L’Hebdo']);
    expect(count(copy.text, PREFS.href)).toBe(1);
    expect(count(copy.text, UNSUB.href)).toBe(1);
  });

  it('refuses a recipient link that is not a web address', () => {
    expect(() => personaliseIssueMail(renderIssueMail(issue()), { preferences: new URL('javascript:alert(1)'), unsubscribe: UNSUB })).toThrow();
  });
});

describe('introHtml', () => {
  const intro = (markdown: string) => introHtml(markdown, siteUrl);

  it('renders paragraphs, emphasis, strong, lists and blockquotes', () => {
    const out = intro('Un *mot* et un **autre**.\n\n- un\n- deux\n\n1. premier\n2. second\n\n> Une citation');
    expect(out).toBe(
      '<p>Un <em>mot</em> et un <strong>autre</strong>.</p>\n<ul>\n<li>un</li>\n<li>deux</li>\n</ul>\n<ol>\n<li>premier</li>\n<li>second</li>\n</ol>\n<blockquote>\n<p>Une citation</p>\n</blockquote>\n',
    );
  });

  it('demotes headings so the intro never competes with the title: its highest level becomes h2, the rest h3', () => {
    expect(intro('# Un\n\n## Deux\n\n#### Quatre')).toBe('<h2>Un</h2>\n<h3>Deux</h3>\n<h3>Quatre</h3>\n');
    expect(intro('## Deux\n\n### Trois')).toBe('<h2>Deux</h2>\n<h3>Trois</h3>\n');
  });

  it('keeps http, https and mailto links, resolves relative ones on the site, and drops the others', () => {
    const out = links(
      intro(
        '[a](/articles/x) [b](https://exemple.org/p?q=1) [c](mailto:redaction@contrechamp.media) [d](javascript:alert(1)) [e](JaVaScRiPt:alert(1)) [f](data:text/html,x) [g](vbscript:x) [h](<java\tscript:alert(1)>)',
      ),
    );
    expect(links(intro('[a](/articles/x)'))).toEqual([{ href: `${SITE}/articles/x`, text: 'a' }]);
    expect(out).toEqual([
      { href: `${SITE}/articles/x`, text: 'a' },
      { href: 'https://exemple.org/p?q=1', text: 'b' },
      { href: 'mailto:redaction@contrechamp.media', text: 'c' },
    ]);
    // The dropped links keep their words.
    expect(visibleText(intro('[lisez ceci](javascript:alert(1))')).trim()).toBe('lisez ceci');
  });

  it('escapes raw HTML instead of passing it through', () => {
    const out = intro(
      'Avant <script>alert(1)</script> <a href="javascript:x" onclick="y">lien</a>\n\n<iframe src="https://exemple.org"></iframe>\n\n<!-- commentaire -->',
    );
    expect(all(out, 'script')).toEqual([]);
    expect(all(out, 'a')).toEqual([]);
    expect(all(out, 'iframe')).toEqual([]);
    expect(out).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(visibleText(out)).toContain('<!-- commentaire -->');
  });

  it('applies French spacing to the text but not to addresses', () => {
    const out = intro('Attention: à lire [ici](https://exemple.org/a:b?c=1;d=2) !');
    expect(out).toBe('<p>Attention\u00a0: à lire <a href="https://exemple.org/a:b?c=1;d=2">ici</a>\u202f!</p>\n');
  });
});

describe('renderIssueWebBody', () => {
  it('holds the intro, the stories and the support block, without the mail’s layout or any recipient link', () => {
    const body = renderIssueWebBody(issue());
    expect(body).not.toMatch(/<(html|head|body|table|style|title)\b/);
    expect(body).not.toContain('style=');
    expect(body).not.toContain('\uE000');
    expect(body).not.toContain('Voir la version en ligne');
    expect(body).not.toContain('désinscrire');
    expect(links(body).map((l) => l.href)).toEqual([
      `${SITE}/dossiers/chaleur`,
      `${SITE}/articles/ecoles-chaleur`,
      `${SITE}/emissions/ilots`,
      `${SITE}/soutenir?source=lettre-hebdo`,
    ]);
    expect(all(body, 'img').map((i) => i.attribs)).toEqual([
      { src: `${SITE}/images/ecole.jpg`, alt: 'Une salle de classe aux stores baissés', width: '536', height: '302', loading: 'lazy', decoding: 'async' },
    ]);
    expect(visibleText(body)).toContain('Enquête Dans les écoles, 35 °C en classe Nous avons relevé les températures de 40 écoles.');
    expect(renderIssueWebBody(issue({ supportBlock: false }))).not.toContain('soutenir');
  });
});
