import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { leadingZeroBits, meetsProofOfWork, sha256Words, solveProofOfWork } from './proof-of-work';

const hex = (words: Uint32Array) => Array.from(words, (w) => (w >>> 0).toString(16).padStart(8, '0')).join('');

describe('proof of work', () => {
  it('hashes as node:crypto does, across block boundaries', () => {
    for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 200]) {
      const text = 'é'.repeat(length).slice(0, length);
      expect(hex(sha256Words(new TextEncoder().encode(text)))).toBe(createHash('sha256').update(text).digest('hex'));
    }
  });

  it('counts leading zero bits', () => {
    expect(leadingZeroBits([0, 0x00ffffff])).toBe(40);
    expect(leadingZeroBits([0x80000000])).toBe(0);
    expect(leadingZeroBits([1])).toBe(31);
  });

  it('finds an answer that the server-side check (node:crypto) accepts', async () => {
    const challenge = 's1.1764580000000.12.15.abcdefghijklmnop.0000';
    const nonce = await solveProofOfWork(challenge, 12);
    expect(meetsProofOfWork(challenge, nonce, 12)).toBe(true);
    const digest = createHash('sha256').update(`${challenge}:${nonce}`).digest();
    expect(digest[0]).toBe(0);
    expect(digest[1]! >> 4).toBe(0);
  });
});
