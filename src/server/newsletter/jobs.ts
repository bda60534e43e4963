/** The newsletter's job handlers, given to the worker by runtime.ts. */
import type { ServerDeps } from '../core/deps';
import { handle } from '../jobs/schedule';
import { createThrottle, deliverBatch, type SendingOptions, startSend } from './delivery';
import { CONFIRMATION_MAIL, DELIVER_BATCH, PURGE_UNCONFIRMED, SEND_ISSUE, WELCOME_MAIL } from './job-types';
import { purgeOldDeliveries, purgeUnconfirmed, sendConfirmationNow, sendWelcomeNow } from './service';
import { scheduleDailyPurge } from './retention';

/**
 * `sending`: how issues go out (the pooled transport, the rate, the mailto address); without it,
 * through the process's mailer at the configured rate. One throttle per process.
 */
export const newsletterJobs = (deps: ServerDeps, sending: SendingOptions) => {
  const throttle = createThrottle(sending.ratePerSecond);
  return [
    handle(CONFIRMATION_MAIL, ({ payload }) => sendConfirmationNow(deps, payload)),
    handle(WELCOME_MAIL, ({ payload }) => sendWelcomeNow(deps, payload)),
    handle(SEND_ISSUE, ({ payload }) => startSend(deps, payload, sending)),
    handle(DELIVER_BATCH, ({ payload, signal }) => deliverBatch(deps, { ...sending, throttle }, payload, signal)),
    handle(PURGE_UNCONFIRMED, async () => {
      await purgeUnconfirmed(deps.db, deps.clock.now());
      await purgeOldDeliveries(deps.db, deps.clock.now());
      await scheduleDailyPurge(deps, new Date(deps.clock.now().getTime() + 24 * 3600_000));
    }),
  ];
};
