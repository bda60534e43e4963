/**
 * The server's wiring: the database (migrated on first use), the mailer, the clock and the
 * configured site URL, shared by every request of the process. In demo mode the demo
 * accounts are created on first use; production never creates them.
 */
import { systemClock } from './clock';
import { config } from './config';
import { getDatabase } from '../db/client';
import { getMailer } from '../mail/transport';
import type { AuthDeps } from '../auth/service';
import { seedDemoAccounts } from '../demo/seed';

let ready: Promise<AuthDeps> | undefined;

export function services(): Promise<AuthDeps> {
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
