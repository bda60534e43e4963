/**
 * The mails of reader revenue: payments received, subscriptions (abonnements) and monthly
 * donations (dons mensuels) started, renewed, refused, cancelled, resumed, ended or changed.
 *
 * They carry the promises of the CGV (src/content/pages/cgv.md): cancellation in three clicks,
 * effective at the end of the paid period and confirmed by e-mail (art. 6.2); the notice before
 * the tacit renewal of a yearly subscription (art. 6.1, article L. 215-1 du Code de la
 * consommation); new attempts after a refused payment (art. 5); the 14-day withdrawal with a full
 * refund for subscriptions, and none for donations (art. 8).
 *
 * A donation to Contrechamp, a press company, gives no tax reduction: these mails never promise
 * one, and the payment confirmation of a donation says it is not a tax receipt.
 *
 * Amounts are integer cents, dates are formatted in Paris time, and every link is built from the
 * configured site URL (see mail/layout.ts).
 */
import { formatEuros, formatRate, intervalLabel, type Interval } from '../../config/catalog';
import { formatDate, formatDateTime } from '../../lib/dates';
import type { SubscriptionKind } from '../db/database';
import { frenchSpacing, renderMail, siteLink, type Block, type MailContent } from '../mail/layout';
import { CONTACTS } from '../../config/publisher';
import { type DebitToAnnounce, mandateRows, type SepaMandate } from './sepa';
import { SEPA_PRENOTICE_DAYS } from './state';

/** Where readers write about subscriptions, donations, withdrawals and refunds (CGV, art. 8 and 12). */
const SUBSCRIPTIONS_EMAIL = CONTACTS.abonnements.email;

const SUBSCRIPTIONS_PATH = '/mon-compte/mes-abonnements';
const subscriptionUrl = (siteUrl: URL, subscriptionId: string) => siteLink(siteUrl, `${SUBSCRIPTIONS_PATH}/${encodeURIComponent(subscriptionId)}`);
/** A document's PDF, downloaded from the account (its owner only). */
export const documentUrl = (siteUrl: URL, documentId: string) => siteLink(siteUrl, `/mon-compte/mes-factures/${encodeURIComponent(documentId)}`);
const cgvLink = (siteUrl: URL): Block => ({ kind: 'link', label: 'Nos conditions générales de vente', url: siteLink(siteUrl, '/cgv') });

/**
 * What a donor can do next, under the one thank-you a donation gets (the first payment's mail):
 * the newsletter, a word to friends, the account where the donation lives.
 */
export function donationNextSteps(siteUrl: URL): Block[] {
  const support = siteLink(siteUrl, '/soutenir').href;
  const title = 'Je soutiens Contrechamp, un média indépendant, sans publicité et gratuit pour tout le monde';
  return [
    { kind: 'paragraph', text: 'Et maintenant ? Trois façons d’aller plus loin :' },
    { kind: 'link', label: 'Recevoir notre lettre d’information', url: siteLink(siteUrl, '/mailinglist') },
    {
      kind: 'link',
      label: 'Parler de Contrechamp autour de vous',
      url: new URL(`mailto:?subject=${encodeURIComponent(title)}&body=${encodeURIComponent(`${title}\n\n${support}`)}`),
    },
    { kind: 'link', label: 'Retrouver votre don et vos reçus dans votre compte', url: siteLink(siteUrl, '/mon-compte') },
  ];
}

/** "2,1 %" with a non-breaking space before the sign, as French typography wants. */
const rate = (rateBp: number) => formatRate(rateBp).replace(/ %$/, '\u00a0%');

/**
 * The words that differ between a subscription, a monthly donation and a gift subscription (all
 * masculine nouns). A gift subscription has no owner's action (nothing to cancel, resume or
 * change): of the mails below, only `endedMail` can reach its owner (an administrator ended it).
 */
function words(kind: SubscriptionKind) {
  switch (kind) {
    case 'plan':
      return {
        /** « votre abonnement » */
        your: 'votre abonnement',
        Your: 'Votre abonnement',
        /** Label of the row that names it. */
        row: 'Abonnement',
        manage: 'Gérer mon abonnement',
        resume: 'Reprendre mon abonnement',
        reason: 'Vous recevez ce message parce que vous avez un abonnement à Contrechamp.',
        pastReason: 'Vous recevez ce message parce que vous aviez un abonnement à Contrechamp.',
      };
    case 'gift':
      return {
        your: 'votre abonnement offert',
        Your: 'Votre abonnement offert',
        row: 'Abonnement offert',
        manage: 'Voir mon abonnement offert',
        resume: 'Voir mon abonnement offert',
        reason: 'Vous recevez ce message parce que l’on vous a offert un abonnement à Contrechamp.',
        pastReason: 'Vous recevez ce message parce que l’on vous avait offert un abonnement à Contrechamp.',
      };
    case 'donation':
      return {
        your: 'votre don mensuel',
        Your: 'Votre don mensuel',
        row: 'Don mensuel',
        manage: 'Gérer mon don mensuel',
        resume: 'Reprendre mon don mensuel',
        reason: 'Vous recevez ce message parce que vous soutenez Contrechamp par un don mensuel.',
        pastReason: 'Vous recevez ce message parce que vous souteniez Contrechamp par un don mensuel.',
      };
  }
}

// ---------------------------------------------------------------------------------------------
// Payments

export function paymentReceivedMail({
  siteUrl,
  orderReference,
  description,
  amountCents,
  vatCents,
  vatRateBp,
  paidAt,
  methodLabel,
  purpose,
  recurring,
  renewal,
  document,
  mandate,
}: {
  siteUrl: URL;
  /** The SEPA mandate the payment was debited under (RUM and ICS, as SEPA rules want them on the confirmation). */
  mandate?: SepaMandate | null | undefined;
  /** The invoice or receipt issued with the payment: the mail links to its PDF. */
  document?: { id: string; label: string } | undefined;
  /** The order's reference a person reads (never its id). */
  orderReference: string;
  description: string;
  amountCents: number;
  vatCents: number;
  vatRateBp: number;
  paidAt: Date;
  methodLabel: string;
  purpose: 'subscription' | 'donation';
  recurring: boolean;
  renewal: boolean;
}): MailContent {
  const amount = formatEuros(amountCents);
  const paidOn = formatDate(paidAt);

  if (purpose === 'donation') {
    return renderMail('payment-received', {
      siteUrl,
      subject: `Merci pour votre don de ${amount}`,
      heading: 'Merci pour votre don !',
      preheader: `Nous avons bien reçu votre don de ${amount}.`,
      blocks: [
        { kind: 'paragraph', text: 'Bonjour,' },
        {
          kind: 'paragraph',
          text: renewal
            ? [
                'Nous avons bien reçu votre don de ',
                { strong: amount },
                ' pour ce mois-ci. Merci, mois après mois, de rendre possible un journalisme indépendant, sans publicité et gratuit pour tout le monde.',
              ]
            : [
                'Nous avons bien reçu votre don de ',
                { strong: amount },
                '. Merci du fond du cœur : c’est grâce à des lectrices et des lecteurs comme vous que Contrechamp reste indépendant, sans publicité et gratuit pour tout le monde.',
              ],
        },
        {
          kind: 'fields',
          rows: [
            ['Objet', description],
            ['Montant', amount],
            ['TVA', 'aucune (un don n’entre pas dans le champ de la TVA)'],
            ['Date', paidOn],
            ['Moyen de paiement', methodLabel],
            ['Référence', orderReference],
            ...(mandate ? mandateRows(mandate) : []),
            ...(document ? ([['Reçu', `n° ${document.label}`]] as [string, string][]) : []),
          ],
        },
        ...(document
          ? ([{ kind: 'link', label: `Télécharger mon reçu n° ${document.label} (PDF)`, url: documentUrl(siteUrl, document.id) }] satisfies Block[])
          : []),
        ...(recurring
          ? ([
              {
                kind: 'paragraph',
                text: 'Votre don mensuel se poursuit jusqu’à ce que vous l’arrêtiez, ce que vous pouvez faire à tout moment depuis votre compte.',
              },
              { kind: 'link', label: 'Mes abonnements et dons mensuels', url: siteLink(siteUrl, SUBSCRIPTIONS_PATH) },
            ] satisfies Block[])
          : []),
        ...(renewal ? [] : donationNextSteps(siteUrl)),
        {
          kind: 'note',
          text: 'Ce message et votre reçu confirment votre paiement, mais ce ne sont pas des reçus fiscaux : un don à Contrechamp, entreprise de presse, n’ouvre droit à aucune réduction d’impôt.',
        },
        {
          kind: 'note',
          text: `Une erreur dans votre don ? Écrivez-nous dans les 30 jours à ${SUBSCRIPTIONS_EMAIL} : nous vous rembourserons.`,
        },
      ],
      reason: recurring
        ? 'Vous recevez ce message parce que vous soutenez Contrechamp par un don mensuel.'
        : 'Vous recevez ce message parce que vous avez fait un don à Contrechamp.',
    });
  }

  return renderMail('payment-received', {
    siteUrl,
    subject: `Votre paiement de ${amount} a bien été reçu`,
    heading: 'Paiement reçu',
    preheader: `Nous avons bien reçu votre paiement de ${amount}. Merci !`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: renewal
          ? [
              'Nous avons bien reçu le paiement de ',
              { strong: amount },
              ', qui renouvelle votre abonnement. Merci de continuer à faire vivre un journalisme indépendant, sans publicité et gratuit pour tout le monde.',
            ]
          : [
              'Nous avons bien reçu votre paiement de ',
              { strong: amount },
              '. Merci : c’est grâce à vous que Contrechamp reste indépendant, sans publicité et gratuit pour tout le monde.',
            ],
      },
      {
        kind: 'fields',
        rows: [
          ['Objet', description],
          ['Montant TTC', amount],
          [`dont TVA à ${rate(vatRateBp)}`, formatEuros(vatCents)],
          ['Montant HT', formatEuros(amountCents - vatCents)],
          ['Date', paidOn],
          ['Moyen de paiement', methodLabel],
          ['Référence', orderReference],
          ...(mandate ? mandateRows(mandate) : []),
        ],
      },
      ...(document
        ? ([
            {
              kind: 'paragraph',
              text: `Votre facture n° ${document.label} est disponible au format PDF ; vous la retrouverez aussi dans votre compte, rubrique « Mes factures ».`,
            },
            { kind: 'link', label: `Télécharger ma facture n° ${document.label} (PDF)`, url: documentUrl(siteUrl, document.id) },
          ] satisfies Block[])
        : ([
            { kind: 'paragraph', text: 'Votre facture est disponible au format PDF dans votre compte, rubrique « Mes factures ».' },
            { kind: 'link', label: 'Mes factures', url: siteLink(siteUrl, '/mon-compte/mes-factures') },
          ] satisfies Block[])),
      ...(recurring
        ? ([
            { kind: 'paragraph', text: 'Vous pouvez résilier votre abonnement à tout moment, en trois clics, depuis votre compte.' },
            { kind: 'link', label: 'Mes abonnements', url: siteLink(siteUrl, SUBSCRIPTIONS_PATH) },
          ] satisfies Block[])
        : []),
    ],
    reason: recurring
      ? 'Vous recevez ce message parce que vous avez un abonnement à Contrechamp.'
      : 'Vous recevez ce message parce que vous avez effectué un paiement sur Contrechamp.',
  });
}

export function paymentFailedMail({
  siteUrl,
  subscriptionId,
  kind,
  label,
  amountCents,
  reason,
  nextAttemptAt,
  sepa,
}: {
  siteUrl: URL;
  subscriptionId: string;
  kind: SubscriptionKind;
  label: string;
  amountCents: number;
  reason: string;
  nextAttemptAt: Date | null;
  /** The mandate the next attempt debits, when it is a SEPA debit: this mail announces it. */
  sepa?: { mandate: SepaMandate; methodLabel: string } | null | undefined;
}): MailContent {
  const w = words(kind);
  const amount = formatEuros(amountCents);
  const intro: Block[] = [
    { kind: 'paragraph', text: 'Bonjour,' },
    { kind: 'paragraph', text: ['Le paiement de ', { strong: amount }, ` pour ${w.your} n’a pas abouti. Voici le motif qui nous a été transmis :`] },
    { kind: 'quote', text: reason },
    {
      kind: 'fields',
      rows: [
        [w.row, label],
        ['Montant', amount],
      ],
    },
  ];

  if (nextAttemptAt) {
    const next = formatDate(nextAttemptAt);
    return renderMail('payment-failed', {
      siteUrl,
      subject: `Le paiement de ${w.your} n’a pas abouti`,
      heading: 'Votre paiement n’a pas abouti',
      preheader: `Nous réessaierons le ${next}. Vous pouvez mettre à jour votre moyen de paiement d’ici là.`,
      blocks: [
        ...intro,
        {
          kind: 'paragraph',
          text: `Le plus souvent, il suffit de mettre à jour votre moyen de paiement depuis la page de ${w.your}, par exemple si votre carte a expiré ou a été remplacée. En cas de doute, votre banque pourra vous renseigner.`,
        },
        { kind: 'action', label: 'Mettre à jour mon moyen de paiement', url: subscriptionUrl(siteUrl, subscriptionId) },
        {
          kind: 'paragraph',
          text: [
            'Nous réessaierons le ',
            { strong: next },
            `. Si le paiement aboutit, ${w.your} continuera sans interruption ; si nos dernières tentatives échouent aussi, il prendra fin.`,
          ],
        },
        // A SEPA debit presented again is a debit of its own: announced here, with its mandate (CGV art. 5).
        ...(sepa ? [{ kind: 'fields', rows: sepaDebitRows(sepa, amount, next) } satisfies Block, sepaPrenotice(amount, next)] : []),
      ],
      reason: w.reason,
    });
  }

  return renderMail('payment-failed', {
    siteUrl,
    subject: `Le paiement de ${w.your} n’a pas abouti`,
    heading: 'Votre paiement n’a pas abouti',
    preheader: `C’était notre dernière tentative : ${w.your} prend fin.`,
    blocks: [
      ...intro,
      { kind: 'paragraph', text: `C’était notre dernière tentative : ${w.your} prend donc fin, et plus rien ne vous sera prélevé.` },
      {
        kind: 'paragraph',
        text: 'Si vous souhaitez continuer à nous soutenir, vous pouvez le faire en quelques instants depuis notre page de soutien, avec le moyen de paiement de votre choix.',
      },
      { kind: 'action', label: 'Soutenir Contrechamp', url: siteLink(siteUrl, '/soutenir') },
      { kind: 'note', text: `Une question, ou une erreur de notre part ? Écrivez-nous à ${SUBSCRIPTIONS_EMAIL}.` },
    ],
    reason: w.reason,
  });
}

// ---------------------------------------------------------------------------------------------
// Start

export function subscriptionStartedMail({
  siteUrl,
  subscriptionId,
  planLabel,
  amountCents,
  interval,
  nextPaymentAt,
  immediateStart,
  withdrawal = [],
}: {
  siteUrl: URL;
  subscriptionId: string;
  planLabel: string;
  /** The withdrawal function's blocks (contract-withdrawals/links.ts `withdrawalBlocks`): the last day and « Se rétracter du contrat ici ». */
  withdrawal?: Block[];
  amountCents: number;
  interval: Interval;
  nextPaymentAt: Date;
  immediateStart: boolean;
}): MailContent {
  const price = `${formatEuros(amountCents)} ${intervalLabel(interval)}`;
  const next = formatDate(nextPaymentAt);
  return renderMail('subscription-started', {
    siteUrl,
    subject: 'Bienvenue, et merci pour votre abonnement à Contrechamp',
    heading: 'Merci pour votre abonnement !',
    preheader: `Votre abonnement « ${planLabel} » est enregistré. Prochain paiement le ${next}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        // It starts at once either way: the waiver only decides which right covers the refund (checkout/service.ts, `waivesWithdrawal`).
        text: ['Votre abonnement « ', { strong: planLabel }, ' » a commencé. Bienvenue parmi celles et ceux qui font vivre Contrechamp !'],
      },
      {
        kind: 'paragraph',
        text: 'Tous nos contenus restent gratuits : votre abonnement ne vous ouvre pas une porte, il la garde ouverte pour tout le monde. Il nous donne le temps d’enquêter, de tourner et de vérifier, sans publicité et sans milliardaire.',
      },
      {
        kind: 'fields',
        rows: [
          ['Formule', planLabel],
          ['Prix', price],
          ['Prochain paiement', next],
        ],
      },
      {
        kind: 'paragraph',
        text:
          interval === 'year'
            ? `Votre abonnement est reconduit tacitement d’année en année, au même prix. Avant chaque reconduction, nous vous écrirons pour vous rappeler que vous pouvez y mettre fin ; si notre tarif devait changer, nous vous préviendrions au moins un mois avant l’échéance.`
            : `Votre abonnement est reconduit tacitement de mois en mois, au même prix. Si notre tarif devait changer, nous vous préviendrions au moins un mois avant l’échéance.`,
      },
      {
        kind: 'paragraph',
        text: 'Vous pouvez le résilier à tout moment, sans frais ni justification, en trois clics depuis votre compte. La résiliation prend effet à la fin de la période déjà payée : ensuite, plus rien ne vous sera prélevé.',
      },
      { kind: 'action', label: 'Gérer mon abonnement', url: subscriptionUrl(siteUrl, subscriptionId) },
      {
        kind: 'paragraph',
        text: [
          immediateStart ? 'Vous changez d’avis ? Vous disposez de ' : 'Vous changez d’avis ? Vous conservez votre droit de rétractation : vous disposez de ',
          { strong: '14 jours' },
          immediateStart
            ? ' pour vous rétracter, sans avoir à vous justifier. Même si votre abonnement a commencé immédiatement à votre demande, nous vous rembourserons l’intégralité du montant payé.'
            : ' pour l’exercer, sans avoir à vous justifier, et nous vous rembourserons l’intégralité du montant payé.',
          ` Il vous suffit d’utiliser le bouton « Se rétracter du contrat ici » ci-dessous, ou de nous écrire à ${SUBSCRIPTIONS_EMAIL} ; le remboursement intervient dans les 14 jours, sur le moyen de paiement utilisé.`,
        ],
      },
      ...withdrawal,
      cgvLink(siteUrl),
    ],
    reason: 'Vous recevez ce message parce que vous venez de vous abonner à Contrechamp.',
  });
}

/**
 * The one thank-you of a monthly donation: its first payment is told here (with the receipt),
 * not by a second `paymentReceivedMail` (subscriptions/service.ts).
 */
export function donationStartedMail({
  siteUrl,
  subscriptionId,
  amountCents,
  nextPaymentAt,
  payment,
}: {
  siteUrl: URL;
  subscriptionId: string;
  amountCents: number;
  nextPaymentAt: Date;
  /** The first payment: its date, method, reference and receipt. */
  payment?:
    | {
        paidAt: Date;
        methodLabel: string;
        orderReference: string;
        document?: { id: string; label: string } | undefined;
        mandate?: SepaMandate | null | undefined;
      }
    | undefined;
}): MailContent {
  const amount = formatEuros(amountCents);
  const next = formatDate(nextPaymentAt);
  const paidRows: [string, string][] = payment
    ? [
        ['Premier paiement', formatDate(payment.paidAt)],
        ['Moyen de paiement', payment.methodLabel],
        ['Référence', payment.orderReference],
        ...(payment.mandate ? mandateRows(payment.mandate) : []),
        ...(payment.document ? ([['Reçu', `n° ${payment.document.label}`]] as [string, string][]) : []),
      ]
    : [];
  return renderMail('donation-started', {
    siteUrl,
    subject: `Merci pour votre don mensuel de ${amount}`,
    heading: 'Merci pour votre don mensuel !',
    preheader: `Votre don mensuel de ${amount} est en place. Prochain prélèvement le ${next}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'Votre don mensuel de ',
          { strong: amount },
          ' est en place. Merci ! Un soutien régulier est le plus précieux de tous : il nous permet de prévoir, d’embaucher et de prendre le temps d’enquêter, sans publicité et sans milliardaire.',
        ],
      },
      {
        kind: 'fields',
        rows: [['Montant', `${amount} ${intervalLabel('month')}`], ...paidRows, ['Prochain prélèvement', next]],
      },
      ...(payment?.document
        ? ([
            { kind: 'link', label: `Télécharger mon reçu n° ${payment.document.label} (PDF)`, url: documentUrl(siteUrl, payment.document.id) },
          ] satisfies Block[])
        : []),
      {
        kind: 'paragraph',
        text: 'Votre don est prélevé chaque mois jusqu’à ce que vous l’arrêtiez. Vous pouvez y mettre fin ou en changer le montant à tout moment, sans frais, depuis votre compte.',
      },
      { kind: 'action', label: 'Gérer mon don mensuel', url: subscriptionUrl(siteUrl, subscriptionId) },
      ...donationNextSteps(siteUrl),
      {
        kind: 'note',
        text: `${payment ? 'Ce message et votre reçu confirment votre paiement, mais ce ne sont pas des reçus fiscaux. ' : ''}Un don est sans contrepartie et n’est pas soumis au droit de rétractation ; en cas d’erreur, écrivez-nous dans les 30 jours à ${SUBSCRIPTIONS_EMAIL}, et nous vous rembourserons. Contrechamp étant une entreprise de presse, un don qui lui est fait n’ouvre droit à aucune réduction d’impôt.`,
      },
    ],
    reason: 'Vous recevez ce message parce que vous venez de mettre en place un don mensuel à Contrechamp.',
  });
}

// ---------------------------------------------------------------------------------------------
// Renewal notice (article L. 215-1 du Code de la consommation)

export function renewalNoticeMail({
  siteUrl,
  subscriptionId,
  planLabel,
  amountCents,
  renewsAt,
  sepa,
}: {
  siteUrl: URL;
  subscriptionId: string;
  planLabel: string;
  amountCents: number;
  renewsAt: Date;
  /** Paid by SEPA debit: the notice is also the debit's pre-notification (CGV art. 5). */
  sepa?: { mandate: SepaMandate; methodLabel: string } | null | undefined;
}): MailContent {
  const amount = formatEuros(amountCents);
  const date = formatDate(renewsAt);
  return renderMail('renewal-notice', {
    siteUrl,
    subject: `Votre abonnement annuel sera reconduit le ${date}`,
    heading: 'Votre abonnement annuel arrive à échéance',
    preheader: `Sauf résiliation de votre part avant le ${date}, il sera reconduit pour un an, au prix de ${amount}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'Votre abonnement « ',
          { strong: planLabel },
          ' » sera reconduit tacitement pour un an le ',
          { strong: date },
          ', au prix de ',
          { strong: amount },
          ', sauf si vous le résiliez avant cette date.',
        ],
      },
      // L. 215-1 wants the deadline « dans un encadré apparent »: the quote block is the framed one.
      { kind: 'quote', text: frenchSpacing(`Date limite pour ne pas reconduire votre abonnement : résiliez-le avant le ${date}.`) },
      {
        kind: 'fields',
        rows: [
          ['Formule', planLabel],
          ['Date de reconduction', date],
          ['Montant', `${amount} ${intervalLabel('year')}`],
          ...(sepa ? sepaDebitRows(sepa, amount, date) : []),
        ],
      },
      {
        kind: 'paragraph',
        text: 'Si vous souhaitez continuer, vous n’avez rien à faire : le montant sera réglé avec le moyen de paiement enregistré. Merci de votre fidélité !',
      },
      ...(sepa ? [sepaPrenotice(amount, date)] : []),
      {
        kind: 'paragraph',
        text: `Si vous ne souhaitez pas reconduire votre abonnement, résiliez-le en trois clics, sans frais, depuis votre compte : choisissez l’abonnement, cliquez sur « Résilier mon abonnement », puis confirmez. Il restera actif jusqu’au ${date}, et plus rien ne vous sera prélevé. Vous pouvez aussi nous écrire à ${SUBSCRIPTIONS_EMAIL}.`,
      },
      { kind: 'action', label: 'Gérer mon abonnement', url: subscriptionUrl(siteUrl, subscriptionId) },
      {
        kind: 'note',
        text: 'Nous vous adressons cette information conformément à l’article L. 215-1 du Code de la consommation, qui nous oblige à vous rappeler, avant chaque reconduction tacite, que vous pouvez ne pas reconduire votre contrat.',
      },
      cgvLink(siteUrl),
    ],
    reason: 'Vous recevez ce message parce que vous avez un abonnement annuel à Contrechamp.',
  });
}

// ---------------------------------------------------------------------------------------------
// SEPA pre-notification (CGV art. 5): the amount, the date, the mandate (RUM) and the creditor (ICS)

const sepaDebitRows = (sepa: { mandate: SepaMandate; methodLabel: string }, amount: string, date: string): [string, string][] => [
  ['Montant prélevé', amount],
  ['Date du prélèvement', date],
  ['Compte débité', sepa.methodLabel],
  ...mandateRows(sepa.mandate),
];

const sepaPrenotice = (amount: string, date: string): Block => ({
  kind: 'note',
  text: `Ce message vaut pré-notification de prélèvement SEPA : la somme de ${amount} sera prélevée le ${date}, au titre du mandat ci-dessus, sur le compte bancaire indiqué. Veillez à ce qu’il soit approvisionné ; pour changer de moyen de paiement, rendez-vous dans votre compte Contrechamp avant cette date.`,
});

/**
 * The next SEPA debit, announced in the mail that confirms what the payer just changed (a plan,
 * an amount, a new mandate, a resumption) when the regular pre-notification has gone already or
 * was skipped (CGV art. 5): the amount and day as they now stand, with the mandate. A `late` one
 * (fewer than `SEPA_PRENOTICE_DAYS` left) says why.
 */
function announcedDebitBlocks(debit: DebitToAnnounce | null | undefined, what: string): Block[] {
  if (!debit) return [];
  const amount = formatEuros(debit.amountCents);
  const date = formatDate(debit.debitAt);
  return [
    { kind: 'paragraph', text: ['Votre prochain prélèvement SEPA, ', what, ' : ', { strong: amount }, ' le ', { strong: date }, '.'] },
    { kind: 'fields', rows: sepaDebitRows(debit, amount, date) },
    sepaPrenotice(amount, date),
    ...(debit.late
      ? [
          {
            kind: 'note',
            text: `Cette annonce vous parvient moins de ${SEPA_PRENOTICE_DAYS} jours avant le prélèvement, parce que votre modification intervient peu avant l’échéance : comme le prévoient nos conditions générales de vente (article 5), le prélèvement garde sa date. Si vous le préférez, vous pouvez encore, avant cette date, revenir sur cette modification ou choisir un autre moyen de paiement depuis votre compte.`,
          } satisfies Block,
        ]
      : []),
  ];
}

/**
 * The pre-notification of a SEPA debit of a monthly subscription or donation, sent at least
 * `SEPA_PRENOTICE_DAYS` before it (a yearly subscription's comes with its renewal notice).
 */
export function sepaDebitNoticeMail({
  siteUrl,
  subscriptionId,
  kind,
  label,
  amountCents,
  debitAt,
  methodLabel,
  mandate,
}: {
  siteUrl: URL;
  subscriptionId: string;
  kind: SubscriptionKind;
  label: string;
  amountCents: number;
  debitAt: Date;
  methodLabel: string;
  mandate: SepaMandate;
}): MailContent {
  const w = words(kind);
  const amount = formatEuros(amountCents);
  const date = formatDate(debitAt);
  return renderMail('sepa-debit-notice', {
    siteUrl,
    subject: `Prochain prélèvement SEPA : ${amount} le ${date}`,
    heading: 'Votre prochain prélèvement',
    preheader: `Prélèvement de ${amount} le ${date} pour ${w.your}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: ['Pour ', w.your, ' « ', { strong: label }, ' », nous prélèverons ', { strong: amount }, ' sur votre compte bancaire le ', { strong: date }, '.'],
      },
      { kind: 'fields', rows: [[w.row, label], ...sepaDebitRows({ mandate, methodLabel }, amount, date)] },
      {
        kind: 'paragraph',
        text: `Vous n’avez rien à faire. Avant cette date, vous pouvez encore, depuis votre compte, changer de moyen de paiement, modifier ${w.your} ou y mettre fin. Pour toute question, écrivez-nous à ${SUBSCRIPTIONS_EMAIL}.`,
      },
      { kind: 'action', label: w.manage, url: subscriptionUrl(siteUrl, subscriptionId) },
      sepaPrenotice(amount, date),
      cgvLink(siteUrl),
    ],
    reason: w.reason,
  });
}

// ---------------------------------------------------------------------------------------------
// Payment method changed: the security notice every bank or shop sends

export function paymentMethodChangedMail({
  siteUrl,
  subscriptionId,
  kind,
  label,
  methodLabel,
  changedAt,
  mandate,
  debit,
}: {
  siteUrl: URL;
  subscriptionId: string;
  kind: SubscriptionKind;
  label: string;
  methodLabel: string;
  changedAt: Date;
  /** A new SEPA mandate, when the new method is a SEPA debit. */
  mandate?: SepaMandate | null | undefined;
  /** The next debit under that mandate, when its regular announcement has gone or would be late. */
  debit?: DebitToAnnounce | null | undefined;
}): MailContent {
  const w = words(kind);
  const when = formatDateTime(changedAt);
  return renderMail('payment-method-changed', {
    siteUrl,
    subject: 'Votre moyen de paiement a été modifié',
    heading: 'Votre moyen de paiement a été modifié',
    preheader: `Nouveau moyen de paiement pour ${w.your} : ${methodLabel}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: [
          'Le moyen de paiement de ',
          w.your,
          ' « ',
          { strong: label },
          ' » a été modifié le ',
          when,
          ' (heure de Paris). Vos prochains paiements se feront avec le moyen suivant : ',
          { strong: methodLabel },
          '.',
        ],
      },
      {
        kind: 'fields',
        rows: [
          [w.row, label],
          ['Nouveau moyen de paiement', methodLabel],
          ['Modifié le', `${when} (heure de Paris)`],
          ...(mandate ? mandateRows(mandate) : []),
        ],
      },
      ...announcedDebitBlocks(debit, 'sur ce nouveau mandat'),
      { kind: 'action', label: w.manage, url: subscriptionUrl(siteUrl, subscriptionId) },
      { kind: 'paragraph', text: 'Vous êtes à l’origine de ce changement ? Vous n’avez rien à faire.' },
      {
        kind: 'paragraph',
        text: `Ce n’est pas vous ? Quelqu’un a peut-être accès à votre compte : changez tout de suite votre mot de passe, puis écrivez-nous à ${SUBSCRIPTIONS_EMAIL} pour que nous fassions le point avec vous sur ${w.your} et ses paiements.`,
      },
      { kind: 'link', label: 'Changer mon mot de passe', url: siteLink(siteUrl, '/modifier-mon-mot-de-passe') },
      { kind: 'link', label: 'Nous contacter', url: siteLink(siteUrl, '/contact') },
    ],
    reason: w.reason,
  });
}

// ---------------------------------------------------------------------------------------------
// Cancellation, resumption, end

export function cancellationMail({
  siteUrl,
  subscriptionId,
  kind,
  label,
  endsAt,
}: {
  siteUrl: URL;
  subscriptionId: string;
  kind: SubscriptionKind;
  label: string;
  endsAt: Date;
}): MailContent {
  const w = words(kind);
  const date = formatDate(endsAt);
  const plan = kind === 'plan';
  return renderMail('cancellation', {
    siteUrl,
    subject: plan ? 'Confirmation de la résiliation de votre abonnement' : 'Confirmation de l’arrêt de votre don mensuel',
    heading: plan ? 'Résiliation confirmée' : 'Arrêt de votre don mensuel confirmé',
    preheader: `${plan ? 'La résiliation prend' : 'L’arrêt prend'} effet le ${date}. Plus rien ne vous sera prélevé.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: plan
          ? [
              'Nous confirmons la résiliation de votre abonnement. Elle prend effet le ',
              { strong: date },
              ', à la fin de la période déjà payée : votre abonnement reste actif jusque-là.',
            ]
          : ['Nous confirmons l’arrêt de votre don mensuel. Il prend effet le ', { strong: date }, '.'],
      },
      {
        kind: 'fields',
        rows: [
          [w.row, label],
          ['Fin', date],
        ],
      },
      { kind: 'paragraph', text: 'Plus rien ne vous sera prélevé.' },
      {
        kind: 'paragraph',
        text: `Vous avez changé d’avis ? Vous pouvez reprendre ${w.your} avant le ${date}, depuis votre compte : il continuera alors comme avant, sans interruption.`,
      },
      { kind: 'action', label: w.resume, url: subscriptionUrl(siteUrl, subscriptionId) },
      { kind: 'paragraph', text: 'Merci pour tout le soutien que vous nous avez apporté.' },
    ],
    reason: plan
      ? 'Vous recevez ce message parce que la résiliation de votre abonnement à Contrechamp a été demandée.'
      : 'Vous recevez ce message parce que l’arrêt de votre don mensuel à Contrechamp a été demandé.',
  });
}

export function resumedMail({
  siteUrl,
  subscriptionId,
  kind,
  label,
  nextPaymentAt,
  debit,
}: {
  siteUrl: URL;
  subscriptionId: string;
  kind: SubscriptionKind;
  label: string;
  nextPaymentAt: Date;
  /** The next SEPA debit, when its regular announcement was skipped (it was resigned) or has gone. */
  debit?: DebitToAnnounce | null | undefined;
}): MailContent {
  const w = words(kind);
  const next = formatDate(nextPaymentAt);
  const plan = kind === 'plan';
  return renderMail('resumed', {
    siteUrl,
    subject: `${w.Your} continue`,
    heading: `${w.Your} continue`,
    preheader: `Prochain paiement le ${next}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: plan
          ? 'Vous avez annulé la résiliation de votre abonnement : il continue comme avant, sans interruption. Merci de rester à nos côtés !'
          : 'Vous avez annulé l’arrêt de votre don mensuel : il continue comme avant, sans interruption. Merci de rester à nos côtés !',
      },
      {
        kind: 'fields',
        rows: [
          [w.row, label],
          ['Prochain paiement', next],
        ],
      },
      ...announcedDebitBlocks(debit, 'de nouveau prévu'),
      {
        kind: 'paragraph',
        text: plan
          ? 'Vous pouvez résilier votre abonnement à tout moment, en trois clics, depuis votre compte.'
          : 'Vous pouvez arrêter votre don mensuel ou en changer le montant à tout moment, depuis votre compte.',
      },
      { kind: 'action', label: w.manage, url: subscriptionUrl(siteUrl, subscriptionId) },
    ],
    reason: w.reason,
  });
}

export function endedMail({
  siteUrl,
  kind,
  label,
  reason,
}: {
  siteUrl: URL;
  kind: SubscriptionKind;
  label: string;
  reason: 'canceled' | 'unpaid' | 'admin' | 'refunded';
}): MailContent {
  const w = words(kind);
  const plan = kind === 'plan';
  const gift = kind === 'gift';
  const why: Record<typeof reason, string> = {
    canceled: gift
      ? 'Votre abonnement offert est arrivé à son terme.'
      : plan
        ? 'Comme vous l’aviez demandé, votre abonnement a pris fin au terme de la période payée.'
        : 'Comme vous l’aviez demandé, votre don mensuel a pris fin.',
    unpaid: `Malgré plusieurs tentatives, nous n’avons pas pu encaisser le dernier paiement : ${w.your} a donc pris fin.`,
    refunded: 'Comme vous nous l’aviez demandé, nous vous avons remboursé le paiement de la période en cours : votre abonnement a donc pris fin aujourd’hui.',
    admin: `Notre équipe a mis fin à ${w.your}. Si vous ne l’aviez pas demandé, ou si vous pensez qu’il s’agit d’une erreur, écrivez-nous à ${SUBSCRIPTIONS_EMAIL}.`,
  };
  return renderMail('ended', {
    siteUrl,
    subject: `${w.Your} à Contrechamp a pris fin`,
    heading: `${w.Your} a pris fin`,
    preheader: gift ? 'Rien ne vous a été prélevé, et rien ne le sera.' : 'Plus rien ne vous sera prélevé.',
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      { kind: 'paragraph', text: why[reason] },
      { kind: 'fields', rows: [[w.row, label]] },
      {
        kind: 'paragraph',
        text: gift
          ? 'Un abonnement offert ne se renouvelle jamais : rien ne vous sera prélevé. Merci de nous avoir lus.'
          : 'Plus rien ne vous sera prélevé. Merci pour tout le soutien que vous nous avez apporté : il a compté.',
      },
      {
        kind: 'paragraph',
        text: gift
          ? 'Si vous souhaitez continuer à nous lire et à nous soutenir, vous pouvez à tout moment vous abonner, faire un don ou devenir sociétaire.'
          : plan
            ? 'Si vous souhaitez de nouveau nous soutenir, vous pouvez à tout moment vous réabonner, faire un don ou devenir sociétaire.'
            : 'Si vous souhaitez de nouveau nous soutenir, vous pouvez à tout moment refaire un don, vous abonner ou devenir sociétaire.',
      },
      { kind: 'action', label: 'Soutenir Contrechamp', url: siteLink(siteUrl, '/soutenir') },
    ],
    reason: w.pastReason,
  });
}

// ---------------------------------------------------------------------------------------------
// Change of plan or of the donation's amount

/** For a monthly donation, `toLabel` is not shown: the new amount says it. */
export function planChangedMail({
  siteUrl,
  subscriptionId,
  kind,
  fromLabel,
  toLabel,
  amountCents,
  interval,
  effectiveAt,
  debit,
}: {
  siteUrl: URL;
  subscriptionId: string;
  kind: SubscriptionKind;
  fromLabel: string;
  toLabel: string;
  amountCents: number;
  interval: Interval;
  effectiveAt: Date;
  /** The next SEPA debit at its new amount, when its regular announcement has gone or would be late. */
  debit?: DebitToAnnounce | null | undefined;
}): MailContent {
  const w = words(kind);
  const date = formatDate(effectiveAt);
  const price = `${formatEuros(amountCents)} ${intervalLabel(interval)}`;
  const plan = kind === 'plan';
  return renderMail('plan-changed', {
    siteUrl,
    subject: plan ? `Votre nouvelle formule s’appliquera le ${date}` : `Le nouveau montant de votre don mensuel s’appliquera le ${date}`,
    heading: plan ? 'Changement de formule enregistré' : 'Nouveau montant enregistré',
    preheader: `À partir du ${date} : ${price}.`,
    blocks: [
      { kind: 'paragraph', text: 'Bonjour,' },
      {
        kind: 'paragraph',
        text: plan
          ? [
              'Nous avons bien enregistré votre changement de formule. Il prendra effet à votre prochain paiement, le ',
              { strong: date },
              ' : d’ici là, votre formule actuelle reste en vigueur.',
            ]
          : [
              'Nous avons bien enregistré le nouveau montant de votre don mensuel. Il s’appliquera à partir du prochain prélèvement, le ',
              { strong: date },
              '.',
            ],
      },
      {
        kind: 'fields',
        rows: [
          ...(plan
            ? ([
                ['Formule actuelle', fromLabel],
                ['Nouvelle formule', toLabel],
                ['Nouveau prix', price],
              ] as const)
            : ([
                ['Montant actuel', fromLabel],
                ['Nouveau montant', price],
              ] as const)),
          ['Date d’effet', date],
        ],
      },
      ...announcedDebitBlocks(debit, 'à son nouveau montant'),
      {
        kind: 'paragraph',
        text: plan
          ? 'Vous pouvez modifier ou résilier votre abonnement à tout moment, en trois clics, depuis votre compte.'
          : 'Vous pouvez modifier ou arrêter votre don mensuel à tout moment, depuis votre compte.',
      },
      { kind: 'action', label: w.manage, url: subscriptionUrl(siteUrl, subscriptionId) },
      { kind: 'paragraph', text: 'Merci pour votre soutien !' },
    ],
    reason: w.reason,
  });
}
