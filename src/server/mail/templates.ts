/**
 * The French e-mails the site sends, each as `{ template, subject, text, html }` (plus the
 * headers or Reply-To it needs), ready to spread into `mailer.send({ to, ...mail })`.
 *
 * Every link is built from the configured site URL with `new URL(path, siteUrl)`, never from a
 * request's Host or forwarded headers: those are attacker-controlled, and a reset link pointing
 * at their host would hand them the token.
 *
 * Text and HTML are rendered from one list of blocks, so both parts always say the same thing.
 * Every interpolated value goes through the `html` tag, which escapes it.
 */

export type TemplateName =
  | 'magic-link'
  | 'password-reset'
  | 'email-change-confirm'
  | 'email-change-notice'
  | 'email-changed'
  | 'password-changed'
  | 'account-deleted'
  | 'newsletter-confirm'
  | 'newsletter-welcome'
  | 'contact-newsroom'
  | 'contact-ack';

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

// ---------------------------------------------------------------------------------------------
// Escaping

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Markup that has already been escaped; only the `html` tag makes one. */
class SafeHtml {
  constructor(readonly value: string) {}
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
function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0] ?? '';
  values.forEach((value, i) => {
    out += interpolate(value) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** French typography: a non-breaking space before « : ; ? ! » and inside guillemets. */
function frenchSpacing(text: string): string {
  return text.replace(/ ([:;?!»])/g, '\u00a0$1').replace(/« /g, '«\u00a0');
}

/** Collapses line breaks and control characters: for values that end up in a Subject. */
function oneLine(value: string, max = 120): string {
  const flat = value.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s+/g, ' ').trim();
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

export function unsubscribeUrl(siteUrl: URL, unsubscribeToken: string): URL {
  return siteLink(siteUrl, '/mailinglist/unsubscribe', { token: unsubscribeToken });
}

/**
 * Headers every newsletter mail carries: a List-Unsubscribe address, and the RFC 8058 one-click
 * marker, which tells the mailbox provider it may POST `List-Unsubscribe=One-Click` to that
 * address to unsubscribe without showing a page.
 */
export function newsletterHeaders(siteUrl: URL, unsubscribeToken: string): Record<string, string> {
  return {
    // Mail providers POST `List-Unsubscribe=One-Click` here (RFC 8058), without showing a page.
    'List-Unsubscribe': `<${siteLink(siteUrl, '/api/mailinglist/unsubscribe', { token: unsubscribeToken }).href}>`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
  };
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
  name: 'Contrechamp',
  tagline: 'Média indépendant et citoyen',
  green: '#0b7a4b',
  yellow: '#ffd23f',
  postalAddress: 'Contrechamp SCIC SAS, 12 rue des Coopérateurs, 93100 Montreuil',
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

/** Adds what every newsletter mail must carry: the unsubscribe link in the body and the List-Unsubscribe headers. */
function newsletterMail(template: string, spec: MailSpec & { unsubscribeToken: string }): MailContent {
  const { unsubscribeToken, ...rest } = spec;
  return renderMail(template, {
    ...rest,
    footerLinks: [...(rest.footerLinks ?? []), { label: 'Se désinscrire de la lettre d’information', url: unsubscribeUrl(spec.siteUrl, unsubscribeToken) }],
    headers: { ...rest.headers, ...newsletterHeaders(spec.siteUrl, unsubscribeToken) },
  });
}

const tokenPath = (prefix: string, token: string) => `${prefix}/${encodeURIComponent(token)}`;

// ---------------------------------------------------------------------------------------------
// Account

export function magicLinkMail({ siteUrl, token }: { siteUrl: URL; token: string }): MailContent {
  return renderMail('magic-link', {
    siteUrl,
    subject: 'Votre lien de connexion à Contrechamp',
    heading: 'Connectez-vous à Contrechamp',
    preheader: 'Votre lien de connexion est valable 15 minutes.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: 'Voici le lien qui vous connecte à votre compte Contrechamp. Il est valable 15 minutes et ne peut servir qu’une seule fois.' },
      { kind: 'action', label: 'Me connecter', url: siteLink(siteUrl, tokenPath('/welcome', token)) },
      { kind: 'paragraph', text: 'Si vous n’avez pas demandé ce lien, ignorez simplement ce message : personne ne peut se connecter à votre compte sans lui.' },
    ],
    reason: `Vous recevez ce message parce qu’un lien de connexion a été demandé pour cette adresse sur ${siteUrl.host}.`,
  });
}

export function passwordResetMail({ siteUrl, token }: { siteUrl: URL; token: string }): MailContent {
  return renderMail('password-reset', {
    siteUrl,
    subject: 'Choisissez un nouveau mot de passe',
    heading: 'Réinitialisation de votre mot de passe',
    preheader: 'Ce lien est valable une heure.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: 'Vous avez demandé à changer le mot de passe de votre compte Contrechamp. Ce lien est valable 1 heure et ne peut servir qu’une seule fois.' },
      { kind: 'action', label: 'Choisir un nouveau mot de passe', url: siteLink(siteUrl, tokenPath('/modifier-mon-mot-de-passe', token)) },
      { kind: 'paragraph', text: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : votre mot de passe actuel reste valable.' },
    ],
    reason: `Vous recevez ce message parce qu’une réinitialisation de mot de passe a été demandée pour cette adresse sur ${siteUrl.host}.`,
  });
}

/** Sent to the NEW address: proves the reader owns it before the change takes effect. */
export function emailChangeConfirmMail({ siteUrl, token, newEmail }: { siteUrl: URL; token: string; newEmail: string }): MailContent {
  return renderMail('email-change-confirm', {
    siteUrl,
    subject: 'Confirmez votre nouvelle adresse e-mail',
    heading: 'Confirmez votre nouvelle adresse e-mail',
    preheader: 'Ce lien est valable 24 heures.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: ['Vous avez demandé à utiliser l’adresse ', { strong: newEmail }, ' pour votre compte Contrechamp. Confirmez-la pour que le changement prenne effet.'] },
      { kind: 'action', label: 'Confirmer cette adresse', url: siteLink(siteUrl, tokenPath('/modifier-mon-email', token)) },
      { kind: 'paragraph', text: 'Ce lien est valable 24 heures et ne peut servir qu’une seule fois.' },
      { kind: 'paragraph', text: 'Si vous n’êtes pas à l’origine de cette demande, ignorez ce message : rien ne sera modifié.' },
    ],
    reason: `Vous recevez ce message parce que cette adresse a été indiquée comme nouvelle adresse d’un compte sur ${siteUrl.host}.`,
  });
}

/** Sent to the OLD address when a change is requested, so that a hijacked account does not go unnoticed. */
export function emailChangeNoticeMail({ siteUrl, newEmail }: { siteUrl: URL; newEmail: string }): MailContent {
  return renderMail('email-change-notice', {
    siteUrl,
    subject: 'Demande de changement de votre adresse e-mail',
    heading: 'Votre adresse e-mail va changer',
    preheader: 'Une demande de changement d’adresse a été faite sur votre compte.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: ['Une demande a été faite pour remplacer l’adresse e-mail de votre compte Contrechamp par ', { strong: newEmail }, '.'] },
      { kind: 'paragraph', text: 'Le changement ne prendra effet qu’une fois cette nouvelle adresse confirmée, dans les 24 heures. Si c’est bien vous, vous n’avez rien d’autre à faire.' },
      { kind: 'paragraph', text: 'Si ce n’est pas vous, quelqu’un connaît peut-être votre mot de passe. Changez-le dès maintenant et écrivez-nous.' },
      { kind: 'action', label: 'Changer mon mot de passe', url: siteLink(siteUrl, '/modifier-mon-mot-de-passe') },
      { kind: 'link', label: 'Nous écrire', url: siteLink(siteUrl, '/contact') },
    ],
    reason: `Vous recevez ce message parce que cette adresse est celle de votre compte sur ${siteUrl.host}.`,
  });
}

/** Sent to the OLD address once the change is confirmed. */
export function emailChangedMail({ siteUrl, newEmail }: { siteUrl: URL; newEmail: string }): MailContent {
  return renderMail('email-changed', {
    siteUrl,
    subject: 'Votre adresse e-mail a été modifiée',
    heading: 'Votre adresse e-mail a été modifiée',
    preheader: 'Cette adresse n’est plus associée à votre compte.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: ['L’adresse e-mail de votre compte Contrechamp est désormais ', { strong: newEmail }, '. Cette adresse-ci n’y est plus associée : vous ne recevrez plus nos messages concernant votre compte.'] },
      { kind: 'paragraph', text: 'Si vous n’êtes pas à l’origine de ce changement, écrivez-nous sans attendre : nous vous aiderons à récupérer votre compte.' },
      { kind: 'link', label: 'Nous écrire', url: siteLink(siteUrl, '/contact') },
    ],
    reason: `Vous recevez ce message parce que cette adresse était celle de votre compte sur ${siteUrl.host}.`,
  });
}

export function passwordChangedMail({ siteUrl }: { siteUrl: URL }): MailContent {
  return renderMail('password-changed', {
    siteUrl,
    subject: 'Votre mot de passe a été modifié',
    heading: 'Votre mot de passe a été modifié',
    preheader: 'Un message de sécurité concernant votre compte.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: 'Le mot de passe de votre compte Contrechamp vient d’être modifié. Si c’est vous, vous n’avez rien à faire.' },
      { kind: 'paragraph', text: 'Si ce n’est pas vous, choisissez tout de suite un nouveau mot de passe, puis écrivez-nous.' },
      { kind: 'action', label: 'Choisir un nouveau mot de passe', url: siteLink(siteUrl, '/modifier-mon-mot-de-passe') },
      { kind: 'link', label: 'Nous écrire', url: siteLink(siteUrl, '/contact') },
    ],
    reason: `Vous recevez ce message de sécurité parce que cette adresse est celle de votre compte sur ${siteUrl.host}.`,
  });
}

export function accountDeletedMail({ siteUrl }: { siteUrl: URL }): MailContent {
  return renderMail('account-deleted', {
    siteUrl,
    subject: 'Votre compte Contrechamp a été supprimé',
    heading: 'Votre compte a été supprimé',
    preheader: 'La suppression de votre compte est effective.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: 'Votre compte Contrechamp a bien été supprimé, avec les données personnelles qui y étaient liées, à l’exception de celles que la loi nous oblige à conserver (factures, reçus fiscaux, registre des sociétaires).',
      },
      { kind: 'paragraph', text: 'Merci d’avoir fait un bout de chemin avec nous. Notre porte reste ouverte : vous pourrez créer un nouveau compte quand vous le souhaiterez.' },
      { kind: 'link', label: 'Ce que nous conservons et pourquoi', url: siteLink(siteUrl, '/vie-privee') },
      { kind: 'note', text: 'Si vous n’êtes pas à l’origine de cette suppression, écrivez-nous au plus vite.' },
      { kind: 'link', label: 'Nous écrire', url: siteLink(siteUrl, '/contact') },
    ],
    reason: `Vous recevez ce dernier message parce que cette adresse était celle d’un compte sur ${siteUrl.host}.`,
  });
}

// ---------------------------------------------------------------------------------------------
// Newsletter

export function newsletterConfirmMail({ siteUrl, token, unsubscribeToken }: { siteUrl: URL; token: string; unsubscribeToken: string }): MailContent {
  return newsletterMail('newsletter-confirm', {
    siteUrl,
    unsubscribeToken,
    subject: 'Confirmez votre inscription à la lettre d’information',
    heading: 'Confirmez votre inscription',
    preheader: 'Un clic pour recevoir la lettre d’information de Contrechamp.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: 'Merci de votre intérêt pour Contrechamp ! Pour recevoir notre lettre d’information, confirmez votre adresse.' },
      { kind: 'action', label: 'Confirmer mon inscription', url: siteLink(siteUrl, '/mailinglist/confirm', { token }) },
      { kind: 'paragraph', text: 'Si vous n’êtes pas à l’origine de cette inscription, ignorez ce message : sans confirmation, vous ne recevrez rien de notre part.' },
    ],
    reason: `Vous recevez ce message parce que cette adresse a été inscrite à la lettre d’information de Contrechamp sur ${siteUrl.host}.`,
  });
}

export function newsletterWelcomeMail({ siteUrl, unsubscribeToken }: { siteUrl: URL; unsubscribeToken: string }): MailContent {
  return newsletterMail('newsletter-welcome', {
    siteUrl,
    unsubscribeToken,
    subject: 'Bienvenue dans la lettre d’information de Contrechamp',
    heading: 'Bienvenue !',
    preheader: 'Votre inscription est confirmée.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: 'Votre inscription est confirmée. Vous recevrez désormais notre lettre d’information : nos enquêtes, nos reportages, nos émissions et nos podcasts, sans publicité.',
      },
      { kind: 'paragraph', text: 'Contrechamp ne vit que grâce à ses lecteurs : abonnés, donateurs et sociétaires. Si nos articles vous sont utiles, vous pouvez nous soutenir.' },
      { kind: 'action', label: 'Lire Contrechamp', url: siteLink(siteUrl, '/') },
      { kind: 'link', label: 'Nous soutenir', url: siteLink(siteUrl, '/soutenir') },
    ],
    reason: `Vous recevez ce message parce que vous avez confirmé l’inscription de cette adresse à la lettre d’information de Contrechamp.`,
  });
}

// ---------------------------------------------------------------------------------------------
// Contact

/** Sent to the newsroom; Reply-To is the sender, so that answering goes straight back to them. */
export function contactNewsroomMail({ name, email, subject, message, siteUrl }: { name: string; email: string; subject: string; message: string; siteUrl: URL }): MailContent {
  return renderMail('contact-newsroom', {
    siteUrl,
    subject: `Formulaire de contact : ${oneLine(subject, 80)} (${oneLine(name, 60)})`,
    heading: 'Nouveau message du formulaire de contact',
    blocks: [
      {
        kind: 'fields',
        rows: [
          ['Nom', name],
          ['Adresse e-mail', email],
          ['Sujet', subject],
        ],
      },
      { kind: 'quote', text: message },
      { kind: 'note', text: 'Répondez directement à ce message : votre réponse partira vers l’adresse de l’expéditeur.' },
    ],
    reason: `Message envoyé depuis le formulaire de contact de ${siteUrl.host}.`,
    replyTo: email,
  });
}

/**
 * Acknowledgement to the sender. It echoes only the (truncated) name, never the message, so that
 * the contact form cannot be used to send arbitrary text to arbitrary addresses.
 */
export function contactAckMail({ siteUrl, name }: { siteUrl: URL; name: string }): MailContent {
  return renderMail('contact-ack', {
    siteUrl,
    subject: 'Nous avons bien reçu votre message',
    heading: 'Nous avons bien reçu votre message',
    blocks: [
      { kind: 'paragraph', text: `Bonjour ${oneLine(name, 60)},` },
      { kind: 'paragraph', text: 'Merci de nous avoir écrit. Votre message est bien arrivé à la rédaction de Contrechamp : nous lisons tout ce que nous recevons et vous répondrons dès que possible.' },
      { kind: 'link', label: 'Les réponses aux questions les plus fréquentes', url: siteLink(siteUrl, '/faq') },
    ],
    reason: `Vous recevez ce message parce que cette adresse a été indiquée dans le formulaire de contact de ${siteUrl.host}.`,
  });
}
