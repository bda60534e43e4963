/** The newsletter's mails: each carries its unsubscribe link in the body and in the List-Unsubscribe headers. */
import { renderMail, siteLink, type MailContent, type MailSpec } from '../mail/layout';

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

/** Adds what every newsletter mail must carry: the unsubscribe link in the body and the List-Unsubscribe headers. */
function newsletterMail(template: string, spec: MailSpec & { unsubscribeToken: string }): MailContent {
  const { unsubscribeToken, ...rest } = spec;
  return renderMail(template, {
    ...rest,
    footerLinks: [...(rest.footerLinks ?? []), { label: 'Se désinscrire de la lettre d’information', url: unsubscribeUrl(spec.siteUrl, unsubscribeToken) }],
    headers: { ...rest.headers, ...newsletterHeaders(spec.siteUrl, unsubscribeToken) },
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
