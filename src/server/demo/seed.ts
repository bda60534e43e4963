/**
 * Demo accounts, created only in demo mode (`APP_MODE=demo`, the default of `npm start`).
 * The README lists them. Existing accounts are left untouched.
 */
import type { Kysely } from 'kysely';
import type { Database, UserRole } from '../db/database';
import { createUser } from '../auth/service';
import { findUserRowByEmail } from '../auth/repository';
import { log } from '../core/log';

export const DEMO_PASSWORD = 'motdepasse-demo';

/**
 * Roles are staff roles; the subscriber and the sociétaire are readers whose subscription and
 * shares (seeded by the revenue and cooperative work) make them what their address says.
 */
export const DEMO_ACCOUNTS: { email: string; role: UserRole; givenName: string; familyName: string }[] = [
  { email: 'lecteur@exemple.fr', role: 'reader', givenName: 'Louis', familyName: 'Lecteur' },
  { email: 'abonne@exemple.fr', role: 'reader', givenName: 'Agnès', familyName: 'Abonnée' },
  { email: 'societaire@exemple.fr', role: 'reader', givenName: 'Samir', familyName: 'Sociétaire' },
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
