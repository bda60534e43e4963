/**
 * Demo accounts, created only in demo mode (`APP_MODE=demo`, the default of `npm start`).
 * The README lists them. Existing accounts are left untouched.
 */
import type { Kysely } from 'kysely';
import { addDays, addMonths } from 'date-fns';
import { SUBSCRIPTION_VAT_BP, vatIncluded } from '../../config/catalog';
import { type Database, newId, toTimestamp, type UserRole } from '../db/database';
import { createUser, updateProfile } from '../auth/service';
import type { ServerDeps } from '../core/deps';
import { writeTransaction } from '../db/transaction';
import { findOrder, insertOrder } from '../orders/repository';
import { issueCreditNote, issueForPayment } from '../billing/documents';
import { seedDemoGift } from '../subscriptions/gifts';
import { ensureCustomer } from '../orders/service';
import { saveSimulatedMethod } from '../payments/simulated';
import { insertSubscription } from '../subscriptions/repository';
import { schedulePeriod } from '../subscriptions/service';
import { findUserRowByEmail } from '../auth/repository';
import { log } from '../core/log';
import { admitInTransaction, bulletinForm, checkBulletin, insertBulletin, moveBulletin } from '../shares/bulletins';
import { addDocument, addResolution, closeAssembly, createAssembly, scheduleNotice, sendNotice } from '../shares/assemblies';
import { castVotes, giveProxy, setAttendance } from '../shares/ballots';
import { latestAccounts } from '../../config/cooperative-documents';
import { statutes } from '../../config/statutes';

export const DEMO_PASSWORD = 'motdepasse-demo';

/**
 * Roles are staff roles; the subscriber and the sociétaire are readers whose subscription and
 * shares (seeded by the revenue and cooperative work) make them what their address says.
 */
export const DEMO_ACCOUNTS: { email: string; role: UserRole; givenName: string; familyName: string }[] = [
  { email: 'lecteur@exemple.fr', role: 'reader', givenName: 'Louis', familyName: 'Lecteur' },
  { email: 'abonne@exemple.fr', role: 'reader', givenName: 'Agnès', familyName: 'Abonnée' },
  { email: 'societaire@exemple.fr', role: 'reader', givenName: 'Samir', familyName: 'Sociétaire' },
  { email: 'salariee@exemple.fr', role: 'reader', givenName: 'Salomé', familyName: 'Salariée' },
  { email: 'partenaire@exemple.fr', role: 'reader', givenName: 'Paul', familyName: 'Partenaire' },
  { email: 'redaction@exemple.fr', role: 'editor', givenName: 'Rose', familyName: 'Rédaction' },
  { email: 'administration@exemple.fr', role: 'admin', givenName: 'Alix', familyName: 'Administration' },
];

export async function seedDemoAccounts(db: Kysely<Database>, now: Date): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    if (await findUserRowByEmail(db, account.email)) continue;
    try {
      await createUser(db, { ...account, password: DEMO_PASSWORD, now });
      log.info('demo account created', { role: account.role });
    } catch (error) {
      // Another process seeded it first.
      if (!(await findUserRowByEmail(db, account.email))) throw error;
    }
  }
}

/**
 * What the demo subscriber supports: a monthly subscription paid for three months and a monthly
 * donation paid for two, both renewing at their next period end (the site renews them itself
 * with the simulated provider); a one-off donation; and a yearly subscription withdrawn within
 * its 14 days (refunded, so it has a credit note). Every payment has its invoice or receipt,
 * issued at its date in date order. Seeded once: an account that already has a subscription is
 * left as it is. `lecteur@exemple.fr` supports nothing.
 */
export async function seedDemoRevenue(deps: ServerDeps): Promise<void> {
  const user = await findUserRowByEmail(deps.db, 'abonne@exemple.fr');
  if (!user) return;
  const already = await deps.db.selectFrom('subscriptions').select('id').where('user_id', '=', user.id).executeTakeFirst();
  if (already || deps.payments.name !== 'simulated') return;
  const now = deps.clock.now();
  const customer = await ensureCustomer(deps, { id: user.id, email: user.email, name: `${user.given_name} ${user.family_name}` });
  const methodLabel = await saveSimulatedMethod(deps.db, customer, 'card', '4242424242424242');
  const address = { line1: '8 rue des Lilas', line2: '', postalCode: '69003', city: 'Lyon', country: 'FR' };
  await writeTransaction(deps.db, async (trx) => {
    await updateProfile(trx, { userId: user.id, givenName: user.given_name, familyName: user.family_name, address, now });
    const billingName = `${user.given_name} ${user.family_name}`;
    const plans = [
      { kind: 'plan' as const, planId: 'mensuel', amountCents: 700, months: 3, source: 'printemps', description: 'Abonnement Mensuel', vatRateBp: SUBSCRIPTION_VAT_BP },
      { kind: 'donation' as const, planId: null, amountCents: 1000, months: 2, source: null, description: 'Don mensuel', vatRateBp: 0 },
    ];
    for (const p of plans) {
      // Started `months` ago (a few days more, so that the next renewal is a few days ahead).
      const start = addDays(addMonths(now, -p.months), 5);
      const subscriptionId = await insertSubscription(trx, { userId: user.id, kind: p.kind, planId: p.planId, amountCents: p.amountCents, interval: 'month', vatRateBp: p.vatRateBp, provider: 'simulated', source: p.source }, start);
      let periodStart = start;
      for (let i = 0; i < p.months; i++) {
        const periodEnd = addMonths(periodStart, 1);
        const { order } = await insertOrder(trx, {
          userId: user.id, purpose: p.kind === 'plan' ? 'subscription' : 'donation', reason: i === 0 ? 'initial' : 'renewal', offerId: p.planId ?? 'don',
          description: p.description, interval: 'month', amountCents: p.amountCents, vatRateBp: p.vatRateBp, vatCents: vatIncluded(p.amountCents, p.vatRateBp),
          source: p.source, method: 'card', provider: 'simulated', subscriptionId, attemptKey: `demo:${subscriptionId}:${i}`,
          billingName: `${user.given_name} ${user.family_name}`, billingAddress: address, termsAcceptedAt: start, immediateStartAt: p.kind === 'plan' && i === 0 ? start : null,
          periodStart, periodEnd, status: 'paid', paymentRef: `ch_sim_demo_${subscriptionId}_${i}`, paidAt: periodStart,
        }, periodStart);
        await trx.insertInto('order_events').values({ id: newId(), order_id: order.id, from_status: 'pending', to_status: 'paid', cause: `Paiement reçu (${methodLabel})`, provider_event_id: null, at: toTimestamp(periodStart) }).execute();
        periodStart = periodEnd;
      }
      const current = await trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).executeTakeFirstOrThrow();
      await trx.updateTable('subscriptions').set({ status: 'active', current_period_start: toTimestamp(addMonths(periodStart, -1)), current_period_end: toTimestamp(periodStart), payment_method: methodLabel, updated_at: toTimestamp(now) }).where('id', '=', current.id).execute();
      await trx.insertInto('subscription_events').values({ id: newId(), subscription_id: subscriptionId, type: 'started', from_status: 'incomplete', to_status: 'active', detail: `Premier paiement reçu (${methodLabel})`, at: toTimestamp(start) }).execute();
      await schedulePeriod(deps, trx, { id: subscriptionId, kind: p.kind, interval: 'month' }, periodStart);
    }

    // A one-off donation, six weeks ago.
    const donatedAt = addDays(now, -42);
    await insertOrder(trx, {
      userId: user.id, purpose: 'donation', reason: 'initial', offerId: 'don', description: 'Don ponctuel', interval: null, amountCents: 2000, vatRateBp: 0, vatCents: 0,
      source: null, method: 'card', provider: 'simulated', subscriptionId: null, attemptKey: `demo:don:${user.id}`, billingName, billingAddress: address,
      termsAcceptedAt: donatedAt, status: 'paid', paymentRef: `ch_sim_demo_don_${user.id}`, paidAt: donatedAt,
    }, donatedAt);

    // A yearly subscription taken four months ago and withdrawn three days later (CGV art. 8): refunded in full.
    const yearlyAt = addDays(addMonths(now, -4), 2);
    const refundedAt = addDays(yearlyAt, 3);
    const yearlyId = await insertSubscription(trx, { userId: user.id, kind: 'plan', planId: 'annuel', amountCents: 7000, interval: 'year', vatRateBp: SUBSCRIPTION_VAT_BP, provider: 'simulated', source: null }, yearlyAt);
    await trx.updateTable('subscriptions').set({ status: 'canceled', current_period_start: toTimestamp(yearlyAt), current_period_end: toTimestamp(refundedAt), ended_at: toTimestamp(refundedAt), payment_method: methodLabel, updated_at: toTimestamp(refundedAt) }).where('id', '=', yearlyId).execute();
    await trx.insertInto('subscription_events').values([
      { id: newId(), subscription_id: yearlyId, type: 'started', from_status: 'incomplete', to_status: 'active', detail: `Premier paiement reçu (${methodLabel})`, at: toTimestamp(yearlyAt) },
      { id: newId(), subscription_id: yearlyId, type: 'ended', from_status: 'active', to_status: 'canceled', detail: 'Rétractation dans les 14 jours : remboursement intégral', at: toTimestamp(refundedAt) },
    ]).execute();
    await insertOrder(trx, {
      userId: user.id, purpose: 'subscription', reason: 'initial', offerId: 'annuel', description: 'Abonnement Annuel', interval: 'year', amountCents: 7000, vatRateBp: SUBSCRIPTION_VAT_BP,
      vatCents: vatIncluded(7000, SUBSCRIPTION_VAT_BP), source: null, method: 'card', provider: 'simulated', subscriptionId: yearlyId, attemptKey: `demo:${yearlyId}:0`,
      billingName, billingAddress: address, termsAcceptedAt: yearlyAt, immediateStartAt: yearlyAt, periodStart: yearlyAt, periodEnd: addMonths(yearlyAt, 12),
      status: 'refunded', paymentRef: `ch_sim_demo_${yearlyId}_0`, paidAt: yearlyAt,
    }, yearlyAt);

    // Their invoices and receipts, at each payment's date and in date order (numbers follow dates), then the credit note.
    const paid = await trx.selectFrom('orders').select('id').where('user_id', '=', user.id).where('paid_at', 'is not', null).orderBy('paid_at', 'asc').execute();
    for (const { id } of paid) {
      const order = (await findOrder(trx, id))!;
      if (order.status === 'refunded' && order.paidAt) {
        await issueForPayment(trx, deps.siteUrl, order, { methodLabel, now: order.paidAt });
        await issueCreditNote(trx, deps.siteUrl, order, refundedAt);
      } else if (order.paidAt) {
        await issueForPayment(trx, deps.siteUrl, order, { methodLabel, now: order.paidAt });
      }
    }
  });
  // A gift bought for Louis Lecteur, delivered and not activated: its code is in the README.
  await seedDemoGift(deps, { id: user.id, name: `${user.given_name} ${user.family_name}`, address }, { name: 'Louis Lecteur', email: 'lecteur@exemple.fr' }, async (trx, orderId, paidAt) => {
    await issueForPayment(trx, deps.siteUrl, (await findOrder(trx, orderId))!, { methodLabel, now: paidAt });
  });
  log.info('demo revenue seeded');
}

/**
 * The cooperative's demo register: `societaire@exemple.fr` (4 shares, readers' college, since
 * June), `salariee@exemple.fr` (employees), `partenaire@exemple.fr` for an association
 * (partners, 8 shares), and eleven members without an account in every college, so that the
 * figures, the back-office and an assembly's tally have something to show. Each one went through
 * a bulletin paid by transfer and an admission, at its own past date, so the register, the
 * certificates and the bulletins are the ones the real path makes. Seeded once: a register with
 * any entry is left as it is.
 */
export async function seedDemoCooperative(deps: ServerDeps): Promise<void> {
  if (await deps.db.selectFrom('share_register').select('id').limit(1).executeTakeFirst()) return;
  const now = deps.clock.now();
  const withAccount = async (email: string) => (await findUserRowByEmail(deps.db, email))?.id ?? null;
  const address = (line1: string, postal: string, city: string) => ({ address_line1: line1, postal_code: postal, city, country: 'FR' });
  const members: { userId: string | null; daysAgo: number; fields: Record<string, unknown> }[] = [
    { userId: await withAccount('salariee@exemple.fr'), daysAgo: 400, fields: { parts: '2', college: 'salaries', given_name: 'Salomé', family_name: 'Salariée', ...address('5 rue Marcel-Cachin', '93100', 'Montreuil') } },
    { userId: null, daysAgo: 398, fields: { parts: '2', college: 'salaries', given_name: 'Karim', family_name: 'Benali', ...address('18 avenue de la Résistance', '93100', 'Montreuil') } },
    { userId: null, daysAgo: 390, fields: { parts: '1', college: 'salaries', given_name: 'Léa', family_name: 'Moreau', ...address('3 rue de Paris', '93230', 'Romainville') } },
    { userId: await withAccount('partenaire@exemple.fr'), daysAgo: 360, fields: { parts: '8', college: 'partenaires', personne: 'morale', given_name: 'Paul', family_name: 'Partenaire', structure: 'Association Les Amis du Port', siren: '732829320', qualite: 'président', ...address('1 quai de la Fosse', '44000', 'Nantes') } },
    { userId: null, daysAgo: 300, fields: { parts: '10', college: 'partenaires', personne: 'morale', given_name: 'Claire', family_name: 'Dumas', structure: 'Coopérative Terres Communes', siren: '552100554', qualite: 'co-gérante', ...address('40 rue Nationale', '59000', 'Lille') } },
    { userId: null, daysAgo: 250, fields: { parts: '4', college: 'partenaires', personne: 'morale', given_name: 'Yves', family_name: 'Le Gall', structure: 'Radio Libre du Trégor', siren: '356000000', qualite: 'trésorier', ...address('2 place du Centre', '22300', 'Lannion') } },
    { userId: await withAccount('societaire@exemple.fr'), daysAgo: 230, fields: { parts: '4', college: 'lecteurs', given_name: 'Samir', family_name: 'Sociétaire', ...address('27 rue Oberkampf', '75011', 'Paris') } },
    { userId: null, daysAgo: 160, fields: { parts: '1', college: 'lecteurs', given_name: 'Jeanne', family_name: 'Roux', ...address('9 rue Victor-Hugo', '69002', 'Lyon') } },
    { userId: null, daysAgo: 120, fields: { parts: '3', college: 'lecteurs', given_name: 'Marc', family_name: 'Petit', ...address('14 rue des Tanneurs', '67000', 'Strasbourg') } },
    { userId: null, daysAgo: 90, fields: { parts: '2', college: 'lecteurs', given_name: 'Aïcha', family_name: 'Traoré', ...address('6 boulevard Longchamp', '13001', 'Marseille') } },
    { userId: null, daysAgo: 60, fields: { parts: '1', college: 'lecteurs', given_name: 'Hugo', family_name: 'Fabre', ...address('31 rue Nationale', '37000', 'Tours') } },
    { userId: null, daysAgo: 30, fields: { parts: '6', college: 'lecteurs', given_name: 'Nadia', family_name: 'Cohen', ...address('2 rue Sainte-Catherine', '33000', 'Bordeaux') } },
    { userId: null, daysAgo: 12, fields: { parts: '1', college: 'lecteurs', given_name: 'Théo', family_name: 'Garnier', ...address('7 rue de la Monnaie', '59800', 'Lille') } },
    { userId: null, daysAgo: 8, fields: { parts: '2', college: 'lecteurs', given_name: 'Zoé', family_name: 'Lambert', ...address('11 place Plumereau', '37000', 'Tours') } },
  ];
  await writeTransaction(deps.db, async (trx) => {
    for (const m of members) {
      const checked = checkBulletin(bulletinForm.parse({ personne: 'physique', paiement: 'transfer', statuts: true, risque: true, ...m.fields }));
      if (!checked.ok) throw new Error(`Demo bulletin refused: ${checked.message}`);
      const signedAt = addDays(now, -m.daysAgo);
      const bulletin = await insertBulletin(trx, checked.bulletin, { userId: m.userId, client: m.userId ? 'démonstration' : 'bulletin papier saisi par la coopérative (démonstration)', orderId: null }, signedAt);
      const paidAt = addDays(signedAt, Math.min(3, m.daysAgo - 1));
      await moveBulletin(trx, bulletin.id, 'awaiting_payment', 'paid', { paidAt }, paidAt);
      const admittedAt = addDays(signedAt, Math.min(10, m.daysAgo - 1));
      await admitInTransaction(trx, { ...bulletin, status: 'paid', paidAt }, null, admittedAt);
    }
  });
  log.info('demo cooperative seeded');
}

/**
 * The demo's general assemblies, made through the real services with the clock set at each
 * step: last summer's ordinary assembly, closed, with its results and minutes (three members of
 * different colleges voted, one by proxy); this year's extraordinary assembly whose online vote
 * is open now, for which the partner association gave its proxy to `societaire@exemple.fr`
 * before the vote opened (so the sociétaire votes twice: for themselves and for the partner);
 * and the next ordinary assembly, convened, whose vote opens later, where a proxy can be given.
 * Seeded once, after the register.
 */
export async function seedDemoAssemblies(deps: ServerDeps): Promise<void> {
  if (await deps.db.selectFrom('assemblies').select('id').limit(1).executeTakeFirst()) return;
  const admin = await findUserRowByEmail(deps.db, 'administration@exemple.fr');
  const [societaire, salariee, partenaire] = await Promise.all(['societaire@exemple.fr', 'salariee@exemple.fr', 'partenaire@exemple.fr'].map((e) => findUserRowByEmail(deps.db, e)));
  if (!admin || !societaire || !salariee || !partenaire) return;
  const now = deps.clock.now();
  const at = (date: Date) => ({ ...deps, clock: { now: () => date } });
  const must = <T>(result: { ok: true } & T | { ok: false; message: string }): T => {
    if (!result.ok) throw new Error(`Demo assembly: ${result.message}`);
    return result;
  };
  const days = (n: number) => addDays(now, n);
  const member = async (userId: string) => Number((await deps.db.selectFrom('share_members').select('member_number').where('user_id', '=', userId).executeTakeFirstOrThrow()).member_number);

  async function convene(created: Date, input: Parameters<typeof createAssembly>[2], resolutions: { title: string; text: string; boardProposal?: boolean }[], noticeAt: Date, documents: { title: string; path: string }[] = []) {
    const { assemblyId } = must(await createAssembly(at(created), admin!.id, input));
    for (const r of resolutions) must(await addResolution(at(created), admin!.id, assemblyId, r));
    must(await addDocument(at(created), admin!.id, assemblyId, { title: `Statuts en vigueur (version ${statutes.statutes.version})`, path: statutes.statutes.pdf }));
    for (const d of documents) must(await addDocument(at(created), admin!.id, assemblyId, d));
    const { noticeAt: scheduled } = must(await scheduleNotice(at(created), admin!.id, assemblyId, { sendAt: noticeAt }));
    await sendNotice(at(noticeAt), assemblyId, toTimestamp(scheduled));
    return assemblyId;
  }

  // Last summer: closed, with results and minutes.
  const past = await convene(days(-200), {
    kind: 'ordinary', call: 'first', title: 'Assemblée générale ordinaire 2026', startsAt: days(-150), place: 'Maison des coopératives, 12 rue des Coopérateurs, Montreuil', onlineUrl: 'https://visio.contrechamp.media/ag-2026',
    agenda: ['Rapport de gestion de la gérance', 'Approbation des comptes de l’exercice 2025', 'Affectation du résultat', 'Ratification des admissions de l’exercice'], voteOpensAt: days(-160), voteClosesAt: days(-150),
  }, [
    { title: 'Approbation des comptes 2025', text: 'L’assemblée générale, après avoir entendu le rapport de gestion, approuve les comptes de l’exercice clos le 31 décembre 2025.', boardProposal: true },
    { title: 'Affectation du résultat', text: 'L’assemblée affecte l’excédent de l’exercice, soit 12 430 €, à hauteur de 100 % aux réserves impartageables.', boardProposal: true },
    { title: 'Ratification des admissions', text: 'L’assemblée ratifie l’admission des sociétaires admis par la gérance au cours de l’exercice.', boardProposal: true },
  ], days(-190), latestAccounts ? [{ title: latestAccounts.title, path: latestAccounts.pdf }] : []);
  must(await giveProxy(at(days(-170)), partenaire.id, past, { memberNumber: await member(salariee.id) }));
  const pastView = await deps.db.selectFrom('assembly_resolutions').select(['id', 'position']).where('assembly_id', '=', past).orderBy('position').execute();
  const choices = (...picked: ('pour' | 'contre' | 'abstention')[]) => Object.fromEntries(pastView.map((r, i) => [r.id, picked[i] ?? 'pour']));
  must(await setAttendance(at(days(-165)), salariee.id, past, 'present'));
  must(await castVotes(at(days(-155)), salariee.id, past, { choices: choices('pour', 'pour', 'pour') }));
  const partnerMember = await deps.db.selectFrom('share_members').select('id').where('user_id', '=', partenaire.id).executeTakeFirstOrThrow();
  must(await castVotes(at(days(-155)), salariee.id, past, { choices: choices('pour', 'contre', 'pour'), onBehalfOf: partnerMember.id }));
  must(await castVotes(at(days(-154)), societaire.id, past, { choices: choices('pour', 'abstention', 'pour') }));
  await closeAssembly(at(days(-150)), past);

  // Now: an extraordinary assembly whose online vote is open.
  const open = await convene(days(-20), {
    kind: 'extraordinary', call: 'first', title: 'Assemblée générale extraordinaire : modification des statuts', startsAt: days(14), place: 'Maison des coopératives, 12 rue des Coopérateurs, Montreuil', onlineUrl: 'https://visio.contrechamp.media/age-2026',
    agenda: ['Création d’un quatrième collège, celui des contributeurs', 'Modification de l’article 9 des statuts'], voteOpensAt: days(-1), voteClosesAt: days(14),
  }, [
    { title: 'Création du collège des contributeurs', text: 'L’assemblée décide de créer un collège des contributeurs (pigistes et auteurs réguliers), pesant 10 % des voix, et de ramener le poids du collège des lecteurs-sociétaires à 35 %.', boardProposal: true },
    { title: 'Pouvoirs pour les formalités', text: 'L’assemblée donne tous pouvoirs à la gérance pour accomplir les formalités liées à ces décisions.', boardProposal: true },
  ], days(-3));
  must(await giveProxy(at(days(-2)), partenaire.id, open, { memberNumber: await member(societaire.id) }));
  must(await setAttendance(at(days(-2)), salariee.id, open, 'remote'));

  // Next: the ordinary assembly of 2027, convened; its vote opens later, so a proxy can still be given.
  await convene(days(-1), {
    kind: 'ordinary', call: 'first', title: 'Assemblée générale ordinaire 2027', startsAt: days(60), place: 'Maison des coopératives, 12 rue des Coopérateurs, Montreuil', onlineUrl: '',
    agenda: ['Rapport de gestion', 'Approbation des comptes de l’exercice 2026', 'Élection de la co-gérance'], voteOpensAt: days(45), voteClosesAt: days(60),
  }, [
    { title: 'Approbation des comptes 2026', text: 'L’assemblée générale approuve les comptes de l’exercice clos le 31 décembre 2026.', boardProposal: true },
    { title: 'Élection de la co-gérance', text: 'L’assemblée élit pour trois ans la co-gérance proposée par le conseil des sociétaires.', boardProposal: true },
  ], now);
  log.info('demo assemblies seeded');
}
