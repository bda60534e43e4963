import { execFile } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { log } from './log';
import { KEY_LABELS, createKeyring, createSecretFile, legacyUnsubscribeToken, readSecretFile, resetKeysForTests } from './keys';
import { loadConfig } from './config';

const folder = () => mkdtempSync(join(tmpdir(), 'contrechamp-keys-'));
const STRONG = randomBytes(32).toString('base64url');

afterEach(() => {
  vi.restoreAllMocks();
  resetKeysForTests();
});

describe('the master secret', () => {
  it('is created once in the data folder, private, and read back by the next process', () => {
    const dir = folder();
    const first = createKeyring({ env: {}, dataDir: dir });
    expect(first.source).toBe('secret.key');
    const file = join(dir, 'secret.key');
    expect(readFileSync(file)).toHaveLength(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const second = createKeyring({ env: { DATA_DIR: dir } });
    for (const label of KEY_LABELS) expect(second.subkey(label).equals(first.subkey(label))).toBe(true);
    expect(second.sign('unsubscribe', 'abc')).toBe(first.sign('unsubscribe', 'abc'));
    // No temporary file is left behind.
    expect(readdirSync(dir)).toEqual(['secret.key']);
  });

  it('is the bytes of a legacy rate-limit.key when secret.key is absent', () => {
    const dir = folder();
    const legacy = randomBytes(32);
    writeFileSync(join(dir, 'rate-limit.key'), legacy, { mode: 0o600 });
    const ring = createKeyring({ env: {}, dataDir: dir });
    expect(ring.source).toBe('rate-limit.key');
    expect(ring.legacyMasterKey()!.equals(legacy)).toBe(true);
    expect(readdirSync(dir)).toEqual(['rate-limit.key']);
    // Same master, same keys as a deployment configured with that secret.
    const id = 'f3c1e0a2-0000-4000-8000-000000000001';
    expect(legacyUnsubscribeToken(id, ring)).toBe(createHmac('sha256', legacy).update(`unsubscribe:${id}`).digest('base64url'));
  });

  it('is APP_SECRET when set, the legacy secret staying available for old links', () => {
    const dir = folder();
    const legacy = randomBytes(32);
    writeFileSync(join(dir, 'rate-limit.key'), legacy);
    const ring = createKeyring({ env: { APP_SECRET: STRONG }, dataDir: dir });
    expect(ring.source).toBe('APP_SECRET');
    expect(ring.legacyMasterKey()!.equals(legacy)).toBe(true);
    expect(readdirSync(dir)).toEqual(['rate-limit.key']);
    expect(createKeyring({ env: { APP_SECRET: STRONG }, dataDir: folder() }).legacyMasterKey()).toBeUndefined();
  });

  it('falls back on RATE_LIMIT_SECRET, with a warning', () => {
    const warn = vi.spyOn(log, 'warn').mockImplementation(() => {});
    const legacy = `ancien-${randomBytes(32).toString('base64url')}`;
    const ring = createKeyring({ env: { RATE_LIMIT_SECRET: legacy }, dataDir: folder() });
    expect(ring.source).toBe('RATE_LIMIT_SECRET');
    expect(ring.legacyMasterKey()!.toString()).toBe(legacy);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(JSON.stringify(warn.mock.calls)).not.toContain(legacy);
  });

  it('refuses a weak RATE_LIMIT_SECRET too, since it would become the master of every key', () => {
    expect(() => createKeyring({ env: { RATE_LIMIT_SECRET: 'ancien-secret' }, dataDir: folder() })).toThrow(/RATE_LIMIT_SECRET/);
  });

  it('refuses a short or repetitive APP_SECRET with a clear French message', () => {
    for (const weak of ['changeme', 'a'.repeat(100), randomBytes(16).toString('base64url'), randomBytes(24).toString('hex')]) {
      expect(() => createKeyring({ env: { APP_SECRET: weak }, dataDir: folder() })).toThrow(
        /Configuration invalide : APP_SECRET: APP_SECRET est trop courte .* 32 octets aléatoires/,
      );
    }
    for (const strong of [STRONG, randomBytes(32).toString('base64'), randomBytes(32).toString('hex')]) {
      expect(createKeyring({ env: { APP_SECRET: strong }, dataDir: folder() }).source).toBe('APP_SECRET');
    }
  });

  it('is never silently replaced when the key file is truncated', () => {
    const dir = folder();
    writeFileSync(join(dir, 'secret.key'), '');
    expect(() => createKeyring({ env: {}, dataDir: dir })).toThrow(/secret\.key est incomplet/);
  });
});

describe('creating the key file concurrently', () => {
  it('gives both racers the bytes of whichever published first', () => {
    const file = join(folder(), 'sub', 'secret.key');
    const a = randomBytes(32);
    const b = randomBytes(32);
    // Both saw no file; B publishes first, then A tries: A gets B's bytes.
    expect(readSecretFile(file)).toBeUndefined();
    expect(createSecretFile(file, b).equals(b)).toBe(true);
    expect(createSecretFile(file, a).equals(b)).toBe(true);
    expect(readFileSync(file).equals(b)).toBe(true);
  });

  it('agrees across processes started together', async () => {
    const dir = folder();
    const module = fileURLToPath(new URL('./keys.ts', import.meta.url));
    const script = `const k = await import(${JSON.stringify(module)}); const r = k.createKeyring({ env: {}, dataDir: ${JSON.stringify(dir)} }); process.stdout.write(r.subkey('unsubscribe').toString('hex'));`;
    const run = () =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, LOG_LEVEL: 'silent' } });
    const outputs = await Promise.all([run(), run(), run(), run()]);
    const keys = new Set(outputs.map((o) => o.stdout));
    expect(keys.size).toBe(1);
    expect([...keys][0]).toMatch(/^[0-9a-f]{64}$/);
    expect(readdirSync(dir)).toEqual(['secret.key']);
  }, 30_000);
});

describe('derived keys', () => {
  const env = { APP_SECRET: STRONG };

  it('differ between labels, and are 32 bytes', () => {
    const ring = createKeyring({ env, dataDir: folder() });
    const keys = KEY_LABELS.map((label) => ring.subkey(label).toString('hex'));
    expect(new Set(keys).size).toBe(KEY_LABELS.length);
    for (const label of KEY_LABELS) expect(ring.subkey(label)).toHaveLength(32);
    expect(ring.subkey('gift-code', 1).equals(ring.subkey('gift-code', 2))).toBe(false);
  });

  it('change only for the label whose version is bumped', () => {
    const before = createKeyring({ env, dataDir: folder() });
    const after = createKeyring({ env: { ...env, KEY_VERSIONS: 'unsubscribe=2' }, dataDir: folder() });
    expect(after.currentVersion('unsubscribe')).toBe(2);
    expect(after.subkey('unsubscribe').equals(before.subkey('unsubscribe'))).toBe(false);
    expect(after.subkey('unsubscribe', 1).equals(before.subkey('unsubscribe'))).toBe(true);
    for (const label of ['rate-limit', 'client-key', 'gift-code'] as const) expect(after.subkey(label).equals(before.subkey(label))).toBe(true);
  });

  it('sign with the current version and verify the current and older ones', () => {
    const v1 = createKeyring({ env, dataDir: folder() });
    const v3 = createKeyring({ env: { ...env, KEY_VERSIONS: 'unsubscribe=3, rate-limit=2' }, dataDir: folder() });
    const old = v1.sign('unsubscribe', 'subscriber-1');
    expect(old).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(v3.sign('unsubscribe', 'subscriber-1')).not.toBe(old);
    expect(v3.verify('unsubscribe', 'subscriber-1', old)).toBe(true);
    expect(v3.verify('unsubscribe', 'subscriber-1', v3.sign('unsubscribe', 'subscriber-1'))).toBe(true);
    // A newer signature is not accepted by an older configuration (no version from the future).
    expect(v1.verify('unsubscribe', 'subscriber-1', v3.sign('unsubscribe', 'subscriber-1'))).toBe(false);
  });

  it('verify nothing else: other message, other label, other master, malformed MACs', () => {
    const ring = createKeyring({ env, dataDir: folder() });
    const mac = ring.sign('unsubscribe', 'a');
    expect(ring.verify('unsubscribe', 'b', mac)).toBe(false);
    expect(ring.verify('gift-code', 'a', mac)).toBe(false);
    expect(createKeyring({ env: {}, dataDir: folder() }).verify('unsubscribe', 'a', mac)).toBe(false);
    for (const bad of ['', 'x', mac.slice(0, -1), `${mac}A`, `${mac}=`, mac.replace(/[A-Za-z]/, (c) => (c === 'A' ? 'B' : 'A')), 42 as unknown as string]) {
      expect(ring.verify('unsubscribe', 'a', bad)).toBe(false);
    }
  });

  it('refuse unknown labels and malformed KEY_VERSIONS', () => {
    const ring = createKeyring({ env, dataDir: folder() });
    expect(() => ring.subkey('session' as never)).toThrow(/unknown label/);
    expect(() => ring.subkey('unsubscribe', 0)).toThrow(/invalid version/);
    expect(() => loadConfig({ KEY_VERSIONS: 'session=2' })).toThrow(/KEY_VERSIONS: clé inconnue « session »/);
    expect(() => loadConfig({ KEY_VERSIONS: 'unsubscribe' })).toThrow(/KEY_VERSIONS: « unsubscribe » n’a pas la forme/);
    expect(() => loadConfig({ KEY_VERSIONS: 'unsubscribe=0' })).toThrow(/au moins 1/);
    expect(() => loadConfig({ KEY_VERSIONS: 'unsubscribe=2,unsubscribe=3' })).toThrow(/nommée deux fois/);
    expect(loadConfig({ KEY_VERSIONS: 'unsubscribe=2,rate-limit=3' }).keys.versions).toEqual({
      'rate-limit': 3,
      'client-key': 1,
      unsubscribe: 2,
      'gift-code': 1,
      'mailed-link': 1,
      'payment-webhook': 1,
      'rebuild-webhook': 1,
      'known-device': 1,
      'podcast-audio': 1,
      'podcast-feed': 1,
    });
  });
});
