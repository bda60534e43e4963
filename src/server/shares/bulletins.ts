/**
 * Subscription bulletins (bulletins de souscription): what a reader signs to subscribe shares.
 *
 * The bulletin's text is built from its fields and the statutes' version (`bulletinText`), shown
 * on the form, printed on the PDF, and fingerprinted (sha256 of that text): the acceptance record
 * (time, account, client, statutes' version, fingerprint) proves what was accepted. A bulletin's
 * content never changes; its status follows the payment and the cooperative's decision:
 *
 *   awaiting_payment → paid → admitted (register entry and certificate) | refused (refunded)
 *   awaiting_payment → canceled (payment failed or abandoned)
 *   awaiting_payment | paid → renounced (within 14 days, refunded when paid; CGV art. 10)
 *
 * Every move is one conditional update on the status the caller read, so that two decisions at
 * once (two administrators, a webhook and a click) make one.
 */
import { createHash, randomInt } from 'node:crypto';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { countryField, countryName } from '../../lib/countries';
import { formatEuros } from '../../config/catalog';
import { type College, colleges, findCollege, statutes } from '../../config/statutes';
import { formatDate } from '../../lib/dates';
import { isSiren } from '../catalog/basket';
import { fail, type Result } from '../core/result';
import { type Database, newId, type ShareBulletinStatus, type SharePaymentMethod, toTimestamp } from '../db/database';
import { allotNumber } from '../billing/numbering';
import { addRegisterEntry, ensureMember, lockRegister, type MemberIdentity } from './register';
import { CONTACTS } from '../../config/publisher';

/** Days after signing during which a subscriber may renounce and be refunded (CGV art. 10). */
export const RENUNCIATION_DAYS = 14;

const trimmed = (max: number, what: string) => z.string().trim().max(max, `${what}\u00a0: ${max} caractères au plus.`);

/** The bulletin form's fields, as the page names them. */
export const bulletinForm = z.object({
  parts: z.coerce.number({ error: 'Indiquez un nombre de parts.' }).int('Indiquez un nombre entier de parts.').min(1, 'Souscrivez au moins une part.'),
  college: z.string().trim().max(40),
  personne: z.enum(['physique', 'morale'], { error: 'Indiquez si vous souscrivez en votre nom ou au nom d’une structure.' }),
  given_name: trimmed(100, 'Prénom').min(1, 'Indiquez votre prénom.'),
  family_name: trimmed(100, 'Nom').min(1, 'Indiquez votre nom.'),
  address_line1: trimmed(200, 'Adresse').min(1, 'Indiquez votre adresse postale.'),
  address_line2: trimmed(200, 'Complément d’adresse').default(''),
  postal_code: trimmed(20, 'Code postal').min(1, 'Indiquez votre code postal.'),
  city: trimmed(100, 'Ville').min(1, 'Indiquez votre ville.'),
  country: countryField,
  structure: trimmed(200, 'Nom de la structure').default(''),
  siren: z.string().trim().default(''),
  qualite: trimmed(100, 'Qualité du représentant').default(''),
  paiement: z.enum(['card', 'sepa', 'transfer'], { error: 'Choisissez un moyen de paiement.' }),
  statuts: z.literal(true, { error: 'Pour souscrire, acceptez les statuts et le bulletin.' }),
  risque: z.literal(true, { error: 'Pour souscrire, reconnaissez qu’une part sociale n’est pas un placement et comporte un risque de perte.' }),
});
export type BulletinInput = z.infer<typeof bulletinForm>;

export interface CheckedBulletin {
  college: College;
  shares: number;
  amountCents: number;
  identity: MemberIdentity;
  paymentMethod: SharePaymentMethod;
}

/** The rules the statutes set on a bulletin, in French; nothing is written. */
export function checkBulletin(input: BulletinInput): Result<{ bulletin: CheckedBulletin }> {
  const college = findCollege(input.college);
  if (!college) return fail(422, `Ce collège n’existe pas. Choisissez parmi\u00a0: ${colleges.map((c) => c.label).join(', ')}.`);
  if (input.parts < college.minimumShares) {
    return fail(
      422,
      `Le collège ${college.label} demande au moins ${college.minimumShares} part${college.minimumShares > 1 ? 's' : ''} (${formatEuros(college.minimumShares * statutes.shares.nominalCents)}).`,
    );
  }
  if (input.parts > statutes.shares.maximumPerBulletin) {
    return fail(
      422,
      `Un bulletin en ligne compte au plus ${statutes.shares.maximumPerBulletin} parts\u00a0: pour davantage, écrivez-nous à ${CONTACTS.societaires.email}.`,
    );
  }
  const legal = input.personne === 'morale';
  if (college.person === 'natural' && legal)
    return fail(422, `Le collège ${college.label} réunit des personnes physiques\u00a0: une structure souscrit dans le collège des partenaires.`);
  if (college.person === 'legal' && !legal)
    return fail(
      422,
      `Le collège ${college.label} réunit des structures (${college.who})\u00a0: souscrivez au nom de la structure, ou choisissez un autre collège.`,
    );
  const address = { line1: input.address_line1, line2: input.address_line2, postalCode: input.postal_code, city: input.city, country: input.country };
  const person = `${input.given_name} ${input.family_name}`;
  let identity: MemberIdentity;
  if (legal) {
    const siren = input.siren.replace(/\s/g, '');
    if (!input.structure) return fail(422, 'Indiquez le nom de la structure.');
    if (!isSiren(siren)) return fail(422, 'Numéro SIREN invalide\u00a0: 9 chiffres, tels qu’ils figurent sur l’avis de situation de la structure.');
    if (!input.qualite) return fail(422, 'Indiquez en quelle qualité vous représentez la structure (présidente, trésorier…).');
    identity = {
      person: 'legal',
      name: input.structure,
      givenName: input.given_name,
      familyName: input.family_name,
      company: { name: input.structure, siren, representative: person, role: input.qualite },
      address,
    };
  } else {
    identity = { person: 'natural', name: person, givenName: input.given_name, familyName: input.family_name, address };
  }
  return {
    ok: true,
    bulletin: { college, shares: input.parts, amountCents: input.parts * statutes.shares.nominalCents, identity, paymentMethod: input.paiement },
  };
}

const METHOD_LABELS: Record<SharePaymentMethod, string> = { card: 'carte bancaire', sepa: 'prélèvement SEPA', transfer: 'virement bancaire' };

/** « 912 345 678 » (as invoices print a SIREN); anything else as it is. */
const spacedSiren = (siren: string) => siren.replace(/^(\d{3})(\d{3})(\d{3})$/, '$1 $2 $3');

/**
 * The bulletin as it is read, accepted and printed: one paragraph per line. Same fields, same
 * text. The country is named in French (« France »), the SIREN spaced; `legacy` gives the text
 * of the bulletins signed before that (country code, SIREN in one block), which their
 * fingerprint covers (`acceptedBulletinText`).
 */
export function bulletinText(b: CheckedBulletin, statutesVersion: string, legacy = false): string[] {
  const id = b.identity;
  const siren = (s: string) => (legacy ? s : spacedSiren(s));
  const who = id.company
    ? `${id.company.name}, SIREN ${siren(id.company.siren)}, représentée par ${id.company.representative} en qualité de ${id.company.role}`
    : id.name;
  const country = legacy ? id.address.country : countryName(id.address.country);
  const address = [id.address.line1, id.address.line2, `${id.address.postalCode} ${id.address.city}`, country].filter(Boolean).join(', ');
  return [
    // The wording needs no agreement with the signer's gender (docs/writing.md); signed bulletins keep theirs.
    legacy ? `Je soussigné(e) ${who}, demeurant ${address},` : `Je, ${who}, demeurant ${address},`,
    `déclare souscrire ${b.shares} part${b.shares > 1 ? 's' : ''} sociale${b.shares > 1 ? 's' : ''} de Contrechamp SCIC SAS à capital variable, d’une valeur nominale de ${formatEuros(statutes.shares.nominalCents)} chacune, soit ${formatEuros(b.amountCents)}, intégralement libérées à la souscription par ${METHOD_LABELS[b.paymentMethod]}.`,
    `Je demande mon admission comme sociétaire dans le collège ${b.college.label} (${b.college.who}).`,
    `Je reconnais avoir pris connaissance des statuts (version ${statutesVersion}) et les accepter, ainsi que les conditions particulières des parts sociales (CGV, article 10). Mon admission est prononcée par la gérance\u00a0; si elle était refusée, ma souscription me serait intégralement remboursée.`,
    `Je sais qu’une part sociale n’est pas un placement\u00a0: elle ne se revalorise pas, n’est remboursée qu’à sa valeur nominale au plus, et comporte un risque de perte. Je peux renoncer à ma souscription dans les ${RENUNCIATION_DAYS} jours, sans motif, ${legacy ? 'et être intégralement remboursé(e).' : 'et obtenir le remboursement intégral de ma souscription.'}`,
  ];
}

/** sha256 (hex) of the bulletin's text as accepted, with its statutes' version. */
export function bulletinFingerprint(text: readonly string[], statutesVersion: string): string {
  return createHash('sha256')
    .update(JSON.stringify({ statutes: statutesVersion, text }))
    .digest('hex');
}

/** The text a bulletin's fingerprint covers: today's wording, or the one it was signed with before (country code, SIREN in one block, the signer's agreement in parentheses). */
export function acceptedBulletinText(b: CheckedBulletin, statutesVersion: string, fingerprint: string): string[] {
  const text = bulletinText(b, statutesVersion);
  if (bulletinFingerprint(text, statutesVersion) === fingerprint) return text;
  const legacy = bulletinText(b, statutesVersion, true);
  return bulletinFingerprint(legacy, statutesVersion) === fingerprint ? legacy : text;
}

/** The bulletin's series of one year, a row of `document_counters`: « B-2026 ». */
export const bulletinSeries = (acceptedAt: Date): string => `B-${parisDay(acceptedAt).slice(0, 4)}`;
/** « B-2026-0042 » */
export const formatBulletinNumber = (series: string, n: number): string => `${series}-${String(n).padStart(4, '0')}`;

/** A reference for a bank transfer that people can type: « PS-7K2M-9QXD ». */
export function transferReference(): string {
  const alphabet = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
  const pick = () => Array.from({ length: 4 }, () => alphabet[randomInt(alphabet.length)]).join('');
  return `PS-${pick()}-${pick()}`;
}

export interface ShareBulletin {
  id: string;
  /** « B-2026-0042 »: what the subscriber and the cooperative read and quote; the id stays the key and the link. */
  number: string;
  userId: string | null;
  orderId: string | null;
  collegeId: string;
  shares: number;
  nominalCents: number;
  amountCents: number;
  identity: MemberIdentity;
  statutesVersion: string;
  acceptedAt: Date;
  acceptedFrom: string;
  fingerprint: string;
  paymentMethod: SharePaymentMethod;
  transferReference: string | null;
  status: ShareBulletinStatus;
  paidAt: Date | null;
  /** For a transfer: the amount received, as the back-office recorded it. */
  transferReceivedCents: number | null;
  decidedAt: Date | null;
  decisionNote: string | null;
  createdAt: Date;
}

type BulletinRow = Awaited<ReturnType<typeof selectBulletin>>;
const selectBulletin = (db: Kysely<Database>, id: string) => db.selectFrom('share_bulletins').selectAll().where('id', '=', id).executeTakeFirst();

function toBulletin(r: NonNullable<BulletinRow>): ShareBulletin {
  return {
    id: r.id,
    number: r.number,
    userId: r.user_id,
    orderId: r.order_id,
    collegeId: r.college_id,
    shares: Number(r.shares),
    nominalCents: Number(r.nominal_cents),
    amountCents: Number(r.amount_cents),
    identity: JSON.parse(r.identity) as MemberIdentity,
    statutesVersion: r.statutes_version,
    acceptedAt: new Date(r.accepted_at),
    acceptedFrom: r.accepted_from,
    fingerprint: r.fingerprint,
    paymentMethod: r.payment_method,
    transferReference: r.transfer_reference,
    status: r.status,
    paidAt: r.paid_at ? new Date(r.paid_at) : null,
    transferReceivedCents: r.transfer_received_cents ?? null,
    decidedAt: r.decided_at ? new Date(r.decided_at) : null,
    decisionNote: r.decision_note,
    createdAt: new Date(r.created_at),
  };
}

export async function findBulletin(db: Kysely<Database>, id: string): Promise<ShareBulletin | undefined> {
  if (!z.uuid().safeParse(id).success) return undefined;
  const row = await selectBulletin(db, id);
  return row ? toBulletin(row) : undefined;
}

/** The account's own bulletin; undefined for any other id. */
export async function findUserBulletin(db: Kysely<Database>, userId: string, id: string): Promise<ShareBulletin | undefined> {
  const found = await findBulletin(db, id);
  return found && found.userId === userId ? found : undefined;
}

export async function listUserBulletins(db: Kysely<Database>, userId: string): Promise<ShareBulletin[]> {
  const rows = await db.selectFrom('share_bulletins').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').execute();
  return rows.map(toBulletin);
}

/** Bulletins waiting on the cooperative (paid, or awaiting a transfer), oldest first, with their account's address. */
export async function bulletinsAwaitingDecision(db: Kysely<Database>, max: number): Promise<{ bulletin: ShareBulletin; email: string | null }[]> {
  const rows = await db
    .selectFrom('share_bulletins as b')
    .leftJoin('users as u', 'u.id', 'b.user_id')
    .selectAll('b')
    .select('u.email')
    .where((eb) => eb.or([eb('b.status', '=', 'paid'), eb.and([eb('b.status', '=', 'awaiting_payment'), eb('b.payment_method', '=', 'transfer')])]))
    .orderBy('b.created_at')
    .limit(max)
    .execute();
  return rows.map(({ email, ...row }) => ({ bulletin: toBulletin(row), email }));
}

/** The bulletin of a shares order. */
export async function bulletinOfOrder(db: Kysely<Database>, orderId: string): Promise<ShareBulletin | undefined> {
  const row = await db.selectFrom('share_bulletins').selectAll().where('order_id', '=', orderId).executeTakeFirst();
  return row ? toBulletin(row) : undefined;
}

/** Writes a signed bulletin (in the caller's transaction, with its order when paid online). */
export async function insertBulletin(
  trx: Kysely<Database>,
  b: CheckedBulletin,
  /** userId null: a bulletin signed on paper, entered by the cooperative (the demo's members without an account). */
  signer: { userId: string | null; client: string; orderId: string | null },
  now: Date,
): Promise<ShareBulletin> {
  const text = bulletinText(b, statutes.statutes.version);
  const id = newId();
  // Gapless: the number is taken in the bulletin's transaction, and given back if it rolls back.
  const series = bulletinSeries(now);
  const number = formatBulletinNumber(series, await allotNumber(trx, series));
  await trx
    .insertInto('share_bulletins')
    .values({
      id,
      number,
      user_id: signer.userId,
      order_id: signer.orderId,
      college_id: b.college.id,
      shares: b.shares,
      nominal_cents: statutes.shares.nominalCents,
      amount_cents: b.amountCents,
      identity: JSON.stringify(b.identity),
      statutes_version: statutes.statutes.version,
      accepted_at: toTimestamp(now),
      accepted_from: signer.userId ? `compte ${signer.userId}, ${signer.client}` : signer.client,
      fingerprint: bulletinFingerprint(text, statutes.statutes.version),
      payment_method: b.paymentMethod,
      transfer_reference: b.paymentMethod === 'transfer' ? transferReference() : null,
      status: 'awaiting_payment',
      paid_at: null,
      decided_at: null,
      decided_by: null,
      decision_note: null,
      created_at: toTimestamp(now),
      updated_at: toTimestamp(now),
    })
    .execute();
  return toBulletin((await selectBulletin(trx, id))!);
}

/** Moves a bulletin from one status to another, once; false when it had moved already. */
export async function moveBulletin(
  trx: Kysely<Database>,
  id: string,
  from: ShareBulletinStatus,
  to: ShareBulletinStatus,
  set: { paidAt?: Date; receivedCents?: number; decidedBy?: string | null; note?: string | null },
  now: Date,
): Promise<boolean> {
  const moved = await trx
    .updateTable('share_bulletins')
    .set({
      status: to,
      updated_at: toTimestamp(now),
      ...(set.paidAt ? { paid_at: toTimestamp(set.paidAt) } : {}),
      ...(set.receivedCents !== undefined ? { transfer_received_cents: set.receivedCents } : {}),
      ...(to === 'admitted' || to === 'refused' ? { decided_at: toTimestamp(now), decided_by: set.decidedBy ?? null, decision_note: set.note ?? null } : {}),
      ...(to === 'renounced' ? { decided_at: toTimestamp(now), decision_note: set.note ?? null } : {}),
    })
    .where('id', '=', id)
    .where('status', '=', from)
    .executeTakeFirst();
  return moved.numUpdatedRows > 0n;
}

/** The day in Paris, YYYY-MM-DD. */
export const parisDay = (date: Date): string =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris', year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);

/**
 * Admits a paid bulletin: the member (created with their number at the first admission), and a
 * register entry with the shares and the next certificate number, in the bulletin's move's
 * transaction. Undefined when the bulletin was not (or no longer) waiting for a decision.
 */
export async function admitInTransaction(
  trx: Kysely<Database>,
  bulletin: ShareBulletin,
  adminId: string | null,
  now: Date,
): Promise<{ certificateNumber: number; memberNumber: number } | undefined> {
  if (!(await moveBulletin(trx, bulletin.id, 'paid', 'admitted', { decidedBy: adminId }, now))) return undefined;
  // Admissions take turns on the register, so two first bulletins of one account admitted at
  // once find or create one member (on PostgreSQL the second sees the first's member row).
  await lockRegister(trx);
  const member = await ensureMember(trx, bulletin.userId, bulletin.identity, now);
  const entry = await addRegisterEntry(
    trx,
    {
      memberId: member.id,
      kind: 'admission',
      collegeId: bulletin.collegeId,
      sharesDelta: bulletin.shares,
      nominalCents: bulletin.nominalCents,
      bulletinId: bulletin.id,
      effectiveOn: parisDay(now),
      recordedBy: adminId,
      note: `Admission de ${bulletin.shares} part${bulletin.shares > 1 ? 's' : ''} (bulletin signé le ${formatDate(bulletin.acceptedAt)})`,
    },
    now,
  );
  return { certificateNumber: entry.certificateNumber!, memberNumber: member.memberNumber };
}
