import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { NEWSLETTERS } from '../../config/newsletters';
import { createUser } from '../auth/service';
import { fakeClock } from '../core/clock';
import { issuesCount, isSuppressedAddress, leaveQuestion, leftMessage, mayReadIssue, newsletterNames, preferencesSavedMessage } from './reader';
import { suppress } from './suppression';

describe('what the reader’s pages say', () => {
  it('names the newsletters in the configuration’s order, as a French list', () => {
    expect(newsletterNames(['emissions', 'hebdo'])).toBe('L’Hebdo et Les Émissions');
    expect(newsletterNames(['quotidienne', 'emissions', 'hebdo'])).toBe('La Quotidienne, L’Hebdo et Les Émissions');
    expect(newsletterNames(['inconnue'])).toBe('');
  });

  it('says which newsletter was left, or that all were', () => {
    expect(leftMessage('hebdo')).toBe('C’est fait : vous ne recevrez plus L’Hebdo. Vos autres lettres ne changent pas.');
    expect(leftMessage()).toMatch(/plus aucune de nos lettres/);
    // An unknown id leaves every newsletter (service.ts): the page says so.
    expect(leftMessage('inconnue')).toBe(leftMessage());
    expect(leaveQuestion('emissions').title).toBe('Me désinscrire des Émissions');
    expect(leaveQuestion('hebdo').title).toBe('Me désinscrire de L’Hebdo');
    expect(leaveQuestion(null).title).toBe('Me désinscrire de toutes les lettres');
  });

  it('confirms a save with what the address now receives', () => {
    expect(preferencesSavedMessage(['hebdo', 'quotidienne'])).toBe('C’est enregistré : vous recevrez La Quotidienne et L’Hebdo.');
    expect(preferencesSavedMessage([])).toMatch(/plus aucune/);
  });

  it('counts issues in French', () => {
    expect(issuesCount(0)).toBe('Aucun numéro pour l’instant');
    expect(issuesCount(1)).toBe('1 numéro');
    expect(issuesCount(1200)).toBe(`${(1200).toLocaleString('fr-FR')} numéros`);
  });

  it('has a supporters-only newsletter in the demo configuration (the archive marks it)', () => {
    expect(NEWSLETTERS.some((n) => n.audience === 'supporters')).toBe(true);
  });
});

describeEachDialect('newsletter reader', (kind) => {
  let test: TestDatabase;
  const clock = fakeClock();
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });

  it('knows a suppressed address, whatever its case, until staff lift it', async () => {
    await suppress(test.db, { email: 'rebond@exemple.fr', reason: 'hard_bounce', source: 'relay', detail: '550', now: clock.now() });
    expect(await isSuppressedAddress(test.db, 'Rebond@Exemple.fr')).toBe(true);
    expect(await isSuppressedAddress(test.db, 'autre@exemple.fr')).toBe(false);
    await test.db
      .updateTable('newsletter_suppressions')
      .set({ lifted_at: clock.now().toISOString(), lifted_by: 'staff' })
      .where('email', '=', 'rebond@exemple.fr')
      .execute();
    expect(await isSuppressedAddress(test.db, 'rebond@exemple.fr')).toBe(false);
  });

  it('shows an issue for everyone to anyone, and a supporters’ issue to no visitor nor account that supports nothing', async () => {
    const deps = { db: test.db, clock };
    await createUser(test.db, { email: 'lecteur@exemple.fr', password: 'un mot de passe solide', now: clock.now() });
    expect(await mayReadIssue(deps, { restricted: false }, null)).toBe(true);
    expect(await mayReadIssue(deps, { restricted: true }, null)).toBe(false);
    expect(await mayReadIssue(deps, { restricted: true }, '')).toBe(false);
    expect(await mayReadIssue(deps, { restricted: true }, 'lecteur@exemple.fr')).toBe(false);
  });
});
