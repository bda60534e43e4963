/**
 * Gift codes: easy to read aloud and to type, checked before any lookup, and stored so that a
 * copy of the database gives nobody a usable code.
 *
 * - 16 characters in four groups (« K7MX-4QPD-9TRW-2HNZ »): 15 random ones from an alphabet
 *   without the characters people confuse (no 0 O 1 I L U: 30 symbols, about 73.6 bits), then
 *   one check character (a weighted sum modulo 31), which catches every single mistyped character
 *   and every swap of two neighbours before the database is asked anything.
 * - Case, spaces and dashes do not matter when typed.
 * - Stored as `code_hash`, an HMAC under a key derived from the master secret (to find it), and
 *   `code_sealed`, AES-256-GCM under another derived key (to print it again on the buyer's card
 *   and in the recipient's mail). The database alone reveals neither.
 */
import { createCipheriv, createDecipheriv, createHmac, randomBytes, randomInt } from 'node:crypto';
import { subkey } from '../core/keys';

export const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTVWXYZ';
const N = CODE_ALPHABET.length;
export const CODE_LENGTH = 16;
const AMBIGUOUS = /[01ILOU]/;

const P = 31;

/**
 * The check character of a 15-character body: the one that makes Σ (position × value) a
 * multiple of 31 over the 16 characters (positions 1 to 16). 31 is prime and larger than every
 * difference of two values, so one wrong character, or two different neighbours swapped,
 * always breaks the sum (Luhn mod 30 misses some swaps, such as « 2Z » for « Z2 »). The one
 * value the alphabet cannot write (30) has no check character: null, and a new body is drawn.
 */
export function checkCharacter(body: string): string | null {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    const value = CODE_ALPHABET.indexOf(body[i]!);
    if (value < 0) throw new Error('Not a code character');
    sum += (i + 1) * value;
  }
  // 16 × 2 = 32 ≡ 1 (mod 31): the inverse of 16 is 2.
  const value = (((-sum * 2) % P) + P) % P;
  return value < N ? CODE_ALPHABET[value]! : null;
}

/** « K7MX4QPD9TRW2HNZ » → « K7MX-4QPD-9TRW-2HNZ » */
export const groupCode = (compact: string): string => compact.match(/.{1,4}/g)!.join('-');

/** A new code, compact (no dashes). */
export function newGiftCode(random: (max: number) => number = randomInt): string {
  for (;;) {
    let body = '';
    for (let i = 0; i < CODE_LENGTH - 1; i++) body += CODE_ALPHABET[random(N)];
    const check = checkCharacter(body);
    if (check) return body + check;
  }
}

/** A code with a given body (the demo's published code): the check character is computed. */
export function codeFromBody(body: string): string {
  const check = checkCharacter(body);
  if (!check) throw new Error('This body has no check character: change its last character');
  return body + check;
}

export type CodeCheck = { ok: true; code: string } | { ok: false; message: string };

/**
 * A typed code, normalised and checked, with a French message for what is wrong. Nothing here
 * touches the database: a typo never costs a lookup (nor a rate-limit hit).
 */
export function parseGiftCode(typed: string): CodeCheck {
  const compact = typed
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[\s\-‐-―_.]/g, '');
  if (compact === '') return { ok: false, message: 'Saisissez votre code cadeau\u00a0: seize caractères, par exemple K7MX-4QPD-9TRW-2HNZ.' };
  if (AMBIGUOUS.test(compact)) {
    return {
      ok: false,
      message:
        'Ce code contient un caractère qui n’existe pas dans nos codes cadeaux (0, O, 1, I, L ou U)\u00a0: vérifiez-le sur votre carte ou dans l’e-mail reçu.',
    };
  }
  if (!/^[A-Z0-9]+$/.test(compact))
    return { ok: false, message: 'Un code cadeau ne contient que des lettres et des chiffres, par exemple K7MX-4QPD-9TRW-2HNZ.' };
  if (compact.length !== CODE_LENGTH)
    return {
      ok: false,
      message: `Un code cadeau compte seize caractères\u00a0; celui-ci en compte ${compact.length}. Vérifiez-le sur votre carte ou dans l’e-mail reçu.`,
    };
  if (checkCharacter(compact.slice(0, -1)) !== compact.at(-1)) {
    return {
      ok: false,
      message: 'Ce code ne semble pas correct\u00a0: un caractère a peut-être été mal saisi ou inversé. Vérifiez-le sur votre carte ou dans l’e-mail reçu.',
    };
  }
  return { ok: true, code: compact };
}

// Keys: version 1 of the gift-code key, always (a rotation would make stored hashes unfindable).
const lookupKey = () => createHmac('sha256', subkey('gift-code', 1)).update('lookup').digest();
const sealKey = () => createHmac('sha256', subkey('gift-code', 1)).update('seal').digest();

/** What is stored to find a code. */
export const hashGiftCode = (code: string): string => createHmac('sha256', lookupKey()).update(code).digest('hex');

/** The code, encrypted for storage: `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function sealGiftCode(code: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(), iv);
  const encrypted = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), encrypted.toString('base64url')].join('.');
}

export function unsealGiftCode(sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || !data) throw new Error('Unknown sealed gift code format');
  const decipher = createDecipheriv('aes-256-gcm', sealKey(), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
