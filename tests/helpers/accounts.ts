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
