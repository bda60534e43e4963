/**
 * The outbox while mail is being written: a copy (what `npm run backup` takes) never fails
 * because a message was renamed into place or removed under it, and never holds a half-written
 * message; the temporary files a killed process left behind are removed at start, and only those.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { copyOutbox, isOutboxTemporary, STALE_TEMPORARY_MS, sweepStaleTemporaries } from './outbox';

const END = '\r\n-- fin du message --\r\n';
const KEPT = 10;

/**
 * Another thread writing mail as the transport does (a temporary file, then a rename), and
 * removing the older messages, so that the folder keeps changing under a reader. The first
 * `KEPT` messages are never removed: on a fast writer and a slow disk, every other file may be
 * gone before a copy reaches it. The count of messages written is kept in shared memory.
 */
function startMailWriter(dir: string) {
  const shared = new Int32Array(new SharedArrayBuffer(8)); // [stop, written]
  const worker = new Worker(
    `const { workerData: w } = require('node:worker_threads');
     const fs = require('node:fs'), path = require('node:path');
     for (let n = 1; Atomics.load(w.shared, 0) === 0; n++) {
       const file = path.join(w.dir, 'message-' + n + '.eml');
       const tmp = file + '.' + n.toString(16) + '.tmp';
       fs.writeFileSync(tmp, 'Subject: ' + n + '\\r\\n\\r\\n' + 'x'.repeat(4000) + w.end, { mode: 0o600 });
       fs.renameSync(tmp, file);
       if (n - 40 > w.kept) fs.rmSync(path.join(w.dir, 'message-' + (n - 40) + '.eml'), { force: true });
       Atomics.store(w.shared, 1, n);
     }`,
    { eval: true, workerData: { dir, shared, end: END, kept: KEPT } },
  );
  const exited = new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('exit', () => resolve());
  });
  return {
    written: () => Atomics.load(shared, 1),
    stop: async () => {
      Atomics.store(shared, 0, 1);
      await exited;
    },
  };
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

let root: string;
let outbox: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'outbox-'));
  outbox = join(root, 'outbox');
  mkdirSync(outbox, { mode: 0o700 });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('copying the outbox while mail is written', () => {
  it('never fails on a message that comes or goes, copies whole messages only, and leaves temporary files out', async () => {
    // What a `kill -9` left an hour ago.
    writeFileSync(join(outbox, '2026-11-26T10-00-00.000Z-deadbeef.eml.1a2b3c4d.tmp'), 'Subject: coupé');
    const writer = startMailWriter(outbox);
    const copies: { dir: string; copied: number }[] = [];
    try {
      await until(() => writer.written() >= 60);
      for (let i = 0; i < 40; i++) {
        const dir = join(root, `copie-${i}`);
        copies.push({ dir, copied: copyOutbox(outbox, dir) });
        // Let the writer move on between two copies.
        const seen = writer.written();
        await until(() => writer.written() > seen);
      }
    } finally {
      await writer.stop();
    }
    for (const { dir, copied } of copies) {
      const names = readdirSync(dir);
      expect(names.filter(isOutboxTemporary)).toEqual([]);
      expect(names.length).toBe(copied);
      expect(copied).toBeGreaterThanOrEqual(KEPT);
      for (let n = 1; n <= KEPT; n++) expect(names).toContain(`message-${n}.eml`);
      for (const name of names) expect(readFileSync(join(dir, name), 'utf8').endsWith(END), name).toBe(true);
    }
  }, 60_000);

  it('copies nested folders, keeps the messages readable by their owner only, and answers 0 for a missing outbox', () => {
    mkdirSync(join(outbox, 'lettres'));
    writeFileSync(join(outbox, 'a.eml'), 'Subject: a', { mode: 0o600 });
    writeFileSync(join(outbox, 'lettres', 'b.eml'), 'Subject: b', { mode: 0o600 });
    writeFileSync(join(outbox, 'lettres', 'c.eml.0f.tmp'), 'Subj');
    const target = join(root, 'copie');
    expect(copyOutbox(outbox, target)).toBe(2);
    expect(readdirSync(target, { recursive: true }).map(String).sort()).toEqual(['a.eml', 'lettres', join('lettres', 'b.eml')]);
    expect(readFileSync(join(target, 'lettres', 'b.eml'), 'utf8')).toBe('Subject: b');
    expect(statSync(join(target, 'a.eml')).mode & 0o777).toBe(0o600);
    expect(statSync(target).mode & 0o777).toBe(0o700);
    expect(copyOutbox(join(root, 'absente'), join(root, 'rien'))).toBe(0);
  });
});

describe('sweeping abandoned temporary files', () => {
  it('removes the temporary files older than an hour, and only them', async () => {
    const now = new Date();
    const ago = (ms: number) => new Date(now.getTime() - ms);
    const files = {
      abandoned: '2026-11-26T08-00-00.000Z-0123456789abcdef.eml.1a2b3c4d.tmp',
      legacy: '2026-11-26T08-00-00.000Z-fedcba9876543210.eml.tmp',
      writing: '2026-11-26T10-59-59.000Z-0011223344556677.eml.5e6f7a8b.tmp',
      message: '2026-11-20T08-00-00.000Z-8899aabbccddeeff.eml',
    };
    for (const name of Object.values(files)) writeFileSync(join(outbox, name), 'Subject: x');
    utimesSync(join(outbox, files.abandoned), ago(STALE_TEMPORARY_MS + 60_000), ago(STALE_TEMPORARY_MS + 60_000));
    utimesSync(join(outbox, files.legacy), ago(3 * 24 * 3600_000), ago(3 * 24 * 3600_000));
    utimesSync(join(outbox, files.writing), ago(5_000), ago(5_000));
    utimesSync(join(outbox, files.message), ago(7 * 24 * 3600_000), ago(7 * 24 * 3600_000));

    expect(await sweepStaleTemporaries(outbox, now)).toBe(2);
    expect(readdirSync(outbox).sort()).toEqual([files.message, files.writing].sort());
    // Again: nothing more to do. A missing outbox has nothing to sweep.
    expect(await sweepStaleTemporaries(outbox, now)).toBe(0);
    expect(await sweepStaleTemporaries(join(root, 'absente'), now)).toBe(0);
  });
});
