/** The mails of billing: the yearly statement of a donor's donations. */
import { formatEuros } from '../../config/catalog';
import { renderMail, siteLink, type MailContent } from '../mail/layout';

export function statementMail({ siteUrl, year, documentId, label, totalCents }: { siteUrl: URL; year: number; documentId: string; label: string; totalCents: number }): MailContent {
  return renderMail('donation-statement', {
    siteUrl,
    subject: `Vos dons à Contrechamp en ${year}`,
    heading: `Vos dons en ${year}`,
    preheader: `Le récapitulatif de vos dons de ${year} : ${formatEuros(totalCents)}. Merci !`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: ['En ', String(year), ', vous avez donné ', { strong: formatEuros(totalCents) }, ' à Contrechamp. Merci : ce sont vos dons qui gardent notre journalisme libre, sans publicité et gratuit pour tout le monde.'] },
      { kind: 'paragraph', text: `Voici le récapitulatif de vos dons de l’année (n° ${label}), au format PDF ; vous le retrouverez aussi dans « Mes factures », dans votre compte.` },
      { kind: 'action', label: 'Télécharger mon récapitulatif (PDF)', url: siteLink(siteUrl, `/mon-compte/mes-factures/${encodeURIComponent(documentId)}`) },
      {
        kind: 'note',
        text: 'Ce récapitulatif n’est pas un reçu fiscal : Contrechamp est une entreprise de presse, et un don qui lui est fait directement n’ouvre droit à aucune réduction d’impôt. Les dons passés par un fonds de soutien à la presse font l’objet d’un reçu fiscal délivré par ce fonds.',
      },
    ],
    reason: `Vous recevez ce message parce que vous avez fait au moins un don à Contrechamp en ${year}.`,
  });
}
