/**
 * The withdrawal function on both databases, through the real payment path (simulated provider,
 * signed webhooks, the job worker): a subscription withdrawn on day 13 (acknowledgement with the
 * date and time, one refund at the provider under its key, the subscription ended by the refund's
 * event), twice (one refund), on day 15 (refused, nothing changed), another's contract and a
 * forged link (404), gifts (activated: refused; not activated: refunded, the code stopped), a
 * share bulletin (renounced through the shares), donations (no function).
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { revenueWorld } from '../../../tests/helpers/revenue-world';
import { plainSpaces } from '../../../tests/helpers/site';
import { CONTACTS } from '../../config/publisher';
import { deleteAccount, exportData } from '../account/service';
import { refundOrder } from '../admin/service';
import { createUser } from '../auth/service';
import { parseBasket, type Basket } from '../catalog/basket';
import { type CheckoutInput, placeOrder, subscribeShares } from '../checkout/service';
import { fakeClock } from '../core/clock';
import type { OutgoingMail } from '../mail/transport';
import { findOrder } from '../orders/repository';
import { PROMPT_DELIVERY, submitSimulatedSession, type SimulatedProvider } from '../payments/simulated';
import { bulletinForm, findBulletin } from '../shares/bulletins';
import { activateGift, giftDetailsForm } from '../gifts/service';
import { findSubscription } from '../subscriptions/repository';
import { contractsOfUser, contractOfLink, withdrawByLink, withdrawForUser, withdrawalToken, withdrawalsForAdmin } from './service';
import { orderPeriod, withdrawalBlocks } from './links';

vi.setConfig({ testTimeout: 120_000 });
const DAY = 24 * 3600_000;
const SITE = new URL('https://contrechamp.example');
const billing = {
  given_name: 'Inès',
  family_name: 'Durand',
  address_line1: '3 rue du Port',
  address_line2: '',
  postal_code: '44000',
  city: 'Nantes',
  country: 'FR',
};
const form = (over: Partial<CheckoutInput> = {}): CheckoutInput => ({
  ...billing,
  methode: 'card',
  cgv: true,
  demarrage_immediat: true,
  tentative: randomUUID(),
  ...over,
});
const basketOf = (values: Record<string, string>): Basket => {
  const parsed = parseBasket(values);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.basket;
};
const CODE_IN_MAIL = /Code cadeau\s*:\s*([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/;

describeEachDialect('contract withdrawals', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let provider: SimulatedProvider;
  let reader: string;
  let n = 0;

  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    await test.db.deleteFrom('jobs').execute();
    await test.db.deleteFrom('rate_limits').execute();
    sent = [];
    // Friday 27 November 2026, 11:00 in Paris.
    ({ clock, deps, provider } = revenueWorld(test.db, { now: new Date('2026-11-27T10:00:00Z'), onMail: (mail) => sent.push(mail), siteUrl: SITE }));
    reader = await newUser('lectrice');
  });

  const newUser = (prefix: string) => createUser(test.db, { email: `${prefix}${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
  const sessionOf = (url: string) => new URL(url, SITE).pathname.split('/').pop()!;
  const acks = () => sent.filter((m) => m.subject.startsWith('Votre rétractation'));
  const count = async (table: 'contract_withdrawals') => (await test.db.selectFrom(table).select('id').execute()).length;

  async function pay(who: string, values: Record<string, string>, gift?: Record<string, string>) {
    const placed = await placeOrder(deps, who, basketOf(values), undefined, form(), gift ? giftDetailsForm.parse(gift) : undefined);
    if (!placed.ok) throw new Error(placed.message);
    await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number: '4242424242424242', delivery: PROMPT_DELIVERY });
    await deps.flush();
    return placed.orderId;
  }
  const byHand = { destinataire_nom: 'Jules Martin', remise: 'moi-meme', destinataire_email: '', message: '', date_envoi: '' };

  it('a subscription withdrawn on day 13 from the mailed link: acknowledgement with date and time, one refund under its key, the subscription ends on the refund’s event; twice: one refund', async () => {
    const orderId = await pay(reader, { formule: 'mensuel' });
    const order = (await findOrder(test.db, orderId))!;
    expect(order.status).toBe('paid');
    const subscriptionId = order.subscriptionId!;
    // The period: 14 days after the day of payment, to the end of the 11th of December.
    expect(orderPeriod(order.paidAt!).lastDay.toISOString()).toBe('2026-12-11T22:59:59.999Z');
    const [open] = await contractsOfUser(deps, reader);
    expect(open).toMatchObject({ kind: 'subscription', reference: order.reference, refundCents: order.amountCents, refusal: null, withdrawal: null });

    clock.set(new Date('2026-12-10T14:30:00Z'));
    const refunds = vi.spyOn(provider, 'refund');
    const token = withdrawalToken({ orderId });
    const first = await withdrawByLink(deps, token);
    expect(first).toMatchObject({ ok: true, already: false });
    // The acknowledgement is in the record's transaction: due at once.
    await deps.flush();
    const [ack] = acks();
    expect(ack).toBeDefined();
    const text = plainSpaces(ack!.text);
    expect(text).toContain('10 décembre 2026 à 15 h 30 (heure de Paris)');
    expect(text).toContain(order.reference);
    expect(text).toContain('dans un délai de 14 jours');
    expect(refunds).toHaveBeenCalledTimes(1);
    expect(refunds.mock.calls[0]![0]).toMatchObject({ idempotencyKey: `refund:${orderId}`, amountCents: order.amountCents });
    const row = await test.db.selectFrom('contract_withdrawals').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      contract_kind: 'subscription',
      user_id: reader,
      channel: 'mailed_link',
      refund_cents: order.amountCents,
      refund_key: `refund:${orderId}`,
    });
    // The provider's refund event ended the subscription.
    expect((await findOrder(test.db, orderId))!.status).toBe('refunded');
    expect((await findSubscription(test.db, subscriptionId))!.status).toBe('canceled');

    // Again, from the account or the link: the first answer, no second refund, no second mail.
    expect(await withdrawForUser(deps, reader, { orderId })).toMatchObject({ ok: true, already: true, withdrawal: { id: row.id } });
    expect(await withdrawByLink(deps, token)).toMatchObject({ ok: true, already: true });
    await deps.flush();
    expect(refunds).toHaveBeenCalledTimes(1);
    expect(acks()).toHaveLength(1);
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    expect(await withdrawalsForAdmin(deps, reader)).toBeUndefined();
    expect((await withdrawalsForAdmin(deps, admin))!.find((w) => w.withdrawal.id === row.id)).toMatchObject({
      reference: order.reference,
      withdrawal: { channel: 'mailed_link' },
      refund: expect.stringContaining('Remboursée'),
    });
    refunds.mockRestore();
  });

  it('day 15: a French 409 naming the day the period ended, nothing changed; another’s contract and a forged link: 404', async () => {
    const orderId = await pay(reader, { formule: 'annuel' });
    const other = await newUser('autre');
    expect(await withdrawForUser(deps, other, { orderId })).toEqual({ ok: false, status: 404, message: 'Ce contrat est introuvable.' });
    const token = withdrawalToken({ orderId });
    const forged = [
      token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA'),
      token.replace(orderId, randomUUID()),
      `w1.o.${orderId}.${'A'.repeat(43)}`,
      'w1.o.nimporte.quoi',
      '',
    ];
    for (const t of forged) {
      expect(await contractOfLink(deps, t)).toBeUndefined();
      expect(await withdrawByLink(deps, t)).toMatchObject({ ok: false, status: 404 });
    }
    clock.advance(15 * DAY);
    const refunds = vi.spyOn(provider, 'refund');
    const late = await withdrawForUser(deps, reader, { orderId });
    expect(late).toMatchObject({ ok: false, status: 409 });
    expect(plainSpaces((late as { message: string }).message)).toContain('a pris fin le 11 décembre 2026');
    expect(await withdrawByLink(deps, token)).toMatchObject({ ok: false, status: 409 });
    await deps.flush();
    expect(refunds).not.toHaveBeenCalled();
    expect(await test.db.selectFrom('contract_withdrawals').select('id').where('order_id', '=', orderId).execute()).toEqual([]);
    expect((await findOrder(test.db, orderId))!.status).toBe('paid');
    expect(await contractsOfUser(deps, reader)).toEqual([]);
    refunds.mockRestore();
  });

  it('gifts: an activated one is refused; one not activated is refunded and its code no longer activates', async () => {
    const recipient = await newUser('recu');
    const used = await pay(reader, { cadeau: 'cadeau-6-mois' }, byHand);
    const usedCode = CODE_IN_MAIL.exec(sent.filter((m) => m.subject.startsWith('Votre abonnement offert')).at(-1)!.text)![1]!;
    expect(await activateGift(deps, recipient, usedCode, 'c')).toMatchObject({ ok: true });
    const before = await count('contract_withdrawals');
    expect(await withdrawForUser(deps, reader, { orderId: used })).toMatchObject({ ok: false, status: 409, message: expect.stringContaining('a été activé') });
    expect(await count('contract_withdrawals')).toBe(before);

    const kept = await pay(reader, { cadeau: 'cadeau-6-mois' }, byHand);
    const buyerMail = sent.filter((m) => m.subject.startsWith('Votre abonnement offert')).at(-1)!;
    // The confirmation mail carries the function and its last day.
    expect(plainSpaces(buyerMail.text)).toContain('jusqu’au 11 décembre 2026');
    expect(buyerMail.text).toContain('Se rétracter du contrat ici');
    expect(buyerMail.text).toContain(`/retractation/lien/${withdrawalToken({ orderId: kept })}`);
    const code = CODE_IN_MAIL.exec(buyerMail.text)![1]!;
    clock.advance(3 * DAY);
    expect(await withdrawForUser(deps, reader, { orderId: kept })).toMatchObject({ ok: true, already: false });
    expect(await activateGift(deps, recipient, code, 'c')).toMatchObject({ ok: false, status: 409, message: expect.stringContaining('a été annulé') });
    await deps.flush();
    expect((await findOrder(test.db, kept))!.status).toBe('refunded');
    expect(acks().at(-1)!.text).toContain('Le code cadeau ne peut plus être activé');
  });

  it('a share bulletin within its period is renounced through the shares; a donation has no function', async () => {
    const placed = await subscribeShares(
      deps,
      reader,
      {
        ...bulletinForm.parse({
          parts: '2',
          college: 'lecteurs',
          personne: 'physique',
          given_name: 'Inès',
          family_name: 'Durand',
          address_line1: '3 rue du Port',
          postal_code: '44000',
          city: 'Nantes',
          country: 'FR',
          paiement: 'card',
          statuts: true,
          risque: true,
        }),
        tentative: randomUUID(),
      },
      '203.0.113.7',
    );
    if (!placed.ok) throw new Error(placed.message);
    await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number: '4242424242424242', delivery: PROMPT_DELIVERY });
    await deps.flush();
    const received = sent.find((m) => m.subject.includes('parts sociales est enregistrée'))!;
    expect(received.text).toContain(`/retractation/lien/${withdrawalToken({ bulletinId: placed.bulletinId })}`);
    await pay(reader, { don: '1000', frequence: 'mensuel' });
    const contracts = await contractsOfUser(deps, reader);
    expect(contracts.map((c) => c.kind)).toEqual(['shares']);

    clock.advance(13 * DAY);
    expect(await withdrawForUser(deps, reader, { bulletinId: placed.bulletinId })).toMatchObject({ ok: true, already: false });
    await deps.flush();
    const bulletin = (await findBulletin(test.db, placed.bulletinId))!;
    expect(bulletin.status).toBe('renounced');
    expect((await findOrder(test.db, bulletin.orderId!))!.status).toBe('refunded');
    expect(await withdrawForUser(deps, reader, { bulletinId: placed.bulletinId })).toMatchObject({ ok: true, already: true });
    // One renunciation, one mail: the acknowledgement (with date and time), not also the shares' own.
    expect(acks()).toHaveLength(1);
    expect(acks()[0]!.subject).toContain('renonciation');
    expect(plainSpaces(acks()[0]!.text)).toContain('10 décembre 2026 à 11 h 00');
    expect(sent.filter((m) => /renonciation/i.test(m.subject))).toHaveLength(1);
    expect(await count('contract_withdrawals')).toBeGreaterThan(0);
  });

  it('an account deleted: its withdrawals stay as records without it; the export lists them; the record refuses any other change', async () => {
    const orderId = await pay(reader, { formule: 'mensuel' });
    expect(await withdrawForUser(deps, reader, { orderId })).toMatchObject({ ok: true, already: false });
    await deps.flush();
    const data = (await exportData(deps, reader))!;
    const part = data.contract_withdrawals as { note: string; withdrawals: Array<Record<string, unknown>> };
    expect(part.note).toContain('conservée');
    expect(part.withdrawals).toEqual([
      expect.objectContaining({
        contract_kind: 'subscription',
        order_id: orderId,
        channel: 'account',
        refund_cents: 700,
        withdrawn_at: '2026-11-27T10:00:00.000Z',
      }),
    ]);

    expect(await deleteAccount(deps, { userId: reader, password: 'un mot de passe solide' })).toEqual({ ok: true });
    const row = await test.db.selectFrom('contract_withdrawals').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ user_id: null, channel: 'account', contract_kind: 'subscription' });

    // Append-only: no delete, no change but the account's link cleared.
    const other = await newUser('autre');
    await expect(test.db.deleteFrom('contract_withdrawals').where('id', '=', row.id).execute()).rejects.toThrow();
    await expect(
      test.db
        .updateTable('contract_withdrawals')
        .set({ user_id: other as unknown as null })
        .where('id', '=', row.id)
        .execute(),
    ).rejects.toThrow();
    await expect(
      test.db
        .updateTable('contract_withdrawals')
        .set({ refund_cents: 1 } as never)
        .where('id', '=', row.id)
        .execute(),
    ).rejects.toThrow();
    expect(await test.db.selectFrom('contract_withdrawals').select('refund_cents').where('id', '=', row.id).executeTakeFirstOrThrow()).toMatchObject({
      refund_cents: 700,
    });
  });

  const withdrawalsOf = async (column: 'order_id' | 'bulletin_id', id: string) =>
    (await test.db.selectFrom('contract_withdrawals').select('id').where(column, '=', id).execute()).length;
  const bulletinOf = async (who: string, paiement: 'card' | 'transfer') => {
    const placed = await subscribeShares(
      deps,
      who,
      {
        ...bulletinForm.parse({
          parts: '2',
          college: 'lecteurs',
          personne: 'physique',
          given_name: 'Inès',
          family_name: 'Durand',
          address_line1: '3 rue du Port',
          postal_code: '44000',
          city: 'Nantes',
          country: 'FR',
          paiement,
          statuts: true,
          risque: true,
        }),
        tentative: randomUUID(),
      },
      '203.0.113.7',
    );
    if (!placed.ok) throw new Error(placed.message);
    if (paiement === 'card')
      await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number: '4242424242424242', delivery: PROMPT_DELIVERY });
    await deps.flush();
    return placed.bulletinId;
  };

  it('the account deleted since: the mailed link still shows the contract, says in French whom to write to before the deadline (410), and records nothing', async () => {
    const orderId = await pay(reader, { formule: 'mensuel' });
    const order = (await findOrder(test.db, orderId))!;
    // A bulletin by transfer, not paid yet: the deletion closes it.
    const bulletinId = await bulletinOf(reader, 'transfer');
    const number = (await findBulletin(test.db, bulletinId))!.number;
    expect(await deleteAccount(deps, { userId: reader, password: 'un mot de passe solide' })).toEqual({ ok: true });
    await deps.flush();
    expect(sent.map((m) => m.subject)).toContain('Votre compte Contrechamp a été supprimé');
    clock.advance(3 * DAY);
    const refunds = vi.spyOn(provider, 'refund');
    sent = [];

    // The subscription: the right stands to the 11th of December; the reader writes to the subscriptions' contact.
    const orderLink = withdrawalToken({ orderId });
    const shown = (await contractOfLink(deps, orderLink))!;
    expect(shown).toMatchObject({ kind: 'subscription', reference: order.reference, userId: null, withdrawal: null, refusal: { status: 410 } });
    const said = plainSpaces(shown.refusal!.message);
    expect(said).toContain('a été supprimé');
    expect(said).toContain(CONTACTS.abonnements.email);
    expect(said).toContain(order.reference);
    expect(said).toContain('jusqu’au 11 décembre 2026 inclus');
    expect(said).toContain('7 €');
    expect(await withdrawByLink(deps, orderLink)).toMatchObject({ ok: false, status: 410, message: shown.refusal!.message });

    // The bulletin closed by the deletion: nothing to refund, the shares' contact for questions.
    const closed = (await contractOfLink(deps, withdrawalToken({ bulletinId })))!;
    expect(closed).toMatchObject({ kind: 'shares', reference: number, refundCents: 0, refusal: { status: 410 } });
    expect(plainSpaces(closed.refusal!.message)).toContain('annulée avant d’être payée');
    expect(closed.refusal!.message).toContain(CONTACTS.societaires.email);
    expect(await withdrawByLink(deps, withdrawalToken({ bulletinId }))).toMatchObject({ ok: false, status: 410 });

    await deps.flush();
    expect(await withdrawalsOf('order_id', orderId)).toBe(0);
    expect(await withdrawalsOf('bulletin_id', bulletinId)).toBe(0);
    expect(refunds).not.toHaveBeenCalled();
    expect(sent).toHaveLength(0);
    expect((await findOrder(test.db, orderId))!.status).toBe('paid');
    expect((await findBulletin(test.db, bulletinId))!.status).toBe('canceled');
    refunds.mockRestore();
  });

  it('a bulletin renounced by its link, then the account deleted: the link says it was done, with its record; no second record or mail', async () => {
    const bulletinId = await bulletinOf(reader, 'card');
    const token = withdrawalToken({ bulletinId });
    expect(await withdrawByLink(deps, token)).toMatchObject({ ok: true, already: false });
    await deps.flush();
    expect(acks()).toHaveLength(1);
    expect(await deleteAccount(deps, { userId: reader, password: 'un mot de passe solide' })).toEqual({ ok: true });

    const shown = (await contractOfLink(deps, token))!;
    expect(shown).toMatchObject({ kind: 'shares', userId: null, refusal: null, withdrawal: { bulletinId, userId: null, channel: 'mailed_link' } });
    expect(await withdrawByLink(deps, token)).toMatchObject({ ok: true, already: true, withdrawal: { id: shown.withdrawal!.id } });
    await deps.flush();
    expect(acks()).toHaveLength(1);
    expect(await withdrawalsOf('bulletin_id', bulletinId)).toBe(1);
  });

  it('after a refund by the back-office, the function says so and asks nothing', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    const orderId = await pay(reader, { formule: 'mensuel' });
    expect(await refundOrder(deps, orderId, admin, 'Rétractation demandée par courriel')).toMatchObject({ ok: true });
    expect(await withdrawForUser(deps, reader, { orderId })).toMatchObject({ ok: false, status: 409, message: expect.stringContaining('déjà été remboursée') });
  });

  it('the mail block names the last day and the action', () => {
    const blocks = withdrawalBlocks(SITE, { orderId: randomUUID() }, new Date('2026-12-11T22:59:59.999Z'));
    expect(JSON.stringify(blocks)).toContain('jusqu’au 11 décembre 2026');
    expect(blocks[1]).toMatchObject({ kind: 'action', label: 'Se rétracter du contrat ici' });
  });
});
