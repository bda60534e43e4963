import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { compiledQuery } from './compiled';
import { newId, toTimestamp } from './database';

const NOW = new Date('2026-11-21T10:00:00Z');

describeEachDialect('queries compiled once', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
    for (const [email, given] of [
      ['ana@exemple.fr', 'Ana'],
      ['bea@exemple.fr', 'Béa'],
      ['cyd@exemple.fr', 'Cyd'],
    ]) {
      await t.db
        .insertInto('users')
        .values({
          id: newId(),
          email: email!,
          password_hash: null,
          given_name: given!,
          family_name: 'Martin',
          email_verified_at: null,
          created_at: toTimestamp(NOW),
          updated_at: toTimestamp(NOW),
        })
        .execute();
    }
  });
  afterAll(async () => t.close());

  it('answers each call with its own arguments, constants of the query kept', async () => {
    const named = compiledQuery((db, email: string, family: string) =>
      db.selectFrom('users').select('given_name').where('email', '=', email).where('family_name', '=', family).where('given_name', '!=', 'Cyd'),
    );
    expect(await named(t.db, 'ana@exemple.fr', 'Martin')).toEqual([{ given_name: 'Ana' }]);
    expect(await named(t.db, 'bea@exemple.fr', 'Martin')).toEqual([{ given_name: 'Béa' }]);
    expect(await named(t.db, 'cyd@exemple.fr', 'Martin')).toEqual([]);
    expect(await named(t.db, 'ana@exemple.fr', 'Dupont')).toEqual([]);
  });

  it('refuses a query whose argument does not reach it as a parameter', async () => {
    const wrong = compiledQuery((db, email: string) => db.selectFrom('users').select('given_name').where('email', '=', String(email).toLowerCase()));
    await expect(wrong(t.db, 'ana@exemple.fr')).rejects.toThrow(/absent/);
  });
});
