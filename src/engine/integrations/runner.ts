import type { IntegrationRunner, JobResult } from '../delivery/index.js';
import { FeedbackError, newId } from '../shared/index.js';
import {
  type Database,
  inTransaction,
  integrationJobs,
  integrations,
  type Sql,
  type WorkspaceContext,
} from '../store/index.js';
import { type Credentials, type IntegrationsParts, openCredentials } from './context.js';
import { CallFailure } from './http.js';

/** One claimed job, as its handler does it. */
export interface JobContext {
  parts: IntegrationsParts;
  db: Database;
  clock: () => Date;
  integration: integrations.StoredIntegration;
  credentials: Credentials;
  job: integrationJobs.ClaimedJob;
  /**
   * Commit the job as done with its effects (run on the workspace inside the same transaction), and the connection as
   * working again. False when the job's lease was lost meanwhile: nothing is changed, the process that holds it now
   * will do it.
   */
  complete(effects?: (ctx: WorkspaceContext, tx: Sql) => Promise<void>): Promise<boolean>;
}

/** Does one kind of job; a failure throws (`CallFailure`, or the engine's own refusal). */
export type JobHandler = (c: JobContext) => Promise<void>;

/**
 * Whether an earlier attempt of the job may have reached the service: it was claimed before (a claim counts the
 * attempt before the call), and so may have made what this one is about to make.
 */
export const triedBefore = (job: integrationJobs.ClaimedJob) => job.attemptCount > 1;
/** Since when a repeated attempt looks for what an earlier one made: the job's writing, less a minute of clock drift. */
export const writtenSince = (job: integrationJobs.ClaimedJob) => new Date(job.createdAt.getTime() - 60_000);

/** A new job for the integrations' outbox, in the caller's transaction. */
export async function enqueue(
  sql: Sql,
  now: Date,
  job: Omit<integrationJobs.NewJob, 'id' | 'now'> & { id?: string },
): Promise<boolean> {
  // Time-sortable ids: a connection's jobs written in one millisecond are claimed in the order they were written.
  return integrationJobs.insert(sql, { ...job, id: job.id ?? newId('ijob', now.getTime()), now });
}

/** The lane's runner: a job's connection and credentials, its handler, and what its outcome says of the connection. */
export function createRunner(
  db: Database,
  clock: () => Date,
  parts: IntegrationsParts,
  handlers: Readonly<Record<string, JobHandler>>,
): IntegrationRunner {
  return {
    async run(job, token): Promise<JobResult> {
      const integration = await integrations.findById(db, job.integrationId);
      const complete: JobContext['complete'] = (effects) =>
        db.transaction(async (tx) => {
          if (!(await integrationJobs.succeed(tx, job.id, token, clock()))) return false;
          if (integration) await integrations.noteOutcome(tx, integration.id, null, clock());
          await effects?.({ db: inTransaction(tx), organizationId: job.organizationId, clock }, tx);
          return true;
        });
      const handler = handlers[job.kind];
      if (!integration || !handler) {
        await complete();
        return { ok: true };
      }
      try {
        await handler({
          parts,
          db,
          clock,
          integration,
          credentials: openCredentials(parts.secrets, integration),
          job,
          complete,
        });
        return { ok: true };
      } catch (err) {
        if (err instanceof FeedbackError) return { ok: false, error: err.message, retry: false, retryAfterMs: null };
        if (!(err instanceof CallFailure)) throw err;
        await integrations.noteOutcome(db, integration.id, err.message, clock());
        return { ok: false, error: err.message, retry: err.retry, retryAfterMs: err.retryAfterMs };
      }
    },
  };
}
