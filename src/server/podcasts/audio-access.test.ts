import { afterEach, describe, expect, it } from 'vitest';
import { resetKeysForTests } from '../core/keys';
import { checkAudioSignature, signedAudioPath } from './audio-access';

const file = { podcast: 'les-voix-du-terrain', filename: 'bonus.mp3' };
const now = new Date('2026-12-01T10:00:00Z');
const parse = (path: string) => {
  const url = new URL(path, 'http://x');
  return { e: url.searchParams.get('e'), s: url.searchParams.get('s'), path: url.pathname };
};

describe('signed supporters-only audio addresses', () => {
  afterEach(() => resetKeysForTests());

  it('opens the file it was signed for, until it expires', () => {
    const { e, s, path } = parse(signedAudioPath(file, now, 60));
    expect(path).toBe('/audio/soutiens/les-voix-du-terrain/bonus.mp3');
    expect(checkAudioSignature(file, e, s, new Date(now.getTime() + 59_000))).toBe('ok');
    expect(checkAudioSignature(file, e, s, new Date(now.getTime() + 60_000))).toBe('expired');
  });

  it('refuses another file, a changed expiry and a missing signature', () => {
    const { e, s } = parse(signedAudioPath(file, now, 60));
    expect(checkAudioSignature({ ...file, filename: 'autre.mp3' }, e, s, now)).toBe('invalid');
    expect(checkAudioSignature(file, String(Number(e) + 3600), s, now)).toBe('invalid');
    expect(checkAudioSignature(file, e, null, now)).toBe('invalid');
    expect(checkAudioSignature({ podcast: '..', filename: 'x.mp3' }, e, s, now)).toBe('invalid');
  });

  it('never signs a name that would leave the private folder, nor a hidden file', () => {
    for (const podcast of ['..', '.', '.cache']) expect(() => signedAudioPath({ podcast, filename: 'bonus.mp3' }, now)).toThrow();
    expect(() => signedAudioPath({ podcast: 'les-voix-du-terrain', filename: '..' }, now)).toThrow();
    expect(() => signedAudioPath({ podcast: 'a/b', filename: 'bonus.mp3' }, now)).toThrow();
  });
});
