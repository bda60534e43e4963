/**
 * One master secret, and a separate key derived from it for each use, so that one key can be
 * rotated without touching the others.
 *
 * The master secret, first found of:
 *  1. APP_SECRET (at least 32 random bytes; a weaker one is a configuration error);
 *  2. RATE_LIMIT_SECRET, the setting of deployments older than APP_SECRET (a warning is logged);
 *  3. DATA_DIR/secret.key;
 *  4. DATA_DIR/rate-limit.key, the rate-limit key of older deployments, when secret.key is
 *     absent: its bytes are the master, so that such a deployment keeps its keys;
 *  5. else 32 random bytes written to DATA_DIR/secret.key (mode 0600). The file is written under
 *     a temporary name (flag 'wx') then hard-linked into place: linking fails if another process
 *     got there first, in which case that process's key is read. Every process sharing the
 *     folder ends up with the same bytes, and no process ever reads a half-written file.
 * Several instances must share one master: set APP_SECRET, or share DATA_DIR.
 *
 * Keys: `subkey(label, version)` is HKDF-SHA256 of the master, with a fixed salt and the info
 * `<label>/v<version>`, 32 bytes. The labels are a closed list (KEY_LABELS in ../config). The
 * current version of each is 1 unless KEY_VERSIONS says otherwise (`unsubscribe=2,rate-limit=3`):
 * bumping one version changes that key only. `sign` MACs with the current version; `verify`
 * accepts the current and every older version of the same label, so that a rotation does not
 * invalidate what was signed before it (to revoke old signatures, change the master instead).
 *
 * Unsubscribe links — how the newsletter domain should use this (src/server/newsletter is
 * integrated by its own owner; this module does not touch it):
 *  - Links already sent carry `base64url(HMAC-SHA256(<old rate-limit secret>, 'unsubscribe:' +
 *    subscriberId))`: 43 characters, no dot. They are found through their SHA-256, stored in
 *    `newsletter_subscribers.unsubscribe_hash`. Keep that lookup for tokens of that shape, and
 *    never write `unsubscribe_hash` again (new subscribers leave it null): the old links keep
 *    working whatever happens to the keys, and the column can be dropped once no old mail is
 *    expected to be clicked. `legacyMasterKey()` gives the old secret while it is still
 *    configured (RATE_LIMIT_SECRET, or DATA_DIR/rate-limit.key), and `legacyUnsubscribeToken`
 *    recomputes an old token from it, should a missing hash ever need to be filled in.
 *  - New links carry a self-describing token `u1.<subscriberId>.<sign('unsubscribe',
 *    subscriberId)>`, checked by recomputation: parse it, `verify('unsubscribe', id, mac)`, then
 *    load the subscriber by id. Nothing to store, independent of the rate-limit keys, and still
 *    valid after a rotation of any other key or of the unsubscribe key itself (older versions
 *    verify). `u1.` tokens never appear in logs (src/server/core/log.ts scrubs them).
 *
 * Rate limits and client keys use `subkey('rate-limit')` (e-mail subjects) and
 * `subkey('client-key')` (client addresses); the switch from the single old secret changed their
 * hashes once, so counts restarted, at most one window (an hour) early.
 *
 * Tests build their own keyring with `createKeyring({ env, dataDir })`, or reset the process's
 * with `resetKeysForTests()`; nothing else is global.
 */
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { KEY_LABELS, config, loadConfig, type Config, type KeyLabel } from './config';
import { log } from './log';

export { KEY_LABELS, type KeyLabel };

/** Where the master secret came from (for the start-up log line; never the secret itself). */
export type MasterSource = 'APP_SECRET' | 'RATE_LIMIT_SECRET' | 'secret.key' | 'rate-limit.key';

export const SECRET_FILE = 'secret.key';
export const LEGACY_SECRET_FILE = 'rate-limit.key';
const MASTER_BYTES = 32;
/** Fixed, public: HKDF's salt only needs to be the same everywhere. */
const SALT = Buffer.from('contrechamp/keys/2026', 'utf8');
const KEY_BYTES = 32;
const MAC_BYTES = 32;

export interface Keyring {
  readonly source: MasterSource;
  /** The version `sign` uses for this label. */
  currentVersion(label: KeyLabel): number;
  /** The key for one use, at the current version unless one is given. 32 bytes, cached. */
  subkey(label: KeyLabel, version?: number): Buffer;
  /** HMAC-SHA256 of the message under the label's current key, in base64url (43 characters). */
  sign(label: KeyLabel, message: string): string;
  /** Does the MAC match the message under the current or any older version of the label's key? */
  verify(label: KeyLabel, message: string, mac: string): boolean;
  /** The secret of the rate limits before this module (RATE_LIMIT_SECRET or DATA_DIR/rate-limit.key), if still there. */
  legacyMasterKey(): Buffer | undefined;
}

export interface KeyringOptions {
  /** Environment to read the settings from (default: the process's configuration). */
  env?: Record<string, string | undefined>;
  /** Data folder (default: DATA_DIR of that environment). */
  dataDir?: string;
}

function isErrno(error: unknown, ...codes: string[]): boolean {
  return typeof error === 'object' && error !== null && codes.includes(String((error as NodeJS.ErrnoException).code));
}

/** The bytes of a key file, undefined if it does not exist; a truncated file is an error, not a fresh start. */
export function readSecretFile(file: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
  if (bytes.length < MASTER_BYTES) {
    throw new Error(
      `Configuration invalide : ${file} est incomplet (${bytes.length} octets au lieu de ${MASTER_BYTES} au moins). Restaurez-le depuis une sauvegarde, ou supprimez-le pour en créer un autre (les liens de désinscription déjà envoyés cesseront alors de fonctionner).`,
    );
  }
  return bytes;
}

/**
 * Publishes `fresh` as `file` unless the file already exists, and returns the bytes the file
 * holds afterwards: `fresh` for the process that won, the winner's bytes for every other.
 */
export function createSecretFile(file: string, fresh: Buffer): Buffer {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, fresh, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(tmp, file);
    return fresh;
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return readSecretFile(file)!;
    // A file system without hard links: create the file itself exclusively.
    if (!isErrno(error, 'EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV')) throw error;
    try {
      writeFileSync(file, fresh, { flag: 'wx', mode: 0o600 });
      return fresh;
    } catch (inner) {
      if (isErrno(inner, 'EEXIST')) return readSecretFile(file)!;
      throw inner;
    }
  } finally {
    rmSync(tmp, { force: true });
  }
}

function loadMaster(keys: Config['keys'], dataDir: string): { master: Buffer; source: MasterSource } {
  if (keys.appSecret) return { master: Buffer.from(keys.appSecret, 'utf8'), source: 'APP_SECRET' };
  // Same bytes as the rate-limit module used, so that the keys of such a deployment stay the same.
  if (keys.legacySecret) return { master: Buffer.from(keys.legacySecret, 'utf8'), source: 'RATE_LIMIT_SECRET' };
  const file = join(dataDir, SECRET_FILE);
  const existing = readSecretFile(file);
  if (existing) return { master: existing, source: 'secret.key' };
  const legacy = readSecretFile(join(dataDir, LEGACY_SECRET_FILE));
  if (legacy) return { master: legacy, source: 'rate-limit.key' };
  return { master: createSecretFile(file, randomBytes(MASTER_BYTES)), source: 'secret.key' };
}

function assertLabel(label: string): asserts label is KeyLabel {
  if (!(KEY_LABELS as readonly string[]).includes(label)) throw new Error(`keys: unknown label ${JSON.stringify(label)}`);
}

export function createKeyring(options: KeyringOptions = {}): Keyring {
  const settings = options.env ? loadConfig(options.env) : config();
  const dataDir = resolve(options.dataDir ?? settings.dataDir);
  const { master, source } = loadMaster(settings.keys, dataDir);
  if (source === 'RATE_LIMIT_SECRET') {
    log.warn('keys.legacy_secret', { detail: 'RATE_LIMIT_SECRET sert de secret maître : renommez-la APP_SECRET (même valeur, si elle est assez longue)' });
  }
  const versions = settings.keys.versions;
  const cache = new Map<string, Buffer>();

  const currentVersion = (label: KeyLabel): number => {
    assertLabel(label);
    return versions[label];
  };

  const subkey = (label: KeyLabel, version = currentVersion(label)): Buffer => {
    assertLabel(label);
    if (!Number.isSafeInteger(version) || version < 1) throw new Error(`keys: invalid version ${version} for ${label}`);
    const info = `${label}/v${version}`;
    let key = cache.get(info);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', master, SALT, info, KEY_BYTES));
      cache.set(info, key);
    }
    return key;
  };

  const mac = (label: KeyLabel, version: number, message: string) => createHmac('sha256', subkey(label, version)).update(message, 'utf8').digest();

  return {
    source,
    currentVersion,
    subkey,
    sign: (label, message) => mac(label, currentVersion(label), message).toString('base64url'),
    verify(label, message, given) {
      if (typeof given !== 'string') return false;
      const bytes = Buffer.from(given, 'base64url');
      // Lengths first (timingSafeEqual throws otherwise), and one spelling per MAC only.
      if (bytes.length !== MAC_BYTES || bytes.toString('base64url') !== given) return false;
      let ok = false;
      for (let version = currentVersion(label); version >= 1; version--) ok = timingSafeEqual(mac(label, version, message), bytes) || ok;
      return ok;
    },
    legacyMasterKey() {
      if (source === 'RATE_LIMIT_SECRET' || source === 'rate-limit.key') return Buffer.from(master);
      if (settings.keys.legacySecret) return Buffer.from(settings.keys.legacySecret, 'utf8');
      return readSecretFile(join(dataDir, LEGACY_SECRET_FILE));
    },
  };
}

let instance: Keyring | undefined;

/** The process's keyring, built on first use from the configuration. */
export function keyring(): Keyring {
  if (!instance) {
    instance = createKeyring();
    log.info('keys.loaded', { source: instance.source });
  }
  return instance;
}

/** Forgets the process's keyring (and its cached keys): the next use reads the configuration again. */
export function resetKeysForTests(): void {
  instance = undefined;
}

export const subkey = (label: KeyLabel, version?: number): Buffer => keyring().subkey(label, version);
export const sign = (label: KeyLabel, message: string): string => keyring().sign(label, message);
export const verify = (label: KeyLabel, message: string, mac: string): boolean => keyring().verify(label, message, mac);
export const legacyMasterKey = (): Buffer | undefined => keyring().legacyMasterKey();

/**
 * The unsubscribe token an older version of the site put in its mails for this subscriber, or
 * undefined when the old secret is gone. See the comment at the top for when to use it.
 */
export function legacyUnsubscribeToken(subscriberId: string, ring: Keyring = keyring()): string | undefined {
  const secret = ring.legacyMasterKey();
  return secret && createHmac('sha256', secret).update(`unsubscribe:${subscriberId}`).digest('base64url');
}
