/** The mails of the cooperative's subscription path: bulletin received, admission, refusal, renunciation. */
import { bulletinPeriod, withdrawalBlocks } from '../contract-withdrawals/links';
import { formatEuros } from '../../config/catalog';
import { CAPITAL_ACCOUNT, CONTACTS } from '../../config/publisher';
import { findCollege, statutes } from '../../config/statutes';
import { renderMail, siteLink, type MailContent } from '../mail/layout';
import type { ShareBulletin } from './bulletins';

export const MEMBERS_EMAIL = CONTACTS.societaires.email;

const sharesOf = (n: number) => `${n} part${n > 1 ? 's' : ''} sociale${n > 1 ? 's' : ''}`;

export function bulletinReceivedMail({ siteUrl, bulletin }: { siteUrl: URL; bulletin: ShareBulletin }): MailContent {
  const transfer = bulletin.paymentMethod === 'transfer' && bulletin.status === 'awaiting_payment';
  return renderMail('shares-bulletin', {
    siteUrl,
    subject: transfer ? 'Votre bulletin de souscription : en attente de votre virement' : 'Votre souscription de parts sociales est enregistrée',
    heading: 'Votre bulletin de souscription',
    preheader: `${sharesOf(bulletin.shares)}, ${formatEuros(bulletin.amountCents)}, collège ${findCollege(bulletin.collegeId)?.label ?? bulletin.collegeId}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: transfer
          ? [
              'Nous avons bien reçu votre bulletin de souscription de ',
              { strong: sharesOf(bulletin.shares) },
              ` (${formatEuros(bulletin.amountCents)}). Il n’attend plus que votre virement\u00a0: indiquez la référence `,
              { strong: bulletin.transferReference ?? '' },
              ' dans son libellé, pour que nous puissions le rattacher à votre bulletin.',
            ]
          : [
              'Nous avons bien reçu votre souscription de ',
              { strong: sharesOf(bulletin.shares) },
              ` et son paiement (${formatEuros(bulletin.amountCents)}). Merci\u00a0!`,
            ],
      },
      ...(transfer
        ? ([
            {
              kind: 'fields',
              rows: [
                ['Montant', formatEuros(bulletin.amountCents)],
                ['Référence', bulletin.transferReference ?? ''],
                ['Titulaire', CAPITAL_ACCOUNT.holder],
                ['IBAN', CAPITAL_ACCOUNT.iban],
                ['BIC', CAPITAL_ACCOUNT.bic],
              ],
            },
          ] as const)
        : []),
      {
        kind: 'paragraph',
        text: 'La gérance se prononce sur votre admission dans les semaines qui viennent. Vous recevrez alors votre certificat de parts et votre bulletin contresigné.',
      },
      { kind: 'action', label: 'Télécharger mon bulletin (PDF)', url: siteLink(siteUrl, `/devenir-societaire/bulletin/${encodeURIComponent(bulletin.id)}`) },
      // The withdrawal function (contract-withdrawals): the last day and « Se rétracter du contrat ici », a signed link.
      ...withdrawalBlocks(siteUrl, { bulletinId: bulletin.id }, bulletinPeriod(bulletin.acceptedAt).lastDay),
      {
        kind: 'note',
        text: `Vous pouvez renoncer à votre souscription, sans motif, dans les quatorze jours qui suivent la signature, par le bouton « Se rétracter du contrat ici » ci-dessus ou depuis l’espace Sociétariat de votre compte\u00a0: elle vous sera alors intégralement remboursée. Une question\u00a0? Écrivez-nous à ${MEMBERS_EMAIL}.`,
      },
    ],
    reason: 'Vous recevez ce message parce que vous avez signé un bulletin de souscription de parts sociales de Contrechamp.',
  });
}

/**
 * What the statutes say of a member's voice: one voice per member whatever the shares held,
 * weighted by college (the weights from statutes.yaml, as the count applies them).
 */
function collegeVoice(collegeId: string): string {
  const college = findCollege(collegeId);
  const others = statutes.colleges.filter((c) => c.id !== collegeId).map((c) => `${c.label} ${c.weightPercent}\u00a0%`);
  const weight = college
    ? `Le collège ${college.label} pèse ${college.weightPercent}\u00a0% des voix${others.length ? ` (${others.join(', ')})` : ''}`
    : 'Chaque collège pèse la part des voix que fixent les statuts';
  return `Aux assemblées générales, chaque sociétaire dispose d’une voix, quel que soit le nombre de ses parts, et les voix sont pondérées par collège, comme le prévoient les statuts\u00a0: ${weight}. Au sein de votre collège, votre voix compte autant que celle de chaque autre membre.`;
}

export function admittedMail({
  siteUrl,
  bulletin,
  certificateNumber,
  memberNumber,
}: {
  siteUrl: URL;
  bulletin: ShareBulletin;
  certificateNumber: number;
  memberNumber: number;
}): MailContent {
  return renderMail('shares-admitted', {
    siteUrl,
    subject: 'Bienvenue parmi les sociétaires de Contrechamp',
    heading: 'Vous êtes sociétaire',
    preheader: `Votre certificat de parts n° ${certificateNumber} est disponible.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'La gérance a prononcé votre admission\u00a0: vous êtes sociétaire n° ',
          { strong: String(memberNumber) },
          ` de Contrechamp, dans le collège ${findCollege(bulletin.collegeId)?.label ?? bulletin.collegeId}, avec ${sharesOf(bulletin.shares)}.`,
        ],
      },
      {
        kind: 'paragraph',
        text: `Votre certificat de parts n° ${certificateNumber} et votre bulletin contresigné vous attendent dans l’espace Sociétariat de votre compte. Vous y trouverez aussi les convocations aux assemblées générales.`,
      },
      { kind: 'paragraph', text: collegeVoice(bulletin.collegeId) },
      { kind: 'action', label: 'Mon espace Sociétariat', url: siteLink(siteUrl, '/mon-compte/societariat') },
    ],
    reason: 'Vous recevez ce message parce que votre souscription de parts sociales a été acceptée.',
  });
}

export function refusedMail({
  siteUrl,
  bulletin,
  reason,
  refund,
}: {
  siteUrl: URL;
  bulletin: ShareBulletin;
  reason: string;
  refund: 'provider' | 'transfer' | 'none';
}): MailContent {
  return renderMail('shares-refused', {
    siteUrl,
    subject: 'Votre souscription de parts sociales n’a pas été acceptée',
    heading: 'Votre souscription n’a pas été acceptée',
    preheader: 'Nous vous remboursons intégralement.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: `La gérance n’a pas accepté votre souscription de ${sharesOf(bulletin.shares)}. Motif\u00a0: ${reason}` },
      {
        kind: 'paragraph',
        text:
          refund === 'provider'
            ? `Nous vous remboursons ${formatEuros(bulletin.amountCents)} sur le moyen de paiement utilisé\u00a0; selon votre banque, le montant apparaîtra sur votre compte sous cinq à dix jours ouvrés.`
            : refund === 'transfer'
              ? `Nous vous remboursons ${formatEuros(bulletin.amountCents)} par virement, sous quatorze jours.`
              : 'Aucun paiement n’avait été reçu\u00a0: rien ne vous sera prélevé.',
      },
      { kind: 'note', text: `Une question\u00a0? Écrivez-nous à ${MEMBERS_EMAIL}.` },
    ],
    reason: 'Vous recevez ce message parce que vous avez signé un bulletin de souscription de parts sociales de Contrechamp.',
  });
}

export function collegeChangedMail({ siteUrl, from, to, effectiveOn }: { siteUrl: URL; from: string; to: string; effectiveOn: string }): MailContent {
  return renderMail('shares-college', {
    siteUrl,
    subject: 'Votre collège de sociétaire a changé',
    heading: 'Votre nouveau collège',
    preheader: `Votre voix compte désormais dans le collège ${to}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'La gérance a inscrit au registre des sociétaires votre changement de collège\u00a0: vous passez du collège ',
          { strong: from },
          ' au collège ',
          { strong: to },
          `, à compter du ${effectiveOn}. Vos parts ne changent pas\u00a0; votre voix aux assemblées générales compte désormais dans votre nouveau collège.`,
        ],
      },
      { kind: 'action', label: 'Voir mon sociétariat', url: siteLink(siteUrl, '/mon-compte/societariat') },
      { kind: 'note', text: `Une erreur\u00a0? Écrivez-nous à ${MEMBERS_EMAIL}.` },
    ],
    reason: 'Vous recevez ce message parce que vous êtes sociétaire de Contrechamp.',
  });
}
