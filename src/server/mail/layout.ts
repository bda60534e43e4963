/**
 * The shared layout of every mail the site sends, and its escaping: each domain writes its own
 * templates beside it (`auth/mails.ts`, `newsletter/mails.ts`, `contact/mails.ts`,
 * `account/mails.ts`) as lists of blocks, and `renderMail` turns them into
 * `{ template, subject, text, html }` (plus the headers or Reply-To it needs), ready to spread
 * into `mailer.send({ to, ...mail })`.
 *
 * Every link is built from the configured site URL with `new URL(path, siteUrl)`, never from a
 * request's Host or forwarded headers: those are attacker-controlled, and a reset link pointing
 * at their host would hand them the token.
 *
 * Text and HTML are rendered from one list of blocks, so both parts always say the same thing.
 * Every interpolated value goes through the `html` tag, which escapes it.
 */

/** A rendered mail, without its recipient. */
export interface MailContent {
  /** Name of the template, for logs only (it never reaches the reader). */
  template: string;
  subject: string;
  text: string;
  html: string;
  headers?: Record<string, string>;
  replyTo?: string;
}

import { PUBLISHER, formatSiren, postalAddressLine } from '../../config/publisher';
import { frenchText } from '../../lib/typography';

// ---------------------------------------------------------------------------------------------
// Escaping

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Markup that has already been escaped; only the `html` tag makes one. */
class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString() {
    return this.value;
  }
}

type HtmlValue = string | number | URL | SafeHtml | readonly HtmlValue[];

function interpolate(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(interpolate).join('');
  return escapeHtml(String(value));
}

/** Tagged template: the literal parts are markup, every interpolated value is escaped. */
export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += interpolate(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** French typography, as on the site (src/lib/typography.ts): no-break spaces before : ; ? ! and inside « ». */
export const frenchSpacing = frenchText;

/** Collapses line breaks and control characters: for values that end up in a Subject. */
export function oneLine(value: string, max = 120): string {
  const flat = value
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// ---------------------------------------------------------------------------------------------
// Links

/** Absolute link on the configured site. Path segments that carry tokens must be encoded by the caller. */
export function siteLink(siteUrl: URL, path: string, query?: Record<string, string>): URL {
  const url = new URL(path, siteUrl);
  for (const [key, value] of Object.entries(query ?? {})) url.searchParams.set(key, value);
  return url;
}

// ---------------------------------------------------------------------------------------------
// Layout

/** Inline text: plain strings, or a part shown in bold in HTML. */
export type Inline = string | ReadonlyArray<string | { strong: string }>;

export type Block =
  /** A paragraph. */
  | { kind: 'paragraph'; text: Inline }
  /** The mail's main action: a button, with the address spelled out for clients that hide it. */
  | { kind: 'action'; label: string; url: URL }
  /** A secondary link on its own line: « label : address ». */
  | { kind: 'link'; label: string; url: URL }
  /** Text written by someone else (a contact message): whitespace kept, nothing reflowed. */
  | { kind: 'quote'; text: string }
  /** Label / value pairs. */
  | { kind: 'fields'; rows: ReadonlyArray<readonly [string, string]> }
  /** Smaller, secondary text. */
  | { kind: 'note'; text: Inline };

export interface MailSpec {
  siteUrl: URL;
  subject: string;
  /** Main title at the top of the mail. */
  heading: string;
  /** Summary that mail clients show next to the subject. */
  preheader?: string;
  blocks: Block[];
  /** Why the reader gets this mail, shown in the footer. */
  reason: string;
  /** Links in the footer (unsubscribe…). */
  footerLinks?: Array<{ label: string; url: URL }>;
  headers?: Record<string, string>;
  replyTo?: string;
}

export const BRAND = {
  name: PUBLISHER.name,
  tagline: 'Média indépendant et citoyen',
  green: '#0b7a4b',
  yellow: '#ffd23f',
  /** The publisher's legal identity (src/config/publisher.ts), in every mail's footer. */
  postalAddress: `${PUBLISHER.legalName}, ${postalAddressLine()} — SIREN ${formatSiren(PUBLISHER.siren)}`,
} as const;

const FONT = "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const TEXT_COLOR = '#1a1a1a';
const MUTED_COLOR = '#555555';

function inlineText(text: Inline): string {
  return typeof text === 'string' ? frenchSpacing(text) : text.map((p) => (typeof p === 'string' ? frenchSpacing(p) : p.strong)).join('');
}

function inlineHtml(text: Inline): SafeHtml {
  if (typeof text === 'string') return html`${frenchSpacing(text)}`;
  return html`${text.map((p) => (typeof p === 'string' ? html`${frenchSpacing(p)}` : html`<strong>${p.strong}</strong>`))}`;
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'paragraph':
    case 'note':
      return inlineText(block.text);
    case 'action':
      return `${frenchSpacing(`${block.label} :`)}\n${block.url.href}`;
    case 'link':
      return `${frenchSpacing(`${block.label} :`)}\n${block.url.href}`;
    case 'quote':
      return ['-----', block.text, '-----'].join('\n');
    case 'fields':
      return block.rows.map(([label, value]) => `${frenchSpacing(`${label} :`)} ${value}`).join('\n');
  }
}

function blockHtml(block: Block): SafeHtml {
  const p = `margin:0 0 16px;${FONT}font-size:16px;line-height:1.6;color:${TEXT_COLOR};`;
  const small = `margin:0 0 16px;${FONT}font-size:14px;line-height:1.5;color:${MUTED_COLOR};`;
  const a = `color:${BRAND.green};text-decoration:underline;word-break:break-all;`;
  switch (block.kind) {
    case 'paragraph':
      return html`<p style="${p}">${inlineHtml(block.text)}</p>`;
    case 'note':
      return html`<p style="${small}">${inlineHtml(block.text)}</p>`;
    case 'action':
      return html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 16px;"><tr><td style="border-radius:4px;background-color:${BRAND.green};"><a href="${block.url.href}" style="display:inline-block;padding:14px 24px;${FONT}font-size:16px;font-weight:700;line-height:1.2;color:#ffffff;text-decoration:none;border-radius:4px;">${block.label}</a></td></tr></table>
<p style="${small}">${frenchSpacing('Si le bouton ne fonctionne pas, copiez cette adresse dans votre navigateur :')}<br><a href="${block.url.href}" style="${a}">${block.url.href}</a></p>`;
    case 'link':
      return html`<p style="${p}">${frenchSpacing(`${block.label} :`)}<br><a href="${block.url.href}" style="${a}">${block.url.href}</a></p>`;
    case 'quote':
      return html`<div style="margin:0 0 16px;padding:12px 16px;border-left:4px solid ${BRAND.yellow};background-color:#f7f7f2;${FONT}font-size:15px;line-height:1.5;color:${TEXT_COLOR};white-space:pre-wrap;">${block.text}</div>`;
    case 'fields':
      return html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;${FONT}font-size:15px;line-height:1.5;color:${TEXT_COLOR};">${block.rows.map(
        ([label, value]) =>
          html`<tr><th scope="row" align="left" style="padding:2px 12px 2px 0;font-weight:700;vertical-align:top;">${label}</th><td style="padding:2px 0;word-break:break-word;">${value}</td></tr>`,
      )}</table>`;
  }
}

// ---------------------------------------------------------------------------------------------
// Greeting

/** How a mail greets its reader: the first paragraph of most templates. */
export const GREETING = 'Bonjour,';

/**
 * The mail greeting its reader by first name: « Bonjour Camille, » instead of « Bonjour, ».
 * Templates are rendered where the name is not at hand (a payment's fulfilment, a job); the code
 * that looks up the account to address the mail knows it, and greets through `mailFor`. Only the
 * first greeting paragraph changes, in both parts; a mail without one, or a reader without a first
 * name, is left as it is.
 */
export function addressTo(mail: MailContent, givenName: string | null | undefined): MailContent {
  const name = oneLine(givenName ?? '', 60);
  if (!name) return mail;
  const greeted = `Bonjour ${name},`;
  const textFrom = `\n\n${GREETING}\n\n`;
  const htmlFrom = blockHtml({ kind: 'paragraph', text: GREETING }).value;
  if (!mail.text.includes(textFrom) || !mail.html.includes(htmlFrom)) return mail;
  return {
    ...mail,
    text: mail.text.replace(textFrom, () => `\n\n${frenchSpacing(greeted)}\n\n`),
    html: mail.html.replace(htmlFrom, () => blockHtml({ kind: 'paragraph', text: greeted }).value),
  };
}

/** The recipient and content of a mail to an account, greeting it by its first name. */
export function mailFor(user: { email: string; givenName?: string | null }, mail: MailContent): { to: string; mail: MailContent } {
  return { to: user.email, mail: addressTo(mail, user.givenName) };
}

/** Renders a mail in the shared layout: header with the logo, blocks, footer with the reason and the postal address. */
export function renderMail(template: string, spec: MailSpec): MailContent {
  const home = siteLink(spec.siteUrl, '/');
  const footerLinks = spec.footerLinks ?? [];
  const subject = frenchSpacing(spec.subject);
  const heading = frenchSpacing(spec.heading);

  const text = [
    BRAND.name,
    '',
    heading,
    '',
    spec.blocks.map(blockText).join('\n\n'),
    '',
    '-- ',
    frenchSpacing(spec.reason),
    ...footerLinks.map((l) => `${frenchSpacing(`${l.label} :`)} ${l.url.href}`),
    `${BRAND.name} — ${BRAND.tagline}`,
    home.href,
    BRAND.postalAddress,
    '',
  ].join('\n');

  const footerP = `margin:0 0 8px;${FONT}font-size:13px;line-height:1.5;color:${MUTED_COLOR};`;
  const body = html`<!doctype html>
<html lang="fr" dir="ltr">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<meta name="supported-color-schemes" content="light">
<title>${subject}</title>
</head>
<body style="margin:0;padding:0;background-color:#f4f4f0;">
${spec.preheader ? html`<div style="display:none;max-height:0;overflow:hidden;mso-hide:all;">${frenchSpacing(spec.preheader)}</div>` : ''}
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="background-color:#f4f4f0;">
<tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" style="max-width:600px;background-color:#ffffff;">
<tr><td style="background-color:${BRAND.green};border-bottom:6px solid ${BRAND.yellow};padding:20px 32px;">
<a href="${home.href}" style="${FONT}font-size:26px;font-weight:800;letter-spacing:-0.5px;color:#ffffff;text-decoration:none;">${BRAND.name}</a>
</td></tr>
<tr><td style="padding:32px 32px 16px;">
<h1 style="margin:0 0 24px;${FONT}font-size:22px;line-height:1.3;color:${TEXT_COLOR};">${heading}</h1>
${spec.blocks.map((b) => html`${blockHtml(b)}\n`)}</td></tr>
<tr><td style="padding:20px 32px 24px;border-top:1px solid #e2e2dc;">
<p style="${footerP}">${frenchSpacing(spec.reason)}</p>
${footerLinks.map((l) => html`<p style="${footerP}"><a href="${l.url.href}" style="color:${BRAND.green};text-decoration:underline;">${l.label}</a></p>\n`)}<p style="${footerP}"><a href="${home.href}" style="color:${BRAND.green};text-decoration:underline;">${BRAND.name}</a> — ${BRAND.tagline}<br>${BRAND.postalAddress}</p>
</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;

  return {
    template,
    subject,
    text,
    html: body.value,
    ...(spec.headers ? { headers: spec.headers } : {}),
    ...(spec.replyTo ? { replyTo: spec.replyTo } : {}),
  };
}
