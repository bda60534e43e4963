/**
 * Demo accounts, created only in demo mode (`APP_MODE=demo`, the default of `npm start`).
 * The README lists them. Existing accounts are left untouched.
 */
import type { Kysely } from 'kysely';
import type { Database, UserRole } from '../db/database';
import { createAccount } from '../auth/service';
import { findUserRowByEmail } from '../auth/repository';
import { log } from '../core/log';

export const DEMO_PASSWORD = 'motdepasse-demo';

export const DEMO_ACCOUNTS: { email: string; role: UserRole; givenName: string; familyName: string }[] = [
  { email: 'lecteur@exemple.fr', role: 'reader', givenName: 'Louis', familyName: 'Lecteur' },
  { email: 'abonne@exemple.fr', role: 'subscriber', givenName: 'Agnès', familyName: 'Abonnée' },
  { email: 'societaire@exemple.fr', role: 'shareholder', givenName: 'Samir', familyName: 'Sociétaire' },
  { email: 'redaction@exemple.fr', role: 'editor', givenName: 'Rose', familyName: 'Rédaction' },
];

export async function seedDemoAccounts(db: Kysely<Database>, now: Date): Promise<void> {
  for (const account of DEMO_ACCOUNTS) {
    if (await findUserRowByEmail(db, account.email)) continue;
    try {
      await createAccount(db, { ...account, password: DEMO_PASSWORD, now });
      log.info('demo account created', { role: account.role });
    } catch (error) {
      // Another process seeded it first.
      if (!(await findUserRowByEmail(db, account.email))) throw error;
    }
  }
}
