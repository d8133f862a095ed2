// The delivery scheduler's door: the scheduler, the sender and the mail composer it is built from (runtime.ts puts them
// together), and the shapes of what it reports.

export { deliveryHeaders } from './attempt.js';
export { INTEGRATION_RETRY_SCHEDULE_MS } from './integration-lane.js';
export { createComposer } from './mail-compose.js';
export { MAIL_RETRY_SCHEDULE_MS } from './mail-lane.js';
export {
  type AttemptReport,
  createScheduler,
  type DeliveryScheduler,
  type IntegrationRunner,
  type IntegrationSummary,
  type JobResult,
  type MailSummary,
  type RunSummary,
  type SchedulerOptions,
} from './scheduler.js';
export { createSender, type Sender } from './sender.js';
