/** The mails of billing: a refund with its credit note, the yearly statement of a donor's donations. */
import { formatEuros } from '../../config/catalog';
import { formatDate } from '../../lib/dates';
import { renderMail, siteLink, type MailContent } from '../mail/layout';
import { CONTACTS } from '../../config/publisher';

export function statementMail({
  siteUrl,
  year,
  documentId,
  label,
  totalCents,
}: {
  siteUrl: URL;
  year: number;
  documentId: string;
  label: string;
  totalCents: number;
}): MailContent {
  return renderMail('donation-statement', {
    siteUrl,
    subject: `Vos dons à Contrechamp en ${year}`,
    heading: `Vos dons en ${year}`,
    preheader: `Le récapitulatif de vos dons de ${year} : ${formatEuros(totalCents)}. Merci !`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'En ',
          String(year),
          ', vous avez donné ',
          { strong: formatEuros(totalCents) },
          ' à Contrechamp. Merci : ce sont vos dons qui gardent notre journalisme libre, sans publicité et gratuit pour tout le monde.',
        ],
      },
      {
        kind: 'paragraph',
        text: `Voici le récapitulatif de vos dons de l’année (n° ${label}), au format PDF ; vous le retrouverez aussi dans votre compte, rubrique « Mes factures ».`,
      },
      { kind: 'action', label: 'Télécharger mon récapitulatif (PDF)', url: siteLink(siteUrl, `/mon-compte/mes-factures/${encodeURIComponent(documentId)}`) },
      {
        kind: 'note',
        text: 'Ce récapitulatif n’est pas un reçu fiscal : Contrechamp est une entreprise de presse, et un don qui lui est fait directement n’ouvre droit à aucune réduction d’impôt. Les dons passés par un fonds de soutien à la presse font l’objet d’un reçu fiscal délivré par ce fonds.',
      },
    ],
    reason: `Vous recevez ce message parce que vous avez fait au moins un don à Contrechamp en ${year}.`,
  });
}

export function refundMail({
  siteUrl,
  description,
  amountCents,
  refundedAt,
  creditNote,
  canceledReceipt,
}: {
  siteUrl: URL;
  description: string;
  amountCents: number;
  refundedAt: Date;
  creditNote: { id: string; label: string } | null;
  /** The receipt of a refunded donation. */
  canceledReceipt: { label: string } | null;
}): MailContent {
  const amount = formatEuros(amountCents);
  return renderMail('refund', {
    siteUrl,
    subject: `Remboursement de ${amount} effectué`,
    heading: 'Remboursement effectué',
    preheader: `Nous vous avons remboursé ${amount}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'Nous vous avons remboursé ',
          { strong: amount },
          ` (${description}) le ${formatDate(refundedAt)}, sur le moyen de paiement utilisé. Selon votre banque, le montant apparaîtra sur votre compte sous cinq à dix jours ouvrés.`,
        ],
      },
      ...(creditNote
        ? ([
            {
              kind: 'paragraph',
              text: `L’avoir n° ${creditNote.label}, qui annule la facture correspondante, est disponible au format PDF ; vous le retrouverez aussi dans votre compte, rubrique « Mes factures ».`,
            },
            {
              kind: 'link',
              label: `Télécharger l’avoir n° ${creditNote.label} (PDF)`,
              url: siteLink(siteUrl, `/mon-compte/mes-factures/${encodeURIComponent(creditNote.id)}`),
            },
          ] as const)
        : []),
      ...(canceledReceipt
        ? ([
            { kind: 'paragraph', text: `Le reçu de don n° ${canceledReceipt.label} est annulé, et ce don ne figurera pas sur votre récapitulatif annuel.` },
          ] as const)
        : []),
      { kind: 'note', text: `Une question sur ce remboursement ? Écrivez-nous à ${CONTACTS.abonnements.email}.` },
    ],
    reason: 'Vous recevez ce message parce qu’un paiement fait sur Contrechamp vous a été remboursé.',
  });
}
