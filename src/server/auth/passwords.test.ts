import { scrypt } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';

// This suite checks the real cost: the lower one the rest of the unit suite uses (vitest.config.ts) is off here.
vi.hoisted(() => {
  delete process.env['CONTRECHAMP_TEST_PASSWORD_LOG2N'];
});
import { CURRENT_PARAMS, OWASP_PARAMS, DUMMY_HASH, hashPassword, needsRehash, validateNewPassword, verifyAgainstNothing, verifyPassword } from './passwords';

// One derivation takes about half a second: these tests are slow on purpose.
const SLOW = 60_000;

/** A hash built by hand with other parameters, as an older version of the code would have. */
function legacyHash(plain: string, log2N: number, r: number, p: number, keyBytes = 32, saltBytes = 16): Promise<string> {
  const salt = Buffer.alloc(saltBytes, 7);
  return new Promise((resolve, reject) =>
    scrypt(plain.normalize('NFKC'), salt, keyBytes, { N: 2 ** log2N, r, p, maxmem: 256 * 2 ** log2N * r }, (err, key) =>
      err ? reject(err) : resolve(`scrypt$${log2N}$${r}$${p}$${salt.toString('base64url')}$${key.toString('base64url')}`),
    ),
  );
}

function parts(encoded: string) {
  const [scheme, n, r, p, salt, key] = encoded.split('$');
  return { scheme, n, r, p, salt: Buffer.from(salt ?? '', 'base64url'), key: Buffer.from(key ?? '', 'base64url') };
}

describe('hashPassword / verifyPassword', () => {
  it(
    'uses the OWASP parameters in a self-describing encoding',
    async () => {
      const encoded = await hashPassword('correct horse battery staple');
      expect(encoded).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      const { salt, key } = parts(encoded);
      expect(salt).toHaveLength(16);
      expect(key).toHaveLength(32);
      expect(CURRENT_PARAMS).toEqual({ log2N: 17, r: 8, p: 1 });
      expect(OWASP_PARAMS).toEqual({ log2N: 17, r: 8, p: 1 });
    },
    SLOW,
  );

  it(
    'round-trips, and refuses a wrong password',
    async () => {
      const encoded = await hashPassword('Un mot de passe assez long');
      expect(await verifyPassword('Un mot de passe assez long', encoded)).toBe(true);
      expect(await verifyPassword('Un mot de passe assez lonG', encoded)).toBe(false);
      expect(await verifyPassword('', encoded)).toBe(false);
    },
    SLOW,
  );

  it(
    'salts every hash differently',
    async () => {
      const [a, b] = await Promise.all([hashPassword('même mot de passe'), hashPassword('même mot de passe')]);
      expect(a).not.toBe(b);
      expect(parts(a).salt.equals(parts(b).salt)).toBe(false);
      expect(parts(a).key.equals(parts(b).key)).toBe(false);
    },
    SLOW,
  );

  it(
    'normalises Unicode: composed and decomposed accents are the same password',
    async () => {
      const encoded = await hashPassword('d\u00e9j\u00e0 vu, d\u00e9j\u00e0 lu');
      expect(await verifyPassword('de\u0301ja\u0300 vu, de\u0301ja\u0300 lu', encoded)).toBe(true);
    },
    SLOW,
  );

  it(
    'verifies hashes made with older (lower) parameters',
    async () => {
      const old = await legacyHash('ancien mot de passe', 14, 8, 1);
      expect(await verifyPassword('ancien mot de passe', old)).toBe(true);
      expect(await verifyPassword('autre mot de passe', old)).toBe(false);
    },
    SLOW,
  );

  it(
    'answers false, never throws, for tampered or missing encodings',
    async () => {
      const good = await legacyHash('mot de passe de test', 12, 8, 1);
      const [scheme, n, r, p, salt, key] = good.split('$') as [string, string, string, string, string, string];
      const flip = (b64: string) => {
        const bytes = Buffer.from(b64, 'base64url');
        bytes[0] = (bytes[0] ?? 0) ^ 1;
        return bytes.toString('base64url');
      };
      const tampered: (string | null | undefined)[] = [
        null,
        undefined,
        '',
        'scrypt',
        good.slice(0, -1),
        `${good}$`,
        `${good}A`,
        [scheme, n, r, p, salt, flip(key)].join('$'),
        [scheme, n, r, p, flip(salt), key].join('$'),
        [scheme, '13', r, p, salt, key].join('$'),
        [scheme, n, '7', p, salt, key].join('$'),
        [scheme, n, r, '2', salt, key].join('$'),
        ['argon2id', n, r, p, salt, key].join('$'),
        [scheme, '012', r, p, salt, key].join('$'),
        [scheme, '-1', r, p, salt, key].join('$'),
        [scheme, '40', r, p, salt, key].join('$'), // 2^40: would allocate terabytes
        [scheme, '20', '32', p, salt, key].join('$'), // 8 GiB
        [scheme, n, r, p, 'not base64!', key].join('$'),
        [scheme, n, r, p, salt, `${key}==`].join('$'),
        [scheme, n, r, p, Buffer.alloc(4).toString('base64url'), key].join('$'), // salt too short
        [scheme, n, r, p, salt, Buffer.alloc(4).toString('base64url')].join('$'), // key too short
        `${'$'.repeat(10_000)}`,
      ];
      const results = await Promise.all(tampered.map((encoded) => verifyPassword('mot de passe de test', encoded)));
      expect(results).toEqual(tampered.map(() => false));
      // And the untouched one still verifies, so the refusals above are due to the tampering.
      expect(await verifyPassword('mot de passe de test', good)).toBe(true);
    },
    SLOW,
  );

  it(
    'never throws on non-string input from untyped callers',
    async () => {
      const verify = verifyPassword as (plain: unknown, encoded: unknown) => Promise<boolean>;
      await expect(verify(undefined, DUMMY_HASH)).resolves.toBe(false);
      await expect(verify(42, { toString: () => DUMMY_HASH })).resolves.toBe(false);
    },
    SLOW,
  );
});

describe('needsRehash', () => {
  it(
    'is false for a current hash',
    async () => {
      expect(needsRehash(await hashPassword('un mot de passe actuel'))).toBe(false);
    },
    SLOW,
  );

  it(
    'is true for lower parameters, shorter salts or keys, and malformed values',
    async () => {
      expect(needsRehash(await legacyHash('x', 14, 8, 1))).toBe(true);
      expect(needsRehash(await legacyHash('x', 16, 8, 1))).toBe(true);
      expect(needsRehash(await legacyHash('x', 12, 4, 1))).toBe(true);
      expect(needsRehash(await legacyHash('x', 10, 8, 1, 16))).toBe(true);
      expect(needsRehash(await legacyHash('x', 10, 8, 1, 32, 8))).toBe(true); // 8-byte salt: malformed
      expect(needsRehash('scrypt$17$8$1$abc$def')).toBe(true);
      expect(needsRehash(null)).toBe(true);
      expect(needsRehash(undefined)).toBe(true);
    },
    SLOW,
  );

  it('leaves a stronger hash alone (no downgrade)', () => {
    const stronger = DUMMY_HASH.replace(/^scrypt\$17\$8\$1\$/, 'scrypt$18$8$2$');
    expect(needsRehash(stronger)).toBe(false);
  });
});

describe('DUMMY_HASH / verifyAgainstNothing', () => {
  it(
    'DUMMY_HASH is a well-formed current hash that nothing verifies against',
    async () => {
      expect(DUMMY_HASH).toMatch(/^scrypt\$17\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
      expect(needsRehash(DUMMY_HASH)).toBe(false);
      expect(await verifyPassword('', DUMMY_HASH)).toBe(false);
      expect(await verifyAgainstNothing('nimporte quoi')).toBe(false);
    },
    SLOW,
  );

  it(
    'costs as much as a real verification (±50 %)',
    async () => {
      const real = await hashPassword('un vrai mot de passe');
      // The work each costs: this process's CPU time, scrypt's thread included (nothing else runs
      // in it meanwhile). Wall time would also count what the other test files running on the
      // same cores take: one run failed at 1.56 that way.
      const time = async (work: () => Promise<unknown>) => {
        const start = process.cpuUsage();
        await work();
        const { user, system } = process.cpuUsage(start);
        return (user + system) / 1000;
      };
      // Warm-up, then interleave the two so that machine load hits both alike; compare medians.
      await verifyPassword('essai', real);
      await verifyAgainstNothing('essai');
      const realRuns: number[] = [];
      const dummyRuns: number[] = [];
      const missingRuns: number[] = [];
      for (let i = 0; i < 4; i++) {
        realRuns.push(await time(() => verifyPassword('mauvais mot de passe', real)));
        dummyRuns.push(await time(() => verifyAgainstNothing('mauvais mot de passe')));
        // A missing hash goes through the same work.
        missingRuns.push(await time(() => verifyPassword('mauvais mot de passe', null)));
      }
      const median = (xs: number[]) => {
        const sorted = [...xs].sort((a, b) => a - b);
        return ((sorted[1] ?? 0) + (sorted[2] ?? 0)) / 2;
      };
      const ratio = median(dummyRuns) / median(realRuns);
      expect(ratio).toBeGreaterThan(0.5);
      expect(ratio).toBeLessThan(1.5);
      // Never cheaper (that would tell which addresses have an account); dearer does no harm.
      expect(median(missingRuns) / median(realRuns)).toBeGreaterThan(0.5);
    },
    SLOW * 3,
  );
});

describe('validateNewPassword', () => {
  it('accepts 12 to 256 characters', () => {
    expect(validateNewPassword('a'.repeat(12))).toBeNull();
    expect(validateNewPassword('a'.repeat(256))).toBeNull();
    expect(validateNewPassword('douze carac.')).toBeNull();
    expect(validateNewPassword('  espaces autour  ')).toBeNull();
  });

  it('refuses fewer than 12 characters, counting code points, not UTF-16 units', () => {
    expect(validateNewPassword('a'.repeat(11))).toBe('Le mot de passe doit comporter au moins 12 caractères.');
    expect(validateNewPassword('')).toBe('Le mot de passe doit comporter au moins 12 caractères.');
    // Six emoji are twelve UTF-16 units but six characters.
    expect(validateNewPassword('😀'.repeat(6))).toBe('Le mot de passe doit comporter au moins 12 caractères.');
    expect(validateNewPassword('😀'.repeat(12))).toBeNull();
  });

  it('refuses more than 256 characters', () => {
    expect(validateNewPassword('a'.repeat(257))).toBe('Le mot de passe ne doit pas dépasser 256 caractères.');
    expect(validateNewPassword('a'.repeat(100_000))).toBe('Le mot de passe ne doit pas dépasser 256 caractères.');
  });

  it('refuses a password made only of spaces', () => {
    expect(validateNewPassword(' '.repeat(12))).toBe('Le mot de passe ne peut pas être composé uniquement d’espaces.');
    expect(validateNewPassword(' \t\u00a0'.repeat(5))).toBe('Le mot de passe ne peut pas être composé uniquement d’espaces.');
  });

  it('refuses a missing value', () => {
    expect(validateNewPassword(undefined)).toBe('Le mot de passe est obligatoire.');
  });
});
