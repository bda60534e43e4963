import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { resetKeysForTests } from '../core/keys';
import { signedAudioPath } from './audio-access';
import { EXPIRED_MESSAGE, INVALID_MESSAGE, NOT_FOUND_MESSAGE, parseRange, supportersAudioResponse } from './audio-file';

const now = new Date('2026-12-01T10:00:00Z');
const file = { podcast: 'les-voix-du-terrain', filename: 'bonus.mp3' };
// 1000 distinct-ish bytes, so that a range's content can be checked.
const bytes = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'soutiens-'));
  mkdirSync(join(dir, file.podcast));
  writeFileSync(join(dir, file.podcast, file.filename), bytes);
  writeFileSync(join(dir, file.podcast, 'autre.mp3'), Buffer.from('autre'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
afterEach(() => resetKeysForTests());

/** Asks for the file a signed path names, at `when`, optionally with other query values. */
function ask(path: string, options: { at?: Date; method?: 'GET' | 'HEAD'; range?: string; ifRange?: string; name?: Partial<typeof file> } = {}) {
  const url = new URL(path, 'http://x');
  const [, , , podcast, filename] = url.pathname.split('/');
  return supportersAudioResponse({
    dir,
    file: { podcast: podcast!, filename: filename!, ...options.name },
    expires: url.searchParams.get('e'),
    signature: url.searchParams.get('s'),
    method: options.method ?? 'GET',
    range: options.range ?? null,
    ifRange: options.ifRange ?? null,
    now: options.at ?? now,
  });
}

describe('the signed supporters-only audio route', () => {
  it('sends the whole file to a valid address, privately, as audio, announcing ranges', async () => {
    const answer = await ask(signedAudioPath(file, now));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('audio/mpeg');
    expect(answer.headers.get('content-length')).toBe('1000');
    expect(answer.headers.get('accept-ranges')).toBe('bytes');
    expect(answer.headers.get('cache-control')).toMatch(/^private/);
    expect(Buffer.from(await answer.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('answers a seek with 206 and just the bytes asked for', async () => {
    const answer = await ask(signedAudioPath(file, now), { range: 'bytes=500-599' });
    expect(answer.status).toBe(206);
    expect(answer.headers.get('content-range')).toBe('bytes 500-599/1000');
    expect(answer.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await answer.arrayBuffer()).equals(bytes.subarray(500, 600))).toBe(true);
    const tail = await ask(signedAudioPath(file, now), { range: 'bytes=-10' });
    expect(tail.headers.get('content-range')).toBe('bytes 990-999/1000');
    const open = await ask(signedAudioPath(file, now), { range: 'bytes=900-' });
    expect(Buffer.from(await open.arrayBuffer()).equals(bytes.subarray(900))).toBe(true);
  });

  it('says 416 for a range past the end, and sends the whole file for one that does not match If-Range', async () => {
    const past = await ask(signedAudioPath(file, now), { range: 'bytes=1000-1200' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */1000');
    const stale = await ask(signedAudioPath(file, now), { range: 'bytes=0-9', ifRange: '"autre"' });
    expect(stale.status).toBe(200);
    expect(stale.headers.get('content-length')).toBe('1000');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const answer = await ask(signedAudioPath(file, now), { method: 'HEAD' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-length')).toBe('1000');
    expect(answer.headers.get('content-type')).toBe('audio/mpeg');
    expect(answer.body).toBeNull();
    const ranged = await ask(signedAudioPath(file, now), { method: 'HEAD', range: 'bytes=0-99' });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-length')).toBe('100');
  });

  it('refuses in French an expired address, a forged or missing signature, and another file (403)', async () => {
    const path = signedAudioPath(file, now, 60);
    const expired = await ask(path, { at: new Date(now.getTime() + 61_000) });
    expect(expired.status).toBe(403);
    expect(await expired.text()).toBe(EXPIRED_MESSAGE);
    const forged = await ask(path.replace(/s=[^&]+/, 's=AAAA'));
    expect(forged.status).toBe(403);
    expect(await forged.text()).toBe(INVALID_MESSAGE);
    expect((await ask(path.replace(/&s=[^&]+/, ''))).status).toBe(403);
    // The address of one file does not open another, even an existing one.
    const other = await ask(path, { name: { filename: 'autre.mp3' } });
    expect(other.status).toBe(403);
    expect(other.headers.get('content-type')).toMatch(/^text\/plain/);
  });

  it('says 404 for a file the folder does not hold, with a valid signature', async () => {
    const missing = await ask(signedAudioPath({ ...file, filename: 'absent.mp3' }, now));
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe(NOT_FOUND_MESSAGE);
  });

  it('reads only well-formed single ranges', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=5-50', 10)).toEqual({ start: 5, end: 9 });
    expect(parseRange('bytes=0-1,4-5', 10)).toBeNull();
    expect(parseRange('bytes=7-3', 10)).toBeNull();
    expect(parseRange('octets=0-1', 10)).toBeNull();
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
  });
});
