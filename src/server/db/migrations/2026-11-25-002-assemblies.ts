/**
 * General assemblies of the cooperative (shares/assemblies.ts, shares/ballots.ts).
 *
 * - `assemblies`: one meeting, its kind and call, its date, place and link, its agenda, its
 *   vote window, the statutes' rules frozen when it was created (quorum, majority, colleges and
 *   their weights, proxies per member) and, once closed, its published results (JSON).
 * - `assembly_resolutions`, `assembly_documents`: what is voted and what is read.
 * - `assembly_roll`: the members called (liste des sociétaires convoqués), with their college,
 *   taken from the register when the notice goes out; the quorum's denominator. Append-only.
 * - `assembly_attendance`: what a member said they would do (present, remote, absent).
 * - `assembly_proxies`: pouvoirs; a member gives one at most, a holder holds at most the
 *   statutes' number (one unique slot each), the chair (null holder) any number. Revoked by
 *   setting `revoked_at`, until the vote opens.
 * - `assembly_participation`: who took part in which resolution's vote, when, and through whom
 *   (liste d'émargement). One row per member and resolution (unique). Append-only.
 * - `assembly_ballots`: what was voted (l'urne): resolution, college and choice, a random id and
 *   the sha-256 of the voter's receipt; never the voter, never a time. Append-only, and on SQLite
 *   a WITHOUT ROWID table keyed by its random id, so that its order says nothing of the order of
 *   the votes.
 * - `assembly_minutes`: the procès-verbal as a PDF, with the digest of the ballots it counts. Append-only.
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const APPEND_ONLY = ['assembly_roll', 'assembly_participation', 'assembly_ballots', 'assembly_minutes'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .createTable('assemblies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    // ordinary | extraordinary
    .addColumn('kind', 'text', (c) => c.notNull())
    // first | second (première ou seconde convocation)
    .addColumn('call', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('starts_at', 'text', (c) => c.notNull())
    .addColumn('place', 'text', (c) => c.notNull())
    .addColumn('online_url', 'text', (c) => c.notNull())
    // JSON array of the agenda's items, in order.
    .addColumn('agenda', 'text', (c) => c.notNull())
    .addColumn('vote_opens_at', 'text', (c) => c.notNull())
    .addColumn('vote_closes_at', 'text', (c) => c.notNull())
    // JSON: the statutes' rules for this assembly, as they were when it was created.
    .addColumn('rules', 'text', (c) => c.notNull())
    // draft → notice_scheduled → convened → closed
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('notice_at', 'text')
    .addColumn('notice_sent_at', 'text')
    // The day (Paris) whose register gave the roll.
    .addColumn('roll_day', 'text')
    // Ballots cast so far: every vote's transaction updates it, so that a vote and the closing
    // take the same row lock and no vote lands after the tally.
    .addColumn('ballots_cast', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('closed_at', 'text')
    .addColumn('results', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('assemblies_starts_idx').on('assemblies').columns(['starts_at']).execute();

  await db.schema
    .createTable('assembly_resolutions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('assembly_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('text', 'text', (c) => c.notNull())
    // Proposed (or approved) by the board: the chair's proxies vote for it, against the others.
    .addColumn('board_proposal', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('assembly_resolutions_position').on('assembly_resolutions').columns(['assembly_id', 'position']).unique().execute();

  await db.schema
    .createTable('assembly_documents')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('assembly_id', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('filename', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    // The file itself, or a path under public/ (one of the two).
    .addColumn('bytes', postgres ? 'bytea' : 'blob')
    .addColumn('path', 'text')
    .addColumn('sha256', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('assembly_documents_position').on('assembly_documents').columns(['assembly_id', 'position']).unique().execute();

  await db.schema
    .createTable('assembly_roll')
    .addColumn('assembly_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('member_number', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('college_id', 'text', (c) => c.notNull())
    .addColumn('shares', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('assembly_roll_pk', ['assembly_id', 'member_id'])
    .execute();

  await db.schema
    .createTable('assembly_attendance')
    .addColumn('assembly_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    // present | remote | absent
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('assembly_attendance_pk', ['assembly_id', 'member_id'])
    .execute();

  await db.schema
    .createTable('assembly_proxies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('assembly_id', 'text', (c) => c.notNull())
    .addColumn('grantor_id', 'text', (c) => c.notNull())
    // Null: the chair.
    .addColumn('holder_id', 'text')
    // 1..proxiesPerMember for a member holder, null for the chair.
    .addColumn('slot', 'integer')
    .addColumn('given_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .execute();
  // One standing proxy per member; a holder's slots taken once each: the limit holds under concurrency.
  await sql`create unique index assembly_proxies_one_per_grantor on assembly_proxies (assembly_id, grantor_id) where revoked_at is null`.execute(db);
  await sql`create unique index assembly_proxies_holder_slot on assembly_proxies (assembly_id, holder_id, slot) where revoked_at is null and holder_id is not null`.execute(
    db,
  );
  await db.schema.createIndex('assembly_proxies_holder_idx').on('assembly_proxies').columns(['assembly_id', 'holder_id']).execute();

  await db.schema
    .createTable('assembly_participation')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('assembly_id', 'text', (c) => c.notNull())
    .addColumn('resolution_id', 'text', (c) => c.notNull())
    .addColumn('member_id', 'text', (c) => c.notNull())
    .addColumn('voted_at', 'text', (c) => c.notNull())
    // direct | proxy | chair
    .addColumn('via', 'text', (c) => c.notNull())
    // The member who voted for them (via proxy); null otherwise.
    .addColumn('proxy_holder_id', 'text')
    .execute();
  // Exactly one ballot per member and resolution: inserted in the ballot's transaction.
  await db.schema.createIndex('assembly_participation_once').on('assembly_participation').columns(['resolution_id', 'member_id']).unique().execute();
  await db.schema.createIndex('assembly_participation_assembly_idx').on('assembly_participation').columns(['assembly_id', 'member_id']).execute();

  await db.schema
    .createTable('assembly_ballots')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('assembly_id', 'text', (c) => c.notNull())
    .addColumn('resolution_id', 'text', (c) => c.notNull())
    .addColumn('college_id', 'text', (c) => c.notNull())
    // pour | contre | abstention
    .addColumn('choice', 'text', (c) => c.notNull())
    // sha-256 hex of `<receipt>:<resolution id>`; the receipt itself is shown once and never stored.
    .addColumn('receipt_hash', 'text', (c) => c.notNull().unique())
    .$call((t) => (postgres ? t : t.modifyEnd(sql`without rowid`)))
    .execute();
  await db.schema.createIndex('assembly_ballots_resolution_idx').on('assembly_ballots').columns(['assembly_id', 'resolution_id']).execute();

  await db.schema
    .createTable('assembly_minutes')
    .addColumn('assembly_id', 'text', (c) => c.primaryKey())
    .addColumn('bytes', postgres ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    // sha-256 of the published list of ballots that the minutes count.
    .addColumn('ballots_digest', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  if (postgres) {
    // refuse_change_of_legal_record() comes from the billing migration.
    for (const table of APPEND_ONLY) {
      await sql`create trigger ${sql.raw(`${table}_append_only`)} before update or delete on ${sql.table(table)} for each row execute function refuse_change_of_legal_record()`.execute(
        db,
      );
    }
  } else {
    for (const table of APPEND_ONLY) {
      for (const op of ['update', 'delete']) {
        await sql`create trigger ${sql.raw(`${table}_no_${op}`)} before ${sql.raw(op)} on ${sql.table(table)} begin select raise(abort, ${sql.lit(`${table} is append-only`)}); end`.execute(
          db,
        );
      }
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'assembly_minutes',
    'assembly_ballots',
    'assembly_participation',
    'assembly_proxies',
    'assembly_attendance',
    'assembly_roll',
    'assembly_documents',
    'assembly_resolutions',
    'assemblies',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
