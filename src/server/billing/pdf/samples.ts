/**
 * Realistic documents and a gift card to render: the PDF tests read them, and so can anyone who
 * wants to look at the layout (render them and open the files). Shaped like what
 * ../documents.ts stores, with the publisher's real identity; nothing here is used in production.
 */
import { formatSiren, formatVatNumber, PUBLISHER } from '../../../config/publisher';
import { formatEuros } from '../../../lib/money';
import type { DocumentContent, DocumentLine, StatementLine } from '../content';
import type { GiftCard } from './gift-card';

const seller: DocumentContent['seller'] = {
  name: PUBLISHER.name,
  legalName: PUBLISHER.legalName,
  legalForm: PUBLISHER.legalForm,
  addressLines: [PUBLISHER.address.street, `${PUBLISHER.address.postalCode} ${PUBLISHER.address.city}`, PUBLISHER.address.country],
  siren: formatSiren(PUBLISHER.siren),
  registry: PUBLISHER.registry,
  vatNumber: formatVatNumber(PUBLISHER.vatNumber),
  email: PUBLISHER.email,
  website: 'contrechamp.media',
};

const LATE_PAYMENT_TERMS =
  'Facture acquittée à la date d’émission ; aucun escompte pour paiement anticipé. En cas de retard de paiement, pénalités au taux d’intérêt appliqué par la Banque centrale européenne à son opération de refinancement la plus récente, majoré de 10 points, et indemnité forfaitaire pour frais de recouvrement de 40 € (Code de commerce, art. L441-10 et D441-5).';
const VAT_NOTE =
  'TVA au taux de 2,1 % : service de presse en ligne reconnu par la Commission paritaire des publications et agences de presse (CGI, art. 298 septies ; CPPAP n° 0529 W 94321).';
const DONATION_NOTICE = [
  'Contrechamp est une entreprise de presse : un don qui lui est fait directement n’ouvre droit à aucune réduction d’impôt. Ce document est un accusé de réception numéroté ; ce n’est pas un reçu fiscal au sens de l’article 200 du Code général des impôts (modèle cerfa n° 11580). Pour bénéficier de la réduction d’impôt de 66 % (CGI, art. 200-1 f bis), vous pouvez donner par l’intermédiaire de Presse et Pluralisme, sur J’aime l’info (https://jaimelinfo.fr/), qui délivre ses propres reçus fiscaux.',
  'Un don est une libéralité sans contrepartie : il n’entre pas dans le champ de la TVA.',
];

/** A monthly subscription at 7 € TTC, 2.1 % VAT: 6,86 € HT and 0,14 € of VAT. */
const monthly: DocumentLine = {
  description: 'Abonnement mensuel à Contrechamp',
  period: { start: '2026-10-01', end: '2026-10-31' },
  quantity: 1,
  unitHtCents: 686,
  vatRateBp: 210,
  htCents: 686,
  vatCents: 14,
  ttcCents: 700,
};

/** An invoice to a business buyer (company and SIREN, due date and late-payment terms). */
export function sampleInvoice(): DocumentContent {
  return {
    version: 1,
    kind: 'invoice',
    title: 'Facture',
    label: 'F-000012',
    issuedAt: '2026-10-03T08:15:00.000Z',
    seller,
    buyer: {
      name: 'Hélène Lefèvre',
      addressLines: ['Librairie Les Mots Passants', '27 avenue de la République', '93100 Montreuil', 'France'],
      business: { company: 'Librairie Les Mots Passants SARL', siren: '823 456 789' },
      email: 'helene.lefevre@motspassants.fr',
    },
    lines: [monthly],
    totals: { htCents: 686, vat: [{ rateBp: 210, baseCents: 686, vatCents: 14 }], vatCents: 14, ttcCents: 700 },
    payment: { at: '2026-10-03T08:14:52.000Z', method: 'Carte •••• 4242', reference: '01928c5e-7d1a-7b3e-9f00-5a6b7c8d9e0f' },
    refersTo: null,
    businessTerms: { dueDate: '2026-10-03', latePaymentTerms: LATE_PAYMENT_TERMS },
    statement: null,
    notes: [VAT_NOTE, 'Facture acquittée le 3 octobre 2026 : 7,00 € TTC.'],
  };
}

/** The credit note cancelling sampleInvoice(). */
export function sampleCreditNote(): DocumentContent {
  const invoice = sampleInvoice();
  return {
    ...invoice,
    kind: 'credit_note',
    title: 'Avoir',
    label: 'A-000003',
    issuedAt: '2026-10-09T14:02:00.000Z',
    payment: { at: '2026-10-09T14:02:00.000Z', method: 'Remboursement sur le moyen de paiement utilisé', reference: invoice.payment!.reference },
    refersTo: { label: 'F-000012', issuedAt: invoice.issuedAt },
    businessTerms: null,
    notes: [
      'Cet avoir annule la facture n° F-000012 du 3 octobre 2026. Le montant de 7,00 € TTC a été remboursé le 9 octobre 2026 sur le moyen de paiement utilisé.',
      VAT_NOTE,
    ],
  };
}

/** A donation receipt (no VAT). */
export function sampleReceipt(): DocumentContent {
  return {
    version: 1,
    kind: 'receipt',
    title: 'Reçu de don',
    label: 'RD-000042',
    issuedAt: '2026-11-23T09:30:00.000Z',
    seller,
    buyer: {
      name: 'François Dupré-Ménard',
      addressLines: ['8 impasse des Églantiers', '93100 Montreuil', 'France'],
      business: null,
      email: 'francois.dupre@exemple.fr',
    },
    lines: [
      { description: 'Don ponctuel à Contrechamp', period: null, quantity: 1, unitHtCents: 5000, vatRateBp: 0, htCents: 5000, vatCents: 0, ttcCents: 5000 },
    ],
    totals: { htCents: 5000, vat: [], vatCents: 0, ttcCents: 5000 },
    payment: { at: '2026-11-23T09:29:41.000Z', method: 'Prélèvement SEPA •••• 3000', reference: '01928c5e-aaaa-7b3e-9f00-5a6b7c8d9e0f' },
    refersTo: null,
    businessTerms: null,
    statement: null,
    notes: DONATION_NOTICE,
  };
}

/** The donations of a statement: `count` of them through the year, amounts ending in 0 cents too. */
export function sampleDonations(count: number): StatementLine[] {
  return Array.from({ length: count }, (_, i) => {
    const day = new Date(Date.UTC(2026, 0, 1 + Math.floor((i * 365) / count)));
    return {
      date: day.toISOString().slice(0, 10),
      description:
        i % 3 === 0
          ? 'Don mensuel à Contrechamp'
          : i % 3 === 1
            ? 'Don ponctuel à Contrechamp'
            : 'Don ponctuel à Contrechamp, pour l’enquête « Eau potable : qui paie la facture ? »',
      amountCents: 500 + i * 130,
      receiptLabel: i % 5 === 4 ? null : `RD-${String(100 + i).padStart(6, '0')}`,
    };
  });
}

/** A yearly statement: 40 donations by default, which takes more than one page. */
export function sampleStatement(count = 40): DocumentContent {
  const donations = sampleDonations(count);
  const total = donations.reduce((n, d) => n + d.amountCents, 0);
  return {
    version: 1,
    kind: 'statement',
    title: 'Récapitulatif annuel des dons 2026',
    label: 'RA-000007',
    issuedAt: '2027-01-04T07:00:00.000Z',
    seller,
    buyer: {
      name: 'Anaïs Bérenger',
      addressLines: ['3 rue de l’Église', 'Bâtiment C, escalier 2', '93100 Montreuil', 'France'],
      business: null,
      email: 'anais.berenger@exemple.fr',
    },
    lines: [],
    totals: { htCents: total, vat: [], vatCents: 0, ttcCents: total },
    payment: null,
    refersTo: null,
    businessTerms: null,
    statement: { year: 2026, donations },
    notes: [`Total des dons reçus en 2026 : ${formatEuros(total, { cents: 'always' })}.`, ...DONATION_NOTICE],
  };
}

/**
 * The worst case of an invoice: a very long company name and address, many lines with long
 * descriptions and two VAT rates; it must paginate without overlap.
 */
export function sampleLongInvoice(): DocumentContent {
  const lines: DocumentLine[] = Array.from({ length: 24 }, (_, i) => {
    const standard = i % 4 === 3;
    const ttc = 700 + i * 1000;
    const rateBp = standard ? 2000 : 210;
    const ht = Math.round((ttc * 10000) / (10000 + rateBp));
    return {
      description:
        i % 2 === 0
          ? `Abonnement mensuel à Contrechamp, poste n° ${i + 1} de la rédaction partagée du collectif d’associations de quartier de l’Est parisien et de la Seine-Saint-Denis`
          : `Abonnement annuel solidaire n° ${i + 1}`,
      period: i % 2 === 0 ? { start: '2026-10-01', end: '2026-10-31' } : { start: '2026-10-03', end: '2027-10-02' },
      quantity: 1 + (i % 3),
      unitHtCents: Math.round(ht / (1 + (i % 3))),
      vatRateBp: rateBp,
      htCents: ht,
      vatCents: ttc - ht,
      ttcCents: ttc,
    };
  });
  const byRate = new Map<number, { rateBp: number; baseCents: number; vatCents: number }>();
  for (const l of lines) {
    const row = byRate.get(l.vatRateBp) ?? { rateBp: l.vatRateBp, baseCents: 0, vatCents: 0 };
    row.baseCents += l.htCents;
    row.vatCents += l.vatCents;
    byRate.set(l.vatRateBp, row);
  }
  const sum = (f: (l: DocumentLine) => number) => lines.reduce((n, l) => n + f(l), 0);
  const invoice = sampleInvoice();
  return {
    ...invoice,
    label: 'F-001234',
    buyer: {
      name: 'Marie-Christine de La Rochefoucauld-Montmorency-Villeneuve',
      addressLines: [
        'Fédération départementale des associations d’éducation populaire et des centres sociaux',
        'Maison des associations, 145 boulevard Chanzy, bâtiment B, 3e étage, porte 312',
        '93100 Montreuil',
        'France',
      ],
      business: {
        company: 'Fédération départementale des associations d’éducation populaire et des centres sociaux de la Seine-Saint-Denis',
        siren: '412 345 678',
      },
      email: 'marie-christine.de-la-rochefoucauld@federation-education-populaire-93.org',
    },
    lines,
    totals: { htCents: sum((l) => l.htCents), vat: [...byRate.values()], vatCents: sum((l) => l.vatCents), ttcCents: sum((l) => l.ttcCents) },
  };
}

/** A gift card whose message is long and full of emoji and other scripts. */
export function sampleGiftCard(message?: string): GiftCard {
  return {
    offerLabel: '6 mois',
    months: 6,
    recipientName: 'Zoé Lemaître',
    buyerName: 'Céline et Étienne Garnier',
    message:
      message ??
      'Joyeux anniversaire, Zoé ! 🎉🎂 Puisque tu dévores les enquêtes de Contrechamp par-dessus mon épaule chaque dimanche matin, voici ton propre abonnement : six mois de journalisme indépendant, sans publicité ni actionnaire milliardaire. « Lire, c’est déjà résister », disait ta grand-mère. 📚✊ On t’embrasse très fort — à très vite à Montreuil ! 💚 Ps : n’oublie pas le rendez-vous de jeudi, 19 h, au café de la place. 日本語 too, Ελληνικά, Дмитрий, Łódź, Nguyễn.',
    code: 'K7MX-4QPD-9TRW-2HNZ',
    expiresAt: '2027-11-23T22:59:59.000Z',
    activateUrl: 'https://contrechamp.media/activer-cadeau/K7MX4QPD9TRW2HNZ',
    siteHost: 'contrechamp.media',
  };
}
