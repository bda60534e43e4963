/**
 * Errors of the job system, and how a handler's error is written down (`last_error`, logs):
 * its name or code and a scrubbed, shortened message, never an e-mail address, a URL or a
 * token-like string. A mail relay's refusal ("550 <lea@example.fr> unknown") or a provider's
 * error quoting a link must not turn the jobs table into a store of personal data.
 */

/** A run took longer than its job's `timeout_ms`: its signal was aborted with this reason. */
export class JobTimeoutError extends Error {
  override readonly name = 'JobTimeoutError';
  readonly timeoutMs: number;
  constructor(timeoutMs: number) {
    super(`exceeded ${timeoutMs} ms`);
    this.timeoutMs = timeoutMs;
  }
}

/** The worker is stopping and the grace time has run out: the run's signal is aborted with this reason. */
export class JobShutdownError extends Error {
  override readonly name = 'JobShutdownError';
  constructor() {
    super('worker stopping');
  }
}

/** A payload that does not match its kind's schema (at enqueue time, or when the job runs). */
export class InvalidJobPayloadError extends Error {
  override readonly name = 'InvalidPayload';
  readonly kind: string;
  /** Paths and issue codes only: never the values. */
  readonly issues: string;
  constructor(kind: string, issues: string) {
    super(`${kind}: ${issues}`);
    this.kind = kind;
    this.issues = issues;
  }
}

/** The longest `last_error` written. */
export const MAX_ERROR_LENGTH = 300;

const EMAIL = /[^\s@<>()[\]"',;:]+@[^\s@<>()[\]"',;:]+/g;
const URL_LIKE = /\b[a-z][a-z0-9+.-]*:\/\/\S+/gi;
// Long opaque runs (tokens, keys, hashes, ids): 24 characters and more without a space.
const TOKEN_LIKE = /[A-Za-z0-9_\-+/=.~%]{24,}/g;
const NAME = /^[A-Za-z][A-Za-z0-9_.$-]{0,60}$/;
const CODE = /^[A-Za-z0-9_.-]{1,40}$/;

/** Removes e-mail addresses, URLs and token-like strings from a message. */
export function scrubMessage(message: string): string {
  return message.replace(URL_LIKE, '[url]').replace(EMAIL, '[email]').replace(TOKEN_LIKE, '[redacted]').replace(/\s+/g, ' ').trim();
}

/** `Name (code): scrubbed message`, at most MAX_ERROR_LENGTH characters. */
export function describeError(error: unknown): string {
  let name = 'Error';
  let code: string | undefined;
  let message = '';
  if (error instanceof Error) {
    name = NAME.test(error.name) ? error.name : 'Error';
    const raw = (error as { code?: unknown }).code;
    if ((typeof raw === 'string' && CODE.test(raw)) || typeof raw === 'number') code = String(raw);
    message = error.message;
  } else if (typeof error === 'string') {
    message = error;
  } else {
    name = 'NonError';
  }
  const head = code ? `${name} (${code})` : name;
  const scrubbed = scrubMessage(message);
  const text = scrubbed ? `${head}: ${scrubbed}` : head;
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH - 1)}…` : text;
}
