import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SESSION_TTL, TOKEN_TTL, hashSecret, isWellFormedSecret, newSecret, sessionExpiresAt, tokenExpiresAt } from './tokens';

describe('newSecret', () => {
  it('is 32 random bytes in base64url (43 characters, no padding)', () => {
    const secret = newSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
  });

  it('never repeats and is not visibly biased', () => {
    const secrets = Array.from({ length: 2000 }, newSecret);
    expect(new Set(secrets).size).toBe(secrets.length);
    // Every bit position is set in roughly half of the secrets.
    const ones = new Array<number>(256).fill(0);
    for (const s of secrets) {
      const bytes = Buffer.from(s, 'base64url');
      for (let bit = 0; bit < 256; bit++) if ((bytes[bit >> 3]! >> (bit & 7)) & 1) ones[bit]! += 1;
    }
    for (const count of ones) {
      expect(count).toBeGreaterThan(800);
      expect(count).toBeLessThan(1200);
    }
  });

  it('is always well formed', () => {
    for (let i = 0; i < 500; i++) expect(isWellFormedSecret(newSecret())).toBe(true);
  });
});

describe('hashSecret', () => {
  it('is the lowercase hex SHA-256 of the secret', () => {
    const secret = newSecret();
    expect(hashSecret(secret)).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(hashSecret('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(hashSecret(secret)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs from the secret and between secrets', () => {
    const a = newSecret();
    const b = newSecret();
    expect(hashSecret(a)).not.toBe(a);
    expect(hashSecret(a)).not.toBe(hashSecret(b));
    expect(hashSecret(a)).toBe(hashSecret(a));
  });
});

describe('isWellFormedSecret', () => {
  it('refuses everything that newSecret cannot produce', () => {
    const good = newSecret();
    const bad: unknown[] = [
      undefined,
      null,
      42,
      '',
      good.slice(0, 42),
      `${good}A`,
      `${good.slice(0, 42)}=`,
      `${good.slice(0, 42)}B`, // non-canonical last character (its low bits would be lost)
      `${good.slice(0, 41)}+A`,
      `${good.slice(0, 41)}/A`,
      ` ${good.slice(1)}`,
      `${good.slice(0, 42)}\n`,
      Buffer.alloc(32).toString('base64'),
      Buffer.alloc(32).toString('hex'),
    ];
    for (const value of bad) expect(isWellFormedSecret(value), String(value)).toBe(false);
    expect(isWellFormedSecret(Buffer.alloc(32).toString('base64url'))).toBe(true);
  });

  it('accepts exactly the encodings of 32-byte strings', () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (bytes) => isWellFormedSecret(Buffer.from(bytes).toString('base64url'))));
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        if (isWellFormedSecret(s)) expect(Buffer.from(Buffer.from(s, 'base64url')).toString('base64url')).toBe(s);
      }),
    );
  });
});

describe('lifetimes', () => {
  it('has the promised token lifetimes', () => {
    expect(TOKEN_TTL).toEqual({
      magic_link: 15 * 60_000,
      password_reset: 60 * 60_000,
      email_change: 24 * 3_600_000,
      newsletter_confirm: 7 * 86_400_000,
      signup_confirm: 7 * 86_400_000,
    });
    expect(Object.isFrozen(TOKEN_TTL)).toBe(true);
  });

  it('has the promised session lifetimes', () => {
    expect(SESSION_TTL).toEqual({ persistent: 30 * 86_400_000, browser: 12 * 3_600_000 });
    expect(Object.isFrozen(SESSION_TTL)).toBe(true);
  });

  it('computes expiry dates', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(tokenExpiresAt('magic_link', now).toISOString()).toBe('2026-11-21T10:15:00.000Z');
    expect(tokenExpiresAt('newsletter_confirm', now).toISOString()).toBe('2026-11-28T10:00:00.000Z');
    expect(sessionExpiresAt('browser', now).toISOString()).toBe('2026-11-21T22:00:00.000Z');
    expect(sessionExpiresAt('persistent', now).toISOString()).toBe('2026-12-21T10:00:00.000Z');
  });
});
