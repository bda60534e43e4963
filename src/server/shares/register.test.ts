/**
 * The share register and the bulletins' rules: holdings derived from any list of entries match a
 * reference computation (fast-check), admissions under concurrency get consecutive certificate
 * and entry numbers with none lost, the register refuses UPDATE and DELETE on both databases,
 * and a bulletin that breaks the statutes is refused in French before anything is written.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { colleges, statutes } from '../../config/statutes';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { createUser } from '../auth/service';
import { writeTransaction } from '../db/transaction';
import {
  admitInTransaction,
  type BulletinInput,
  bulletinFingerprint,
  bulletinForm,
  bulletinText,
  checkBulletin,
  findUserBulletin,
  insertBulletin,
  moveBulletin,
} from './bulletins';
import { capitalOf, currentHoldings, deriveHoldings, highestCapital, holdingOfUser, type RegisterEntry, registerEntries } from './register';

vi.setConfig({ testTimeout: 120_000 });

const person = (over: Partial<Record<keyof BulletinInput, unknown>> = {}) =>
  bulletinForm.parse({
    parts: '3',
    college: 'lecteurs',
    personne: 'physique',
    given_name: 'Inès',
    family_name: 'Durand',
    address_line1: '3 rue du Port',
    postal_code: '44000',
    city: 'Nantes',
    country: 'FR',
    paiement: 'card',
    statuts: true,
    risque: true,
    ...over,
  });

describe('bulletin rules', () => {
  it('prices from the statutes and refuses, in French, what they forbid', () => {
    const ok = checkBulletin(person());
    expect(ok).toMatchObject({ ok: true, bulletin: { shares: 3, amountCents: 3 * statutes.shares.nominalCents, college: { id: 'lecteurs' } } });
    const partner = colleges.find((c) => c.id === 'partenaires')!;
    expect(checkBulletin(person({ college: 'inconnu' }))).toMatchObject({
      ok: false,
      status: 422,
      message: expect.stringContaining('Ce collège n’existe pas'),
    });
    expect(
      checkBulletin(
        person({
          college: 'partenaires',
          personne: 'morale',
          structure: 'Les Amis du Port',
          siren: '732 829 320',
          qualite: 'présidente',
          parts: String(partner.minimumShares - 1),
        }),
      ),
    ).toMatchObject({ ok: false, status: 422, message: expect.stringContaining(`au moins ${partner.minimumShares} parts`) });
    expect(
      checkBulletin(
        person({
          college: 'partenaires',
          personne: 'morale',
          structure: 'Les Amis du Port',
          siren: '732 829 320',
          qualite: 'présidente',
          parts: String(partner.minimumShares),
        }),
      ),
    ).toMatchObject({ ok: true, bulletin: { identity: { person: 'legal', company: { siren: '732829320' } } } });
    expect(
      checkBulletin(person({ college: 'partenaires', personne: 'morale', structure: 'X', siren: '732829321', qualite: 'trésorier', parts: '10' })),
    ).toMatchObject({ ok: false, message: expect.stringContaining('SIREN invalide') });
    expect(checkBulletin(person({ college: 'partenaires', parts: '10' }))).toMatchObject({
      ok: false,
      message: expect.stringContaining('souscrivez au nom de la structure'),
    });
    expect(checkBulletin(person({ personne: 'morale', structure: 'X', siren: '732829320', qualite: 'gérant' }))).toMatchObject({
      ok: false,
      message: expect.stringContaining('personnes physiques'),
    });
    expect(checkBulletin(person({ parts: String(statutes.shares.maximumPerBulletin + 1) }))).toMatchObject({
      ok: false,
      message: expect.stringContaining(`au plus ${statutes.shares.maximumPerBulletin} parts`),
    });
    for (const bad of ['0', '-2', '1.5', 'trois']) expect(bulletinForm.safeParse({ ...person(), parts: bad }).success).toBe(false);
    expect(bulletinForm.safeParse({ ...person(), statuts: false }).error?.issues[0]?.message).toBe('Pour souscrire, acceptez les statuts et le bulletin.');
  });

  it('fingerprints the text accepted: any change of a field or of the statutes changes it', () => {
    const b = (checkBulletin(person()) as { bulletin: Parameters<typeof bulletinText>[0] }).bulletin;
    const print = bulletinFingerprint(bulletinText(b, '2026-06'), '2026-06');
    expect(print).toMatch(/^[0-9a-f]{64}$/);
    expect(bulletinFingerprint(bulletinText(b, '2026-06'), '2026-06')).toBe(print);
    expect(bulletinFingerprint(bulletinText({ ...b, shares: 4 }, '2026-06'), '2026-06')).not.toBe(print);
    expect(bulletinFingerprint(bulletinText(b, '2027-01'), '2027-01')).not.toBe(print);
    expect(bulletinText(b, '2026-06').join(' ')).toContain('déclare souscrire 3 parts sociales');
  });
});

describe('register derivation', () => {
  const day = fc.integer({ min: 0, max: 60 }).map((n) => `2026-${String(1 + Math.floor(n / 28)).padStart(2, '0')}-${String(1 + (n % 28)).padStart(2, '0')}`);
  const entry = fc.record({
    member: fc.integer({ min: 0, max: 4 }),
    delta: fc.integer({ min: -3, max: 5 }),
    college: fc.constantFrom('salaries', 'lecteurs', 'partenaires'),
    on: day,
  });

  it('holdings, capital and the highest capital match a step-by-step reference, for any entries and day', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), day, (raw, asOf) => {
        const entries: RegisterEntry[] = raw.map((e, i) => ({
          id: `e${i}`,
          entryNumber: i + 1,
          memberId: `m${e.member}`,
          kind: e.delta >= 0 ? 'admission' : 'withdrawal',
          collegeId: e.college,
          sharesDelta: e.delta,
          nominalCents: 5000,
          repaidCents: 0,
          certificateNumber: null,
          bulletinId: null,
          withdrawalId: null,
          effectiveOn: e.on,
          recordedAt: new Date(0),
          recordedBy: null,
          note: '',
        }));
        const members = new Map([0, 1, 2, 3, 4].map((m) => [`m${m}`, { memberNumber: m + 1, userId: null, name: `M${m}`, person: 'natural' as const }]));
        // Reference: walk the entries in number order, keeping those effective by the day.
        const shares = new Map<string, number>();
        const college = new Map<string, string>();
        for (const e of raw) {
          if (e.on > asOf) continue;
          shares.set(`m${e.member}`, (shares.get(`m${e.member}`) ?? 0) + e.delta);
          college.set(`m${e.member}`, e.college);
        }
        const expected = [...shares]
          .filter(([, n]) => n > 0)
          .map(([m, n]) => ({ memberId: m, shares: n, collegeId: college.get(m) }))
          .sort((a, b) => a.memberId.localeCompare(b.memberId));
        const derived = deriveHoldings(entries, members, asOf).map((h) => ({ memberId: h.memberId, shares: h.shares, collegeId: h.collegeId }));
        expect(derived).toEqual(expected);
        expect(capitalOf(entries, asOf)).toBe(raw.filter((e) => e.on <= asOf).reduce((s, e) => s + e.delta * 5000, 0));
        expect(highestCapital(entries)).toBeGreaterThanOrEqual(Math.max(0, capitalOf(entries, '9999-12-31')));
      }),
      { numRuns: 300 },
    );
  });
});

describeEachDialect('the register', (kind) => {
  let test: TestDatabase;
  let n = 0;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });
  const now = new Date('2026-11-23T10:00:00Z');
  const newUser = () => createUser(test.db, { email: `societaire${++n}@exemple.fr`, password: 'un mot de passe solide', now });

  async function paidBulletin(userId: string, over: Parameters<typeof person>[0] = {}) {
    const checked = checkBulletin(person(over));
    if (!checked.ok) throw new Error(checked.message);
    const b = await writeTransaction(test.db, (trx) => insertBulletin(trx, checked.bulletin, { userId, client: 'test', orderId: null }, now));
    await writeTransaction(test.db, (trx) => moveBulletin(trx, b.id, 'awaiting_payment', 'paid', { paidAt: now }, now));
    return { ...b, status: 'paid' as const };
  }

  it('30 admissions at once: certificates, entries and member numbers follow each other with no gap, one per bulletin', async () => {
    const before = (await registerEntries(test.db)).length;
    const users: string[] = [];
    for (let i = 0; i < 30; i++) users.push(await newUser());
    const bulletins = await Promise.all(users.map((u) => paidBulletin(u)));
    // Each admitted twice at the same moment (two administrators): one admission each.
    const results = await Promise.all([...bulletins, ...bulletins].map((b) => writeTransaction(test.db, (trx) => admitInTransaction(trx, b, null, now))));
    expect(results.filter(Boolean)).toHaveLength(30);
    const entries = (await registerEntries(test.db)).slice(before);
    const certificates = entries.map((e) => e.certificateNumber!).sort((a, b) => a - b);
    expect(certificates).toEqual(Array.from({ length: 30 }, (_, i) => certificates[0]! + i));
    expect(new Set(entries.map((e) => e.bulletinId)).size).toBe(30);
    const numbers = (await registerEntries(test.db)).map((e) => e.entryNumber);
    expect(numbers).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));
    const holdings = await currentHoldings(test.db, '2026-11-23');
    expect(holdings.filter((h) => bulletins.some((b) => b.userId === h.userId)).every((h) => h.shares === 3 && h.collegeId === 'lecteurs')).toBe(true);
  });

  it('a second bulletin adds shares to the same member, with its own certificate; nobody else reaches a bulletin', async () => {
    const userId = await newUser();
    const first = await paidBulletin(userId);
    const second = await paidBulletin(userId, { parts: '2' });
    const a = await writeTransaction(test.db, (trx) => admitInTransaction(trx, first, null, now));
    const b = await writeTransaction(test.db, (trx) => admitInTransaction(trx, second, null, now));
    expect(a!.memberNumber).toBe(b!.memberNumber);
    expect(b!.certificateNumber).toBe(a!.certificateNumber + 1);
    expect(await holdingOfUser(test.db, userId, '2026-11-23')).toMatchObject({ shares: 5, collegeId: 'lecteurs', memberSince: '2026-11-23' });
    expect(await holdingOfUser(test.db, userId, '2026-11-22')).toBeUndefined();
    const other = await newUser();
    expect(await findUserBulletin(test.db, other, first.id)).toBeUndefined();
    expect(await findUserBulletin(test.db, userId, first.id)).toMatchObject({ status: 'admitted', shares: 3 });
    expect(await findUserBulletin(test.db, userId, 'pas-un-id')).toBeUndefined();
  });

  it('two first bulletins of one account admitted at once make one member with both admissions', async () => {
    const userId = await newUser();
    const first = await paidBulletin(userId);
    const second = await paidBulletin(userId, { parts: '2' });
    const [a, b] = await Promise.all([first, second].map((x) => writeTransaction(test.db, (trx) => admitInTransaction(trx, x, null, now))));
    expect(a!.memberNumber).toBe(b!.memberNumber);
    expect(Math.abs(a!.certificateNumber - b!.certificateNumber)).toBe(1);
    expect(await holdingOfUser(test.db, userId, '2026-11-23')).toMatchObject({ shares: 5 });
  });

  it('the register and its members refuse UPDATE and DELETE', async () => {
    const [entry] = await registerEntries(test.db);
    await expect(
      test.db
        .updateTable('share_register')
        .set({ note: 'modifié' } as never)
        .where('id', '=', entry!.id)
        .execute(),
    ).rejects.toThrow(/append-only/);
    await expect(test.db.deleteFrom('share_register').where('id', '=', entry!.id).execute()).rejects.toThrow(/append-only/);
    await expect(test.db.deleteFrom('share_members').execute()).rejects.toThrow(/append-only/);
    expect((await registerEntries(test.db))[0]).toEqual(entry);
  });
});
