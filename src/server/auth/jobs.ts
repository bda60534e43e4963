/** The auth domain's job handlers, given to the worker by runtime.ts. */
import type { ServerDeps } from '../core/deps';
import { handle } from '../jobs/schedule';
import { EMAIL_CHANGE_LINK, MAIL_LINK, SIGN_UP_CONFIRM } from './job-types';
import { sendEmailChangeLinkNow, sendLinkNow, sendSignUpConfirmationNow } from './service';

export const authJobs = (deps: ServerDeps) => [
  handle(MAIL_LINK, ({ payload }) => sendLinkNow(deps, payload)),
  handle(EMAIL_CHANGE_LINK, ({ payload, job }) => sendEmailChangeLinkNow(deps, payload, job.id)),
  handle(SIGN_UP_CONFIRM, ({ payload }) => sendSignUpConfirmationNow(deps, payload)),
];
