/**
 * Newsletters: several of them (src/config/newsletters.yaml), one subscription row per address
 * and newsletter, issues, one delivery row per recipient of an issue, suppressed addresses and
 * the relay events already applied.
 *
 * Existing confirmed or pending addresses get the default newsletter (`hebdo`), which is the one
 * they signed up for when there was only one.
 *
 * A sent issue is a record of what was mailed: a trigger refuses any change to it once `sent`
 * and any deletion once its send has started (`sending`).
 */
import { type Kysely, PostgresAdapter, sql } from 'kysely';

const DEFAULT_NEWSLETTER = 'hebdo';

export async function up(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;

  await db.schema
    .alterTable('newsletter_subscribers')
    .addColumn('soft_bounces', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable('newsletter_subscriptions')
    .addColumn('subscriber_id', 'text', (c) => c.notNull().references('newsletter_subscribers.id'))
    .addColumn('newsletter', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('confirmed_at', 'text')
    .addColumn('unsubscribed_at', 'text')
    .addPrimaryKeyConstraint('newsletter_subscriptions_pk', ['subscriber_id', 'newsletter'])
    .execute();
  await db.schema.createIndex('newsletter_subscriptions_list_idx').on('newsletter_subscriptions').columns(['newsletter', 'status', 'subscriber_id']).execute();

  await sql`insert into newsletter_subscriptions (subscriber_id, newsletter, status, created_at, confirmed_at, unsubscribed_at)
    select id, ${DEFAULT_NEWSLETTER}, status, created_at, confirmed_at, unsubscribed_at from newsletter_subscribers`.execute(db);

  await db.schema
    .createTable('newsletter_issues')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('newsletter', 'text', (c) => c.notNull())
    .addColumn('number', 'integer')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('preheader', 'text', (c) => c.notNull())
    .addColumn('intro', 'text', (c) => c.notNull())
    .addColumn('stories', 'text', (c) => c.notNull())
    .addColumn('support_block', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('segment', 'text', (c) => c.notNull())
    .addColumn('scheduled_at', 'text')
    .addColumn('schedule_version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('queued_at', 'text')
    .addColumn('sent_at', 'text')
    .addColumn('recipients', 'integer')
    .addColumn('mail_html', 'text')
    .addColumn('mail_text', 'text')
    .addColumn('mail_stories', 'text')
    .addCheckConstraint('newsletter_issues_support_flag', sql`support_block in (0, 1)`)
    .execute();
  await db.schema.createIndex('newsletter_issues_number_idx').on('newsletter_issues').columns(['newsletter', 'number']).unique().execute();
  await db.schema.createIndex('newsletter_issues_status_idx').on('newsletter_issues').columns(['status', 'scheduled_at']).execute();

  await db.schema
    .createTable('newsletter_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('issue_id', 'text', (c) => c.notNull().references('newsletter_issues.id'))
    .addColumn('subscriber_id', 'text', (c) => c.notNull().references('newsletter_subscribers.id'))
    .addColumn('batch', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('message_id', 'text', (c) => c.notNull())
    .addColumn('sent_at', 'text')
    .addColumn('error', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('newsletter_deliveries_once', ['issue_id', 'subscriber_id'])
    .execute();
  await db.schema.createIndex('newsletter_deliveries_batch_idx').on('newsletter_deliveries').columns(['issue_id', 'batch', 'status']).execute();
  // « Is the issue done? », asked at the end of every batch.
  await db.schema.createIndex('newsletter_deliveries_open_idx').on('newsletter_deliveries').columns(['issue_id', 'status']).execute();
  await db.schema.createIndex('newsletter_deliveries_message_idx').on('newsletter_deliveries').column('message_id').unique().execute();
  await db.schema.createIndex('newsletter_deliveries_subscriber_idx').on('newsletter_deliveries').column('subscriber_id').execute();

  await db.schema
    .createTable('newsletter_suppressions')
    .addColumn('email', 'text', (c) => c.primaryKey())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('detail', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('lifted_at', 'text')
    .addColumn('lifted_by', 'text')
    .addCheckConstraint('newsletter_suppressions_email_lower_case', sql`email = lower(email)`)
    .execute();

  await db.schema
    .createTable('newsletter_relay_events')
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('event_id', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('newsletter_relay_events_pk', ['provider', 'event_id'])
    .execute();

  const sent = 'a sent issue is a record of what was mailed: it cannot change';
  const started = 'an issue whose send has started cannot be deleted';
  if (postgres) {
    await sql`create function refuse_change_of_sent_issue() returns trigger language plpgsql as $$
      begin
        if TG_OP = 'DELETE' and OLD.status in ('sending', 'sent') then raise exception '${sql.raw(started)}'; end if;
        if TG_OP = 'UPDATE' and OLD.status = 'sent' then raise exception '${sql.raw(sent)}'; end if;
        if TG_OP = 'DELETE' then return OLD; end if;
        return NEW;
      end $$`.execute(db);
    await sql`create trigger newsletter_issues_record before update or delete on newsletter_issues for each row execute function refuse_change_of_sent_issue()`.execute(
      db,
    );
  } else {
    await sql`create trigger newsletter_issues_sent_no_update before update on newsletter_issues when old.status = 'sent' begin select raise(abort, ${sql.lit(sent)}); end`.execute(
      db,
    );
    await sql`create trigger newsletter_issues_started_no_delete before delete on newsletter_issues when old.status in ('sending', 'sent') begin select raise(abort, ${sql.lit(started)}); end`.execute(
      db,
    );
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  if (postgres) {
    await sql`drop trigger if exists newsletter_issues_record on newsletter_issues`.execute(db);
    await sql`drop function if exists refuse_change_of_sent_issue()`.execute(db);
  }
  for (const table of ['newsletter_relay_events', 'newsletter_suppressions', 'newsletter_deliveries', 'newsletter_issues', 'newsletter_subscriptions']) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable('newsletter_subscribers').dropColumn('soft_bounces').execute();
}
