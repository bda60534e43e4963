/**
 * The mails of gift subscriptions: the buyer's (code and printable card), the recipient's (on
 * the chosen day, or resent), the activation (to the recipient, and a word to the buyer), the
 * invitation to subscribe before a gift ends, and its end.
 */
import { formatDate } from '../../lib/dates';
import { oneLine, renderMail, siteLink, type Block, type MailContent } from '../mail/layout';
import { giftAccountPath } from '../../lib/gift-links';

/** The activation link of the recipient's mail: with their address when known, for a prefilled form. */
const activationUrl = (siteUrl: URL, code: string, email?: string | null) => new URL(giftAccountPath(code, email), siteUrl);
const longDay = (day: string) => formatDate(new Date(`${day}T12:00:00Z`));
/** A buyer's name inside a sentence: the default « Une lectrice ou un lecteur… » loses its capital. */
const midSentence = (name: string) => name.replace(/^Une /, 'une ');

export function giftBuyerMail({
  siteUrl,
  code,
  duration,
  recipientName,
  recipientEmail,
  deliverOn,
  expiresAt,
  invoice,
  withdrawal = [],
}: {
  siteUrl: URL;
  code: string;
  duration: string;
  recipientName: string;
  recipientEmail: string | null;
  deliverOn: string;
  expiresAt: Date;
  invoice: { id: string; label: string } | null;
  /** The withdrawal function's blocks (contract-withdrawals `withdrawalBlocks`): the last day and « Se rétracter du contrat ici ». */
  withdrawal?: Block[];
}): MailContent {
  const delivery: Block = recipientEmail
    ? {
        kind: 'paragraph',
        text: [
          'Nous enverrons le cadeau à ',
          { strong: recipientName },
          ` (${recipientEmail}) le ${longDay(deliverOn)}, avec votre message. Vous pouvez suivre son envoi et son activation, ou renvoyer l’e-mail, depuis « Mes cadeaux ».`,
        ],
      }
    : {
        kind: 'paragraph',
        text: [
          'Vous avez choisi de remettre le cadeau vous-même à ',
          { strong: recipientName },
          ' : imprimez la carte jointe (PDF), ou transmettez-lui le code ci-dessus.',
        ],
      };
  return renderMail('gift-bought', {
    siteUrl,
    // Names are the buyer's typing: one line in a Subject.
    subject: `Votre abonnement offert : ${duration} de Contrechamp pour ${oneLine(recipientName, 80)}`,
    heading: 'Merci pour ce cadeau !',
    preheader: `Le code cadeau de ${recipientName} et sa carte à imprimer.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'Vous offrez ',
          { strong: `${duration} de Contrechamp` },
          ` à ${recipientName}. Merci : chaque nouvelle lectrice, chaque nouveau lecteur rend notre journalisme un peu plus fort.`,
        ],
      },
      {
        kind: 'fields',
        rows: [
          ['Code cadeau', code],
          ['Valable jusqu’au', formatDate(expiresAt)],
          ['Activation', siteLink(siteUrl, '/activer-cadeau').href],
        ],
      },
      delivery,
      { kind: 'paragraph', text: 'La carte cadeau à imprimer est jointe à ce message (PDF).' },
      { kind: 'link', label: 'Mes cadeaux', url: siteLink(siteUrl, '/mon-compte/mes-cadeaux') },
      ...(invoice
        ? ([
            {
              kind: 'link',
              label: `Télécharger la facture n° ${invoice.label} (PDF)`,
              url: siteLink(siteUrl, `/mon-compte/mes-factures/${encodeURIComponent(invoice.id)}`),
            },
          ] satisfies Block[])
        : []),
      ...withdrawal,
      {
        kind: 'note',
        text: 'Le code est valable un an et ne sert qu’une fois. Un abonnement offert n’est jamais reconduit : à son terme, rien n’est prélevé, ni à vous ni à la personne qui le reçoit. Vous pouvez vous rétracter tant que le code n’a pas été activé, dans les 14 jours qui suivent l’achat (CGV, article 8), depuis le bouton « Se rétracter du contrat ici » ci-dessus ou « Mes cadeaux ».',
      },
    ],
    reason: 'Vous recevez ce message parce que vous avez offert un abonnement à Contrechamp.',
  });
}

export function giftRecipientMail({
  siteUrl,
  code,
  duration,
  recipientName,
  recipientEmail,
  buyerName,
  message,
  expiresAt,
}: {
  siteUrl: URL;
  code: string;
  duration: string;
  recipientName: string;
  buyerName: string;
  message: string;
  expiresAt: Date;
  /** The address the mail goes to: its activation link carries it (a prefilled account form). */
  recipientEmail?: string | null | undefined;
}): MailContent {
  return renderMail('gift-received', {
    siteUrl,
    subject: `${oneLine(buyerName, 80)} vous offre ${duration} de Contrechamp`,
    heading: 'On vous offre Contrechamp',
    preheader: `${buyerName} vous offre un abonnement de ${duration} à Contrechamp, média indépendant et citoyen.`,
    blocks: [
      { kind: 'paragraph', text: `Bonjour ${recipientName},` },
      {
        kind: 'paragraph',
        text: [
          { strong: buyerName },
          ' vous offre ',
          { strong: `${duration} d’abonnement à Contrechamp` },
          ', média indépendant et citoyen : enquêtes, émissions et podcasts, sans publicité.',
        ],
      },
      ...(message
        ? ([
            { kind: 'paragraph', text: 'Son message :' },
            { kind: 'quote', text: message },
          ] satisfies Block[])
        : []),
      { kind: 'action', label: 'Activer mon abonnement offert', url: activationUrl(siteUrl, code, recipientEmail) },
      {
        kind: 'fields',
        rows: [
          ['Votre code cadeau', code],
          ['Valable jusqu’au', formatDate(expiresAt)],
        ],
      },
      {
        kind: 'paragraph',
        text: [
          'Vous pouvez aussi saisir ce code sur ',
          siteLink(siteUrl, '/activer-cadeau').href,
          '. Aucune carte bancaire n’est demandée, et l’abonnement ne se renouvelle jamais tout seul.',
        ],
      },
      {
        kind: 'note',
        text: 'Vous avez déjà un abonnement ? Les mois offerts s’ajoutent après la période déjà payée : votre prochain paiement est reporté d’autant.',
      },
    ],
    reason: `Vous recevez ce message parce que ${midSentence(buyerName)} vous a offert un abonnement à Contrechamp et nous a donné votre adresse pour vous le transmettre. Nous ne l’utiliserons pour rien d’autre.`,
  });
}

export function giftEndingMail({ siteUrl, endsAt }: { siteUrl: URL; endsAt: Date }): MailContent {
  return renderMail('gift-ending', {
    siteUrl,
    subject: `Votre abonnement offert se termine le ${formatDate(endsAt)}`,
    heading: 'Votre abonnement offert se termine bientôt',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: `L’abonnement qui vous a été offert se termine le ${formatDate(endsAt)}. Il ne se renouvelle pas : rien ne vous sera prélevé.`,
      },
      {
        kind: 'paragraph',
        text: 'Si vous avez aimé nous lire, vous pouvez continuer à faire vivre un journalisme indépendant en vous abonnant, dès 3 € par mois au tarif solidaire.',
      },
      { kind: 'action', label: 'Je m’abonne', url: siteLink(siteUrl, '/soutenir/abonnement') },
    ],
    reason: 'Vous recevez ce message parce qu’un abonnement à Contrechamp vous a été offert.',
  });
}

export function giftEndedMail({ siteUrl }: { siteUrl: URL }): MailContent {
  return renderMail('gift-ended', {
    siteUrl,
    subject: 'Votre abonnement offert est terminé',
    heading: 'Votre abonnement offert est terminé',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: 'L’abonnement qui vous a été offert est arrivé à son terme. Nos contenus restent gratuits pour tout le monde : merci de nous avoir lus.',
      },
      { kind: 'paragraph', text: 'Pour nous aider à le rester, vous pouvez vous abonner ou faire un don.' },
      { kind: 'action', label: 'Je soutiens Contrechamp', url: siteLink(siteUrl, '/soutenir') },
    ],
    reason: 'Vous recevez ce message parce qu’un abonnement à Contrechamp vous a été offert.',
  });
}

/**
 * To the account that activated a code: what the gift gives, with its dates. Months added after
 * a paid period move its next payment (or its end, when its cancellation was asked).
 */
export function giftActivatedMail({
  siteUrl,
  duration,
  buyerName,
  startsAt,
  endsAt,
  nextPaymentAt,
  afterPaid,
}: {
  siteUrl: URL;
  duration: string;
  buyerName: string;
  startsAt: Date;
  endsAt: Date;
  nextPaymentAt: Date | null;
  afterPaid: boolean;
}): MailContent {
  const dates = afterPaid
    ? `Il s’ajoute à votre abonnement, après la période déjà payée : votre période en cours se termine désormais le ${formatDate(endsAt)}.${nextPaymentAt ? ` Votre prochain paiement est reporté au ${formatDate(nextPaymentAt)}.` : ' Rien ne vous sera prélevé d’ici là.'}`
    : `Il commence le ${formatDate(startsAt)} et se termine le ${formatDate(endsAt)}. Il ne se renouvelle pas : rien ne vous sera jamais prélevé. Nous vous écrirons deux semaines avant son terme.`;
  return renderMail('gift-activated', {
    siteUrl,
    subject: `Abonnement offert activé : ${duration} de Contrechamp`,
    heading: 'Votre abonnement offert est activé',
    preheader: `Offert par ${midSentence(buyerName)}, jusqu’au ${formatDate(endsAt)}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: ['L’abonnement de ', { strong: duration }, ' qui vous a été offert par ', { strong: midSentence(buyerName) }, ' est activé.'],
      },
      { kind: 'paragraph', text: dates },
      { kind: 'action', label: 'Voir mon abonnement', url: siteLink(siteUrl, '/mon-compte/mes-abonnements') },
    ],
    reason: 'Vous recevez ce message parce que vous venez d’activer un code cadeau Contrechamp sur votre compte.',
  });
}

/**
 * To the buyer: the gift was taken. Nothing of the recipient beyond the name the buyer gave,
 * and not who activated it (the code may have been passed on).
 */
export function giftTakenMail({
  siteUrl,
  duration,
  recipientName,
  activatedAt,
}: {
  siteUrl: URL;
  duration: string;
  recipientName: string;
  activatedAt: Date;
}): MailContent {
  return renderMail('gift-taken', {
    siteUrl,
    subject: `Votre cadeau pour ${oneLine(recipientName, 60)} a été activé`,
    heading: 'Votre cadeau a été activé',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'L’abonnement de ',
          { strong: duration },
          ' que vous avez offert à ',
          { strong: recipientName },
          ` a été activé le ${formatDate(activatedAt)}. Merci pour ce cadeau, et pour votre soutien.`,
        ],
      },
      { kind: 'action', label: 'Mes cadeaux', url: siteLink(siteUrl, '/mon-compte/mes-cadeaux') },
    ],
    reason: 'Vous recevez ce message parce que vous avez offert un abonnement à Contrechamp.',
  });
}
