/**
 * The reference a person reads for an order (on its confirmation page, in its mails, on its
 * invoice): ten characters of Crockford's base 32, in two groups (`7KQ2M-X9P4R`). It is short
 * enough to read over the phone and to type in the back-office's search, carries no meaning (no
 * count of orders, no date), and cannot be misread: the alphabet has no I, L, O or U, and a
 * search reads I and L as 1 and O as 0.
 *
 * It is random (50 bits) and unique by the database's index: at a million orders, a new
 * reference meets an old one about once in a billion inserts, which then fails and is retried by
 * whoever asked (a form, a job). The order's id (a UUID) stays its key and its link.
 */
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const LENGTH = 10;

/** A new random reference, `XXXXX-XXXXX`. */
export function newOrderReference(): string {
  const bytes = randomBytes(LENGTH);
  let text = '';
  for (let i = 0; i < LENGTH; i++) text += ALPHABET[bytes[i]! & 31];
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}

/**
 * What a person typed, as a stored reference, or null when it cannot be one: case, spaces and
 * dashes do not matter, and the letters a reader confuses with digits are read as those digits.
 */
export function parseOrderReference(input: string): string | null {
  const text = input
    .toUpperCase()
    .replace(/[\s\-‐‑–—.]/g, '')
    .replace(/O/g, '0')
    .replace(/[IL]/g, '1');
  if (text.length !== LENGTH || [...text].some((c) => !ALPHABET.includes(c))) return null;
  return `${text.slice(0, 5)}-${text.slice(5)}`;
}
