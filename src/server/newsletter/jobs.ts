/** The newsletter's job handlers, given to the worker by runtime.ts. */
import type { ServerDeps } from '../core/deps';
import { handle } from '../jobs/schedule';
import { CONFIRMATION_MAIL, WELCOME_MAIL } from './job-types';
import { sendConfirmationNow, sendWelcomeNow } from './service';

export const newsletterJobs = (deps: ServerDeps) => [
  handle(CONFIRMATION_MAIL, ({ payload }) => sendConfirmationNow(deps, payload)),
  handle(WELCOME_MAIL, ({ payload }) => sendWelcomeNow(deps, payload)),
];
