/**
 * Members for end-to-end tests: fresh accounts written straight into the test server's
 * database (the site has no sign-up form; accounts come with a purchase), and the server's
 * mail outbox.
 */
import { resolve } from 'node:path';
import { openDatabase } from '../../src/server/db/client';
import { migrateToLatest } from '../../src/server/db/migrate';
import { createUser } from '../../src/server/auth/service';
import { latestMailTo, linksIn } from './outbox';

const dataDir = () => resolve(process.env.E2E_DATA_DIR ?? 'test-results/e2e-data');
export const outboxDir = () => resolve(dataDir(), 'outbox');

let counter = 0;
export async function createReaderAccount(password = 'un mot de passe de test'): Promise<{ email: string; password: string }> {
  const email = `membre-${process.pid}-${Date.now()}-${++counter}@exemple.fr`;
  const handle = openDatabase({ kind: 'sqlite', path: resolve(dataDir(), 'contrechamp.db') });
  try {
    await migrateToLatest(handle.db);
    await createUser(handle.db, { email, password, givenName: 'Camille', familyName: 'Testeur', now: new Date() });
  } finally {
    await handle.close();
  }
  return { email, password };
}

/** The first link of the newest mail to an address that goes to `path`. */
export async function linkFromMail(address: string, path: string, after: Date): Promise<string> {
  const mail = await latestMailTo(outboxDir(), address, { after, timeoutMs: 15_000 });
  const link = linksIn(mail.text).find((l) => new URL(l).pathname.startsWith(path));
  if (!link) throw new Error(`No ${path} link in "${mail.subject}"`);
  return link;
}

/**
 * The rate-limit keys counted for a client (alone, or with an address: `login:pair` is a client
 * on one account, `signup:mailbox` a client with one mailbox).
 */
export const CLIENT_RATE_LIMIT_PREFIXES = [
  'login:client:',
  'login:pair:',
  'mail:client:',
  'token:client:',
  'contact:client:',
  'gift:client:',
  'signup:client:',
  'signup:created:',
  'signup:confirmed:',
  'signup:evidence:',
  'signup:mailbox:',
  'signup:challenge:',
] as const;

/**
 * Forgets the per-client rate-limit counts: every end-to-end test comes from the same address,
 * which the limits would otherwise take for one very busy reader. Per-account and per-address
 * limits are kept.
 */
export async function forgetClientRateLimits(): Promise<void> {
  const handle = openDatabase({ kind: 'sqlite', path: resolve(dataDir(), 'contrechamp.db') });
  try {
    await migrateToLatest(handle.db);
    for (const rule of CLIENT_RATE_LIMIT_PREFIXES) {
      await handle.db.deleteFrom('rate_limits').where('key', 'like', `${rule}%`).execute();
    }
  } finally {
    await handle.close();
  }
}
