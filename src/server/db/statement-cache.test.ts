import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from './client';

interface Db {
  items: { id: number; label: string };
}

describe('prepared statements kept across queries (SQLite)', () => {
  let db: Kysely<Db> | undefined;
  afterEach(async () => db?.destroy());

  function open(size?: number) {
    const sqlite = new SqliteDatabase(':memory:');
    sqlite.exec('create table items (id integer primary key, label text not null)');
    const prepared: string[] = [];
    const prepare = sqlite.prepare.bind(sqlite);
    sqlite.prepare = ((source: string) => {
      prepared.push(source);
      return prepare(source);
    }) as typeof sqlite.prepare;
    db = new Kysely<Db>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite, size) }) });
    return { db, prepared };
  }

  it('prepares a query once and answers with the current rows every time', async () => {
    const { db, prepared } = open();
    const labels = () => db.selectFrom('items').select('label').orderBy('id').execute();
    await db.insertInto('items').values({ id: 1, label: 'un' }).execute();
    expect(await labels()).toEqual([{ label: 'un' }]);
    await db.insertInto('items').values({ id: 2, label: 'deux' }).execute();
    expect(await labels()).toEqual([{ label: 'un' }, { label: 'deux' }]);
    expect(prepared.filter((s) => s.startsWith('select')).length).toBe(1);
  });

  it('gives a fresh statement while the kept one is still being iterated', () => {
    const sqlite = new SqliteDatabase(':memory:');
    sqlite.exec("create table items (id integer primary key, label text not null); insert into items values (1, 'un'), (2, 'deux')");
    const database = withStatementCache(sqlite);
    const query = 'select label from items order by id';
    const seen: string[] = [];
    for (const row of database.prepare(query).iterate([]) as Iterable<{ label: string }>) {
      seen.push(`${row.label}:${(database.prepare(query).all([]) as unknown[]).length}`);
    }
    expect(seen).toEqual(['un:2', 'deux:2']);
    sqlite.close();
  });

  it('sees a column added after the statement was kept', async () => {
    const { db } = open();
    const all = () => sql<Record<string, unknown>>`select * from items`.execute(db);
    await db.insertInto('items').values({ id: 1, label: 'un' }).execute();
    expect(Object.keys((await all()).rows[0]!)).toEqual(['id', 'label']);
    await sql`alter table items add column note text`.execute(db);
    expect(Object.keys((await all()).rows[0]!)).toEqual(['id', 'label', 'note']);
  });

  it('forgets every statement once full, and still answers', async () => {
    const { db, prepared } = open(2);
    for (let i = 0; i < 5; i++) expect((await sql<{ n: number }>`select ${sql.raw(String(i))} as n`.execute(db)).rows).toEqual([{ n: i }]);
    await sql`select 0 as n`.execute(db);
    expect(prepared.filter((s) => s === 'select 0 as n').length).toBe(2);
  });
});
