/** The auth domain's mails: sign-in link, password reset and change, change of address. */
import { renderMail, siteLink, type MailContent } from '../mail/layout';

const tokenPath = (prefix: string, token: string) => `${prefix}/${encodeURIComponent(token)}`;

// ---------------------------------------------------------------------------------------------
// Account

/** Sent to the address of an account created at an account step: proves that the address is the reader's. */
export function signUpConfirmMail({ siteUrl, token }: { siteUrl: URL; token: string }): MailContent {
  return renderMail('sign-up-confirm', {
    siteUrl,
    subject: 'Confirmez l’adresse de votre compte Contrechamp',
    heading: 'Bienvenue sur Contrechamp',
    preheader: 'Confirmez votre adresse e-mail : ce lien est valable 7 jours.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: 'Votre compte Contrechamp vient d’être créé avec cette adresse. Confirmez-la d’un clic : c’est elle qui vous permet de recevoir vos liens de connexion et vos reçus.',
      },
      { kind: 'action', label: 'Confirmer mon adresse', url: siteLink(siteUrl, tokenPath('/creer-mon-compte/confirmer', token)) },
      { kind: 'paragraph', text: 'Ce lien est valable 7 jours et ne peut servir qu’une seule fois.' },
      { kind: 'paragraph', text: 'Si vous n’avez pas créé de compte, ignorez ce message ou écrivez-nous.' },
    ],
    reason: `Vous recevez ce message parce qu’un compte a été créé avec cette adresse sur ${siteUrl.host}.`,
  });
}

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
      {
        kind: 'paragraph',
        text: 'Vous avez demandé à changer le mot de passe de votre compte Contrechamp. Ce lien est valable une heure et ne peut servir qu’une seule fois.',
      },
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
      {
        kind: 'paragraph',
        text: [
          'Vous avez demandé à utiliser l’adresse ',
          { strong: newEmail },
          ' pour votre compte Contrechamp. Confirmez-la pour que le changement prenne effet.',
        ],
      },
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
      {
        kind: 'paragraph',
        text: 'Le changement ne prendra effet qu’une fois cette nouvelle adresse confirmée, dans les 24 heures. Si c’est bien vous, vous n’avez rien d’autre à faire.',
      },
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
      {
        kind: 'paragraph',
        text: [
          'L’adresse e-mail de votre compte Contrechamp est désormais ',
          { strong: newEmail },
          '. Cette adresse-ci n’y est plus associée : vous ne recevrez plus nos messages concernant votre compte.',
        ],
      },
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
