/**
 * The webhook entry on both databases, with a stand-in provider whose body is its list of events:
 * an event ahead of its object leaves nothing behind (neither its id nor what its handler wrote
 * before finding out) and is answered 409, so that the provider's next delivery applies it.
 */
import { afterAll, afterEach, beforeAll, beforeEach, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { fakeClock } from '../core/clock';
import { log } from '../core/log';
import { jobType, schedule } from '../jobs/schedule';
import type { PaymentEvent, PaymentProvider } from './provider';
import { EventAhead, receiveWebhook } from './webhooks';

/** A write the handler makes, so that the test can see whether it was kept. */
const EFFECT = jobType({ kind: 'test.webhook-effect', schema: z.object({ eventId: z.string() }) });

const provider = {
  name: 'simulated',
  runsRenewals: false,
  parseWebhook: (rawBody: Uint8Array) => ({ ok: true, events: JSON.parse(new TextDecoder().decode(rawBody)) as PaymentEvent[] }),
} as unknown as PaymentProvider;

const refund = (id: string): PaymentEvent => ({ id, type: 'refund.succeeded', paymentRef: `pay-${id}`, amountCents: 900, orderId: `order-${id}` });

describeEachDialect('receiveWebhook', (kind) => {
  let test: TestDatabase;
  let wakes: number;
  /** The events whose object is there (the others are ahead). */
  let ready: Set<string>;
  const clock = fakeClock(new Date('2026-03-01T10:00:00Z'));
  const deps = () => ({ db: test.db, clock, jobs: { wake: () => void wakes++ } });

  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  beforeEach(async () => {
    await test.db.deleteFrom('provider_events').execute();
    await test.db.deleteFrom('jobs').execute();
    wakes = 0;
    ready = new Set();
    vi.spyOn(log, 'warn').mockImplementation(() => {});
  });
  afterEach(() => vi.restoreAllMocks());

  const deliver = (...events: PaymentEvent[]) =>
    receiveWebhook(deps(), provider, new TextEncoder().encode(JSON.stringify(events)), new Headers(), async (trx, event) => {
      // Something is written first; only then does the handler find the object missing.
      await schedule({ clock }, trx, EFFECT, { eventId: event.id }, { uniqueKey: `effect:${event.id}` });
      if (!ready.has(event.id)) throw new EventAhead(`${event.id} not there yet`);
    });
  const recorded = async () => (await test.db.selectFrom('provider_events').select('event_id').orderBy('event_id').execute()).map((r) => r.event_id);
  const effects = async () =>
    (await test.db.selectFrom('jobs').select('payload').where('kind', '=', EFFECT.kind).execute())
      .map((r) => (JSON.parse(r.payload) as { eventId: string }).eventId)
      .sort();

  it('refuses an event ahead of its object with a 409, keeping neither its id nor its effect', async () => {
    const answer = await deliver(refund('evt-1'));
    expect(answer).toEqual({ ok: false, status: 409, message: expect.stringMatching(/^Notification en avance/) });
    expect(await recorded()).toEqual([]);
    expect(await effects()).toEqual([]);
    expect(wakes).toBe(0);
  });

  it('applies it once delivered again when its object is there; a replay then changes nothing', async () => {
    expect((await deliver(refund('evt-1'))).ok).toBe(false);
    ready.add('evt-1');
    expect(await deliver(refund('evt-1'))).toEqual({ ok: true, applied: 1, replayed: 0 });
    expect(await deliver(refund('evt-1'))).toEqual({ ok: true, applied: 0, replayed: 1 });
    expect(await recorded()).toEqual(['evt-1']);
    expect(await effects()).toEqual(['evt-1']);
    expect(wakes).toBe(1);
  });

  it('in a batch, keeps the events applied and refuses the delivery for the one ahead', async () => {
    ready.add('evt-a');
    expect((await deliver(refund('evt-a'), refund('evt-b'))).ok).toBe(false);
    expect(await recorded()).toEqual(['evt-a']);
    expect(await effects()).toEqual(['evt-a']);
    ready.add('evt-b');
    expect(await deliver(refund('evt-a'), refund('evt-b'))).toEqual({ ok: true, applied: 1, replayed: 1 });
    expect(await recorded()).toEqual(['evt-a', 'evt-b']);
  });

  it('lets any other failure through (a 500, retried too), with nothing recorded', async () => {
    const fault = receiveWebhook(deps(), provider, new TextEncoder().encode(JSON.stringify([refund('evt-9')])), new Headers(), async () => {
      throw new Error('database hiccup');
    });
    await expect(fault).rejects.toThrow('database hiccup');
    expect(await recorded()).toEqual([]);
  });
});
