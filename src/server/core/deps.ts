/**
 * What every service of the process is given: the database, the mailer, the clock and the
 * configured public address. `src/server/runtime.ts` builds the one instance of a running
 * server; tests build their own (a fresh database, a fake clock, an outbox in a temp folder).
 *
 * Services take the part they need (`Pick<ServerDeps, 'db' | 'clock'>`), so that a test passes
 * only that.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database';
import type { Mailer } from '../mail/transport';
import type { PaymentProvider } from '../payments/provider';
import type { Clock } from './clock';

export interface ServerDeps {
  db: Kysely<Database>;
  mailer: Mailer;
  clock: Clock;
  /** Links in mails and the only origin allowed to change state come from here, never from a request. */
  siteUrl: URL;
  /** The process's job worker: `wake()` after committing scheduled work, so that it starts at once. */
  jobs: { wake(): void };
  /** The payment provider chosen by configuration (payments/registry.ts): simulated by default, Stripe when its keys are set. */
  payments: PaymentProvider;
}
