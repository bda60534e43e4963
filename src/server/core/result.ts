/**
 * The answer of a use case that a reader can get wrong: either its data, or a refusal with the
 * HTTP status and the French sentence the reader sees. Services never throw for bad input;
 * they throw only for faults (the database is down), which become a 500.
 */
export type FailureStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429 | 503;

export interface Failure {
  ok: false;
  status: FailureStatus;
  /** Complete French sentence, shown as it is. */
  message: string;
  /** For 429 and 503: seconds before trying again (the Retry-After header). */
  retryAfterSeconds?: number;
}

export type Result<T = object> = ({ ok: true } & T) | Failure;

export function fail(status: FailureStatus, message: string, retryAfterSeconds?: number): Failure {
  return retryAfterSeconds === undefined ? { ok: false, status, message } : { ok: false, status, message, retryAfterSeconds };
}
