/**
 * The server's wiring: the database (migrated on first use), the mailer, the clock and the
 * configured site URL, shared by every request of the process. In demo mode the demo
 * accounts are created on first use; production never creates them.
 */
import { systemClock } from './core/clock';
import { config } from './core/config';
import { getDatabase } from './db/client';
import { getMailer } from './mail/transport';
import type { ServerDeps } from './core/deps';
import { seedDemoAccounts } from './demo/seed';

let ready: Promise<ServerDeps> | undefined;

export function services(): Promise<ServerDeps> {
  ready ??= (async () => {
    const { db } = await getDatabase();
    if (config().mode === 'demo') await seedDemoAccounts(db, systemClock.now());
    return { db, mailer: getMailer(), clock: systemClock, siteUrl: config().siteUrl };
  })().catch((error: unknown) => {
    ready = undefined;
    throw error;
  });
  return ready;
}
