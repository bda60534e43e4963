/**
 * The world of the revenue suites (checkout, subscriptions, gifts, billing, shares, the
 * withdrawal function, the account's data): the services of one process on a test database, with
 * a fake clock, a mailer that keeps what it sends, the durable jobs run on `flush()`, and the
 * simulated payment provider signing its webhooks with the test key. One set-up, so that every
 * suite pays, renews and refunds through the same path as the site.
 */
import type { Kysely } from 'kysely';
import { fakeClock } from '../../src/server/core/clock';
import type { Database } from '../../src/server/db/database';
import type { Mailer, OutgoingMail } from '../../src/server/mail/transport';
import { createSimulatedProvider, type SimulatedProvider } from '../../src/server/payments/simulated';
import { TEST_WEBHOOK_KEY, withJobs } from './jobs';

export interface RevenueWorldOptions {
  /** Where a new fake clock starts, or the suite's own clock. */
  now?: Date;
  clock?: ReturnType<typeof fakeClock>;
  /** Called with every mail sent (a suite pushes it into its own list, which it may replace). */
  onMail: (mail: OutgoingMail) => void;
  /** How long a simulated SEPA debit takes to settle (0: at once). Default one minute. */
  sepaDelayMs?: number;
  siteUrl?: URL;
}

export interface RevenueWorld {
  clock: ReturnType<typeof fakeClock>;
  deps: ReturnType<typeof withJobs>;
  provider: SimulatedProvider;
}

export const TEST_SITE_URL = new URL('https://contrechamp.example');

export function revenueWorld(db: Kysely<Database>, options: RevenueWorldOptions): RevenueWorld {
  const clock = options.clock ?? fakeClock(options.now);
  const mailer: Mailer = {
    send: async (mail) => {
      options.onMail(mail);
      return { messageId: 'x' };
    },
  };
  const deps = withJobs({ db, mailer, clock, siteUrl: options.siteUrl ?? TEST_SITE_URL });
  const provider = createSimulatedProvider(deps, { sepaDelayMs: options.sepaDelayMs ?? 60_000, signingKey: TEST_WEBHOOK_KEY });
  deps.payments = provider;
  return { clock, deps, provider };
}
