/**
 * The mail of one issue of a newsletter (« L’Hebdo, n° 12 »), and its web version.
 *
 * Rendered once per issue, when the send starts: the result is the record of what was sent.
 * Each recipient's copy then only swaps two per-recipient links in (`personaliseIssueMail`),
 * because re-rendering 100,000 times would cost minutes and could drift from the record.
 *
 * Same look as the site's other mails (src/server/mail/layout.ts), but not through
 * `renderMail`: a newsletter has its own header (name, number, date), story cards, a support
 * block and a footer whose links are placeholders.
 *
 * Every editor value goes through the `html` tag (escaped) and `frenchSpacing`; every link is
 * built from `siteUrl`; story links and images must be on the site, so that no editor mistake
 * (or a copied third-party image) can track readers or send them elsewhere unannounced.
 */
import { formatInTimeZone } from 'date-fns-tz';
import { fr } from 'date-fns/locale';
// Satteri is the CommonMark + GFM parser Astro 7 already runs for every story of the site, so an
// intro reads the same Markdown as the articles; we only take its syntax tree and render an
// allow-list ourselves, so raw HTML can never pass through whatever the parser's options.
import { markdownToMdast, type MdastNode } from 'satteri';
import { BRAND, escapeHtml, frenchSpacing, html, oneLine, siteLink } from '../mail/layout';
import { TIME_ZONE } from '../../lib/dates';

// ---------------------------------------------------------------------------------------------
// API

export interface IssueStory {
  /** Site-relative, like « /articles/slug » (an absolute URL is accepted only on the site). */
  url: string;
  title: string;
  /** « Article », « Émission »… */
  kicker: string;
  /** Plain text, at most 300 characters. */
  lead: string;
  /** Site-relative `src`; cropped 16:9 like the site's teasers. */
  image: { src: string; alt: string } | null;
}

export interface IssueMailInput {
  siteUrl: URL;
  newsletter: { id: string; name: string; description: string; cadence: string };
  /** « n° 12 » */
  number: number;
  /** The send date, shown in Paris time: « samedi 28 novembre 2026 ». */
  date: Date;
  subject: string;
  preheader: string;
  /** Markdown (see `introHtml`). */
  intro: string;
  stories: IssueStory[];
  supportBlock: boolean;
  /** The issue's web version, on the site. */
  webUrl: URL;
}

export interface IssueMailTemplate {
  subject: string;
  html: string;
  text: string;
}

/**
 * The per-recipient placeholders, present exactly once each in both parts of the template.
 * They are wrapped in U+E000, a private-use character that editorial text never holds: every
 * editor value has it deleted before rendering, so no editor can type (or paste) a placeholder
 * that would become a recipient's link, and deleting one character cannot assemble one.
 */
export const RECIPIENT_LINKS = {
  preferences: '\uE000contrechamp-lien-preferences\uE000',
  unsubscribe: '\uE000contrechamp-lien-desinscription\uE000',
} as const;

const PLACEHOLDER_MARK = /\uE000/g;

/** The longest subject, in characters: longer ones are cut with « … ». */
export const SUBJECT_MAX = 150;

/** Sizes of the story images in the mail: the column's width, 16:9 like the site's teasers. */
const IMAGE_WIDTH = 536;
const IMAGE_HEIGHT = Math.round((IMAGE_WIDTH * 9) / 16);

// ---------------------------------------------------------------------------------------------
// Values read by a reader

type Markup = ReturnType<typeof html>;

// Same as layout.ts, which keeps them private: the newsletter must look like the other mails.
const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const TEXT_COLOR = '#1a1a1a';
const MUTED_COLOR = '#555555';
const PAGE_BG = '#f4f4f0';
const RULE_COLOR = '#e2e2dc';
const CARD_BG = '#f7f7f2';

const SUPPORT_TEXT =
  'Contrechamp ne vit que grâce à ses lectrices et à ses lecteurs : abonnements, dons, parts sociales. Sans publicité, notre indépendance ne tient qu’à vous.';
const SUPPORT_LABEL = 'Je soutiens Contrechamp';
const WEB_LABEL = 'Voir la version en ligne';
const PREFERENCES_LABEL = 'Gérer mes lettres';
const NO_TRACKING = 'Cette lettre ne contient aucun pixel de suivi : nous ne savons pas si vous l’ouvrez ni sur quoi vous cliquez.';

/** « samedi 28 novembre 2026 », « mardi 1er décembre 2026 », in Paris time. */
export function issueDate(date: Date): string {
  return formatInTimeZone(date, TIME_ZONE, 'EEEE do MMMM yyyy', { locale: fr });
}

/**
 * « à » or « de » before a newsletter's name, contracted as French requires:
 * « aux Émissions », « des Coulisses », « au Bulletin », but « à L’Hebdo », « de La Quotidienne ».
 */
export function beforeName(preposition: 'à' | 'de', name: string): string {
  const les = /^Les\s+/i.exec(name);
  if (les) return `${preposition === 'à' ? 'aux' : 'des'} ${name.slice(les[0].length)}`;
  const le = /^Le\s+/i.exec(name);
  if (le) return `${preposition === 'à' ? 'au' : 'du'} ${name.slice(le[0].length)}`;
  return `${preposition} ${name}`;
}

const unsubscribeLabel = (name: string) => `Se désinscrire ${beforeName('de', name)}`;
const reasonText = (name: string) => `Vous recevez cette lettre parce que votre adresse est inscrite ${beforeName('à', name)}.`;

// ---------------------------------------------------------------------------------------------
// Input: placeholders removed, links resolved on the site

/** Deletes the placeholders' mark from an editor value (see RECIPIENT_LINKS). */
function scrub(value: string): string {
  return value.replace(PLACEHOLDER_MARK, '');
}

/** A link or an image on the site, absolute; anything that would leave it is refused. */
function onSite(path: string, siteUrl: URL, what: string): URL {
  let url: URL;
  try {
    url = new URL(path, siteUrl);
  } catch {
    throw new Error(`${what} : adresse invalide (${path})`);
  }
  // `//autre.site/x` and `https://autre.site/x` resolve elsewhere: a link must stay on the site.
  if (url.origin !== siteUrl.origin) throw new Error(`${what} : l’adresse doit être sur le site (${path})`);
  return url;
}

interface Issue {
  siteUrl: URL;
  newsletter: IssueMailInput['newsletter'];
  number: number;
  date: string;
  subject: string;
  preheader: string;
  intro: Intro;
  stories: Array<{ url: URL; title: string; kicker: string; lead: string; image: { src: URL; alt: string } | null }>;
  support: URL | null;
  webUrl: URL;
  home: URL;
}

function prepare(input: IssueMailInput): Issue {
  const { siteUrl } = input;
  if (!Number.isInteger(input.number) || input.number < 1) throw new Error(`Numéro de lettre invalide : ${input.number}`);
  if (Number.isNaN(input.date.getTime())) throw new Error('Date d’envoi invalide');
  const newsletter = {
    id: scrub(input.newsletter.id),
    name: scrub(input.newsletter.name),
    description: scrub(input.newsletter.description),
    cadence: scrub(input.newsletter.cadence),
  };
  return {
    siteUrl,
    newsletter,
    number: input.number,
    date: issueDate(input.date),
    subject: subjectLine(scrub(input.subject)),
    preheader: scrub(input.preheader),
    intro: parseIntro(scrub(input.intro), siteUrl),
    stories: input.stories.map((s) => {
      const title = scrub(s.title);
      return {
        url: onSite(scrub(s.url), siteUrl, `Lien de « ${title} »`),
        title,
        kicker: scrub(s.kicker),
        lead: scrub(s.lead),
        image: s.image ? { src: onSite(scrub(s.image.src), siteUrl, `Image de « ${title} »`), alt: scrub(s.image.alt) } : null,
      };
    }),
    support: input.supportBlock ? siteLink(siteUrl, '/soutenir', { source: `lettre-${newsletter.id}` }) : null,
    webUrl: onSite(input.webUrl.href, siteUrl, 'Version en ligne'),
    home: siteLink(siteUrl, '/'),
  };
}

/** One line, French spacing, at most SUBJECT_MAX characters even after the spacing rules. */
function subjectLine(subject: string): string {
  // oneLine first: its \s+ would turn the no-break spaces frenchSpacing inserts back into spaces.
  for (let max = SUBJECT_MAX; ; max--) {
    const line = frenchSpacing(oneLine(subject, max));
    if (line.length <= SUBJECT_MAX) return line;
  }
}

// ---------------------------------------------------------------------------------------------
// Markdown

type Node = MdastNode;

interface Intro {
  root: Node;
  /** Link reference definitions (`[texte][ref]` … `[ref]: /adresse`), by identifier. */
  definitions: Map<string, string>;
  /** The intro's highest heading level (1 for `#`): it becomes an h2, the levels below it h3. */
  topHeading: number;
  siteUrl: URL;
}

function parseIntro(markdown: string, siteUrl: URL): Intro {
  // No front matter (a leading `---` is a rule an editor typed), no footnotes (they would need
  // anchors), no math, no raw-HTML reparsing: raw HTML stays an `html` node, which we escape.
  const root = markdownToMdast(markdown, { position: false, features: { frontmatter: false, gfm: { footnotes: false } } });
  const definitions = new Map<string, string>();
  let topHeading = 6;
  const collect = (node: Node) => {
    if (node.type === 'definition' && !definitions.has(node.identifier)) definitions.set(node.identifier, node.url);
    if (node.type === 'heading') topHeading = Math.min(topHeading, node.depth);
    if ('children' in node) for (const child of node.children as Node[]) collect(child);
  };
  collect(root);
  return { root, definitions, topHeading, siteUrl };
}

/** A link target an intro may use: http, https or mailto; relative ones resolved on the site. */
function safeLink(raw: string, siteUrl: URL): URL | null {
  let url: URL;
  try {
    url = new URL(raw.trim(), siteUrl);
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url : null;
}

function linkTarget(node: Node, intro: Intro): URL | null {
  if (node.type === 'link') return safeLink(node.url, intro.siteUrl);
  if (node.type === 'linkReference') {
    const url = intro.definitions.get(node.identifier);
    return url === undefined ? null : safeLink(url, intro.siteUrl);
  }
  return null;
}

const childrenOf = (node: Node): Node[] => ('children' in node ? (node.children as Node[]) : []);

/** The plain text of a node, as a reader would read it aloud. */
function plain(node: Node): string {
  if (node.type === 'break') return ' ';
  if (node.type === 'image' || node.type === 'imageReference') return node.alt ?? '';
  if ('value' in node && typeof node.value === 'string') return node.value;
  return childrenOf(node).map(plain).join('');
}

/** Inline styles, in the mail only: mail clients drop style sheets, the site's page has its own. */
interface IntroStyles {
  p: string;
  a: string;
  h2: string;
  h3: string;
  list: string;
  li: string;
  blockquote: string;
  hr: string;
  code: string;
  pre: string;
}

const MAIL_INTRO_STYLES: IntroStyles = {
  p: `margin:0 0 16px;${FONT}font-size:16px;line-height:1.6;color:${TEXT_COLOR};`,
  a: `color:${BRAND.green};text-decoration:underline;`,
  h2: `margin:24px 0 12px;${FONT}font-size:20px;line-height:1.3;color:${TEXT_COLOR};`,
  h3: `margin:20px 0 10px;${FONT}font-size:17px;line-height:1.3;color:${TEXT_COLOR};`,
  list: `margin:0 0 16px;padding-left:24px;${FONT}font-size:16px;line-height:1.6;color:${TEXT_COLOR};`,
  li: 'margin:0 0 6px;',
  blockquote: `margin:0 0 16px;padding:2px 0 2px 16px;border-left:4px solid ${BRAND.yellow};color:#333333;`,
  hr: `margin:24px 0;border:0;border-top:1px solid ${RULE_COLOR};height:0;`,
  code: "font-family:Menlo,Consolas,'Courier New',monospace;font-size:14px;background-color:#eeeee8;padding:1px 4px;",
  pre: `margin:0 0 16px;padding:12px;background-color:#eeeee8;font-family:Menlo,Consolas,'Courier New',monospace;font-size:14px;line-height:1.5;white-space:pre-wrap;word-break:break-word;color:${TEXT_COLOR};`,
};

function style(styles: IntroStyles | null, key: keyof IntroStyles): Markup | string {
  return styles ? html` style="${styles[key]}"` : '';
}

function inlineHtml(nodes: Node[], intro: Intro, styles: IntroStyles | null): Markup {
  return html`${nodes.map((node) => inlineNodeHtml(node, intro, styles))}`;
}

function inlineNodeHtml(node: Node, intro: Intro, styles: IntroStyles | null): Markup {
  switch (node.type) {
    case 'text':
      return html`${frenchSpacing(node.value)}`;
    case 'emphasis':
      return html`<em>${inlineHtml(node.children, intro, styles)}</em>`;
    case 'strong':
      return html`<strong>${inlineHtml(node.children, intro, styles)}</strong>`;
    case 'delete':
      return html`<s>${inlineHtml(node.children, intro, styles)}</s>`;
    case 'inlineCode':
      return html`<code${style(styles, 'code')}>${node.value}</code>`;
    case 'break':
      return html`<br>`;
    case 'link':
    case 'linkReference': {
      const url = linkTarget(node, intro);
      const content = inlineHtml(node.children, intro, styles);
      // A link to javascript:, data: or an unknown reference keeps its words, not its target.
      return url ? html`<a href="${url.href}"${style(styles, 'a')}>${content}</a>` : content;
    }
    case 'image':
    case 'imageReference':
      // Images in the intro would load from anywhere (a tracking pixel is one): their words only.
      return html`${frenchSpacing(node.alt ?? '')}`;
    case 'html':
      // Raw HTML is shown as the editor typed it, never interpreted.
      return html`${node.value}`;
    default:
      // Whatever else the parser may produce: its text, escaped.
      return 'children' in node ? inlineHtml(childrenOf(node), intro, styles) : html`${'value' in node && typeof node.value === 'string' ? node.value : ''}`;
  }
}

function blocksHtml(nodes: Node[], intro: Intro, styles: IntroStyles | null): Markup {
  return html`${nodes.map((node) => blockHtml(node, intro, styles))}`;
}

function blockHtml(node: Node, intro: Intro, styles: IntroStyles | null): Markup {
  switch (node.type) {
    case 'root':
      return blocksHtml(node.children, intro, styles);
    case 'paragraph':
      return html`<p${style(styles, 'p')}>${inlineHtml(node.children, intro, styles)}</p>\n`;
    case 'heading': {
      // The mail's and the page's title is the h1: the intro's highest level becomes h2, whether
      // the editor wrote `#` or `##`, and every level below it h3, so no level is skipped.
      const tag = node.depth <= intro.topHeading ? 'h2' : 'h3';
      return tag === 'h2'
        ? html`<h2${style(styles, 'h2')}>${inlineHtml(node.children, intro, styles)}</h2>\n`
        : html`<h3${style(styles, 'h3')}>${inlineHtml(node.children, intro, styles)}</h3>\n`;
    }
    case 'blockquote':
      return html`<blockquote${style(styles, 'blockquote')}>\n${blocksHtml(node.children, intro, styles)}</blockquote>\n`;
    case 'list': {
      const items = node.children.map((item) => {
        // A tight list's items hold bare paragraphs: shown without the paragraph's margins.
        const content = item.spread
          ? blocksHtml(item.children, intro, styles)
          : html`${item.children.map((child) => (child.type === 'paragraph' ? inlineHtml(child.children, intro, styles) : blockHtml(child, intro, styles)))}`;
        return html`<li${style(styles, 'li')}>${content}</li>\n`;
      });
      const start = node.ordered && typeof node.start === 'number' && node.start !== 1 ? html` start="${node.start}"` : '';
      return node.ordered ? html`<ol${start}${style(styles, 'list')}>\n${items}</ol>\n` : html`<ul${style(styles, 'list')}>\n${items}</ul>\n`;
    }
    case 'thematicBreak':
      return html`<hr${style(styles, 'hr')}>\n`;
    case 'code':
      return html`<pre${style(styles, 'pre')}>${node.value}</pre>\n`;
    case 'html':
      // Raw HTML is shown as the editor typed it, never interpreted.
      return html`<p${style(styles, 'p')}>${node.value}</p>\n`;
    case 'definition':
      return html``;
    case 'table':
      // Tables do not fit a phone's mail: one line per row.
      return html`${node.children.map(
        (row) => html`<p${style(styles, 'p')}>${row.children.map((cell, i) => html`${i > 0 ? ' — ' : ''}${inlineHtml(cell.children, intro, styles)}`)}</p>\n`,
      )}`;
    default:
      // Anything else inline at the top level (or unknown): kept in a paragraph.
      return html`<p${style(styles, 'p')}>${inlineNodeHtml(node, intro, styles)}</p>\n`;
  }
}

function inlineText(nodes: Node[], intro: Intro): string {
  return nodes.map((node) => inlineNodeText(node, intro)).join('');
}

function inlineNodeText(node: Node, intro: Intro): string {
  switch (node.type) {
    case 'text':
      return frenchSpacing(node.value);
    case 'break':
      return '\n';
    case 'link':
    case 'linkReference': {
      const url = linkTarget(node, intro);
      const words = inlineText(node.children, intro);
      if (!url) return words;
      const shown = url.protocol === 'mailto:' ? decodeURIComponent(url.pathname) : url.href;
      // An address written as such (<https://…>, a bare URL) is not repeated in parentheses.
      return [shown, url.href, url.href.replace(/\/$/, '')].includes(words.trim()) ? shown : `${words} (${shown})`;
    }
    case 'image':
    case 'imageReference':
      return frenchSpacing(node.alt ?? '');
    default:
      return 'children' in node ? inlineText(childrenOf(node), intro) : plain(node);
  }
}

const indent = (text: string, prefix: string, first = prefix) =>
  text
    .split('\n')
    .map((line, i) => (i === 0 ? first : prefix) + line)
    .join('\n');

function blocksText(nodes: Node[], intro: Intro): string {
  return nodes
    .map((node) => blockText(node, intro))
    .filter((block) => block !== '')
    .join('\n\n');
}

function blockText(node: Node, intro: Intro): string {
  switch (node.type) {
    case 'root':
      return blocksText(node.children, intro);
    case 'paragraph':
      return inlineText(node.children, intro);
    case 'heading':
      return inlineText(node.children, intro).toLocaleUpperCase('fr');
    case 'blockquote':
      return indent(blocksText(node.children, intro), '> ');
    case 'list':
      return node.children
        .map((item, i) => {
          const marker = node.ordered ? `${(node.start ?? 1) + i}. ` : '- ';
          const content = item.children.map((child) => blockText(child, intro)).join(item.spread ? '\n\n' : '\n');
          return indent(content, ' '.repeat(marker.length), marker);
        })
        .join(node.spread ? '\n\n' : '\n');
    case 'thematicBreak':
      return '* * *';
    case 'code':
    case 'html':
      return node.value;
    case 'definition':
      return '';
    case 'table':
      return node.children.map((row) => row.children.map((cell) => inlineText(cell.children, intro)).join(' — ')).join('\n');
    default:
      return inlineNodeText(node, intro);
  }
}

/**
 * Markdown → safe HTML for the intro: paragraphs, emphasis, strong, links (http, https and
 * mailto only; relative ones resolved against siteUrl), lists, headings demoted to h2/h3 (the
 * intro's highest level becomes h2), blockquotes. Raw HTML in the Markdown is escaped, never passed through; images are reduced
 * to their alternative text. Without styles: the site's page styles it.
 */
export function introHtml(markdown: string, siteUrl: URL): string {
  const intro = parseIntro(scrub(markdown), siteUrl);
  return blocksHtml([intro.root], intro, null).value;
}

// ---------------------------------------------------------------------------------------------
// Mail

/** Some clients fill the preview with the body's first words after a short preheader: this pads it. */
const PREHEADER_PADDING = '\u034f\u200c\u00a0'.repeat(60);

function storyCardHtml(story: Issue['stories'][number]): Markup {
  const image = story.image
    ? html`<tr><td style="padding:0;line-height:0;font-size:0;"><img src="${story.image.src.href}" alt="${frenchSpacing(story.image.alt)}" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" style="display:block;width:100%;max-width:${IMAGE_WIDTH}px;height:auto;border:0;outline:none;text-decoration:none;background-color:${RULE_COLOR};"></td></tr>\n`
    : '';
  return html`<tr><td class="issue-pad" style="padding:0 32px 24px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:${CARD_BG};">
${image}<tr><td style="padding:16px 20px 20px;">
<p style="margin:0 0 6px;${FONT}font-size:12px;line-height:1.4;font-weight:700;letter-spacing:1px;text-transform:uppercase;color:${BRAND.green};">${frenchSpacing(story.kicker)}</p>
<h2 style="margin:0 0 8px;${FONT}font-size:20px;line-height:1.3;font-weight:800;"><a href="${story.url.href}" style="color:${TEXT_COLOR};text-decoration:none;">${frenchSpacing(story.title)}</a></h2>
<p style="margin:0;${FONT}font-size:16px;line-height:1.55;color:#333333;">${frenchSpacing(story.lead)}</p>
</td></tr>
</table>
</td></tr>
`;
}

function supportHtml(url: URL): Markup {
  return html`<tr><td class="issue-pad" style="padding:8px 32px 32px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#fff8d6;border-top:4px solid ${BRAND.yellow};">
<tr><td style="padding:20px 20px 24px;">
<p style="margin:0 0 16px;${FONT}font-size:16px;line-height:1.6;color:${TEXT_COLOR};">${frenchSpacing(SUPPORT_TEXT)}</p>
<table role="presentation" cellpadding="0" cellspacing="0" border="0"><tr><td style="border-radius:4px;background-color:${BRAND.green};"><a href="${url.href}" style="display:inline-block;padding:14px 24px;${FONT}font-size:16px;font-weight:700;line-height:1.2;color:#ffffff;text-decoration:none;border-radius:4px;">${SUPPORT_LABEL}</a></td></tr></table>
</td></tr>
</table>
</td></tr>
`;
}

function mailHtml(issue: Issue): string {
  const { newsletter } = issue;
  const footerP = `margin:0 0 8px;${FONT}font-size:13px;line-height:1.5;color:${MUTED_COLOR};`;
  const footerA = `color:${BRAND.green};text-decoration:underline;`;
  const intro = blocksHtml([issue.intro.root], issue.intro, MAIL_INTRO_STYLES);
  const hasIntro = intro.value.trim() !== '';
  // The placeholders are markup we own, not editor text: they go in raw, and are replaced by
  // escaped URLs in personaliseIssueMail.
  const preferences = RECIPIENT_LINKS.preferences;
  const unsubscribe = RECIPIENT_LINKS.unsubscribe;
  const body = html`<!doctype html>
<html lang="fr" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${issue.subject}</title>
<style>
/* Phones: the card takes the whole width, the text keeps a narrower margin. Clients that drop
   this still get a fluid single column. */
@media (max-width: 480px) {
  .issue-outer { padding: 0 !important; }
  .issue-pad { padding-left: 16px !important; padding-right: 16px !important; }
}
</style>
</head>
<body style="margin:0;padding:0;background-color:${PAGE_BG};">
${issue.preheader ? html`<div style="display:none;max-height:0;overflow:hidden;mso-hide:all;">${frenchSpacing(issue.preheader)}${PREHEADER_PADDING}</div>` : ''}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:${PAGE_BG};">
<tr><td class="issue-outer" align="center" style="padding:6px 12px 24px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;">
<tr><td class="issue-pad" align="center" style="padding:10px 32px;${FONT}font-size:13px;line-height:1.5;color:${MUTED_COLOR};"><a href="${issue.webUrl.href}" style="color:${MUTED_COLOR};text-decoration:underline;">${WEB_LABEL}</a></td></tr>
</table>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;">
<tr><td class="issue-pad" style="background-color:${BRAND.green};border-bottom:6px solid ${BRAND.yellow};padding:20px 32px 22px;">
<a href="${issue.home.href}" style="${FONT}font-size:15px;font-weight:800;letter-spacing:-0.2px;color:#ffffff;text-decoration:none;">${BRAND.name}</a>
<h1 style="margin:6px 0 4px;${FONT}font-size:28px;line-height:1.2;font-weight:800;color:#ffffff;">${frenchSpacing(newsletter.name)}</h1>
<p style="margin:0;${FONT}font-size:15px;line-height:1.4;color:#ffffff;">${frenchSpacing(`n° ${issue.number}`)} · ${frenchSpacing(issue.date)}</p>
</td></tr>
${hasIntro ? html`<tr><td class="issue-pad" style="padding:28px 32px 12px;">\n${intro}</td></tr>\n` : html`<tr><td style="height:24px;line-height:24px;font-size:0;">&nbsp;</td></tr>\n`}${issue.stories.map(storyCardHtml)}${issue.support ? supportHtml(issue.support) : ''}<tr><td class="issue-pad" style="padding:20px 32px 24px;border-top:1px solid ${RULE_COLOR};">
<p style="${footerP}">${frenchSpacing(reasonText(newsletter.name))}</p>
<p style="${footerP}"><a href="${rawPlaceholder(preferences)}" style="${footerA}">${PREFERENCES_LABEL}</a> · <a href="${rawPlaceholder(unsubscribe)}" style="${footerA}">${frenchSpacing(unsubscribeLabel(newsletter.name))}</a></p>
<p style="${footerP}">${frenchSpacing(NO_TRACKING)}</p>
<p style="${footerP}"><a href="${issue.home.href}" style="${footerA}">${BRAND.name}</a> — ${BRAND.tagline}<br>${BRAND.postalAddress}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return body.value;
}

/** A placeholder as markup: it holds no character the `html` tag would escape, and must stay intact. */
function rawPlaceholder(placeholder: string): Markup {
  if (escapeHtml(placeholder) !== placeholder) throw new Error('placeholder would be altered by escaping');
  return html`${placeholder}`;
}

function mailText(issue: Issue): string {
  const { newsletter } = issue;
  const intro = blocksText([issue.intro.root], issue.intro);
  const rule = '----------';
  const stories = issue.stories.map((s) =>
    [`${frenchSpacing(s.kicker).toLocaleUpperCase('fr')} — ${frenchSpacing(s.title)}`, frenchSpacing(s.lead), s.url.href].filter((l) => l !== '').join('\n'),
  );
  const parts = [
    [`${frenchSpacing(newsletter.name)} — ${frenchSpacing(`n° ${issue.number}`)}`, frenchSpacing(issue.date), `${BRAND.name}`].join('\n'),
    `${frenchSpacing(`${WEB_LABEL} :`)}\n${issue.webUrl.href}`,
    ...(intro ? [intro] : []),
    ...(stories.length ? [rule, stories.join('\n\n')] : []),
    ...(issue.support ? [rule, `${frenchSpacing(SUPPORT_TEXT)}\n${frenchSpacing(`${SUPPORT_LABEL} :`)} ${issue.support.href}`] : []),
    [
      '-- ',
      frenchSpacing(reasonText(newsletter.name)),
      `${frenchSpacing(`${PREFERENCES_LABEL} :`)} ${RECIPIENT_LINKS.preferences}`,
      `${frenchSpacing(`${unsubscribeLabel(newsletter.name)} :`)} ${RECIPIENT_LINKS.unsubscribe}`,
      frenchSpacing(NO_TRACKING),
      `${BRAND.name} — ${BRAND.tagline}`,
      issue.home.href,
      BRAND.postalAddress,
    ].join('\n'),
  ];
  return `${parts.join('\n\n')}\n`;
}

/** The issue's mail, once per issue: the two per-recipient links are placeholders (RECIPIENT_LINKS). */
export function renderIssueMail(input: IssueMailInput): IssueMailTemplate {
  const issue = prepare(input);
  return { subject: issue.subject, html: mailHtml(issue), text: mailText(issue) };
}

/**
 * One recipient's copy: the placeholders replaced by the given absolute URLs. Plain string
 * splitting (no re-render, no regular expression, no `$` patterns of `replace`): it runs once
 * per recipient, 100,000 times per send.
 */
export function personaliseIssueMail(
  template: IssueMailTemplate,
  links: { preferences: URL; unsubscribe: URL },
): { subject: string; html: string; text: string } {
  for (const url of [links.preferences, links.unsubscribe]) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`lien de destinataire non web : ${url.protocol}`);
  }
  const { preferences, unsubscribe } = RECIPIENT_LINKS;
  // A URL percent-encodes U+E000: the first swap cannot bring in the second placeholder.
  const swap = (s: string, p: string, u: string) => s.split(preferences).join(p).split(unsubscribe).join(u);
  return {
    subject: template.subject,
    html: swap(template.html, escapeHtml(links.preferences.href), escapeHtml(links.unsubscribe.href)),
    text: swap(template.text, links.preferences.href, links.unsubscribe.href),
  };
}

// ---------------------------------------------------------------------------------------------
// Web version

/**
 * The body of the issue's web page: the intro, the stories, the support block. Semantic HTML
 * with classes (`issue-intro`, `issue-stories`, `issue-story`, `issue-kicker`, `issue-lead`,
 * `issue-support`) for the site's style sheet; no mail layout, no per-recipient link.
 */
export function renderIssueWebBody(input: IssueMailInput): string {
  const issue = prepare(input);
  const intro = blocksHtml([issue.intro.root], issue.intro, null);
  const body = html`${intro.value.trim() ? html`<div class="issue-intro">\n${intro}</div>\n` : ''}${
    issue.stories.length
      ? html`<ol class="issue-stories" role="list">\n${issue.stories.map(
          (s) => html`<li><article class="issue-story">
${s.image ? html`<img src="${s.image.src.href}" alt="${frenchSpacing(s.image.alt)}" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" loading="lazy" decoding="async">\n` : ''}<p class="issue-kicker">${frenchSpacing(s.kicker)}</p>
<h2><a href="${s.url.href}">${frenchSpacing(s.title)}</a></h2>
<p class="issue-lead">${frenchSpacing(s.lead)}</p>
</article></li>\n`,
        )}</ol>\n`
      : ''
  }${issue.support ? html`<aside class="issue-support">\n<p>${frenchSpacing(SUPPORT_TEXT)}</p>\n<p><a class="issue-support-button" href="${issue.support.href}">${SUPPORT_LABEL}</a></p>\n</aside>\n` : ''}`;
  return body.value;
}
