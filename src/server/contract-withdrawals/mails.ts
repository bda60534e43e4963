/**
 * The acknowledgement of a withdrawal, on a durable medium (art. 11a of the consumer rights
 * directive): the contract, its reference, the date and time of the withdrawal (Paris), what is
 * refunded, how, and within how long (CGV art. 8 and 10). Sent at once: scheduled in the
 * transaction that records the withdrawal.
 */
import { formatEuros } from '../../config/catalog';
import { CONTACTS } from '../../config/publisher';
import { formatDate, formatDateTime } from '../../lib/dates';
import { renderMail, siteLink, type Block, type MailContent } from '../mail/layout';
import type { Contract } from './contract';

const NEXT: Record<Contract['kind'], string> = {
  subscription: 'Votre abonnement prend fin dès que le remboursement est confirmé par notre prestataire de paiement ; nous vous l’écrivons alors.',
  gift: 'Le code cadeau ne peut plus être activé.',
  shares: 'Votre souscription de parts sociales est annulée. Si ces parts étaient déjà inscrites au registre, elles en sont retirées.',
};

export function acknowledgementMail({
  siteUrl,
  contract,
  withdrawnAt,
  refundByTransfer,
}: {
  siteUrl: URL;
  contract: Contract;
  withdrawnAt: Date;
  refundByTransfer?: string | undefined;
}): MailContent {
  const when = `${formatDateTime(withdrawnAt)} (heure de Paris)`;
  const refund: Block =
    contract.refundCents > 0
      ? refundByTransfer
        ? {
            kind: 'paragraph',
            text: [
              'Nous vous remboursons ',
              { strong: formatEuros(contract.refundCents) },
              ` par virement (référence ${refundByTransfer}) : indiquez l’IBAN du compte à créditer dans l’espace Sociétariat de votre compte ; le virement part dans les 14 jours qui suivent.`,
            ],
          }
        : {
            kind: 'paragraph',
            text: [
              'Nous vous remboursons ',
              { strong: formatEuros(contract.refundCents) },
              ` ${contract.refundMeans}, sans frais, dans un délai de 14 jours au plus à compter de ce jour (CGV, article ${contract.kind === 'shares' ? '10' : '8'}).`,
            ],
          }
      : { kind: 'paragraph', text: 'Rien n’a été payé pour ce contrat : il n’y a rien à rembourser.' };
  return renderMail('contract-withdrawal', {
    siteUrl,
    // Shares speak of « renonciation » (CGV art. 10, the bulletin): the subject says both.
    subject:
      contract.kind === 'shares'
        ? `Votre rétractation (renonciation à la souscription) est enregistrée : ${contract.name}`
        : `Votre rétractation est enregistrée : ${contract.name}`,
    heading: 'Votre rétractation est enregistrée',
    preheader: `Rétractation du ${when}, contrat ${contract.reference}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: ['Nous avons bien reçu votre rétractation, le ', { strong: when }, '. Ce message en est l’accusé de réception : conservez-le.'],
      },
      {
        kind: 'fields',
        rows: [
          ['Contrat', contract.name],
          ['Référence', contract.reference],
          ['Conclu le', formatDate(contract.concludedAt)],
          ['Rétractation', when],
          ['Montant remboursé', formatEuros(contract.refundCents)],
        ],
      },
      refund,
      // Refunded by transfer: the way to give the IBAN, as the shares' refund mails have it.
      ...(contract.refundCents > 0 && refundByTransfer
        ? [{ kind: 'action', label: 'Indiquer mon IBAN', url: siteLink(siteUrl, '/mon-compte/societariat#remboursements') } satisfies Block]
        : []),
      { kind: 'paragraph', text: NEXT[contract.kind] },
      { kind: 'link', label: 'Mon compte', url: siteLink(siteUrl, '/mon-compte') },
      {
        kind: 'note',
        text: `Vous n’êtes pas à l’origine de cette rétractation ? Écrivez-nous sans attendre à ${contract.kind === 'shares' ? CONTACTS.societaires.email : CONTACTS.abonnements.email}.`,
      },
    ],
    reason: 'Vous recevez ce message parce qu’une rétractation a été enregistrée pour un contrat conclu sur contrechamp.media avec votre compte.',
  });
}
