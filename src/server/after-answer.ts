/**
 * Work done after the answer has gone (preparing and submitting mails), so that a request's
 * timing never depends on whether an address has an account. The jobs of a process run one
 * after the other: two requests for the same address never race (a newer sign-in link always
 * retires the older one), and a slow mail relay never multiplies open connections.
 */
import { log } from './core/log';

let chain: Promise<void> = Promise.resolve();

export function afterAnswer(name: string, job: () => Promise<void>): void {
  chain = chain
    .then(() => new Promise<void>((resolve) => setImmediate(resolve)))
    .then(job)
    .catch((error: unknown) => log.error('deferred job failed', { job: name, error }));
}

/** Resolves once every job queued so far has run (tests, graceful shutdown). */
export function settled(): Promise<void> {
  return chain;
}
