/** The newsletters' mails: each carries its unsubscribe and preferences links in the body and the List-Unsubscribe headers. */
import { renderMail, siteLink, type MailContent, type MailSpec } from '../mail/layout';
import { beforeName } from './issue-mail';

/** The unsubscribe page (one newsletter when `newsletter` is given, else all). */
export function unsubscribeUrl(siteUrl: URL, unsubscribeToken: string, newsletter?: string): URL {
  return siteLink(siteUrl, '/mailinglist/unsubscribe', { token: unsubscribeToken, ...(newsletter ? { lettre: newsletter } : {}) });
}

/** The page where a reader chooses their newsletters without signing in. */
export function preferencesUrl(siteUrl: URL, unsubscribeToken: string): URL {
  return siteLink(siteUrl, '/mailinglist/preferences', { token: unsubscribeToken });
}

/** ASCII words for a header's display phrase (List-Id's must not need encoding). */
const asciiPhrase = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[’‘]/g, "'")
    .replace(/[^A-Za-z0-9 '.-]/g, '')
    .trim();

/**
 * Headers every newsletter mail carries (RFC 2369, 2919, 8058): List-Unsubscribe with an https
 * address, which mailbox providers POST `List-Unsubscribe=One-Click` to without showing a page,
 * and a mailto one (`mailto`) for clients that only mail; List-Id naming the newsletter, so that
 * the one-click leaves that newsletter only.
 */
export function newsletterHeaders(
  siteUrl: URL,
  unsubscribeToken: string,
  options: { newsletter?: { id: string; name: string }; mailto?: string } = {},
): Record<string, string> {
  const { newsletter, mailto } = options;
  const oneClick = siteLink(siteUrl, '/api/mailinglist/unsubscribe', { token: unsubscribeToken, ...(newsletter ? { lettre: newsletter.id } : {}) });
  const byMail = mailto ? `, <mailto:${mailto}?subject=${encodeURIComponent(`unsubscribe ${unsubscribeToken}`)}>` : '';
  return {
    'List-Unsubscribe': `<${oneClick.href}>${byMail}`,
    'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    ...(newsletter ? { 'List-Id': `${asciiPhrase(`${newsletter.name} - Contrechamp`)} <${newsletter.id}.lettres.${siteUrl.hostname}>` } : {}),
  };
}

/** Adds what every newsletter mail must carry: the unsubscribe link in the body and the List-Unsubscribe headers. */
function newsletterMail(template: string, spec: MailSpec & { unsubscribeToken: string }): MailContent {
  const { unsubscribeToken, ...rest } = spec;
  return renderMail(template, {
    ...rest,
    footerLinks: [
      ...(rest.footerLinks ?? []),
      { label: 'Gérer mes lettres d’information', url: preferencesUrl(spec.siteUrl, unsubscribeToken) },
      { label: 'Se désinscrire de toutes les lettres', url: unsubscribeUrl(spec.siteUrl, unsubscribeToken) },
    ],
    headers: { ...rest.headers, ...newsletterHeaders(spec.siteUrl, unsubscribeToken) },
  });
}

// ---------------------------------------------------------------------------------------------
// Newsletter

/** « L’Hebdo », « L’Hebdo et La Quotidienne », « A, B et C ». */
export function namesList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} et ${names.at(-1)}`;
}

export function newsletterConfirmMail({
  siteUrl,
  token,
  unsubscribeToken,
  newsletters,
}: {
  siteUrl: URL;
  token: string;
  unsubscribeToken: string;
  newsletters: readonly string[];
}): MailContent {
  return newsletterMail('newsletter-confirm', {
    siteUrl,
    unsubscribeToken,
    subject:
      newsletters.length === 1 ? `Confirmez votre inscription ${beforeName('à', newsletters[0]!)}` : 'Confirmez votre inscription à nos lettres d’information',
    heading: 'Confirmez votre inscription',
    preheader: `Un clic pour recevoir ${namesList(newsletters)}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: ['Merci de votre intérêt pour Contrechamp ! Pour recevoir ', { strong: namesList(newsletters) }, ', confirmez votre adresse.'],
      },
      { kind: 'action', label: 'Confirmer mon inscription', url: siteLink(siteUrl, '/mailinglist/confirm', { token }) },
      {
        kind: 'paragraph',
        text: 'Si vous n’êtes pas à l’origine de cette inscription, ignorez ce message : sans confirmation, vous ne recevrez rien de notre part.',
      },
    ],
    reason: `Vous recevez ce message parce que cette adresse a été inscrite aux lettres d’information de Contrechamp sur ${siteUrl.host}.`,
  });
}

export function newsletterWelcomeMail({
  siteUrl,
  unsubscribeToken,
  newsletters,
}: {
  siteUrl: URL;
  unsubscribeToken: string;
  newsletters: readonly string[];
}): MailContent {
  return newsletterMail('newsletter-welcome', {
    siteUrl,
    unsubscribeToken,
    subject:
      newsletters.length === 1
        ? `Bienvenue ${beforeName('à', newsletters[0]!).replace(/^à /, 'dans ')}`
        : 'Bienvenue dans les lettres d’information de Contrechamp',
    heading: 'Bienvenue !',
    preheader: 'Votre inscription est confirmée.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'Votre inscription est confirmée. Vous recevrez désormais ',
          { strong: namesList(newsletters) },
          ' : nos enquêtes, nos reportages, nos émissions et nos podcasts, sans publicité.',
        ],
      },
      {
        kind: 'paragraph',
        text: 'Vous pouvez choisir à tout moment les lettres que vous recevez, depuis le lien « Gérer mes lettres d’information » en bas de chacune.',
      },
      {
        kind: 'paragraph',
        text: 'Contrechamp ne vit que grâce à ses lectrices et à ses lecteurs : abonnements, dons, parts sociales. Si nos articles vous sont utiles, vous pouvez nous soutenir.',
      },
      { kind: 'action', label: 'Lire Contrechamp', url: siteLink(siteUrl, '/') },
      { kind: 'link', label: 'Nous soutenir', url: siteLink(siteUrl, '/soutenir') },
    ],
    reason: `Vous recevez ce message parce que vous avez confirmé l’inscription de cette adresse aux lettres d’information de Contrechamp.`,
  });
}
