/** Durable jobs: see CONTEXT.md. */
export { defineJob, type JobContext, type JobDefinition } from './definition';
export { describeError, InvalidJobPayloadError, JobShutdownError, JobTimeoutError } from './errors';
export {
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_RETENTION,
  DEFAULT_TIMEOUT_MS,
  type Enqueued,
  type EnqueueOptions,
  type EnqueueRequest,
  enqueue,
  enqueueJob,
  type FailedJob,
  listFailedJobs,
  purgeFinishedJobs,
  queueState,
  type QueueState,
  retryFailedJob,
  type Retention,
} from './queue';
export { createJobWorker, exponentialBackoff, type JobLogger, type JobWorker, type JobWorkerOptions } from './worker';
export { handle, jobType, schedule, type JobType } from './schedule';
