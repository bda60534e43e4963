/**
 * The mail of a first payment that did not go through (a card refused after 3-D Secure, a SEPA
 * debit rejected days later): the reader waited for an outcome, so every failed first payment is
 * told, whatever it paid for, with the way to try again. Renewals have their own mails
 * (subscriptions/mails.ts), with the retries.
 */
import { formatEuros } from '../../config/catalog';
import type { OrderPurpose } from '../db/database';
import { renderMail, siteLink, type MailContent } from '../mail/layout';

/** What did not start, for each purpose, and where to try again. */
const PURPOSES: Record<OrderPurpose, { nothing: string; retry: string; label: string }> = {
  subscription: {
    nothing: 'Votre abonnement n’a pas commencé et rien ne vous a été prélevé.',
    retry: '/soutenir/abonnement',
    label: 'Choisir à nouveau mon abonnement',
  },
  donation: { nothing: 'Votre don n’a pas été pris en compte et rien ne vous a été prélevé.', retry: '/soutenir/dons', label: 'Faire mon don à nouveau' },
  gift: {
    nothing: 'Le cadeau n’a pas été émis : aucun code n’a été créé et rien ne vous a été prélevé.',
    retry: '/soutenir/abonnement/offrir',
    label: 'Offrir à nouveau',
  },
  shares: {
    nothing: 'Votre souscription de parts sociales est annulée et rien ne vous a été prélevé.',
    retry: '/devenir-societaire',
    label: 'Souscrire à nouveau',
  },
};

export function firstPaymentFailedMail({
  siteUrl,
  purpose,
  description,
  amountCents,
  reason,
}: {
  siteUrl: URL;
  purpose: OrderPurpose;
  description: string;
  amountCents: number;
  reason: string;
}): MailContent {
  const what = PURPOSES[purpose];
  const amount = formatEuros(amountCents);
  return renderMail('first-payment-failed', {
    siteUrl,
    subject: `Votre paiement de ${amount} n’a pas abouti`,
    heading: 'Votre paiement n’a pas abouti',
    preheader: `${description} : ${amount}. Vous pouvez réessayer avec la même carte ou un autre moyen de paiement.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: ['Le paiement de ', { strong: amount }, ' n’a pas abouti. Voici le motif que nous a transmis notre prestataire de paiement :'],
      },
      { kind: 'quote', text: reason },
      {
        kind: 'fields',
        rows: [
          ['Commande', description],
          ['Montant', amount],
        ],
      },
      { kind: 'paragraph', text: what.nothing },
      {
        kind: 'paragraph',
        text: 'Vous pouvez réessayer, avec la même carte ou un autre moyen de paiement. Si votre banque a refusé un prélèvement, vérifiez votre IBAN et assurez-vous qu’aucune opposition ne bloque les prélèvements de Contrechamp.',
      },
      { kind: 'action', label: what.label, url: siteLink(siteUrl, what.retry) },
    ],
    reason: 'Vous recevez ce message parce qu’un paiement à Contrechamp a été tenté depuis votre compte.',
  });
}
