/**
 * The newsroom's lists: the subscribers' CSV holds the confirmed addresses only, as a French
 * spreadsheet opens it; the messages come newest first, twenty a page, one subject or all.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../../tests/helpers/csv';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { newId, toTimestamp } from '../db/database';
import { MESSAGES_PER_PAGE, messagesPage, messagesUrl, readMessagesQuery, SUBSCRIBERS_HEADER, subscribersCsv } from './newsroom';

const at = (iso: string) => toTimestamp(new Date(iso));

describeEachDialect('the newsroom’s lists', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await createTestDatabase(kind);
  });
  afterAll(() => t.close());
  afterEach(async () => {
    await t.db.deleteFrom('newsletter_subscriptions').execute();
    await t.db.deleteFrom('newsletter_subscribers').execute();
    await t.db.deleteFrom('contact_messages').execute();
  });

  /** An address and its choice of newsletters (the weekly by default), each in the address's status. */
  const subscriber = async (email: string, status: 'pending' | 'confirmed' | 'unsubscribed', confirmed: string | null, newsletters: string[] = ['hebdo']) => {
    const id = newId();
    const times = {
      created_at: at('2026-01-01T08:00:00Z'),
      confirmed_at: confirmed ? at(confirmed) : null,
      unsubscribed_at: status === 'unsubscribed' ? at('2026-06-01T08:00:00Z') : null,
    };
    await t.db
      .insertInto('newsletter_subscribers')
      .values({ id, email, status, unsubscribe_hash: null, ...times })
      .execute();
    for (const newsletter of newsletters)
      await t.db
        .insertInto('newsletter_subscriptions')
        .values({ subscriber_id: id, newsletter, status, ...times })
        .execute();
  };

  it('exports the confirmed subscribers only, oldest first, with their confirmation in Paris time', async () => {
    await subscriber('zoe@exemple.fr', 'confirmed', '2026-03-10T08:05:00Z', ['coulisses', 'hebdo', 'quotidienne']);
    await subscriber('anna@exemple.fr', 'confirmed', '2026-07-14T21:30:00Z', ['emissions']); // 23:30 in Paris (summer time)
    await subscriber('+33@exemple.fr', 'confirmed', '2026-12-31T23:59:00Z'); // already next year in Paris
    await subscriber('attente@exemple.fr', 'pending', null);
    await subscriber('partie@exemple.fr', 'unsubscribed', '2026-02-01T08:00:00Z');
    // Anna left the daily: only the newsletters she still receives are listed.
    const anna = await t.db.selectFrom('newsletter_subscribers').select('id').where('email', '=', 'anna@exemple.fr').executeTakeFirstOrThrow();
    await t.db
      .insertInto('newsletter_subscriptions')
      .values({
        subscriber_id: anna.id,
        newsletter: 'quotidienne',
        status: 'unsubscribed',
        created_at: at('2026-01-01T08:00:00Z'),
        confirmed_at: at('2026-01-02T08:00:00Z'),
        unsubscribed_at: at('2026-08-01T08:00:00Z'),
      })
      .execute();

    const file = await subscribersCsv(t.db, new Date('2026-12-31T23:30:00Z'));
    expect(file.filename).toBe('contrechamp-abonnes-lettre-2027-01-01.csv');
    expect(file.count).toBe(3);
    const [header, ...rows] = parseCsv(file.csv);
    expect(header).toEqual(SUBSCRIBERS_HEADER);
    expect(rows).toEqual([
      // The newsletters by name, in the configuration's order.
      ['zoe@exemple.fr', '2026-03-10 09:05', 'La Quotidienne, L’Hebdo, Les Coulisses'],
      ['anna@exemple.fr', '2026-07-14 23:30', 'Les Émissions'],
      // A cell starting with + would be a formula in a spreadsheet: it is neutralised.
      ["'+33@exemple.fr", '2027-01-01 00:59', 'L’Hebdo'],
    ]);
  });

  it('exports a header alone when nobody has confirmed', async () => {
    await subscriber('attente@exemple.fr', 'pending', null);
    const file = await subscribersCsv(t.db, new Date('2026-11-26T10:00:00Z'));
    expect(parseCsv(file.csv)).toEqual([SUBSCRIBERS_HEADER]);
    expect(file.count).toBe(0);
  });

  it('lists the messages newest first, twenty a page, and one subject when asked', async () => {
    const start = Date.parse('2026-11-01T00:00:00Z');
    const total = MESSAGES_PER_PAGE + 5;
    for (let i = 0; i < total; i++) {
      await t.db
        .insertInto('contact_messages')
        .values({
          id: newId(),
          name: `Personne ${i}`,
          email: `p${i}@exemple.fr`,
          subject: i % 5 === 0 ? 'donnees' : 'redaction',
          message: `Message n° ${i}\n\n  avec ses blancs  `,
          created_at: toTimestamp(new Date(start + i * 3600_000)),
          client_hash: null,
        })
        .execute();
    }
    const first = await messagesPage(t.db, { page: 1, subject: undefined });
    expect(first?.total).toBe(total);
    expect(first?.pages).toBe(2);
    expect(first?.messages).toHaveLength(MESSAGES_PER_PAGE);
    expect(first?.messages[0]).toMatchObject({
      name: `Personne ${total - 1}`,
      email: `p${total - 1}@exemple.fr`,
      subject: 'redaction',
      subjectLabel: 'La rédaction (information, témoignage, correction)',
    });
    expect(first?.messages[0]?.message).toBe(`Message n° ${total - 1}\n\n  avec ses blancs  `);
    expect(first?.messages[0]?.receivedAt.toISOString()).toBe(new Date(start + (total - 1) * 3600_000).toISOString());
    const second = await messagesPage(t.db, { page: 2, subject: undefined });
    expect(second?.messages.map((m) => m.name)).toEqual([4, 3, 2, 1, 0].map((i) => `Personne ${i}`));
    expect(await messagesPage(t.db, { page: 3, subject: undefined })).toBeNull();

    const data = await messagesPage(t.db, { page: 1, subject: 'donnees' });
    expect(data?.total).toBe(5);
    expect(data?.pages).toBe(1);
    expect(data?.messages.map((m) => m.name)).toEqual([20, 15, 10, 5, 0].map((i) => `Personne ${i}`));
    expect(data?.messages.every((m) => m.subjectLabel === 'Mes données personnelles')).toBe(true);
  });

  it('has a first page, empty, when no message has come', async () => {
    expect(await messagesPage(t.db, { page: 1, subject: undefined })).toEqual({ messages: [], page: 1, pages: 1, total: 0 });
    expect(await messagesPage(t.db, { page: 2, subject: undefined })).toBeNull();
  });
});

describe('the messages page’s address', () => {
  it('reads a page number and a subject of the form, and nothing else', () => {
    const read = (search: string) => readMessagesQuery(new URLSearchParams(search));
    expect(read('')).toEqual({ page: 1, subject: undefined });
    expect(read('page=3&sujet=redaction')).toEqual({ page: 3, subject: 'redaction' });
    for (const bad of ['page=0', 'page=-1', 'page=1.5', 'page=abc', 'page=01', 'sujet=inconnu', 'sujet=toString', 'sujet=', 'tri=asc'])
      expect(read(bad), bad).toBeNull();
  });

  it('writes the address back, page 1 without its number', () => {
    expect(messagesUrl({ page: 1, subject: undefined })).toBe('/redaction/messages');
    expect(messagesUrl({ page: 2, subject: undefined })).toBe('/redaction/messages?page=2');
    expect(messagesUrl({ page: 2, subject: 'donnees' })).toBe('/redaction/messages?sujet=donnees&page=2');
    expect(readMessagesQuery(new URL(messagesUrl({ page: 4, subject: 'autre' }), 'http://x').searchParams)).toEqual({ page: 4, subject: 'autre' });
  });
});
