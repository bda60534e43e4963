/**
 * The legal identity of the publisher, in one place: the footer, the legal notice, the CGV
 * summary, every mail's footer and (next) every invoice read it from here. Changing the
 * address or a registration number is a change of this file only.
 */
export interface PublisherIdentity {
  /** The trade name readers know. */
  name: string;
  /** Name and short legal form, as printed under a copyright or on an invoice. */
  legalName: string;
  /** The full legal form; an invoice of a cooperative must carry the words « société coopérative ». */
  legalForm: string;
  /** Head office. */
  address: { street: string; postalCode: string; city: string; country: string };
  /** SIREN (9 digits, no spaces). */
  siren: string;
  /** Registry and city of registration. */
  registry: string;
  /** Intra-community VAT number, no spaces. */
  vatNumber: string;
  /** Commission paritaire des publications et agences de presse number. */
  cppap: string;
  publicationDirector: string;
  /**
   * Who signs for the cooperative (its legal representative, the president of the SAS): the
   * countersignature of a subscription bulletin and the share certificates name them.
   */
  legalRepresentative: { name: string; role: string };
  email: string;
  /** With its opening hours, as printed on the legal notice. */
  phone: string;
}

/**
 * Who readers write to, one address per subject. The contact page, the notices of the pages,
 * the mails and the contact form's routing read them here; the legal pages (markdown) name the
 * same addresses, which a test holds to this list (src/config/publisher.test.ts).
 */
export const CONTACTS = {
  redaction: {
    email: 'redaction@contrechamp.media',
    label: 'Rédaction',
    about: 'réaction à un contenu, correction, proposition de sujet, droit de réponse',
  },
  abonnements: {
    email: 'abonnements@contrechamp.media',
    label: 'Abonnements et dons',
    about: 'paiement, facture, résiliation, remboursement, code cadeau, confirmation de don',
  },
  societaires: {
    email: 'societaires@contrechamp.media',
    label: 'Sociétariat',
    about: 'souscription de parts, assemblées générales, retrait',
  },
  partenariats: {
    email: 'partenariats@contrechamp.media',
    label: 'Partenariats',
    about: 'reprise de contenus, projections, coproductions, ateliers d’éducation aux médias',
  },
  donnees: {
    email: 'donnees@contrechamp.media',
    label: 'Données personnelles',
    about: 'accès, rectification, effacement, portabilité, opposition',
  },
  accessibilite: {
    email: 'accessibilite@contrechamp.media',
    label: 'Accessibilité',
    about: 'un contenu ou un service du site que vous n’arrivez pas à lire ou à utiliser',
  },
  general: {
    email: 'contact@contrechamp.media',
    label: 'Pour tout le reste',
    about: 'dont la direction de la publication et le signalement d’un contenu',
  },
} as const satisfies Record<string, { email: string; label: string; about: string }>;
export type ContactSubject = keyof typeof CONTACTS;

/**
 * Addresses mail is sent from or to by machines, not people: the newsletters' sender (a list
 * address of its own, so that its reputation stays apart from the sign-in links'), and the
 * mailbox of every newsletter's `List-Unsubscribe: mailto:` (routed to the relay-events webhook).
 */
export const MAIL_ROBOTS = {
  newsletters: 'lettres@contrechamp.media',
  unsubscribe: 'desinscription@contrechamp.media',
} as const;

export const PUBLISHER: PublisherIdentity = {
  name: 'Contrechamp',
  legalName: 'Contrechamp SCIC SAS à capital variable',
  legalForm: 'société coopérative d’intérêt collectif par actions simplifiée (SCIC SAS) à capital variable',
  address: { street: '12 rue des Coopérateurs', postalCode: '93100', city: 'Montreuil', country: 'France' },
  siren: '912345678',
  registry: 'RCS Bobigny',
  vatNumber: 'FR74912345678',
  cppap: '0529 W 94321',
  publicationDirector: 'Léa Moreau',
  legalRepresentative: { name: 'Léa Moreau', role: 'présidente' },
  email: CONTACTS.general.email,
  phone: '01 99 00 12 34 (du lundi au vendredi, de 10 h à 17 h)',
};

/** « 912 345 678 » */
export const formatSiren = (siren: string) => siren.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');
/** « FR74 912 345 678 » */
export const formatVatNumber = (vat: string) => vat.replace(/^([A-Z]{2}\d{2})(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3 $4');
/** « 12 rue des Coopérateurs, 93100 Montreuil » */
export const postalAddressLine = (p: PublisherIdentity = PUBLISHER) => `${p.address.street}, ${p.address.postalCode} ${p.address.city}`;

/** Where subscribers send a bank transfer for their shares (the cooperative's capital account). */
export const CAPITAL_ACCOUNT = {
  holder: 'Contrechamp SCIC SAS',
  iban: 'FR76 3000 4000 0312 3456 7890 143',
  bic: 'BNPAFRPPXXX',
  bank: 'BNP Paribas, agence Montreuil Croix-de-Chavaux',
} as const;

/**
 * The identifiant créancier SEPA (ICS) the Banque de France gave the cooperative: every SEPA
 * mandate, payment confirmation and pre-notification names it beside the mandate's reference
 * (RUM). French format: FR, two check digits (ISO 7064 mod 97-10 over the national part), the
 * creditor's business code (ZZZ by default), six digits. A demo value, valid in form.
 */
export const SEPA_CREDITOR_ID = 'FR19ZZZ654321';
