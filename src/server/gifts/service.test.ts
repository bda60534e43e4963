/**
 * Gift subscriptions on both databases, through the real payment path (simulated provider,
 * signed webhooks, the job worker): bought for a day, paid with the invoice issued, the buyer's
 * code and card, the recipient's mail at 08:00 Paris on that day and only once, activation by a
 * new reader, by a subscriber (months after the paid period), by a reader who already has a gift,
 * ten at once, refusals that change nothing, guessing limits, the refund, the buyer's list and its
 * card for the buyer only, the account's export and deletion, and the demo gift.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { withJobs } from '../../../tests/helpers/jobs';
import { revenueWorld } from '../../../tests/helpers/revenue-world';
import { deleteAccount, exportData } from '../account/service';
import { issueForPayment } from '../billing/documents';
import { createUser } from '../auth/service';
import { parseBasket, type Basket } from '../catalog/basket';
import { type CheckoutInput, placeOrder } from '../checkout/service';
import { fakeClock } from '../core/clock';
import { openDatabase } from '../db/client';
import type { OutgoingMail } from '../mail/transport';
import { findOrder } from '../orders/repository';
import { PROMPT_DELIVERY, submitSimulatedSession, type SimulatedProvider } from '../payments/simulated';
import { jobHandlers } from '../runtime';
import { groupCode, newGiftCode, parseGiftCode } from './codes';
import {
  activateGift,
  boughtGiftCard,
  checkGiftDetails,
  DEMO_GIFT_CODE,
  giftDetailsForm,
  listBoughtGifts,
  previewGift,
  resendGift,
  seedDemoGift,
} from './service';
import { summarize } from '../subscriptions/owner-view';
import { findSubscription } from '../subscriptions/repository';
import { cancelSubscription } from '../subscriptions/service';
import { refundOrder } from '../admin/service';
import { ProviderError } from '../payments/provider';
import { plainSpaces } from '../../../tests/helpers/site';

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
type GiftFields = Record<string, string>;
const byMail = (over: GiftFields = {}): GiftFields => ({
  destinataire_nom: 'Camille Lefèvre',
  remise: 'email',
  destinataire_email: 'camille@exemple.fr',
  message: 'Bon anniversaire !',
  date_envoi: '2026-12-24',
  ...over,
});
const byHand = (over: GiftFields = {}): GiftFields => ({
  destinataire_nom: 'Jules Martin',
  remise: 'moi-meme',
  destinataire_email: '',
  message: '',
  date_envoi: '',
  ...over,
});
/** The text of a PDF as pdftotext reads it (poppler-utils, as for billing/pdf/pdf.test.ts). */
const pdfText = (bytes: Uint8Array): string => {
  const dir = mkdtempSync(join(tmpdir(), 'carte-'));
  try {
    writeFileSync(join(dir, 'carte.pdf'), bytes);
    return execFileSync('pdftotext', [join(dir, 'carte.pdf'), '-'], { encoding: 'utf8' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};
const CODE_IN_MAIL = /Code cadeau\s*:\s*([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})/;

describeEachDialect('gift subscriptions', (kind) => {
  let test: TestDatabase;
  let sent: OutgoingMail[];
  let clock: ReturnType<typeof fakeClock>;
  let deps: ReturnType<typeof withJobs>;
  let provider: SimulatedProvider;
  let buyer: string;
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
    // Monday 23 November 2026, 11:00 in Paris.
    ({ clock, deps, provider } = revenueWorld(test.db, { now: new Date('2026-11-23T10:00:00Z'), onMail: (mail) => sent.push(mail), siteUrl: SITE }));
    buyer = await newUser('offrant');
  });

  const newUser = (prefix: string) => createUser(test.db, { email: `${prefix}${++n}@exemple.fr`, password: 'un mot de passe solide', now: clock.now() });
  const sessionOf = (url: string) => new URL(url, SITE).pathname.split('/').pop()!;
  const mailsTo = (to: string) => sent.filter((m) => m.to === to);
  const buyerMails = () => sent.filter((m) => /^Votre abonnement offert\s:/.test(m.subject));

  /** Places the order and pays it by card on the simulated provider's page; the jobs run. */
  async function pay(who: string, values: Record<string, string>, gift?: GiftFields) {
    const placed = await placeOrder(deps, who, basketOf(values), undefined, form(), gift ? giftDetailsForm.parse(gift) : undefined);
    if (!placed.ok) throw new Error(placed.message);
    await submitSimulatedSession(provider, sessionOf(placed.url), { action: 'pay', number: '4242424242424242', delivery: PROMPT_DELIVERY });
    await deps.flush();
    return placed.orderId;
  }

  /** A gift bought and paid; its code as the buyer's mail gives it. */
  async function boughtGift(gift: GiftFields = byHand(), offer = 'cadeau-6-mois') {
    const orderId = await pay(buyer, { cadeau: offer }, gift);
    const mail = buyerMails().at(-1)!;
    return { orderId, code: CODE_IN_MAIL.exec(mail.text)![1]!, mail };
  }

  const giftRow = (orderId: string) => test.db.selectFrom('gifts').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
  const subscriptionsOf = (userId: string) => test.db.selectFrom('subscriptions').selectAll().where('user_id', '=', userId).execute();

  it('bought for a day: invoice and buyer mail with the card at once; the recipient’s mail at 08:00 Paris that day, once, even run twice or after a restart', async () => {
    const { orderId, code, mail } = await boughtGift(byMail());
    // The invoice of the order, issued in the payment's transaction.
    const invoice = await test.db.selectFrom('billing_documents').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({ kind: 'invoice', total_cents: 4000 });
    expect(mail.to).toMatch(/^offrant/);
    expect(plainSpaces(mail.text)).toContain('Camille Lefèvre (camille@exemple.fr) le 24 décembre 2026');
    expect(mail.text).toContain(`/mon-compte/mes-factures/${invoice.id}`);
    expect(mail.attachments).toHaveLength(1);
    expect(mail.attachments![0]).toMatchObject({ filename: 'carte-cadeau-contrechamp.pdf', contentType: 'application/pdf' });
    expect(Buffer.from(mail.attachments![0]!.content).subarray(0, 5).toString()).toBe('%PDF-');
    expect(parseGiftCode(code)).toMatchObject({ ok: true });

    // No code in clear anywhere in the database: the gift keeps a hash, a sealed copy and the last group.
    const compact = code.replace(/-/g, '');
    const row = await giftRow(orderId);
    expect(row.code_hint).toBe(compact.slice(-4));
    expect(row.expires_at).toBe('2027-11-23T10:00:00.000Z');
    expect(JSON.stringify(row)).not.toContain(compact);
    expect(JSON.stringify(await test.db.selectFrom('jobs').selectAll().execute())).not.toContain(compact);
    expect(mailsTo('camille@exemple.fr')).toHaveLength(0);

    // 24 December, 07:59 in Paris: still nothing. A restart meanwhile: the job waits in the database.
    clock.set(new Date('2026-12-24T06:59:00Z'));
    await deps.flush();
    expect(mailsTo('camille@exemple.fr')).toHaveLength(0);
    const restarted = withJobs({
      db: test.db,
      mailer: {
        send: async (m) => {
          sent.push(m);
          return { messageId: 'y' };
        },
      },
      clock,
      siteUrl: SITE,
    });
    clock.set(new Date('2026-12-24T07:00:00Z'));
    await restarted.flush();
    await deps.flush();
    const received = mailsTo('camille@exemple.fr');
    expect(received).toHaveLength(1);
    expect(received[0]!.subject).toBe('Inès Durand vous offre 6 mois de Contrechamp');
    expect(received[0]!.text).toContain(code);
    expect(received[0]!.text).toContain('Bon anniversaire !');
    expect(received[0]!.text).toContain(`/creer-mon-compte/cadeau/${compact}`);

    // The delivery job run once more (a retry, a second worker): no second mail.
    const deliver = jobHandlers(deps).find((h) => h.kind === 'gifts.deliver')!;
    const job = { id: 'again', kind: 'gifts.deliver', attempt: 2, maxAttempts: 8 };
    await deliver.run({ payload: { giftId: row.id, resend: 0 }, job, signal: new AbortController().signal });
    await deliver.run({ payload: { giftId: row.id, resend: 0 }, job, signal: new AbortController().signal });
    expect(mailsTo('camille@exemple.fr')).toHaveLength(1);
    expect((await giftRow(orderId)).delivered_at).toBe('2026-12-24T07:00:00.000Z');
  });

  it('for today: delivered at once; handed over by the buyer: no mail to anyone else, and the buyer’s mail says so', async () => {
    await boughtGift(byMail({ destinataire_email: 'tout-de-suite@exemple.fr', date_envoi: '2026-11-23' }));
    expect(mailsTo('tout-de-suite@exemple.fr')).toHaveLength(1);

    const before = sent.length;
    const { mail } = await boughtGift(byHand());
    expect(sent.slice(before).map((m) => m.to)).toEqual([mail.to]);
    expect(mail.text).toContain('Vous avez choisi de remettre le cadeau vous-même à Jules Martin');
    expect(mail.attachments?.[0]?.contentType).toBe('application/pdf');
  });

  it('the printed card links to the recipient’s account form, with their address when the buyer gave one, without it otherwise', async () => {
    // The URL may wrap on the card: read without spaces nor line breaks.
    const printed = (pdf: Uint8Array) => pdfText(pdf).replace(/\s+/g, '');
    const mailed = await boughtGift(byMail({ destinataire_email: 'lea.martin+cadeau@exemple.fr' }));
    const card = printed(mailed.mail.attachments![0]!.content);
    const compact = mailed.code.replace(/-/g, '');
    expect(card).toContain(`${SITE.origin}/creer-mon-compte/cadeau/${compact}?email=lea.martin%2Bcadeau%40exemple.fr`);
    // The same link as the recipient's mail, and as the card downloaded from « Mes cadeaux ».
    const list = await listBoughtGifts(deps, buyer);
    const again = printed((await boughtGiftCard(deps, buyer, list.find((g) => g.orderId === mailed.orderId)!.id))!);
    expect(again).toContain(`/creer-mon-compte/cadeau/${compact}?email=lea.martin%2Bcadeau%40exemple.fr`);

    const handed = await boughtGift(byHand());
    const bare = printed(handed.mail.attachments![0]!.content);
    expect(bare).toContain(`${SITE.origin}/creer-mon-compte/cadeau/${handed.code.replace(/-/g, '')}`);
    expect(bare).not.toContain('?email=');
    expect(bare).not.toContain('%40');
  });

  it('a new reader: a gift subscription of its months at 0 €, shown as « Abonnement offert » without actions, invited 14 days before its end, then expired', async () => {
    const { code, mail: receipt } = await boughtGift(byHand(), 'cadeau-1-an');
    const reader = await newUser('lectrice');
    const readerEmail = (await test.db.selectFrom('users').select('email').where('id', '=', reader).executeTakeFirstOrThrow()).email;
    const preview = await previewGift(deps, code, { client: 'c', userId: reader });
    expect(preview).toMatchObject({ ok: true, preview: { duration: '1 an', plan: { mode: 'new' } } });
    const activated = await activateGift(deps, reader, code.toLowerCase().replace(/-/g, ' '), 'c');
    expect(activated).toMatchObject({ ok: true, mode: 'new', nextPaymentAt: null, endsAt: new Date('2027-11-23T10:00:00Z') });
    if (!activated.ok) return;
    const [sub] = await subscriptionsOf(reader);
    expect(sub).toMatchObject({ kind: 'gift', status: 'active', amount_cents: 0, vat_rate_bp: 0, current_period_end: '2027-11-23T10:00:00.000Z' });
    const view = summarize((await findSubscription(test.db, sub!.id))!, clock.now());
    expect(view).toMatchObject({
      label: 'Abonnement offert',
      price: 'Offert',
      when: 'Se termine le 23 novembre 2027, sans renouvellement',
      can: { cancel: false, resume: false, change: false, updateMethod: false },
    });
    expect(await cancelSubscription(deps, reader, sub!.id)).toMatchObject({ ok: false, status: 409 });
    // Both are told, once: the reader with the dates, the buyer that the gift was taken (no address of the reader's).
    await deps.flush();
    await deps.flush();
    const activatedMails = mailsTo(readerEmail).filter((m) => m.subject.startsWith('Abonnement offert activé'));
    expect(activatedMails.map((m) => plainSpaces(m.subject))).toEqual(['Abonnement offert activé : 1 an de Contrechamp']);
    expect(plainSpaces(activatedMails[0]!.text)).toContain('se termine le 23 novembre 2027');
    expect(plainSpaces(activatedMails[0]!.text)).toContain('rien ne vous sera jamais prélevé');
    const taken = mailsTo(receipt.to).filter((m) => m.subject.includes('a été activé'));
    expect(taken.map((m) => m.subject)).toEqual(['Votre cadeau pour Jules Martin a été activé']);
    expect(plainSpaces(taken[0]!.text)).toContain('a été activé le 23 novembre 2026');
    expect(taken[0]!.text).not.toContain(readerEmail);
    // Nothing is ever charged: no renewal job, no order.
    expect(
      await test.db.selectFrom('jobs').select('kind').where('kind', '=', 'subscriptions.renew').where('payload', 'like', `%${sub!.id}%`).execute(),
    ).toEqual([]);

    sent = [];
    clock.set(new Date(activated.endsAt.getTime() - 14 * DAY - 1000));
    await deps.flush();
    expect(sent).toEqual([]);
    clock.set(new Date(activated.endsAt.getTime() - 14 * DAY + 1000));
    await deps.flush();
    expect(sent.map((m) => plainSpaces(m.subject))).toEqual(['Votre abonnement offert se termine le 23 novembre 2027']);
    expect(sent[0]!.text).toContain('/soutenir/abonnement');
    clock.set(new Date(activated.endsAt.getTime() + 1000));
    await deps.flush();
    expect((await findSubscription(test.db, sub!.id))!.status).toBe('expired');
    expect(sent.map((m) => plainSpaces(m.subject))).toEqual(['Votre abonnement offert se termine le 23 novembre 2027', 'Votre abonnement offert est terminé']);
    expect(await test.db.selectFrom('orders').select('id').where('subscription_id', '=', sub!.id).execute()).toEqual([]);
  });

  it('a subscriber: told before, the months come after the paid period; the old renewal charges nothing, the new one does', async () => {
    const subscriber = await newUser('abonne');
    await pay(subscriber, { formule: 'mensuel' });
    const [paid] = await subscriptionsOf(subscriber);
    expect(paid!.current_period_end).toBe('2026-12-23T10:00:00.000Z');
    const { code } = await boughtGift();

    const preview = await previewGift(deps, code, { client: 'c', userId: subscriber });
    expect(preview).toMatchObject({
      ok: true,
      preview: { plan: { mode: 'after_paid', ending: false, paidUntil: new Date('2026-12-23T10:00:00Z'), nextPaymentAt: new Date('2027-06-23T09:00:00Z') } },
    });
    expect(await activateGift(deps, subscriber, code, 'c')).toMatchObject({ ok: true, mode: 'after_paid', nextPaymentAt: new Date('2027-06-23T09:00:00Z') });
    const moved = (await findSubscription(test.db, paid!.id))!;
    expect(moved.currentPeriodEnd).toEqual(new Date('2027-06-23T09:00:00Z'));
    expect(summarize(moved, clock.now()).when).toBe('Prochain paiement le 23 juin 2027');
    expect(await subscriptionsOf(subscriber)).toHaveLength(1);

    const charges = () => test.db.selectFrom('orders').select(['id', 'status']).where('subscription_id', '=', paid!.id).execute();
    clock.set(new Date('2026-12-23T10:00:01Z'));
    await deps.flush();
    expect(await charges()).toHaveLength(1);
    clock.set(new Date('2027-06-23T09:00:01Z'));
    await deps.flush();
    expect((await charges()).map((o) => o.status).sort()).toEqual(['paid', 'paid']);
  });

  it('a subscriber whose cancellation is asked: the months still come after the paid period, then it ends without a payment', async () => {
    const subscriber = await newUser('partant');
    await pay(subscriber, { formule: 'mensuel' });
    const [paid] = await subscriptionsOf(subscriber);
    expect(await cancelSubscription(deps, subscriber, paid!.id)).toMatchObject({ ok: true });
    const { code } = await boughtGift();
    expect(await previewGift(deps, code, { client: 'c', userId: subscriber })).toMatchObject({
      ok: true,
      preview: { plan: { mode: 'after_paid', ending: true, nextPaymentAt: null } },
    });
    expect(await activateGift(deps, subscriber, code, 'c')).toMatchObject({
      ok: true,
      mode: 'after_paid',
      nextPaymentAt: null,
      endsAt: new Date('2027-06-23T09:00:00Z'),
    });
    clock.set(new Date('2026-12-23T10:00:01Z'));
    await deps.flush();
    expect((await findSubscription(test.db, paid!.id))!.status).toBe('active');
    clock.set(new Date('2027-06-23T09:00:01Z'));
    await deps.flush();
    expect((await findSubscription(test.db, paid!.id))!.status).toBe('canceled');
    expect(await test.db.selectFrom('orders').select('id').where('subscription_id', '=', paid!.id).execute()).toHaveLength(1);
  });

  it('a reader with a running gift: the next gift extends it, and the first end does nothing', async () => {
    const reader = await newUser('fidele');
    const first = await boughtGift();
    const second = await boughtGift();
    await activateGift(deps, reader, first.code, 'c');
    expect(await previewGift(deps, second.code, { client: 'c', userId: reader })).toMatchObject({
      ok: true,
      preview: { plan: { mode: 'extended', endsAt: new Date('2027-11-23T10:00:00Z') } },
    });
    expect(await activateGift(deps, reader, second.code, 'c')).toMatchObject({ ok: true, endsAt: new Date('2027-11-23T10:00:00Z') });
    const subs = await subscriptionsOf(reader);
    expect(subs).toHaveLength(1);
    clock.set(new Date('2027-05-23T09:00:01Z'));
    await deps.flush();
    expect((await findSubscription(test.db, subs[0]!.id))!.status).toBe('active');
    clock.set(new Date('2027-11-23T10:00:01Z'));
    await deps.flush();
    expect((await findSubscription(test.db, subs[0]!.id))!.status).toBe('expired');
  });

  it('with a provider that runs the renewals (Stripe): the renewal is postponed there by a job, once', async () => {
    const subscriber = await newUser('stripe');
    await pay(subscriber, { formule: 'annuel' });
    const [paid] = await subscriptionsOf(subscriber);
    await test.db.updateTable('subscriptions').set({ provider_ref: 'sub_fake_1' }).where('id', '=', paid!.id).execute();
    const { code } = await boughtGift();
    const postponed: { subscriptionRef: string; until: Date; idempotencyKey: string }[] = [];
    deps.payments = {
      ...provider,
      runsRenewals: true,
      postponeRenewal: async (change) => {
        postponed.push(change);
      },
    };
    expect(await activateGift(deps, subscriber, code, 'c')).toMatchObject({ ok: true, mode: 'after_paid' });
    await deps.flush();
    await deps.flush();
    expect(postponed).toEqual([
      { subscriptionRef: 'sub_fake_1', until: new Date('2028-05-23T09:00:00Z'), idempotencyKey: `gift-postpone:${paid!.id}:2028-05-23T09:00:00.000Z` },
    ]);
  });

  it('ten activations of one code at once: exactly one wins; the others are told it was used', async () => {
    const { orderId, code } = await boughtGift();
    const readers: string[] = [];
    for (let i = 0; i < 10; i++) readers.push(await newUser('rival'));
    const second = kind === 'postgres' ? openDatabase(test.config) : undefined;
    try {
      const results = await Promise.all(readers.map((r, i) => activateGift(i % 2 && second ? { ...deps, db: second.db } : deps, r, code, `rival-${i}`)));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      for (const r of results.filter((x) => !x.ok))
        expect(r).toMatchObject({ status: 409, message: expect.stringMatching(/déjà été utilisé|vient d’être utilisé/) });
    } finally {
      await second?.close();
    }
    const subs = await test.db.selectFrom('subscriptions').select('user_id').where('kind', '=', 'gift').where('user_id', 'in', readers).execute();
    expect(subs).toHaveLength(1);
    expect((await giftRow(orderId)).activated_by).toBe(subs[0]!.user_id);
  });

  it('a wrong, mistyped, used, expired or revoked code: its own French message, 4xx, and nothing changes', async () => {
    const reader = await newUser('essai');
    const { orderId, code } = await boughtGift();
    const before = JSON.stringify(await giftRow(orderId));
    const compact = code.replace(/-/g, '');
    const typo = compact.slice(0, 5) + (compact[5] === 'A' ? 'B' : 'A') + compact.slice(6);
    const swap = compact.slice(0, 7) + compact[8] + compact[7] + compact.slice(9);
    const refusals: [string, number, string][] = [
      ['K7MX-4QPD-9TRW-2HN0', 422, 'n’existe pas dans nos codes cadeaux (0, O, 1, I, L ou U)'],
      [typo, 422, 'un caractère a peut-être été mal saisi ou inversé'],
      [compact.slice(0, 12), 422, 'celui-ci en compte 12'],
      [groupCode(newGiftCode()), 404, 'Ce code cadeau n’existe pas'],
    ];
    if (compact[7] !== compact[8]) refusals.push([swap, 422, 'mal saisi ou inversé']);
    for (const [typed, status, message] of refusals) {
      expect(await activateGift(deps, reader, typed, 'c')).toEqual({ ok: false, status, message: expect.stringContaining(message) });
    }
    expect(JSON.stringify(await giftRow(orderId))).toBe(before);
    expect(await subscriptionsOf(reader)).toEqual([]);

    // Used.
    const first = await newUser('premier');
    expect(await activateGift(deps, first, code, 'c')).toMatchObject({ ok: true });
    expect(await activateGift(deps, reader, code, 'c')).toEqual({
      ok: false,
      status: 409,
      message: 'Ce code cadeau a déjà été utilisé, le 23 novembre 2026\u00a0: un code ne sert qu’une fois.',
    });
    expect(await subscriptionsOf(reader)).toEqual([]);

    // Expired: one year after the purchase.
    const old = await boughtGift();
    clock.set(new Date('2027-11-23T10:00:00Z'));
    expect(await activateGift(deps, reader, old.code, 'c')).toEqual({
      ok: false,
      status: 409,
      message: 'Ce code cadeau a expiré le 23 novembre 2027\u00a0: il était valable un an à compter de l’achat.',
    });
    expect((await giftRow(old.orderId)).activated_at).toBeNull();

    // Revoked: refunded before activation.
    clock.set(new Date('2026-11-24T10:00:00Z'));
    const refunded = await boughtGift();
    const order = await test.db.selectFrom('orders').select(['payment_ref', 'amount_cents']).where('id', '=', refunded.orderId).executeTakeFirstOrThrow();
    await provider.refund({ paymentRef: order.payment_ref!, amountCents: order.amount_cents, idempotencyKey: `refund:${refunded.orderId}` });
    await deps.flush();
    expect((await giftRow(refunded.orderId)).revoked_at).not.toBeNull();
    expect(await activateGift(deps, reader, refunded.code, 'c')).toEqual({
      ok: false,
      status: 409,
      message: 'Ce code cadeau a été annulé (l’achat a été remboursé)\u00a0: il ne peut plus être utilisé.',
    });
    expect(await subscriptionsOf(reader)).toEqual([]);
  });

  it('a refund asked from the back-office stops the code at once; an activated gift is not refunded; a refused refund gives the code back', async () => {
    const admin = await createUser(test.db, { email: `admin${++n}@exemple.fr`, password: 'un mot de passe solide', role: 'admin', now: clock.now() });
    const reader = await newUser('retard');
    // Asked, not yet confirmed by the provider: the code already says it was cancelled.
    const pending = await boughtGift();
    const refundCalls = vi.spyOn(provider, 'refund');
    const asked = await refundOrder(deps, pending.orderId, admin, 'Rétractation demandée par courriel');
    expect(asked).toMatchObject({ ok: true });
    expect(await activateGift(deps, reader, pending.code, 'c')).toMatchObject({ ok: false, status: 409, message: expect.stringContaining('a été annulé') });
    await deps.flush();
    expect((await findOrder(test.db, pending.orderId))!.status).toBe('refunded');

    // Activated first: nothing is refunded, and the admin is told why.
    const used = await boughtGift();
    expect(await activateGift(deps, reader, used.code, 'c')).toMatchObject({ ok: true });
    refundCalls.mockClear();
    expect(await refundOrder(deps, used.orderId, admin, 'Rétractation demandée par courriel')).toMatchObject({
      ok: false,
      status: 409,
      message: expect.stringContaining('Rien n’a été remboursé'),
    });
    expect(refundCalls).not.toHaveBeenCalled();
    expect((await findOrder(test.db, used.orderId))!.status).toBe('paid');

    // The provider refuses: the code works again.
    const refused = await boughtGift();
    refundCalls.mockRejectedValueOnce(new ProviderError('indisponible'));
    expect(await refundOrder(deps, refused.orderId, admin, 'Rétractation demandée par courriel')).toMatchObject({ ok: false, status: 503 });
    expect((await giftRow(refused.orderId)).revoked_at).toBeNull();
    expect(await activateGift(deps, reader, refused.code, 'c')).toMatchObject({ ok: true });
    refundCalls.mockRestore();
  });

  it('a refund after activation leaves the subscription running', async () => {
    const reader = await newUser('garde');
    const { orderId, code } = await boughtGift();
    expect(await activateGift(deps, reader, code, 'c')).toMatchObject({ ok: true });
    const order = await test.db.selectFrom('orders').select(['payment_ref', 'amount_cents']).where('id', '=', orderId).executeTakeFirstOrThrow();
    await provider.refund({ paymentRef: order.payment_ref!, amountCents: order.amount_cents, idempotencyKey: `refund:${orderId}` });
    await deps.flush();
    expect((await findOrder(test.db, orderId))!.status).toBe('refunded');
    expect((await giftRow(orderId)).revoked_at).toBeNull();
    expect((await subscriptionsOf(reader)).map((s) => s.status)).toEqual(['active']);
  });

  it('guessing is limited per client and per account, with a French 429; a mistyped code costs no try', async () => {
    // Per client: 20 lookups an hour, signed in or not.
    for (let i = 0; i < 20; i++) expect(await previewGift(deps, newGiftCode(), { client: 'devin' })).toMatchObject({ ok: false, status: 404 });
    expect(await previewGift(deps, 'K7MX-4QPD-9TRW-2HN0', { client: 'devin' })).toMatchObject({ ok: false, status: 422 });
    const limited = await previewGift(deps, newGiftCode(), { client: 'devin' });
    expect(limited).toMatchObject({ ok: false, status: 429, message: expect.stringContaining('Trop de codes essayés') });
    // Even a real code waits: the limit is checked before the lookup.
    const { code } = await boughtGift();
    expect(await previewGift(deps, code, { client: 'devin' })).toMatchObject({ ok: false, status: 429 });
    // Per account: 10 an hour, whatever the client.
    const guesser = await newUser('devine');
    for (let i = 0; i < 10; i++) expect(await activateGift(deps, guesser, newGiftCode(), `ip-${i}`)).toMatchObject({ ok: false, status: 404 });
    expect(await activateGift(deps, guesser, code, 'ip-new')).toMatchObject({
      ok: false,
      status: 429,
      message: expect.stringContaining('Trop de codes essayés'),
    });
    // An hour later, the real code works.
    clock.advance(3600_000 + 1000);
    expect(await activateGift(deps, guesser, code, 'ip-new')).toMatchObject({ ok: true });
  });

  it('a tampered offer, a past day, a day more than a year ahead, a missing address or a long message: refused in French, nothing placed', async () => {
    const orders = async () => (await test.db.selectFrom('orders').select('id').where('user_id', '=', buyer).execute()).length;
    expect(parseBasket({ cadeau: 'cadeau-10-ans' })).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('Cette offre cadeau n’existe pas'),
    });
    const cases: [GiftFields, string][] = [
      [byMail({ date_envoi: '2026-11-22' }), 'La date d’envoi est passée'],
      [byMail({ date_envoi: '2027-11-24' }), 'dans l’année qui vient'],
      [byMail({ date_envoi: '2026-02-31' }), 'Date d’envoi invalide'],
      [byMail({ destinataire_email: 'pas-une-adresse' }), 'Indiquez l’adresse e-mail de la personne'],
    ];
    for (const [gift, message] of cases) {
      const placed = await placeOrder(deps, buyer, basketOf({ cadeau: 'cadeau-1-an' }), undefined, form(), giftDetailsForm.parse(gift));
      expect(placed).toEqual({ ok: false, status: 422, message: expect.stringContaining(message) });
    }
    expect(await placeOrder(deps, buyer, basketOf({ cadeau: 'cadeau-1-an' }), undefined, form())).toMatchObject({ ok: false, status: 422 });
    // Handed over by the buyer, the day does not matter: a stale one in the form is no reason to refuse.
    expect(checkGiftDetails(giftDetailsForm.parse(byHand({ date_envoi: '2026-11-01' })), clock.now())).toMatchObject({
      ok: true,
      details: { deliverOn: '2026-11-23', recipientEmail: null },
    });
    expect(giftDetailsForm.safeParse(byMail({ message: 'x'.repeat(501) })).error?.issues[0]?.message).toBe('Le message\u00a0: 500 caractères au plus.');
    expect(giftDetailsForm.safeParse(byMail({ remise: 'par-pigeon' })).success).toBe(false);
    // The code's anniversary is too late (the mail would carry an expired code); the day before is accepted, and the price is the catalogue's.
    expect(
      await placeOrder(deps, buyer, basketOf({ cadeau: 'cadeau-1-an' }), undefined, form(), giftDetailsForm.parse(byMail({ date_envoi: '2027-11-23' }))),
    ).toMatchObject({ ok: false, status: 422 });
    const placed = await placeOrder(
      deps,
      buyer,
      basketOf({ cadeau: 'cadeau-1-an' }),
      undefined,
      form(),
      giftDetailsForm.parse(byMail({ date_envoi: '2027-11-22' })),
    );
    expect(placed).toMatchObject({ ok: true });
    expect(await test.db.selectFrom('orders').select(['amount_cents', 'purpose']).where('user_id', '=', buyer).execute()).toEqual([
      { amount_cents: 7000, purpose: 'gift' },
    ]);
    expect(await orders()).toBe(1);
  });

  it('the buyer’s list: each gift’s state; the card and « Renvoyer l’e-mail » for the buyer only, and only when it makes sense', async () => {
    const mailed = await boughtGift(byMail({ destinataire_email: 'liste@exemple.fr', date_envoi: '2026-11-23' }));
    const later = await boughtGift(byMail({ destinataire_email: 'plus-tard@exemple.fr', date_envoi: '2026-12-24' }));
    const handed = await boughtGift(byHand());
    const list = await listBoughtGifts(deps, buyer);
    const of = (orderId: string) => list.find((g) => g.orderId === orderId)!;
    expect(of(mailed.orderId)).toMatchObject({
      duration: '6 mois',
      recipientName: 'Camille Lefèvre',
      state: 'Envoyé le 23 novembre 2026\u00a0: pas encore activé',
      canResend: true,
    });
    expect(of(later.orderId)).toMatchObject({ state: 'Envoi prévu le 24 décembre 2026', canResend: false });
    expect(of(handed.orderId)).toMatchObject({ state: 'À remettre par vous-même\u00a0: pas encore activé', canResend: false, recipientEmail: null });

    const giftId = of(mailed.orderId).id;
    expect(
      Buffer.from((await boughtGiftCard(deps, buyer, giftId))!)
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    // Not again within a day of the last mail.
    expect(await resendGift(deps, buyer, giftId)).toMatchObject({
      ok: false,
      status: 429,
      message: expect.stringContaining('vous pourrez le renvoyer 24\u00a0heures plus tard'),
    });
    clock.advance(DAY);
    expect(await resendGift(deps, buyer, giftId)).toEqual({ ok: true, to: 'liste@exemple.fr' });
    await deps.flush();
    expect(mailsTo('liste@exemple.fr')).toHaveLength(2);
    expect(await resendGift(deps, buyer, of(later.orderId).id)).toMatchObject({ ok: false, status: 409 });
    expect(await resendGift(deps, buyer, of(handed.orderId).id)).toMatchObject({ ok: false, status: 409 });

    // Anyone else: nothing, as if it did not exist.
    const other = await newUser('curieux');
    expect(await listBoughtGifts(deps, other)).toEqual([]);
    expect(await boughtGiftCard(deps, other, giftId)).toBeUndefined();
    expect(await boughtGiftCard(deps, buyer, 'pas-un-id')).toBeUndefined();
    expect(await resendGift(deps, other, giftId)).toEqual({ ok: false, status: 404, message: 'Ce cadeau est introuvable.' });
    expect(mailsTo('liste@exemple.fr')).toHaveLength(2);

    // Four mails in all for one gift, a day apart; once activated, it is no longer offered, and the list says when (never by whom).
    for (let i = 0; i < 2; i++) {
      clock.advance(DAY);
      expect(await resendGift(deps, buyer, giftId)).toMatchObject({ ok: true });
      await deps.flush();
    }
    clock.advance(DAY);
    expect(await resendGift(deps, buyer, giftId)).toMatchObject({ ok: false, status: 409, message: expect.stringContaining('déjà été envoyé 4 fois') });
    expect(mailsTo('liste@exemple.fr')).toHaveLength(4);
    const reader = await newUser('destinataire');
    clock.advance(DAY);
    await activateGift(deps, reader, mailed.code, 'c');
    const activated = (await listBoughtGifts(deps, buyer)).find((g) => g.id === giftId)!;
    expect(activated).toMatchObject({ state: 'Activé le 28 novembre 2026', canResend: false });
    expect(JSON.stringify(activated)).not.toContain('destinataire');
  });

  it('personal data: the export lists gifts bought and received; a deletion detaches them and keeps the gift with its order', async () => {
    const reader = await newUser('export');
    const { orderId, code } = await boughtGift(byMail({ date_envoi: '2026-11-23' }));
    await activateGift(deps, reader, code, 'c');
    const exported = (await exportData(deps, buyer)) as unknown as { gifts: { offerts: unknown[] } };
    expect(exported.gifts.offerts).toEqual([
      expect.objectContaining({ duree_mois: 6, destinataire: 'Camille Lefèvre', email_destinataire: 'camille@exemple.fr', message: 'Bon anniversaire !' }),
    ]);
    const received = (await exportData(deps, reader)) as unknown as { gifts: { recus: unknown[] } };
    expect(received.gifts.recus).toEqual([{ duree_mois: 6, active_le: '2026-11-23T10:00:00.000Z' }]);

    expect(await deleteAccount(deps, { userId: buyer, password: 'un mot de passe solide' })).toMatchObject({ ok: true });
    expect(await deleteAccount(deps, { userId: reader, password: 'un mot de passe solide' })).toMatchObject({ ok: true });
    const row = await giftRow(orderId);
    expect(row).toMatchObject({ buyer_id: null, activated_by: null, recipient_name: 'Camille Lefèvre' });
    expect(row.activated_at).not.toBeNull();
  });

  it('the demo gift: paid with its invoice, delivered, not activated, with the published code; seeded once', async () => {
    const subscriber = await newUser('demo');
    const seed = () =>
      seedDemoGift(
        deps,
        { id: subscriber, name: 'Inès Durand', address: { line1: '3 rue du Port', line2: '', postalCode: '44000', city: 'Nantes', country: 'FR' } },
        { name: 'Louis Lecteur', email: 'lecteur@exemple.fr' },
        async (trx, id, paidAt) => {
          await issueForPayment(trx, SITE, (await findOrder(trx, id))!, { methodLabel: 'Carte', now: paidAt });
        },
      );
    await seed();
    await seed();
    const gifts = await test.db.selectFrom('gifts').selectAll().where('buyer_id', '=', subscriber).execute();
    expect(gifts).toHaveLength(1);
    expect(gifts[0]).toMatchObject({ code_hint: DEMO_GIFT_CODE.slice(-4), activated_at: null, revoked_at: null });
    expect(gifts[0]!.delivered_at).not.toBeNull();
    expect(await test.db.selectFrom('billing_documents').select('kind').where('order_id', '=', gifts[0]!.order_id).execute()).toEqual([{ kind: 'invoice' }]);
    expect(parseGiftCode(DEMO_GIFT_CODE)).toMatchObject({ ok: true });
    const reader = await newUser('essai-demo');
    expect(await activateGift(deps, reader, DEMO_GIFT_CODE, 'c')).toMatchObject({ ok: true, mode: 'new' });
  });
});
