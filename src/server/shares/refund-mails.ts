/**
 * The mails of the refunds made by bank transfer (refunds.ts): the person is asked for the IBAN
 * to send the money to (a renunciation, a refusal, a withdrawal's repayment, an overpayment), and
 * told when the transfer has left. No mail promises a refund « on the means of payment used »
 * when the provider cannot make it.
 */
import { formatEuros } from '../../config/catalog';
import { formatDate } from '../../lib/dates';
import { renderMail, siteLink, type Block, type MailContent } from '../mail/layout';
import type { ShareBulletin } from './bulletins';
import { MEMBERS_EMAIL } from './mails';

const sharesOf = (n: number) => `${n} part${n > 1 ? 's' : ''} sociale${n > 1 ? 's' : ''}`;

/** Where the member gives their IBAN. */
export const REFUNDS_PATH = '/mon-compte/societariat#remboursements';

export interface RefundOwed {
  reference: string;
  amountCents: number;
}

/** The paragraph and the button that ask for the IBAN. */
const askIban = (siteUrl: URL, refund: RefundOwed): Block[] => [
  {
    kind: 'paragraph',
    text: [
      'Nous vous remboursons ',
      { strong: formatEuros(refund.amountCents) },
      ' par virement bancaire. Pour cela, indiquez dans votre espace Sociétariat l’IBAN du compte à créditer et le nom de son titulaire\u00a0: le virement partira dans les quatorze jours qui suivent.',
    ],
  },
  { kind: 'action', label: 'Indiquer mon IBAN', url: siteLink(siteUrl, REFUNDS_PATH) },
  {
    kind: 'fields',
    rows: [
      ['Montant', formatEuros(refund.amountCents)],
      ['Référence du remboursement', refund.reference],
    ],
  },
];

export function refusedByTransferMail({
  siteUrl,
  bulletin,
  reason,
  refund,
}: {
  siteUrl: URL;
  bulletin: ShareBulletin;
  reason: string;
  refund: RefundOwed;
}): MailContent {
  return renderMail('shares-refused', {
    siteUrl,
    subject: 'Votre souscription de parts sociales n’a pas été acceptée',
    heading: 'Votre souscription n’a pas été acceptée',
    preheader: 'Indiquez-nous votre IBAN pour recevoir votre remboursement.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: `La gérance n’a pas accepté votre souscription de ${sharesOf(bulletin.shares)}. Motif\u00a0: ${reason}` },
      ...askIban(siteUrl, refund),
      { kind: 'note', text: `Une question\u00a0? Écrivez-nous à ${MEMBERS_EMAIL}.` },
    ],
    reason: 'Vous recevez ce message parce que vous avez signé un bulletin de souscription de parts sociales de Contrechamp.',
  });
}

export function repaymentByTransferMail({ siteUrl, shares, refund }: { siteUrl: URL; shares: number; refund: RefundOwed }): MailContent {
  return renderMail('shares-withdrawal', {
    siteUrl,
    subject: 'Remboursement de vos parts sociales : indiquez votre IBAN',
    heading: 'Le remboursement de vos parts',
    preheader: `${formatEuros(refund.amountCents)} pour le retrait de ${sharesOf(shares)}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: `La gérance a arrêté à ${formatEuros(refund.amountCents)} le montant qui vous est remboursé pour le retrait de ${sharesOf(shares)}.`,
      },
      ...askIban(siteUrl, refund),
      { kind: 'note', text: `Une question\u00a0? Écrivez-nous à ${MEMBERS_EMAIL}.` },
    ],
    reason: 'Vous recevez ce message parce que vous avez demandé le retrait de parts sociales de Contrechamp.',
  });
}

export function overpaymentMail({
  siteUrl,
  bulletin,
  receivedCents,
  refund,
}: {
  siteUrl: URL;
  bulletin: ShareBulletin;
  receivedCents: number;
  refund: RefundOwed;
}): MailContent {
  return renderMail('shares-overpayment', {
    siteUrl,
    subject: 'Vous nous avez versé plus que le montant de votre souscription',
    heading: 'Un trop-perçu à vous rembourser',
    preheader: `${formatEuros(refund.amountCents)} à vous rembourser.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: `Nous avons reçu ${formatEuros(receivedCents)} pour votre souscription de ${sharesOf(bulletin.shares)}, qui s’élève à ${formatEuros(bulletin.amountCents)} (peut-être un virement fait deux fois). Votre souscription est payée\u00a0; la différence vous revient.`,
      },
      ...askIban(siteUrl, refund),
      { kind: 'note', text: `Une question\u00a0? Écrivez-nous à ${MEMBERS_EMAIL}.` },
    ],
    reason: 'Vous recevez ce message parce que vous avez signé un bulletin de souscription de parts sociales de Contrechamp.',
  });
}

/** The transfer has left the cooperative's account. */
export function refundMadeMail({
  siteUrl,
  refund,
  madeOn,
  maskedIban,
  accountHolder,
}: {
  siteUrl: URL;
  refund: RefundOwed;
  madeOn: string;
  maskedIban: string;
  accountHolder: string;
}): MailContent {
  const day = formatDate(new Date(`${madeOn}T12:00:00Z`));
  return renderMail('shares-refund-made', {
    siteUrl,
    subject: 'Votre remboursement par virement est parti',
    heading: 'Votre remboursement est en route',
    preheader: `${formatEuros(refund.amountCents)}, virement du ${day}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'Nous vous avons remboursé ',
          { strong: formatEuros(refund.amountCents) },
          ` par un virement parti le ${day}. Selon votre banque, il apparaîtra sur votre compte sous un à trois jours ouvrés.`,
        ],
      },
      {
        kind: 'fields',
        rows: [
          ['Montant', formatEuros(refund.amountCents)],
          ['Libellé du virement', refund.reference],
          ['Titulaire', accountHolder],
          ['IBAN', maskedIban],
        ],
      },
      { kind: 'action', label: 'Mon espace Sociétariat', url: siteLink(siteUrl, REFUNDS_PATH) },
      {
        kind: 'note',
        text: `Toujours rien sur votre compte au bout d’une semaine\u00a0? Écrivez-nous à ${MEMBERS_EMAIL}, en indiquant la référence ${refund.reference}.`,
      },
    ],
    reason: 'Vous recevez ce message parce qu’un remboursement de la coopérative Contrechamp vous était dû.',
  });
}
