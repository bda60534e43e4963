/**
 * Structured logs, written by pino: one JSON object per line, `level` (a word), `time` (ISO
 * 8601), `msg`, then the fields. Errors go to stderr, everything else to stdout. `LOG_LEVEL`
 * (debug, info, warn, error, silent) sets the threshold; without it, `DEBUG` (any value)
 * enables debug lines, otherwise the threshold is info. The logger reads the environment
 * itself, not `config()`: a configuration error must be loggable.
 *
 * The promise: a log line never contains an e-mail address or a token, whatever a caller
 * passes, including the messages and stacks of errors thrown by the SMTP client (which quote
 * addresses). Every message and field value goes through `scrub` before pino sees it:
 *
 *  - e-mail addresses become `[email]`;
 *  - `u1.<id>.<mac>` unsubscribe tokens, runs of 32+ base64url characters (our secrets are 43)
 *    and runs of 64+ hexadecimal digits (hashes of secrets) become `[secret]`;
 *  - the value of a field whose name says password, token, secret, authorization, cookie,
 *    session or api key becomes `[secret]`, whatever it is;
 *  - errors become `{ name, code?, message, stack?, cause? }`, the cause chain included, each
 *    string scrubbed like the rest; nesting is cut at a fixed depth, cycles are marked.
 *
 * Two identifier shapes are kept on purpose: a canonical UUID (our record ids, from
 * `crypto.randomUUID()`) is not a secret, and `<uuid@host>` is a Message-ID, not a person's
 * address. Anything else that looks like an address or a token is removed: a false positive
 * costs a little diagnosis, a false negative leaks a reader's address.
 */
import pino, { type Logger, type LevelWithSilent } from 'pino';

type Level = 'debug' | 'info' | 'warn' | 'error';
type Fields = Record<string, unknown>;

export const EMAIL_PLACEHOLDER = '[email]';
export const SECRET_PLACEHOLDER = '[secret]';

/** How deep `scrub` walks into nested objects, arrays and cause chains. */
const MAX_DEPTH = 8;
/** Longest string kept in a log line (a whole mail body has no business there). */
const MAX_STRING = 8_192;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Local part: RFC 5322 "atext" and dots, Unicode letters included; domain: labels and a dot.
const EMAIL = /[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62})(?:\.[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}))+/gu;
// Same, with the local part percent-encoded, as in a logged URL (`?email=lea%40exemple.fr`).
const LOCAL_EMAIL = /[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+@(?:\[[0-9a-f.:]+\]|[\p{L}\p{N}](?:[\p{L}\p{N}-]{0,62}))(?![\p{L}\p{N}.-])/gu;
const ENCODED_EMAIL = /[\p{L}\p{N}.!#$%&'*+/=?^_`{|}~-]+%40[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)+/giu;
const UNSUBSCRIBE_TOKEN = /\bu1\.[\w-]+\.[\w-]+/g;
const HEX_RUN = /[0-9a-f]{64,}/gi;
const BASE64URL_RUN = /[A-Za-z0-9_-]{32,}/g;
// A gift code in a path or a return address (`/activer-cadeau/K7MX-…`, `%2Fcadeau%2FK7MX…`): 16 characters, grouped or not.
const GIFT_CODE_IN_PATH = /((?:activer-cadeau|cadeau)(?:\/|%2F))[0-9A-Za-z]{4}(?:-?[0-9A-Za-z]{4}){3}/gi;
/** Field names whose values are secret whatever they look like. */
const SECRET_KEY = /pass(?:word|wd|phrase)|^pass$|secret|token|authori[sz]ation|cookie|session|api[-_]?key|credential|private[-_]?key/i;

/** A string with every e-mail address and token replaced by a placeholder. */
export function scrubString(value: string): string {
  // Scrubbed before it is cut, so that an address straddling the cut cannot survive in part;
  // the input is bounded first to keep the regular expressions' work bounded.
  const bounded = value.length > 4 * MAX_STRING ? value.slice(0, 4 * MAX_STRING) : value;
  const keepIds = (address: string) => (UUID.test(address.slice(address.startsWith('<') ? 1 : 0, address.indexOf('@'))) ? address : EMAIL_PLACEHOLDER);
  const text = bounded
    .replace(UNSUBSCRIBE_TOKEN, SECRET_PLACEHOLDER)
    .replace(GIFT_CODE_IN_PATH, `$1${SECRET_PLACEHOLDER}`)
    .replace(EMAIL, keepIds)
    // Addresses without a dot in their domain (`lea@localhost`) or with an IP literal.
    .replace(LOCAL_EMAIL, keepIds)
    .replace(ENCODED_EMAIL, EMAIL_PLACEHOLDER)
    .replace(HEX_RUN, SECRET_PLACEHOLDER)
    .replace(BASE64URL_RUN, (run) => (UUID.test(run) ? run : SECRET_PLACEHOLDER));
  return text.length > MAX_STRING ? `${text.slice(0, MAX_STRING)}…` : text;
}

function scrubError(error: Error, depth: number, seen: WeakSet<object>): Record<string, unknown> {
  const { code } = error as Error & { code?: unknown };
  const out: Record<string, unknown> = {
    name: scrubString(String(error.name)),
    ...(code !== undefined ? { code: walk(code, depth + 1, seen) } : {}),
    message: scrubString(String(error.message)),
  };
  if (typeof error.stack === 'string') out.stack = scrubString(error.stack);
  // SMTP errors carry the relay's answer (which may quote the address): kept, scrubbed.
  for (const key of ['responseCode', 'command', 'response', 'errno', 'syscall'] as const) {
    const value = (error as unknown as Record<string, unknown>)[key];
    if (value !== undefined) out[key] = walk(value, depth + 1, seen);
  }
  if (error instanceof AggregateError) out.errors = walk(error.errors, depth + 1, seen);
  if (error.cause !== undefined) out.cause = walk(error.cause, depth + 1, seen);
  return out;
}

function walk(value: unknown, depth: number, seen: WeakSet<object>): unknown {
  switch (typeof value) {
    case 'string':
      return scrubString(value);
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    case 'bigint':
      return value.toString();
    case 'symbol':
      return scrubString(value.toString());
    case 'function':
      return '[function]';
  }
  if (value === null) return null;
  const object = value as object;
  if (depth >= MAX_DEPTH) return '[…]';
  if (seen.has(object)) return '[circular]';
  seen.add(object);
  try {
    if (object instanceof Error) return scrubError(object, depth, seen);
    if (object instanceof Date) return Number.isNaN(object.getTime()) ? 'Invalid Date' : object.toISOString();
    if (object instanceof URL) return scrubString(object.href);
    if (ArrayBuffer.isView(object) || object instanceof ArrayBuffer) return `[${object.byteLength} bytes]`;
    if (Array.isArray(object)) return object.map((item) => walk(item, depth + 1, seen));
    if (object instanceof Set) return [...object].map((item) => walk(item, depth + 1, seen));
    const entries = object instanceof Map ? [...object.entries()].map(([k, v]) => [String(k), v] as const) : Object.entries(object);
    const out: Record<string, unknown> = {};
    for (const [key, item] of entries) {
      out[scrubString(key)] = SECRET_KEY.test(key) && item !== undefined && item !== null ? SECRET_PLACEHOLDER : walk(item, depth + 1, seen);
    }
    return out;
  } finally {
    seen.delete(object);
  }
}

/**
 * A copy of `value` safe to log: strings scrubbed, errors flattened to plain objects, secret
 * fields masked, depth bounded, cycles cut. Never throws, never mutates its argument.
 */
export function scrub(value: unknown): unknown {
  try {
    return walk(value, 0, new WeakSet());
  } catch {
    return '[unloggable]';
  }
}

/** The keys the line itself uses: a field of the same name is renamed, never overrides them. */
const RESERVED = new Set(['level', 'time', 'msg']);

function lineFields(msg: string, fields: Fields | undefined): Fields {
  const scrubbed = (fields === undefined ? {} : scrub(fields)) as Fields;
  const out: Fields = { msg: scrubString(String(msg)) };
  for (const [key, value] of Object.entries(typeof scrubbed === 'object' && scrubbed !== null ? scrubbed : { fields: scrubbed })) {
    out[RESERVED.has(key) ? `field_${key}` : key] = value;
  }
  return out;
}

const LEVELS: readonly LevelWithSilent[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/** The threshold from the environment: LOG_LEVEL if valid, else debug when DEBUG is set, else info. */
export function levelFrom(env: Record<string, string | undefined>): LevelWithSilent {
  const wanted = env.LOG_LEVEL?.trim().toLowerCase();
  if (wanted && (LEVELS as readonly string[]).includes(wanted)) return wanted as LevelWithSilent;
  return env.DEBUG ? 'debug' : 'info';
}

export interface LoggerOptions {
  env?: Record<string, string | undefined>;
  /** Where debug, info and warn lines go (default: process.stdout). */
  stdout?: { write(line: string): unknown };
  /** Where error lines go (default: process.stderr). */
  stderr?: { write(line: string): unknown };
}

export interface Log {
  debug(msg: string, fields?: Fields): void;
  info(msg: string, fields?: Fields): void;
  warn(msg: string, fields?: Fields): void;
  error(msg: string, fields?: Fields): void;
}

export function createLogger(options: LoggerOptions = {}): Log {
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  // `dedupe`: a line goes to the stream with the highest level it reaches, and to that one only.
  const streams = pino.multistream(
    [
      { level: 'debug', stream: { write: (line: string) => stdout.write(line) } },
      { level: 'error', stream: { write: (line: string) => stderr.write(line) } },
    ],
    { dedupe: true },
  );
  const logger: Logger = pino(
    {
      level: levelFrom(env),
      base: null,
      messageKey: 'msg',
      timestamp: () => `,"time":"${new Date().toISOString()}"`,
      formatters: { level: (label) => ({ level: label }) },
      // Errors are flattened (and scrubbed) before pino sees them: no second serializer.
      serializers: { err: (value: unknown) => value },
    },
    streams,
  );
  const write = (level: Level) => (msg: string, fields?: Fields) => {
    if (!logger.isLevelEnabled(level)) return;
    try {
      logger[level](lineFields(msg, fields));
    } catch {
      // A log line must never break the request that writes it.
    }
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** The process's logger. A plain object, so that tests can spy on its methods. */
export const log: Log = { ...createLogger() };
