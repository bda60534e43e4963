/**
 * Password hashing with scrypt (Node's `crypto.scrypt`, asynchronous: it runs on the libuv
 * thread pool, never on the event loop).
 *
 * Parameters follow the OWASP Password Storage Cheat Sheet / ASVS: N = 2^17, r = 8, p = 1,
 * a 32-byte key and a 16-byte random salt. One derivation needs 128 · N · r = 128 MiB of memory
 * and takes about half a second on the reference machine.
 *
 * Encoded form, self-describing so that the parameters can be raised later:
 *
 *     scrypt$<log2 N>$<r>$<p>$<salt, base64url>$<key, base64url>
 *     scrypt$17$8$1$3q2-7w…$Vf0z…
 *
 * Raising the cost: change `CURRENT_PARAMS`; old hashes still verify, `needsRehash` reports
 * them, and the login service stores a fresh hash after a successful verification.
 *
 * Passwords are normalised to Unicode NFKC before hashing (NIST SP 800-63B), so that the
 * same password typed on two keyboards (composed or decomposed accents) gives the same hash.
 */
import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

export interface ScryptParams {
  /** log2 of the CPU/memory cost N. */
  readonly log2N: number;
  /** Block size. */
  readonly r: number;
  /** Parallelism. */
  readonly p: number;
}

/** The OWASP parameters: those of every new hash. */
export const OWASP_PARAMS: ScryptParams = Object.freeze({ log2N: 17, r: 8, p: 1 });

/**
 * The unit test suite alone may lower N (it creates hundreds of accounts, each hash 128 MiB and a
 * quarter of a second): CONTRECHAMP_TEST_PASSWORD_LOG2N (10 to 16) counts only under Vitest, which
 * sets VITEST; a server never reads it. `passwords.test.ts` runs with the OWASP parameters.
 */
function testParams(): ScryptParams | undefined {
  const value = process.env['VITEST'] ? process.env['CONTRECHAMP_TEST_PASSWORD_LOG2N'] : undefined;
  const log2N = Number(value);
  return value && Number.isInteger(log2N) && log2N >= 10 && log2N < OWASP_PARAMS.log2N ? Object.freeze({ ...OWASP_PARAMS, log2N }) : undefined;
}

/** The parameters of every new hash. */
export const CURRENT_PARAMS: ScryptParams = testParams() ?? OWASP_PARAMS;
export const KEY_BYTES = 32;
export const SALT_BYTES = 16;

export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 256;

/**
 * Bounds on the parameters read back from an encoded hash. A stored hash is data: out of these
 * bounds it is treated as malformed instead of letting it allocate gigabytes.
 */
const LIMITS = { log2N: [10, 20], r: [1, 32], p: [1, 16], saltBytes: [16, 64], keyBytes: [16, 64] } as const;
const MAX_MEMORY = 512 * 1024 * 1024;

/**
 * At most this many derivations run at once. Each one holds 128 MiB and one of the four
 * libuv threads that file-system and DNS calls share; a burst of logins must not starve them.
 */
const MAX_CONCURRENT = 2;

interface Decoded {
  params: ScryptParams;
  salt: Buffer;
  key: Buffer;
}

function inRange(value: number, [min, max]: readonly [number, number]): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

/** Memory scrypt needs for these parameters (Node refuses to run above `maxmem`). */
function memoryFor({ log2N, r }: ScryptParams): number {
  return 128 * 2 ** log2N * r;
}

const B64URL = /^[A-Za-z0-9_-]+$/;
function decodeB64url(text: string): Buffer | null {
  if (!B64URL.test(text)) return null;
  const bytes = Buffer.from(text, 'base64url');
  // Canonical encodings only: one byte string, one text.
  return bytes.toString('base64url') === text ? bytes : null;
}

const NUMBER = /^[1-9][0-9]{0,2}$/;
function decode(encoded: unknown): Decoded | null {
  if (typeof encoded !== 'string' || encoded.length > 512) return null;
  const parts = encoded.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return null;
  const [, n, r, p, salt64, key64] = parts as [string, string, string, string, string, string];
  if (!NUMBER.test(n) || !NUMBER.test(r) || !NUMBER.test(p)) return null;
  const params: ScryptParams = { log2N: Number(n), r: Number(r), p: Number(p) };
  if (!inRange(params.log2N, LIMITS.log2N) || !inRange(params.r, LIMITS.r) || !inRange(params.p, LIMITS.p)) return null;
  if (memoryFor(params) > MAX_MEMORY) return null;
  const salt = decodeB64url(salt64);
  const key = decodeB64url(key64);
  if (!salt || !key || !inRange(salt.length, LIMITS.saltBytes) || !inRange(key.length, LIMITS.keyBytes)) return null;
  return { params, salt, key };
}

function encode({ params, salt, key }: Decoded): string {
  return `scrypt$${params.log2N}$${params.r}$${params.p}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** Thrown when too many hashes are already waiting: the caller answers 503, never queues forever. */
export class PasswordHashingBusy extends Error {
  constructor() {
    super('Password hashing queue is full');
    this.name = 'PasswordHashingBusy';
  }
}
/** At 128 MiB and ~0.4 s each, a longer queue only makes everyone wait. */
export const MAX_WAITING = 16;

let running = 0;
const waiting: (() => void)[] = [];
async function withSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT && waiting.length >= MAX_WAITING) throw new PasswordHashingBusy();
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  else running += 1;
  try {
    return await work();
  } finally {
    // Hand the slot straight to the next waiter (running stays the same), or free it.
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

function normalise(plain: string): string {
  return plain.normalize('NFKC');
}

function derive(plain: string, salt: Buffer, keyBytes: number, params: ScryptParams): Promise<Buffer> {
  const options = { N: 2 ** params.log2N, r: params.r, p: params.p, maxmem: 2 * memoryFor(params) };
  return withSlot(
    () =>
      new Promise<Buffer>((resolve, reject) => {
        scrypt(normalise(plain), salt, keyBytes, options, (error, key) => (error ? reject(error) : resolve(key)));
      }),
  );
}

/** Hashes a password with the current parameters and a fresh random salt. */
export async function hashPassword(plain: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(plain, salt, KEY_BYTES, CURRENT_PARAMS);
  return encode({ params: CURRENT_PARAMS, salt, key });
}

/**
 * A well-formed hash with the current parameters whose preimage nobody knows. The scrypt
 * output of a random, discarded 256-bit secret is indistinguishable from random bytes, so the
 * key is drawn at random at module load: same format and same verification cost as a real
 * hash, without spending half a second and 128 MiB at start-up. No password verifies against
 * it (probability 2^-256).
 */
export const DUMMY_HASH: string = encode({
  params: CURRENT_PARAMS,
  salt: randomBytes(SALT_BYTES),
  key: randomBytes(KEY_BYTES),
});

/**
 * Does `plain` match `encoded`? Never throws. A missing (`null`, `undefined`) or malformed
 * hash answers `false` after spending the time of a real verification, so the caller can pass
 * `user?.passwordHash` straight in: unknown e-mail, account without password and wrong
 * password all cost the same.
 */
export async function verifyPassword(plain: string, encoded: string | null | undefined): Promise<boolean> {
  try {
    const decoded = decode(encoded);
    if (typeof plain !== 'string' || !decoded) {
      await verifyAgainstNothing(typeof plain === 'string' ? plain : '');
      return false;
    }
    const candidate = await derive(plain, decoded.salt, decoded.key.length, decoded.params);
    return timingSafeEqual(candidate, decoded.key);
  } catch {
    return false;
  }
}

/**
 * Spends the time of a real verification and answers `false`: for a login with an unknown
 * e-mail, so that timing does not tell which addresses have an account.
 */
export async function verifyAgainstNothing(plain: string): Promise<false> {
  try {
    const decoded = decode(DUMMY_HASH) as Decoded;
    const candidate = await derive(plain, decoded.salt, decoded.key.length, decoded.params);
    timingSafeEqual(candidate, decoded.key);
  } catch {
    // Nothing to report: the answer is "no" either way.
  }
  return false;
}

/**
 * Should this hash be replaced (after a successful verification) by `hashPassword`? True when
 * it is malformed or weaker than the current parameters; a stronger hash is left alone.
 */
export function needsRehash(encoded: string | null | undefined): boolean {
  const decoded = decode(encoded);
  if (!decoded) return true;
  const { params, salt, key } = decoded;
  return (
    params.log2N < CURRENT_PARAMS.log2N || params.r < CURRENT_PARAMS.r || params.p < CURRENT_PARAMS.p || salt.length < SALT_BYTES || key.length < KEY_BYTES
  );
}

/**
 * Password policy for a new password (sign-up, reset, change): `null` when acceptable, else a
 * message for the user. Lengths are counted in characters (code points) after normalisation.
 * No composition rules (ASVS V2.1.9): length is what matters.
 */
export function validateNewPassword(pw: unknown): string | null {
  if (typeof pw !== 'string') return 'Le mot de passe est obligatoire.';
  if (pw.length > 4 * PASSWORD_MAX_LENGTH) return `Le mot de passe ne doit pas dépasser ${PASSWORD_MAX_LENGTH} caractères.`;
  const length = [...normalise(pw)].length;
  if (length < PASSWORD_MIN_LENGTH) return `Le mot de passe doit comporter au moins ${PASSWORD_MIN_LENGTH} caractères.`;
  if (length > PASSWORD_MAX_LENGTH) return `Le mot de passe ne doit pas dépasser ${PASSWORD_MAX_LENGTH} caractères.`;
  if (/^\s+$/u.test(pw)) return 'Le mot de passe ne peut pas être composé uniquement d’espaces.';
  return null;
}
