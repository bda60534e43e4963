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
import { findOrder, insertOrder } from '../orders/public';
import { issueCreditNote, issueForPayment } from '../billing/documents';
import { seedDemoGift } from '../gifts/public';
import { ensureCustomer } from '../orders/service';
import { saveSimulatedMethod } from '../payments/simulated';
import { insertSubscription } from '../subscriptions/public';
import { schedulePeriod } from '../subscriptions/service';
import { findUserRowByEmail } from '../auth/public';
import { log } from '../core/log';
import { admitInTransaction, bulletinForm, checkBulletin, insertBulletin, moveBulletin } from '../shares/bulletins';
import { openRefundTransfer } from '../shares/refunds';
import { addDocument, addResolution, closeAssembly, createAssembly, createSecondCall, scheduleNotice, sendNotice } from '../shares/assemblies';
import { castVotes, giveProxy, setAttendance } from '../shares/ballots';
import { latestAccounts } from '../../config/cooperative-documents';
import { statutes } from '../../config/statutes';
import { formatInTimeZone, fromZonedTime } from 'date-fns-tz';
import { findNewsletter } from '../../config/newsletters';
import { TIME_ZONE } from '../../lib/dates';
import { config } from '../core/config';
import { isSupporterAddress } from '../newsletter/audience';
import { startSend } from '../newsletter/delivery';
import { createIssue, type IssueInput, parisTime, scheduleIssue } from '../newsletter/issues';
import { searchStories, storiesByUrl } from '../newsletter/stories';
import { suppress } from '../newsletter/suppression';
import type { Segment } from '../newsletter/tables';

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
      {
        kind: 'plan' as const,
        planId: 'mensuel',
        amountCents: 700,
        months: 3,
        source: 'printemps',
        description: 'Abonnement Mensuel',
        vatRateBp: SUBSCRIPTION_VAT_BP,
      },
      { kind: 'donation' as const, planId: null, amountCents: 1000, months: 2, source: null, description: 'Don mensuel', vatRateBp: 0 },
    ];
    for (const p of plans) {
      // Started `months` ago (a few days more, so that the next renewal is a few days ahead).
      const start = addDays(addMonths(now, -p.months), 5);
      const subscriptionId = await insertSubscription(
        trx,
        {
          userId: user.id,
          kind: p.kind,
          planId: p.planId,
          amountCents: p.amountCents,
          interval: 'month',
          vatRateBp: p.vatRateBp,
          provider: 'simulated',
          source: p.source,
        },
        start,
      );
      let periodStart = start;
      for (let i = 0; i < p.months; i++) {
        const periodEnd = addMonths(periodStart, 1);
        const { order } = await insertOrder(
          trx,
          {
            userId: user.id,
            purpose: p.kind === 'plan' ? 'subscription' : 'donation',
            reason: i === 0 ? 'initial' : 'renewal',
            offerId: p.planId ?? 'don',
            description: p.description,
            interval: 'month',
            amountCents: p.amountCents,
            vatRateBp: p.vatRateBp,
            vatCents: vatIncluded(p.amountCents, p.vatRateBp),
            source: p.source,
            method: 'card',
            provider: 'simulated',
            subscriptionId,
            attemptKey: `demo:${subscriptionId}:${i}`,
            billingName: `${user.given_name} ${user.family_name}`,
            billingAddress: address,
            termsAcceptedAt: start,
            immediateStartAt: p.kind === 'plan' && i === 0 ? start : null,
            periodStart,
            periodEnd,
            status: 'paid',
            paymentRef: `ch_sim_demo_${subscriptionId}_${i}`,
            paidAt: periodStart,
          },
          periodStart,
        );
        await trx
          .insertInto('order_events')
          .values({
            id: newId(),
            order_id: order.id,
            from_status: 'pending',
            to_status: 'paid',
            cause: `Paiement reçu (${methodLabel})`,
            provider_event_id: null,
            at: toTimestamp(periodStart),
          })
          .execute();
        periodStart = periodEnd;
      }
      const current = await trx.selectFrom('subscriptions').selectAll().where('id', '=', subscriptionId).executeTakeFirstOrThrow();
      await trx
        .updateTable('subscriptions')
        .set({
          status: 'active',
          current_period_start: toTimestamp(addMonths(periodStart, -1)),
          current_period_end: toTimestamp(periodStart),
          payment_method: methodLabel,
          updated_at: toTimestamp(now),
        })
        .where('id', '=', current.id)
        .execute();
      await trx
        .insertInto('subscription_events')
        .values({
          id: newId(),
          subscription_id: subscriptionId,
          type: 'started',
          from_status: 'incomplete',
          to_status: 'active',
          detail: `Premier paiement reçu (${methodLabel})`,
          at: toTimestamp(start),
        })
        .execute();
      await schedulePeriod(deps, trx, { id: subscriptionId, kind: p.kind, interval: 'month' }, periodStart);
    }

    // A one-off donation, six weeks ago.
    const donatedAt = addDays(now, -42);
    await insertOrder(
      trx,
      {
        userId: user.id,
        purpose: 'donation',
        reason: 'initial',
        offerId: 'don',
        description: 'Don ponctuel',
        interval: null,
        amountCents: 2000,
        vatRateBp: 0,
        vatCents: 0,
        source: null,
        method: 'card',
        provider: 'simulated',
        subscriptionId: null,
        attemptKey: `demo:don:${user.id}`,
        billingName,
        billingAddress: address,
        termsAcceptedAt: donatedAt,
        status: 'paid',
        paymentRef: `ch_sim_demo_don_${user.id}`,
        paidAt: donatedAt,
      },
      donatedAt,
    );

    // A yearly subscription taken four months ago and withdrawn three days later (CGV art. 8): refunded in full.
    const yearlyAt = addDays(addMonths(now, -4), 2);
    const refundedAt = addDays(yearlyAt, 3);
    const yearlyId = await insertSubscription(
      trx,
      {
        userId: user.id,
        kind: 'plan',
        planId: 'annuel',
        amountCents: 7000,
        interval: 'year',
        vatRateBp: SUBSCRIPTION_VAT_BP,
        provider: 'simulated',
        source: null,
      },
      yearlyAt,
    );
    await trx
      .updateTable('subscriptions')
      .set({
        status: 'canceled',
        current_period_start: toTimestamp(yearlyAt),
        current_period_end: toTimestamp(refundedAt),
        ended_at: toTimestamp(refundedAt),
        payment_method: methodLabel,
        updated_at: toTimestamp(refundedAt),
      })
      .where('id', '=', yearlyId)
      .execute();
    await trx
      .insertInto('subscription_events')
      .values([
        {
          id: newId(),
          subscription_id: yearlyId,
          type: 'started',
          from_status: 'incomplete',
          to_status: 'active',
          detail: `Premier paiement reçu (${methodLabel})`,
          at: toTimestamp(yearlyAt),
        },
        {
          id: newId(),
          subscription_id: yearlyId,
          type: 'ended',
          from_status: 'active',
          to_status: 'canceled',
          detail: 'Rétractation dans les 14 jours : remboursement intégral',
          at: toTimestamp(refundedAt),
        },
      ])
      .execute();
    await insertOrder(
      trx,
      {
        userId: user.id,
        purpose: 'subscription',
        reason: 'initial',
        offerId: 'annuel',
        description: 'Abonnement Annuel',
        interval: 'year',
        amountCents: 7000,
        vatRateBp: SUBSCRIPTION_VAT_BP,
        vatCents: vatIncluded(7000, SUBSCRIPTION_VAT_BP),
        source: null,
        method: 'card',
        provider: 'simulated',
        subscriptionId: yearlyId,
        attemptKey: `demo:${yearlyId}:0`,
        billingName,
        billingAddress: address,
        termsAcceptedAt: yearlyAt,
        immediateStartAt: yearlyAt,
        periodStart: yearlyAt,
        periodEnd: addMonths(yearlyAt, 12),
        status: 'refunded',
        paymentRef: `ch_sim_demo_${yearlyId}_0`,
        paidAt: yearlyAt,
      },
      yearlyAt,
    );

    // Their invoices and receipts, at each payment's date and in date order (numbers follow dates), then the credit note.
    const paid = await trx
      .selectFrom('orders')
      .select('id')
      .where('user_id', '=', user.id)
      .where('paid_at', 'is not', null)
      .orderBy('paid_at', 'asc')
      .execute();
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
  await seedDemoGift(
    deps,
    { id: user.id, name: `${user.given_name} ${user.family_name}`, address },
    { name: 'Louis Lecteur', email: 'lecteur@exemple.fr' },
    async (trx, orderId, paidAt) => {
      await issueForPayment(trx, deps.siteUrl, (await findOrder(trx, orderId))!, { methodLabel, now: paidAt });
    },
  );
  log.info('demo revenue seeded');
}

/**
 * The cooperative's demo register: `societaire@exemple.fr` (4 shares, readers' college, since
 * June), `salariee@exemple.fr` (employees), `partenaire@exemple.fr` for an association
 * (partners, 8 shares), and eleven members without an account in every college, so that the
 * figures, the back-office and an assembly's tally have something to show. Each one went through
 * a bulletin paid by transfer and an admission, at its own past date, so the register, the
 * certificates and the bulletins are the ones the real path makes; one of them sent his transfer
 * twice, and his refund by transfer waits for his RIB. Seeded once: a register with
 * any entry is left as it is.
 */
export async function seedDemoCooperative(deps: ServerDeps): Promise<void> {
  if (await deps.db.selectFrom('share_register').select('id').limit(1).executeTakeFirst()) return;
  const now = deps.clock.now();
  const withAccount = async (email: string) => (await findUserRowByEmail(deps.db, email))?.id ?? null;
  const address = (line1: string, postal: string, city: string) => ({ address_line1: line1, postal_code: postal, city, country: 'FR' });
  const members: { userId: string | null; daysAgo: number; receivedCents?: number; fields: Record<string, unknown> }[] = [
    {
      userId: await withAccount('salariee@exemple.fr'),
      daysAgo: 400,
      fields: { parts: '2', college: 'salaries', given_name: 'Salomé', family_name: 'Salariée', ...address('5 rue Marcel-Cachin', '93100', 'Montreuil') },
    },
    {
      userId: null,
      daysAgo: 398,
      fields: { parts: '2', college: 'salaries', given_name: 'Karim', family_name: 'Benali', ...address('18 avenue de la Résistance', '93100', 'Montreuil') },
    },
    {
      userId: null,
      daysAgo: 390,
      fields: { parts: '1', college: 'salaries', given_name: 'Léa', family_name: 'Moreau', ...address('3 rue de Paris', '93230', 'Romainville') },
    },
    {
      userId: await withAccount('partenaire@exemple.fr'),
      daysAgo: 360,
      fields: {
        parts: '8',
        college: 'partenaires',
        personne: 'morale',
        given_name: 'Paul',
        family_name: 'Partenaire',
        structure: 'Association Les Amis du Port',
        siren: '732829320',
        qualite: 'président',
        ...address('1 quai de la Fosse', '44000', 'Nantes'),
      },
    },
    {
      userId: null,
      daysAgo: 300,
      fields: {
        parts: '10',
        college: 'partenaires',
        personne: 'morale',
        given_name: 'Claire',
        family_name: 'Dumas',
        structure: 'Coopérative Terres Communes',
        siren: '552100554',
        qualite: 'co-gérante',
        ...address('40 rue Nationale', '59000', 'Lille'),
      },
    },
    {
      userId: null,
      daysAgo: 250,
      fields: {
        parts: '4',
        college: 'partenaires',
        personne: 'morale',
        given_name: 'Yves',
        family_name: 'Le Gall',
        structure: 'Radio Libre du Trégor',
        siren: '356000000',
        qualite: 'trésorier',
        ...address('2 place du Centre', '22300', 'Lannion'),
      },
    },
    {
      userId: await withAccount('societaire@exemple.fr'),
      daysAgo: 230,
      fields: { parts: '4', college: 'lecteurs', given_name: 'Samir', family_name: 'Sociétaire', ...address('27 rue Oberkampf', '75011', 'Paris') },
    },
    {
      userId: null,
      daysAgo: 160,
      fields: { parts: '1', college: 'lecteurs', given_name: 'Jeanne', family_name: 'Roux', ...address('9 rue Victor-Hugo', '69002', 'Lyon') },
    },
    {
      userId: null,
      daysAgo: 120,
      fields: { parts: '3', college: 'lecteurs', given_name: 'Marc', family_name: 'Petit', ...address('14 rue des Tanneurs', '67000', 'Strasbourg') },
    },
    {
      userId: null,
      daysAgo: 90,
      fields: { parts: '2', college: 'lecteurs', given_name: 'Aïcha', family_name: 'Traoré', ...address('6 boulevard Longchamp', '13001', 'Marseille') },
    },
    {
      userId: null,
      daysAgo: 60,
      fields: { parts: '1', college: 'lecteurs', given_name: 'Hugo', family_name: 'Fabre', ...address('31 rue Nationale', '37000', 'Tours') },
    },
    {
      userId: null,
      daysAgo: 30,
      fields: { parts: '6', college: 'lecteurs', given_name: 'Nadia', family_name: 'Cohen', ...address('2 rue Sainte-Catherine', '33000', 'Bordeaux') },
    },
    // Sent his transfer twice: the 50 € too many wait in the back-office's « Remboursements par virement », for his RIB.
    {
      userId: null,
      daysAgo: 12,
      receivedCents: 10_000,
      fields: { parts: '1', college: 'lecteurs', given_name: 'Théo', family_name: 'Garnier', ...address('7 rue de la Monnaie', '59800', 'Lille') },
    },
    {
      userId: null,
      daysAgo: 8,
      fields: { parts: '2', college: 'lecteurs', given_name: 'Zoé', family_name: 'Lambert', ...address('11 place Plumereau', '37000', 'Tours') },
    },
  ];
  await writeTransaction(deps.db, async (trx) => {
    for (const m of members) {
      const checked = checkBulletin(bulletinForm.parse({ personne: 'physique', paiement: 'transfer', statuts: true, risque: true, ...m.fields }));
      if (!checked.ok) throw new Error(`Demo bulletin refused: ${checked.message}`);
      const signedAt = addDays(now, -m.daysAgo);
      const bulletin = await insertBulletin(
        trx,
        checked.bulletin,
        { userId: m.userId, client: m.userId ? 'démonstration' : 'bulletin papier saisi par la coopérative (démonstration)', orderId: null },
        signedAt,
      );
      const paidAt = addDays(signedAt, Math.min(3, m.daysAgo - 1));
      await moveBulletin(trx, bulletin.id, 'awaiting_payment', 'paid', { paidAt, ...(m.receivedCents ? { receivedCents: m.receivedCents } : {}) }, paidAt);
      // A transfer made twice: the difference is owed back by transfer, as « Virement reçu » records it.
      const over = (m.receivedCents ?? 0) - bulletin.amountCents;
      if (over > 0)
        await openRefundTransfer(trx, { cause: 'overpayment', sourceId: bulletin.id, userId: m.userId, bulletinId: bulletin.id, amountCents: over }, paidAt);
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
 * last month's extraordinary assembly, which did not reach its quorum and whose second call is a
 * draft in the back-office; and the next ordinary assembly, convened, whose vote opens later, where a proxy can be given.
 * Seeded once, after the register.
 */
export async function seedDemoAssemblies(deps: ServerDeps): Promise<void> {
  if (await deps.db.selectFrom('assemblies').select('id').limit(1).executeTakeFirst()) return;
  const admin = await findUserRowByEmail(deps.db, 'administration@exemple.fr');
  const [societaire, salariee, partenaire] = await Promise.all(
    ['societaire@exemple.fr', 'salariee@exemple.fr', 'partenaire@exemple.fr'].map((e) => findUserRowByEmail(deps.db, e)),
  );
  if (!admin || !societaire || !salariee || !partenaire) return;
  const now = deps.clock.now();
  const at = (date: Date) => ({ ...deps, clock: { now: () => date } });
  const must = <T>(result: ({ ok: true } & T) | { ok: false; message: string }): T => {
    if (!result.ok) throw new Error(`Demo assembly: ${result.message}`);
    return result;
  };
  // Assemblies meet at 18 h 30, Paris time, as people do, not at the minute the demo was seeded.
  const days = (n: number) => fromZonedTime(`${formatInTimeZone(addDays(now, n), TIME_ZONE, 'yyyy-MM-dd')}T18:30:00`, TIME_ZONE);
  const member = async (userId: string) =>
    Number((await deps.db.selectFrom('share_members').select('member_number').where('user_id', '=', userId).executeTakeFirstOrThrow()).member_number);

  async function convene(
    created: Date,
    input: Parameters<typeof createAssembly>[2],
    resolutions: { title: string; text: string; boardProposal?: boolean }[],
    noticeAt: Date,
    documents: { title: string; path: string }[] = [],
  ) {
    const { assemblyId } = must(await createAssembly(at(created), admin!.id, input));
    for (const r of resolutions) must(await addResolution(at(created), admin!.id, assemblyId, r));
    must(
      await addDocument(at(created), admin!.id, assemblyId, {
        title: `Statuts en vigueur (version ${statutes.statutes.version})`,
        path: statutes.statutes.pdf,
      }),
    );
    for (const d of documents) must(await addDocument(at(created), admin!.id, assemblyId, d));
    const { noticeAt: scheduled } = must(await scheduleNotice(at(created), admin!.id, assemblyId, { sendAt: noticeAt }));
    await sendNotice(at(noticeAt), assemblyId, toTimestamp(scheduled));
    return assemblyId;
  }

  // Last summer: closed, with results and minutes.
  const past = await convene(
    days(-200),
    {
      kind: 'ordinary',
      call: 'first',
      title: 'Assemblée générale ordinaire 2026',
      startsAt: days(-150),
      place: 'Maison des coopératives, 12 rue des Coopérateurs, Montreuil',
      onlineUrl: 'https://visio.contrechamp.media/ag-2026',
      agenda: [
        'Rapport de gestion de la gérance',
        'Approbation des comptes de l’exercice 2025',
        'Affectation du résultat',
        'Ratification des admissions de l’exercice',
      ],
      voteOpensAt: days(-160),
      voteClosesAt: days(-150),
    },
    [
      {
        title: 'Approbation des comptes 2025',
        text: 'L’assemblée générale, après avoir entendu le rapport de gestion, approuve les comptes de l’exercice clos le 31 décembre 2025.',
        boardProposal: true,
      },
      {
        title: 'Affectation du résultat',
        text: 'L’assemblée affecte l’excédent de l’exercice, soit 12 430 €, à hauteur de 100 % aux réserves impartageables.',
        boardProposal: true,
      },
      {
        title: 'Ratification des admissions',
        text: 'L’assemblée ratifie l’admission des sociétaires admis par la gérance au cours de l’exercice.',
        boardProposal: true,
      },
    ],
    days(-190),
    latestAccounts ? [{ title: latestAccounts.title, path: latestAccounts.pdf }] : [],
  );
  must(await giveProxy(at(days(-170)), partenaire.id, past, { memberNumber: await member(salariee.id) }));
  const pastView = await deps.db.selectFrom('assembly_resolutions').select(['id', 'position']).where('assembly_id', '=', past).orderBy('position').execute();
  const choices = (...picked: ('pour' | 'contre' | 'abstention')[]) => Object.fromEntries(pastView.map((r, i) => [r.id, picked[i] ?? 'pour']));
  must(await setAttendance(at(days(-165)), salariee.id, past, 'present'));
  must(await castVotes(at(days(-155)), salariee.id, past, { choices: choices('pour', 'pour', 'pour') }));
  const partnerMember = await deps.db.selectFrom('share_members').select('id').where('user_id', '=', partenaire.id).executeTakeFirstOrThrow();
  must(await castVotes(at(days(-155)), salariee.id, past, { choices: choices('pour', 'contre', 'pour'), onBehalfOf: partnerMember.id }));
  must(await castVotes(at(days(-154)), societaire.id, past, { choices: choices('pour', 'abstention', 'pour') }));
  await closeAssembly(at(days(-150)), past);

  // Last month: an extraordinary assembly on first call that did not reach its quorum (one member
  // voted, of the eleven called): nothing was deliberated. Its second call, under the statutes'
  // lower quorum, is being prepared in the back-office.
  const unattended = await convene(
    days(-45),
    {
      kind: 'extraordinary',
      call: 'first',
      title: 'Assemblée générale extraordinaire : titres participatifs',
      startsAt: days(-10),
      place: 'Maison des coopératives, 12 rue des Coopérateurs, Montreuil',
      onlineUrl: 'https://visio.contrechamp.media/age-titres',
      agenda: ['Émission de titres participatifs', 'Pouvoirs pour les formalités'],
      voteOpensAt: days(-17),
      voteClosesAt: days(-10),
    },
    [
      {
        title: 'Émission de titres participatifs',
        text: 'L’assemblée autorise la gérance à émettre des titres participatifs, dans la limite de 200 000 €, pour financer le studio de la web TV.',
        boardProposal: true,
      },
      {
        title: 'Pouvoirs pour les formalités',
        text: 'L’assemblée donne tous pouvoirs à la gérance pour accomplir les formalités liées à ces décisions.',
        boardProposal: true,
      },
    ],
    days(-40),
  );
  const unattendedView = await deps.db.selectFrom('assembly_resolutions').select('id').where('assembly_id', '=', unattended).orderBy('position').execute();
  must(await castVotes(at(days(-12)), societaire.id, unattended, { choices: Object.fromEntries(unattendedView.map((r) => [r.id, 'pour' as const])) }));
  await closeAssembly(at(days(-10)), unattended);
  must(
    await createSecondCall(at(days(-3)), admin.id, unattended, {
      startsAt: days(30),
      place: 'Maison des coopératives, 12 rue des Coopérateurs, Montreuil',
      onlineUrl: 'https://visio.contrechamp.media/age-titres',
      voteOpensAt: days(20),
      voteClosesAt: days(30),
    }),
  );

  // Now: an extraordinary assembly whose online vote is open.
  const open = await convene(
    days(-20),
    {
      kind: 'extraordinary',
      call: 'first',
      title: 'Assemblée générale extraordinaire : modification des statuts',
      startsAt: days(14),
      place: 'Maison des coopératives, 12 rue des Coopérateurs, Montreuil',
      onlineUrl: 'https://visio.contrechamp.media/age-2026',
      agenda: ['Création d’un quatrième collège, celui des contributeurs', 'Modification de l’article 9 des statuts'],
      voteOpensAt: days(-1),
      voteClosesAt: days(14),
    },
    [
      {
        title: 'Création du collège des contributeurs',
        text: 'L’assemblée décide de créer un collège des contributeurs (pigistes et auteurs réguliers), pesant 10 % des voix, et de ramener le poids du collège des lecteurs-sociétaires à 35 %.',
        boardProposal: true,
      },
      {
        title: 'Pouvoirs pour les formalités',
        text: 'L’assemblée donne tous pouvoirs à la gérance pour accomplir les formalités liées à ces décisions.',
        boardProposal: true,
      },
    ],
    days(-3),
  );
  must(await giveProxy(at(days(-2)), partenaire.id, open, { memberNumber: await member(societaire.id) }));
  must(await setAttendance(at(days(-2)), salariee.id, open, 'remote'));

  // Next: the ordinary assembly of 2027, convened; its vote opens later, so a proxy can still be given.
  await convene(
    days(-1),
    {
      kind: 'ordinary',
      call: 'first',
      title: 'Assemblée générale ordinaire 2027',
      startsAt: days(60),
      place: 'Maison des coopératives, 12 rue des Coopérateurs, Montreuil',
      onlineUrl: '',
      agenda: ['Rapport de gestion', 'Approbation des comptes de l’exercice 2026', 'Élection de la co-gérance'],
      voteOpensAt: days(45),
      voteClosesAt: days(60),
    },
    [
      { title: 'Approbation des comptes 2026', text: 'L’assemblée générale approuve les comptes de l’exercice clos le 31 décembre 2026.', boardProposal: true },
      {
        title: 'Élection de la co-gérance',
        text: 'L’assemblée élit pour trois ans la co-gérance proposée par le conseil des sociétaires.',
        boardProposal: true,
      },
    ],
    now,
  );
  log.info('demo assemblies seeded');
}

// ——— Newsletters ———

/** A demo issue: what the newsroom wrote, and the stories it picked from the demo corpus. */
interface DemoIssue {
  input: Omit<IssueInput, 'stories'>;
  /** Addresses in the demo corpus, in the mail's order (a brève by its anchor, which outlives its list page). */
  stories: readonly string[];
  /** Kinds to take from the newest stories when the corpus is not the demo's (CONTENT_SOURCE=api). */
  kinds: readonly string[];
}

const demoIssue = (
  newsletter: string,
  segment: Segment,
  supportBlock: boolean,
  subject: string,
  preheader: string,
  intro: string,
  stories: readonly string[],
  kinds: readonly string[] = ['Article', 'Brève'],
): DemoIssue => ({
  input: { newsletter, subject, preheader, intro, supportBlock, segment },
  stories,
  kinds,
});

/** Sent at the first start, in this order: each newsletter numbers them 1, 2, 3… */
const DEMO_SENT_ISSUES: readonly DemoIssue[] = [
  demoIssue(
    'quotidienne',
    'all',
    true,
    'Amérique latine : 31 journalistes tués depuis janvier',
    'Le décompte des défenseurs de la liberté de la presse, notre Journal de la semaine et une commune du Finistère qui achète des terres pour ses maraîchers.',
    'Bonjour,\n\nAu moins trente et un journalistes ont été tués en Amérique latine depuis janvier, selon un réseau d’organisations de défense de la liberté de la presse, qui dénonce l’impunité de leurs assassins. C’est aussi de cela que parle **Le Journal** de cette semaine.\n\nEt parce qu’il n’y a pas que de mauvaises nouvelles : dans le Finistère, une commune rachète des terres agricoles pour y installer des maraîchers.\n\nBonne lecture,\n\nLa rédaction',
    [
      '/breves#breve-amerique-latine-31-journalistes-tues-depuis-janvier',
      '/emissions/2026/le-journal-climat-expulsions-et-liberte-de-la-presse',
      '/breves#breve-finistere-une-commune-achete-des-terres-pour-ses-maraichers',
      '/articles/2026/encadrement-des-loyers-fin-de-l-experimentation-parlement',
    ],
    ['Brève', 'Article', 'Émission'],
  ),
  demoIssue(
    'quotidienne',
    'all',
    true,
    'Déchets plastiques : enquête sur une filière d’export vers l’Afrique de l’Ouest',
    'Des conteneurs partis d’un port français, des déchets brûlés à l’arrivée. Et au Portugal, le droit d’être injoignable.',
    'Bonjour,\n\nCe matin, une enquête au long cours : nous avons suivi des conteneurs partis d’un port français vers l’Afrique de l’Ouest. **Déclarés comme matière première**, ils contenaient en partie des déchets souillés, brûlés à l’arrivée. À quelques jours de l’interdiction européenne de ces exportations, voici comment la filière s’organise.\n\nÀ lire aussi : depuis 2022, la loi portugaise interdit aux employeurs de contacter leurs salariés pendant leur repos. Quatre ans plus tard, à Lisbonne, le télétravail la met à l’épreuve.\n\nLa rédaction',
    [
      '/articles/2026/dechets-plastiques-une-filiere-d-export-vers-l-afrique',
      '/articles/2026/au-portugal-le-droit-d-etre-injoignable-a-l-epreuve',
      '/breves#breve-pologne-une-ville-chauffe-ses-logements-a-la-geothermie',
    ],
  ),
  demoIssue(
    'quotidienne',
    'all',
    true,
    'Expulsions : les associations redoutent un printemps record',
    'À quatre mois de la fin de la trêve hivernale, les signaux d’alerte se multiplient. Et un épisode de La Fabrique de l’info.',
    'Bonjour,\n\nLa trêve hivernale protège les locataires jusqu’au 31 mars, mais un collectif d’associations tire déjà la sonnette d’alarme : les expulsions avec recours à la force publique ont encore augmenté cette année, et il réclame un moratoire. Notre article sur l’encadrement des loyers éclaire ce qui se joue.\n\nDans **La Fabrique de l’info**, nous racontons comment Contrechamp signale et répare ses erreurs, et pourquoi nous le faisons en public.\n\nLa rédaction',
    [
      '/breves#breve-expulsions-les-associations-redoutent-un-printemps-record',
      '/articles/2026/encadrement-des-loyers-fin-de-l-experimentation-parlement',
      '/breves#breve-seine-saint-denis-ouverture-d-un-centre-de-sante-cooperatif',
      '/podcasts/la-fabrique-de-l-info/corriger-une-erreur',
    ],
    ['Brève', 'Article', 'Podcast'],
  ),
  demoIssue(
    'hebdo',
    'all',
    true,
    'L’Hebdo : loyers, aides à domicile et un média sans actionnaire',
    'Le meilleur de la semaine : le Parlement face à l’encadrement des loyers, les kilomètres que personne ne paie, et Marion Delacroix dans notre émission.',
    'Bonjour à toutes et à tous,\n\nCette semaine, deux enquêtes sur ce que coûte la vie quand on la gagne mal. À deux mois de la fin de l’expérimentation, le Parlement hésite à prolonger **l’encadrement des loyers**, et villes, locataires et propriétaires se mobilisent. Dans les campagnes, les **aides à domicile** parcourent chaque mois des centaines de kilomètres avec leur propre voiture : une partie de leur salaire part dans le réservoir.\n\nDans notre émission, l’historienne Marion Delacroix explique pourquoi « un média sans actionnaire rend des comptes » : à ses lecteurs. C’est exactement ce que nous essayons de faire.\n\nBon week-end,\n\nLa rédaction de Contrechamp',
    [
      '/articles/2026/encadrement-des-loyers-fin-de-l-experimentation-parlement',
      '/articles/2026/aides-a-domicile-les-kilometres-que-personne-ne-paie',
      '/emissions/2026/marion-delacroix-un-media-sans-actionnaire-rend-des-comptes',
      '/podcasts/a-contre-courant/juger-en-vingt-minutes',
    ],
    ['Article', 'Émission', 'Podcast'],
  ),
  demoIssue(
    'hebdo',
    'supporters',
    false,
    'Pour nos soutiens : l’information locale, qui la paie ?',
    'Un numéro hors-série pour celles et ceux qui font vivre Contrechamp : nos sources, nos comptes, nos choix.',
    'Bonjour,\n\nVous recevez ce numéro parce que vous soutenez Contrechamp, par un abonnement, un don mensuel ou des parts de la coopérative. **Merci.**\n\nOn nous demande souvent qui paie l’information locale. Chez nous, la réponse tient en un mot : vous. Dans ce hors-série, nous vous proposons de réécouter deux épisodes de **La Fabrique de l’info** où nous ouvrons nos cuisines, et l’enquête sur les radios associatives, qui vivent la même question que nous.\n\nÀ très vite,\n\nLa rédaction',
    [
      '/podcasts/la-fabrique-de-l-info/qui-paie-l-information-locale',
      '/podcasts/la-fabrique-de-l-info/pourquoi-publier-nos-sources',
      '/articles/2026/radios-associatives-la-bande-fm-des-sans-voix-en-sursis',
      '/breves#breve-presse-regionale-deux-groupes-tiennent-la-moitie-des-titres',
    ],
    ['Podcast', 'Article'],
  ),
  demoIssue(
    'hebdo',
    'all',
    true,
    'L’Hebdo : l’école à l’épreuve, de l’amiante aux médiathèques du dimanche',
    'Des diagnostics que personne ne lit, 2 300 postes d’accompagnants vacants, et des bibliothèques qui ne ferment plus.',
    'Bonjour à toutes et à tous,\n\nCette semaine, l’école. Nous avons obtenu **les dossiers techniques amiante** de 96 établissements : documents absents, surveillances oubliées, enseignants jamais informés. Il manque toujours 2 300 accompagnants pour les élèves handicapés. Mais il y a aussi ce qui marche : en Seine-Saint-Denis, des médiathèques ouvertes le dimanche, et à Aubervilliers, un collège qui ouvre ses portes le samedi matin.\n\nBonne lecture, et bon week-end,\n\nLa rédaction de Contrechamp',
    [
      '/articles/2026/amiante-dans-les-ecoles-les-diagnostics-que-personne-ne-lit',
      '/breves#breve-eleves-handicapes-2-300-postes-d-accompagnants-non-pourvus',
      '/articles/2026/le-dimanche-a-la-mediatheque-en-seine-saint-denis',
      '/podcasts/les-voix-du-terrain/l-ecole-ouverte-le-samedi',
    ],
    ['Article', 'Podcast', 'Brève'],
  ),
  demoIssue(
    'emissions',
    'all',
    true,
    'Nouvelle émission : Marion Delacroix, « Un média sans actionnaire rend des comptes »',
    'L’entretien en vidéo, et deux podcasts pour prolonger.',
    'Bonjour,\n\nNotre nouvelle émission est en ligne : l’historienne Marion Delacroix retrace l’histoire des journaux coopératifs depuis la Libération, et dit à quelles conditions un média reste indépendant de l’argent comme du pouvoir. Sans coupure publicitaire, évidemment.\n\nPour prolonger, deux épisodes de nos podcasts : qui paie l’information locale, et la juge Nadia Benhamou, pour qui « on ne juge pas bien en vingt minutes ».\n\nBon visionnage,\n\nL’équipe des émissions',
    [
      '/emissions/2026/marion-delacroix-un-media-sans-actionnaire-rend-des-comptes',
      '/podcasts/la-fabrique-de-l-info/qui-paie-l-information-locale',
      '/podcasts/a-contre-courant/juger-en-vingt-minutes',
    ],
    ['Émission', 'Podcast'],
  ),
  demoIssue(
    'emissions',
    'all',
    true,
    'Le Journal : climat, expulsions et liberté de la presse',
    'Notre journal vidéo de la semaine, et les coulisses d’un reportage à Aubervilliers.',
    'Bonjour,\n\n**Le Journal** de la semaine est en ligne : l’ouverture de la conférence de l’ONU sur le climat, le début de la trêve hivernale après une saison d’expulsions chargée, et les journalistes menacés en Amérique latine.\n\nCôté podcasts, nous vous emmenons à Aubervilliers, dans un collège ouvert le samedi matin, et dans notre rédaction, pour comprendre comment nous corrigeons nos erreurs.\n\nBon visionnage,\n\nL’équipe des émissions',
    [
      '/emissions/2026/le-journal-climat-expulsions-et-liberte-de-la-presse',
      '/podcasts/les-voix-du-terrain/l-ecole-ouverte-le-samedi',
      '/podcasts/la-fabrique-de-l-info/corriger-une-erreur',
    ],
    ['Émission', 'Podcast'],
  ),
  demoIssue(
    'coulisses',
    'all',
    false,
    'Les Coulisses : ce que devient votre argent',
    'Les comptes du trimestre, l’assemblée générale extraordinaire et ce que prépare la rédaction.',
    'Bonjour,\n\nChaque mois, nous rendons des comptes à celles et ceux qui nous financent. Ce trimestre, **vos abonnements et vos dons** ont couvert 82 % de nos dépenses ; le reste vient de la vente de parts sociales et d’une bourse d’enquête.\n\nCe que nous en avons fait :\n\n- l’enquête sur l’export des déchets plastiques vers l’Afrique de l’Ouest, publiée ce mois-ci ;\n- un deuxième poste de journaliste en CDI, à Marseille ;\n- la transcription de toutes nos émissions et de nos podcasts.\n\nSi vous êtes sociétaire, le vote en ligne de l’assemblée générale extraordinaire est ouvert : il porte sur la création d’un collège des contributeurs. Votre voix compte, et vous pouvez aussi donner pouvoir.\n\nMerci d’être là,\n\nLa gérance et la rédaction',
    ['/podcasts/la-fabrique-de-l-info/pourquoi-publier-nos-sources', '/articles/2026/dechets-plastiques-une-filiere-d-export-vers-l-afrique'],
    ['Podcast', 'Article'],
  ),
];

/** The weekly that waits for next Saturday, and the one the newsroom is still writing. */
const DEMO_SCHEDULED_ISSUE = demoIssue(
  'hebdo',
  'all',
  true,
  'L’Hebdo : plastique exporté, droit à la déconnexion et presse en danger',
  'Notre enquête sur l’export des déchets plastiques, le télétravail au Portugal et Le Journal de la semaine.',
  'Bonjour à toutes et à tous,\n\nCette semaine, notre plus longue enquête de l’année : où finissent **les déchets plastiques** que nous trions avec soin ? Nous avons suivi des conteneurs partis d’un port français jusqu’en Afrique de l’Ouest, et la réponse n’est pas belle.\n\nAu Portugal, le droit d’être injoignable le soir existe dans la loi depuis 2022 ; nous sommes allés voir s’il existe aussi dans la vie. Et dans **Le Journal**, le décompte des journalistes tués en Amérique latine depuis janvier.\n\nBon week-end,\n\nLa rédaction de Contrechamp',
  [
    '/articles/2026/dechets-plastiques-une-filiere-d-export-vers-l-afrique',
    '/articles/2026/au-portugal-le-droit-d-etre-injoignable-a-l-epreuve',
    '/emissions/2026/le-journal-climat-expulsions-et-liberte-de-la-presse',
    '/podcasts/la-fabrique-de-l-info/corriger-une-erreur',
    '/breves#breve-expulsions-les-associations-redoutent-un-printemps-record',
  ],
  ['Article', 'Émission', 'Podcast'],
);

const DEMO_DRAFT_ISSUE = demoIssue(
  'hebdo',
  'all',
  true,
  'L’Hebdo : ces communs qui tiennent bon',
  'Des terres pour les maraîchers, la géothermie pour tous et un centre de santé en coopérative.',
  'Bonjour à toutes et à tous,\n\nCette semaine, des communs qui marchent : une commune du Finistère qui achète des terres pour ses maraîchers, une ville polonaise chauffée à la géothermie, un centre de santé coopératif en Seine-Saint-Denis.\n\n(À compléter : le chiffre du parc éolien de Vauclair, à vérifier avec l’auteur.)',
  [
    '/breves#breve-finistere-une-commune-achete-des-terres-pour-ses-maraichers',
    '/breves#breve-pologne-une-ville-chauffe-ses-logements-a-la-geothermie',
    '/breves#breve-seine-saint-denis-ouverture-d-un-centre-de-sante-cooperatif',
    '/articles/2026/eolien-citoyen-le-parc-finance-par-les-habitants',
  ],
  ['Brève', 'Article'],
);

/** What each demo account reads (sensible for who they are; the supporters' one only for supporters). */
const DEMO_ACCOUNT_NEWSLETTERS: Record<string, readonly string[]> = {
  'lecteur@exemple.fr': ['hebdo', 'emissions'],
  'abonne@exemple.fr': ['quotidienne', 'hebdo', 'coulisses'],
  'societaire@exemple.fr': ['hebdo', 'coulisses'],
  'salariee@exemple.fr': ['quotidienne', 'emissions', 'coulisses'],
  'partenaire@exemple.fr': ['hebdo'],
  'redaction@exemple.fr': ['quotidienne', 'hebdo', 'emissions'],
  'administration@exemple.fr': ['hebdo'],
};

type DemoChoice = 'confirmed' | 'pending' | 'unsubscribed';

/**
 * Readers without an account, signed up over the past months: `q` quotidienne, `h` hebdo, `e`
 * émissions; c confirmed, p pending (never clicked the link), u unsubscribed since. The first one
 * is the newsletter seed's mark (see `seedDemoNewsletters`): never reorder it.
 */
const DEMO_READERS: readonly [local: string, daysAgo: number, choices: string][] = [
  ['camille.martin', 310, 'qc hc'],
  ['lucas.bernard', 295, 'hc'],
  ['emma.dubois', 280, 'hc ec'],
  ['hugo.thomas', 266, 'qc'],
  ['chloe.robert', 250, 'hc'],
  ['nathan.richard', 241, 'qc hc ec'],
  ['ines.petit', 230, 'ec'],
  ['louis.durand', 214, 'hu'],
  ['lea.leroy', 205, 'qc'],
  ['gabriel.moreau', 198, 'hc ec'],
  ['manon.simon', 187, 'hc'],
  ['adam.mansouri', 176, 'qc eu'],
  ['jade.lefebvre', 170, 'hc'],
  ['raphael.michel', 161, 'ec'],
  ['louise.garcia', 150, 'qc hc'],
  ['arthur.david', 144, 'hc'],
  ['alice.bertrand', 133, 'qu hc'],
  ['jules.roux', 127, 'ec'],
  ['lina.vincent', 119, 'hc'],
  ['mael.fournier', 110, 'qc'],
  ['rose.morel', 104, 'hc ec'],
  ['leo.girard', 96, 'qc hc'],
  ['anna.andre', 90, 'hc'],
  ['thomas.nguyen', 84, 'ec'],
  ['julia.mercier', 77, 'qc'],
  ['paul.dupont', 71, 'hc'],
  ['sarah.bonnet', 66, 'hc ec'],
  ['noah.francois', 60, 'qc'],
  ['clara.martinez', 55, 'hc'],
  ['yanis.legrand', 49, 'qp'],
  ['margaux.garnier', 43, 'hc'],
  ['sacha.faure', 38, 'ec'],
  ['agathe.rousseau', 31, 'qc hc'],
  ['victor.guerin', 26, 'hu'],
  ['mathilde.muller', 20, 'hp ep'],
  ['fatou.diallo', 15, 'qc'],
  ['lou.roussel', 11, 'hc'],
  ['nina.nicolas', 7, 'ep'],
  ['samuel.perrin', 4, 'hp'],
  ['elise.morin', 2, 'qp hp'],
];

/** The reader whose address bounced for good: suppressed for every newsletter, so the back-office list has a row. */
const DEMO_BOUNCED = 'lina.vincent@exemple.fr';

const DEMO_CHOICE_NEWSLETTER: Record<string, string> = { q: 'quotidienne', h: 'hebdo', e: 'emissions' };
const DEMO_CHOICE_STATUS: Record<string, DemoChoice> = { c: 'confirmed', p: 'pending', u: 'unsubscribed' };

/** The first Saturday at 07:00, Paris time, after `now`. */
export function nextSaturdayMorning(now: Date): Date {
  const noon = parisTime(formatInTimeZone(now, TIME_ZONE, 'yyyy-MM-dd'), '12:00')!;
  for (let d = 0; d <= 7; d++) {
    // From Paris noon, whole days never cross a Paris midnight, summer time or not.
    const day = new Date(noon.getTime() + d * 24 * 3600_000);
    const at = parisTime(formatInTimeZone(day, TIME_ZONE, 'yyyy-MM-dd'), '07:00')!;
    if (formatInTimeZone(day, TIME_ZONE, 'i') === '6' && at.getTime() > now.getTime()) return at;
  }
  throw new Error('unreachable: a week has a Saturday');
}

/**
 * The addresses of an issue's stories: those of the demo corpus it was written for that the
 * running build has (the catalogue of src/server/newsletter/stories.ts), topped up with the
 * newest of the wanted kinds when the corpus is another one. None without a build (tests).
 */
function demoStories(issue: DemoIssue): string[] {
  const found = storiesByUrl(issue.stories).filter((card) => card !== undefined);
  const urls = [...new Set(found.map((card) => card.url))];
  if (urls.length >= 3) return urls.slice(0, 5);
  const newest = searchStories('', 30).filter((card) => !urls.includes(card.url));
  const wanted = [...newest.filter((card) => issue.kinds.includes(card.kicker)), ...newest.filter((card) => !issue.kinds.includes(card.kicker))];
  return [...urls, ...wanted.map((card) => card.url)].slice(0, 4);
}

/**
 * The demo's newsletters: the demo accounts subscribed to what suits them (the subscriber and
 * the sociétaires also to the supporters' one), forty readers without an account signed up over
 * the past months (some pending, some unsubscribed, one suppressed after a hard bounce), and
 * issues: for the daily, the weekly (one of them for supporters only), the émissions' one and
 * the supporters' one, sent; a weekly scheduled for next Saturday at 07:00 (Paris); a draft.
 *
 * The sent issues go through the real path, at the first start: created, scheduled « now » by
 * the service, their send started (what the SEND_ISSUE job does, called here so that they are
 * numbered 1, 2, 3… in the order written and are in the archive before the first request; the
 * job then finds them started and does nothing), and their mails written by the job worker's
 * batches, which start right after the seeds, into `data/outbox/`. Their record is not faked:
 * they are dated the first start (sending, sent), like any issue sent then.
 *
 * Seeded once, in one transaction: all of it or nothing (a process killed midway leaves no
 * trace, the next start seeds again). The mark is the first demo reader's row: its unique
 * address is inserted first, so a second start, or a second process at the same time (on
 * PostgreSQL it waits for the first one's commit), finds it and does nothing. Demo accounts that
 * already chose their newsletters are left as they are.
 */
export async function seedDemoNewsletters(deps: ServerDeps): Promise<void> {
  const editor = await findUserRowByEmail(deps.db, 'redaction@exemple.fr');
  if (!editor) return;
  const now = deps.clock.now();
  const at = (date: Date) => toTimestamp(date);
  const days = (n: number) => addDays(now, -n);
  const seeded = await writeTransaction(deps.db, async (trx) => {
    const insertReader = async (email: string, since: Date) =>
      (
        await trx
          .insertInto('newsletter_subscribers')
          .values({ id: newId(), email, status: 'pending', unsubscribe_hash: null, created_at: at(since), confirmed_at: null, unsubscribed_at: null })
          .onConflict((oc) => oc.column('email').doNothing())
          .returning('id')
          .executeTakeFirst()
      )?.id;
    const [markLocal, markDays] = DEMO_READERS[0]!;
    const mark = await insertReader(`${markLocal}@exemple.fr`, days(markDays));
    if (!mark) return null;

    /** One address's choices, and its summary as the service keeps it (confirmed while one is). */
    const subscribe = async (subscriberId: string, since: Date, choices: [newsletter: string, status: DemoChoice][]) => {
      const confirmedAt = new Date(since.getTime() + 40 * 60_000);
      const leftAt = new Date((since.getTime() + now.getTime()) / 2);
      for (const [newsletter, status] of choices) {
        await trx
          .insertInto('newsletter_subscriptions')
          .values({
            subscriber_id: subscriberId,
            newsletter,
            status,
            created_at: at(since),
            confirmed_at: status === 'pending' ? null : at(confirmedAt),
            unsubscribed_at: status === 'unsubscribed' ? at(leftAt) : null,
          })
          .onConflict((oc) => oc.columns(['subscriber_id', 'newsletter']).doNothing())
          .execute();
      }
      const statuses = choices.map(([, status]) => status);
      const summary: DemoChoice = statuses.includes('confirmed') ? 'confirmed' : statuses.includes('unsubscribed') ? 'unsubscribed' : 'pending';
      await trx
        .updateTable('newsletter_subscribers')
        .set({
          status: summary,
          confirmed_at: statuses.some((s) => s !== 'pending') ? at(confirmedAt) : null,
          unsubscribed_at: summary === 'unsubscribed' ? at(leftAt) : null,
        })
        .where('id', '=', subscriberId)
        .execute();
    };
    const parse = (choices: string) => choices.split(' ').map((c): [string, DemoChoice] => [DEMO_CHOICE_NEWSLETTER[c[0]!]!, DEMO_CHOICE_STATUS[c[1]!]!]);

    let readers = 0;
    for (const [i, [local, daysAgo, choices]] of DEMO_READERS.entries()) {
      const id = i === 0 ? mark : await insertReader(`${local}@exemple.fr`, days(daysAgo));
      // An address already there (signed up by hand) keeps what it chose.
      if (!id) continue;
      await subscribe(id, days(daysAgo), parse(choices));
      readers += 1;
    }
    // Her mailbox was closed: a mail to it bounced twelve days ago, as the relay's webhook reported.
    await suppress(trx, { email: DEMO_BOUNCED, reason: 'hard_bounce', source: 'webhook:generic', detail: 'boîte inexistante (550 5.1.1)', now: days(12) });

    // The demo accounts subscribed from their account (a proven address: confirmed at once).
    for (const [email, newsletters] of Object.entries(DEMO_ACCOUNT_NEWSLETTERS)) {
      if (!(await findUserRowByEmail(trx, email))) continue;
      const supporter = await isSupporterAddress(trx, email, now);
      const since = new Date(now.getTime() - 40 * 60_000);
      const id = await insertReader(email, since);
      if (!id) continue;
      const allowed = newsletters.filter((n) => supporter || findNewsletter(n)?.audience === 'everyone');
      await subscribe(
        id,
        since,
        allowed.map((n) => [n, 'confirmed']),
      );
    }

    // The issues, written by the newsroom a moment before (in this order, for the newsroom's list).
    const tx: ServerDeps = { ...deps, db: trx };
    const all = [...DEMO_SENT_ISSUES, DEMO_SCHEDULED_ISSUE, DEMO_DRAFT_ISSUE];
    const create = async (issue: DemoIssue) => {
      const writtenAt = new Date(now.getTime() - (all.length - all.indexOf(issue)) * 1000);
      const created = await createIssue(
        { db: trx, clock: { now: () => writtenAt } },
        { userId: editor.id, issue: { ...issue.input, stories: demoStories(issue) } },
      );
      if (!created.ok) throw new Error(`Demo newsletter issue refused: ${created.message}`);
      return created.id;
    };
    const { ratePerSecond } = config().newsletter;
    let sent = 0;
    for (const issue of DEMO_SENT_ISSUES) {
      const id = await create(issue);
      const scheduled = await scheduleIssue(tx, { id, at: 'now' });
      // Nobody to send it to (the supporters' one without the demo's revenue): it stays a draft.
      if (!scheduled.ok) {
        log.info('demo newsletter issue left as a draft', { newsletter: issue.input.newsletter, reason: scheduled.message });
        continue;
      }
      const { schedule_version: version } = await trx.selectFrom('newsletter_issues').select('schedule_version').where('id', '=', id).executeTakeFirstOrThrow();
      await startSend(tx, { issueId: id, version }, { ratePerSecond });
      sent += 1;
    }
    const waiting = await create(DEMO_SCHEDULED_ISSUE);
    const scheduled = await scheduleIssue(tx, { id: waiting, at: nextSaturdayMorning(now) });
    if (!scheduled.ok) log.info('demo newsletter issue left as a draft', { newsletter: 'hebdo', reason: scheduled.message });
    await create(DEMO_DRAFT_ISSUE);
    return { readers, sent };
  });
  if (!seeded) return;
  deps.jobs.wake();
  log.info('demo newsletters seeded', seeded);
}
