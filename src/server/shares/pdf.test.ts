/**
 * The cooperative's PDFs as a reader sees them, read back with poppler (pdftotext): the minutes
 * (the bureau and its signatures, the attendance sheet's figures and the quorum, the vote's
 * window in Paris time, the title once, blocks kept together so that no last page is an orphan),
 * the bulletin and the certificate (a short number, countries in French, Paris time, the SIREN
 * spaced, the signatory named, no id nor hash); and the bulletins' numbers, gapless per year.
 *
 * With COOP_PDF_DIR set, the PDFs are also written there, to look at (pdftoppm -png).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, describeEachDialect, type TestDatabase } from '../../../tests/helpers/db';
import { colleges, statutes } from '../../config/statutes';
import { migrateToLatest, migrations } from '../db/migrate';
import { writeTransaction } from '../db/transaction';
import { bulletinFingerprint, bulletinForm, bulletinText, checkBulletin, insertBulletin, type ShareBulletin } from './bulletins';
import { type MinutesInput, minutesHeading, quorumRequired, renderMinutesPdf } from './minutes-pdf';
import { renderBulletinPdf, renderCertificatePdf } from './pdf';
import { type AssemblyResults, computeQuorum, type RollMember, tallyResolution } from './tally';

vi.setConfig({ testTimeout: 120_000 });

const dir = mkdtempSync(join(tmpdir(), 'coop-pdf-'));
let files = 0;
/** The pages as pdftotext -layout reads them, every kind of space made a plain one. */
function pages(bytes: Uint8Array, name: string): string[] {
  const file = join(dir, `${++files}.pdf`);
  writeFileSync(file, bytes);
  if (process.env.COOP_PDF_DIR) writeFileSync(join(process.env.COOP_PDF_DIR, `${name}.pdf`), bytes);
  const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/[\u00a0\u202f\u2009]/g, ' ');
  return text.split('\f').slice(0, -1);
}
const flat = (text: string) => text.replace(/\s+/g, ' ');

// ---------------------------------------------------------------------------------------------
// The minutes

const TITLE = 'Assemblée générale ordinaire 2026 : comptes de l’exercice';
const rules = colleges.map((c) => ({ id: c.id, label: c.label, weightPercent: c.weightPercent }));

function minutes(resolutions: number, participating: number): MinutesInput {
  // 12 members called, 4 per college; the first `participating` take part.
  const roll: RollMember[] = Array.from({ length: 12 }, (_, i) => ({ memberId: `m${i}`, collegeId: colleges[i % 3]!.id }));
  const taking = roll.slice(0, participating).map((m) => m.memberId);
  const quorum = computeQuorum(
    roll,
    { present: new Set(taking.slice(0, 1)), represented: new Set(taking.slice(1, 2)), voted: new Set(taking.slice(1)) },
    statutes.assemblies.ordinary.quorumFirstCall,
    rules,
  );
  const ballots = roll.slice(0, participating).map((m, i) => ({ collegeId: m.collegeId, choice: i % 3 === 2 ? ('contre' as const) : ('pour' as const) }));
  const results: AssemblyResults = {
    assemblyId: 'a1',
    closedAt: '2026-11-17T17:00:05.000Z',
    quorum,
    resolutions: Array.from({ length: resolutions }, (_, i) => {
      const tally = tallyResolution(ballots, rules, { share: { n: 1, d: 2 }, rule: 'more' });
      return {
        ...tally,
        resolutionId: `r${i + 1}`,
        position: i + 1,
        title: `Résolution ${i + 1} : approbation des comptes et affectation du résultat`,
        ballots: ballots.length,
        adopted: quorum.met && tally.passed,
      };
    }),
    ballots: ballots.length * resolutions,
    ballotsDigest: 'a'.repeat(64),
  };
  return {
    title: TITLE,
    kind: 'ordinary',
    call: 'first',
    startsAt: new Date('2026-11-20T17:30:00Z'),
    place: 'Maison des coopératives, 12 rue des Coopérateurs, Montreuil',
    onlineUrl: '',
    agenda: ['Rapport de gestion', 'Approbation des comptes', 'Affectation du résultat'],
    voteOpensAt: new Date('2026-11-03T08:00:00Z'),
    voteClosesAt: new Date('2026-11-17T17:00:00Z'),
    statutesVersion: '2026-06',
    colleges: rules,
    resolutionTexts: new Map(
      Array.from({ length: resolutions }, (_, i) => [
        `r${i + 1}`,
        'L’assemblée générale, après avoir entendu la lecture du rapport de gestion de la présidence et du rapport du commissaire aux comptes, approuve les comptes de l’exercice tels qu’ils lui ont été présentés, qui font apparaître un résultat de 12 345 €, et les opérations traduites dans ces comptes ou résumées dans ces rapports.',
      ]),
    ),
    results,
  };
}

describe('the minutes of an assembly', () => {
  it('names the assembly once: the kind and the call are not repeated when its title says them', () => {
    expect(minutesHeading({ kind: 'extraordinary', call: 'first', title: 'Assemblée générale extraordinaire : titres participatifs' })).toBe(
      'Assemblée générale extraordinaire : titres participatifs, première convocation',
    );
    expect(
      minutesHeading({ kind: 'extraordinary', call: 'second', title: 'Assemblée générale extraordinaire : titres participatifs (seconde convocation)' }),
    ).toBe('Assemblée générale extraordinaire : titres participatifs (seconde convocation)');
    expect(minutesHeading({ kind: 'ordinary', call: 'first', title: 'Approbation des comptes 2026' })).toBe(
      'Assemblée générale ordinaire, première convocation : Approbation des comptes 2026',
    );
  });

  it('without quorum: the bureau, the attendance sheet per college, the quorum required and reached, the window in Paris time, signatures', async () => {
    const input = minutes(3, 2);
    expect(input.results.quorum.met).toBe(false);
    const read = pages(await renderMinutesPdf(input), 'proces-verbal-sans-quorum');
    const all = flat(read.join('\n'));
    // The bureau, as the statutes name it, with lines to fill in.
    expect(all).toMatch(/Bureau de l’assemblée Présidence de séance : _{10,}/);
    expect(all).toMatch(/Secrétaire de séance : _{10,}/);
    expect(all).toMatch(/Scrutateur ou scrutatrice n° 2 : _{10,}/);
    expect(all).toContain(`Selon les statuts : ${statutes.assemblies.bureau.chair}`);
    // The attendance sheet: registered, present, represented, voted, counted once, per college and in all.
    expect(all).toContain('Salariés 4 1 0 0 1 25,0 %');
    expect(all).toContain('Lecteurs-sociétaires 4 0 1 1 1 25,0 %');
    expect(all).toContain('Partenaires 4 0 0 0 0 0,0 %');
    expect(all).toContain('Ensemble 12 1 1 1 2 16,7 %');
    expect(quorumRequired('1/5', 12)).toBe(3);
    expect(all).toContain('Quorum requis : 1/5 des 12 sociétaires inscrits, soit 3 sociétaires. Quorum atteint : 2 sociétaires (16,7 %).');
    expect(all).toContain('Le quorum n’est pas atteint');
    // The vote's window, Paris time (UTC+1 in November).
    expect(all).toContain('Vote en ligne ouvert du 3 novembre 2026 à 9 h 00 au 17 novembre 2026 à 18 h 00 (heure de Paris)');
    // The title once, not on every page.
    expect(all.split(TITLE).length - 1).toBe(1);
    // The places for the signatures.
    expect(all).toContain('La présidence de séance');
    expect(all).toContain('Le secrétariat de séance');
    expect(all.match(/Signature :/g)?.length).toBe(2 + statutes.assemblies.bureau.scrutineers);
  });

  it('keeps each resolution, and the closing with the signatures, on one page: never a last page of a line or of the signatures alone', async () => {
    for (let count = 1; count <= 12; count++) {
      const read = pages(await renderMinutesPdf(minutes(count, 5)), `proces-verbal-${count}`);
      const last = flat(read.at(-1)!);
      expect(last, `${count} résolutions`).toContain('Dépouillement');
      expect(last).toContain('Procès-verbal établi le 17 novembre 2026');
      expect(last).toContain('Le secrétariat de séance');
      for (let r = 1; r <= count; r++) {
        const page = read.findIndex((p) => flat(p).includes(`Résolution n° ${r} :`));
        expect(page, `résolution ${r} sur ${count}`).toBeGreaterThanOrEqual(0);
        // Its decision is on the same page as its title.
        const after = flat(read[page]!).split(`Résolution n° ${r} :`)[1]!;
        expect(after).toMatch(/La résolution (est adoptée|est rejetée|n’a pas été délibérée)/);
      }
      expect(read.every((p, i) => flat(p).includes(`page ${i + 1}/${read.length}`))).toBe(true);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The bulletin and the certificate

const form = (over: Record<string, unknown> = {}) =>
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

function bulletin(over: Record<string, unknown> = {}): ShareBulletin {
  const checked = checkBulletin(form(over));
  if (!checked.ok) throw new Error(checked.message);
  const b = checked.bulletin;
  return {
    id: '0b6c8f1e-3a57-4c1d-9e2f-7a4b5c6d7e8f',
    number: 'B-2026-0042',
    userId: '5f0e2d1c-8b7a-4c3d-a2e1-f0e9d8c7b6a5',
    orderId: null,
    collegeId: b.college.id,
    shares: b.shares,
    nominalCents: statutes.shares.nominalCents,
    amountCents: b.amountCents,
    identity: b.identity,
    statutesVersion: '2026-06',
    acceptedAt: new Date('2026-11-23T10:05:00Z'),
    acceptedFrom: 'compte 5f0e2d1c-8b7a-4c3d-a2e1-f0e9d8c7b6a5, 203.0.113.7',
    fingerprint: bulletinFingerprint(bulletinText(b, '2026-06'), '2026-06'),
    paymentMethod: b.paymentMethod,
    transferReference: null,
    status: 'admitted',
    paidAt: null,
    transferReceivedCents: null,
    decidedAt: null,
    decisionNote: null,
    createdAt: new Date('2026-11-23T10:05:00Z'),
  };
}
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

describe('the bulletin and the certificate', () => {
  it('the bulletin: its short number, the country in French, Paris time, the SIREN spaced, the signatory; no id, no hash', async () => {
    const b = bulletin();
    const all = flat(
      pages(await renderBulletinPdf(b, { at: new Date('2026-11-25T09:00:00Z'), certificateNumber: 7, memberNumber: 12 }), 'bulletin').join('\n'),
    );
    expect(all).toContain('Bulletin n° B-2026-0042');
    expect(all).toContain('3 rue du Port, 44000 Nantes, France');
    expect(all).not.toMatch(/Nantes, FR\b/);
    expect(all).toContain('SIREN 912 345 678');
    expect(all).toContain('Accepté le 23 novembre 2026 à 11 h 05');
    expect(all).not.toContain('UTC');
    expect(all).toContain('en ligne, depuis le compte du souscripteur (203.0.113.7)');
    expect(all).toContain('Pour la coopérative Léa Moreau, présidente');
    expect(all).not.toMatch(UUID);
    expect(all.replace(/\s/g, '')).not.toContain(b.fingerprint);
    expect(all).not.toMatch(/[0-9a-f]{32}/);
  });

  it('a structure abroad: its country and its SIREN as a reader writes them; a bulletin signed before keeps the text it was signed with', async () => {
    const b = bulletin({
      college: 'partenaires',
      personne: 'morale',
      structure: 'Coopérative des Deux Rives',
      siren: '732829320',
      qualite: 'présidente',
      parts: '4',
      city: 'Liège',
      postal_code: '4000',
      country: 'BE',
    });
    const all = flat(pages(await renderBulletinPdf(b, null), 'bulletin-structure').join('\n'));
    expect(all).toContain('4000 Liège, Belgique');
    expect(all).toContain('SIREN 732 829 320');
    expect(all).toContain('En attente');
    // Signed before the country was named: the text its fingerprint covers, as it was.
    const checked = checkBulletin(form());
    if (!checked.ok) throw new Error(checked.message);
    const before = { ...bulletin(), fingerprint: bulletinFingerprint(bulletinText(checked.bulletin, '2026-06', true), '2026-06') };
    expect(flat(pages(await renderBulletinPdf(before, null), 'bulletin-ancien').join('\n'))).toContain('44000 Nantes, FR,');
  });

  it('the certificate: the SIREN spaced, the signatory named', async () => {
    const all = flat(
      pages(
        await renderCertificatePdf({
          certificateNumber: 7,
          memberNumber: 12,
          name: 'Inès Durand',
          collegeId: 'lecteurs',
          shares: 3,
          nominalCents: 5000,
          admittedOn: new Date('2026-11-25T09:00:00Z'),
        }),
        'certificat',
      ).join('\n'),
    );
    expect(all).toContain('SIREN 912 345 678');
    expect(all).toContain('sociétaire n° 12');
    expect(all).toContain('Fait à Montreuil, le 25 novembre 2026. Pour la coopérative, Léa Moreau, présidente');
    expect(all).not.toMatch(UUID);
  });
});

// ---------------------------------------------------------------------------------------------
// The bulletins' numbers

describeEachDialect('the bulletins’ numbers', (kind) => {
  let test: TestDatabase;
  beforeAll(async () => {
    test = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await test.close();
  });

  it('follow each other per Paris year, taken in the bulletin’s transaction: a rollback gives its number back', async () => {
    const checked = checkBulletin(form());
    if (!checked.ok) throw new Error(checked.message);
    const sign = (at: string) =>
      writeTransaction(test.db, (trx) => insertBulletin(trx, checked.bulletin, { userId: null, client: 'bulletin papier', orderId: null }, new Date(at)));
    expect((await sign('2026-11-23T10:00:00Z')).number).toBe('B-2026-0001');
    await expect(
      writeTransaction(test.db, async (trx) => {
        await insertBulletin(trx, checked.bulletin, { userId: null, client: 'bulletin papier', orderId: null }, new Date('2026-11-23T11:00:00Z'));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect((await sign('2026-11-23T12:00:00Z')).number).toBe('B-2026-0002');
    // 31 December 2026 at 23 h 30 UTC is already 2027 in Paris.
    expect((await sign('2026-12-31T23:30:00Z')).number).toBe('B-2027-0001');
  });

  it('the bulletins signed before the numbers get theirs, in the order they were signed, and the series goes on from there', async () => {
    const old = await createTestDatabase(kind, { migrate: false });
    try {
      const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '2026-11-30-001-bulletin-numbers'));
      await migrateToLatest(old.db, before);
      const row = (id: string, acceptedAt: string) => ({
        id,
        user_id: null,
        order_id: null,
        college_id: 'lecteurs',
        shares: 1,
        nominal_cents: 5000,
        amount_cents: 5000,
        identity: '{}',
        statutes_version: '2026-06',
        accepted_at: acceptedAt,
        accepted_from: 'test',
        fingerprint: 'x',
        payment_method: 'card',
        transfer_reference: null,
        status: 'paid',
        created_at: acceptedAt,
        updated_at: acceptedAt,
      });
      await old.db
        .insertInto('share_bulletins' as never)
        .values([row('c', '2026-11-02T10:00:00.000Z'), row('a', '2025-12-31T23:30:00.000Z'), row('b', '2025-06-01T10:00:00.000Z')] as never)
        .execute();
      await migrateToLatest(old.db);
      const numbers = await old.db.selectFrom('share_bulletins').select(['id', 'number']).orderBy('id').execute();
      expect(numbers).toEqual([
        { id: 'a', number: 'B-2026-0001' },
        { id: 'b', number: 'B-2025-0001' },
        { id: 'c', number: 'B-2026-0002' },
      ]);
      const checked = checkBulletin(form());
      if (!checked.ok) throw new Error(checked.message);
      const next = await writeTransaction(old.db, (trx) =>
        insertBulletin(trx, checked.bulletin, { userId: null, client: 'bulletin papier', orderId: null }, new Date('2026-11-23T10:00:00Z')),
      );
      expect(next.number).toBe('B-2026-0003');
    } finally {
      await old.close();
    }
  });
});
