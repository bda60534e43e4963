/**
 * The sign-up's proof of work, the same on both sides: find a `nonce` such that
 * SHA-256(`${challenge}:${nonce}`) starts with `bits` zero bits (2^bits tries on average).
 *
 * A small synchronous SHA-256 rather than `crypto.subtle.digest`: one promise per try makes the
 * browser's Web Crypto several times slower than this loop for a few dozen bytes. The server
 * checks an answer with node:crypto (`sign-up-guard.ts`), so a mistake here can only cost a
 * reader a refusal, never let a wrong answer in; the tests compare it with node:crypto.
 */

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74,
  0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d,
  0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e,
  0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5,
  0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const W = new Uint32Array(64);

/** SHA-256 of some bytes, as its eight 32-bit words (big-endian). */
export function sha256Words(bytes: Uint8Array): Uint32Array {
  const bitLength = bytes.length * 8;
  const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLength / 2 ** 32));
  view.setUint32(padded.length - 4, bitLength >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  for (let offset = 0; offset < padded.length; offset += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getUint32(offset + i * 4);
    for (let i = 16; i < 64; i++) {
      const a = W[i - 15]!,
        b = W[i - 2]!;
      const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
      const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
      W[i] = (W[i - 16]! + s0 + W[i - 7]! + s1) | 0;
    }
    let a = h[0]!,
      b = h[1]!,
      c = h[2]!,
      d = h[3]!,
      e = h[4]!,
      f = h[5]!,
      g = h[6]!,
      k = h[7]!;
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = (h[0]! + a) | 0;
    h[1] = (h[1]! + b) | 0;
    h[2] = (h[2]! + c) | 0;
    h[3] = (h[3]! + d) | 0;
    h[4] = (h[4]! + e) | 0;
    h[5] = (h[5]! + f) | 0;
    h[6] = (h[6]! + g) | 0;
    h[7] = (h[7]! + k) | 0;
  }
  return h;
}

/** How many zero bits a digest (as words) starts with. */
export function leadingZeroBits(words: ArrayLike<number>): number {
  let bits = 0;
  for (let i = 0; i < words.length; i++) {
    const word = words[i]! >>> 0;
    if (word === 0) bits += 32;
    else return bits + Math.clz32(word);
  }
  return bits;
}

const encoder = new TextEncoder();

/** Does `nonce` answer `challenge` at `bits`? */
export function meetsProofOfWork(challenge: string, nonce: string, bits: number): boolean {
  return leadingZeroBits(sha256Words(encoder.encode(`${challenge}:${nonce}`))) >= bits;
}

/**
 * Looks for an answer, `sliceMs` of work at a time so that a page stays responsive between
 * slices (`yieldNow` lets the browser breathe; on the server a test passes nothing).
 */
export async function solveProofOfWork(challenge: string, bits: number, yieldNow: () => Promise<void> = async () => {}, sliceMs = 50): Promise<string> {
  for (let nonce = 0; ;) {
    const until = Date.now() + sliceMs;
    do {
      const candidate = nonce.toString(36);
      if (meetsProofOfWork(challenge, candidate, bits)) return candidate;
      nonce++;
    } while ((nonce & 255) !== 0 || Date.now() < until);
    await yieldNow();
  }
}
