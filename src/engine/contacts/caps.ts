import { effectiveContactCap, FeedbackError } from '../shared/index.js';
import { contacts, organizations, type Sql } from '../store/index.js';

/** The workspace's contact cap in force (null = unlimited); 404 for a workspace that does not exist. */
export async function readContactCap(sql: Sql, organizationId: string): Promise<number | null> {
  const org = await organizations.find(sql, organizationId);
  if (!org) throw new FeedbackError('ERR_NOT_FOUND', 'Workspace not found.');
  return effectiveContactCap(org);
}

/**
 * Inside a transaction: ERR_PLAN_LIMIT when one more contact would exceed `cap`. Capped workspaces serialize their
 * contact inserts on the workspace's row so that two creations cannot both take the last place (SQLite's IMMEDIATE
 * transaction already does). The count stops at the cap; only a refusal counts them all, for its details.
 */
export async function assertContactCapacity(tx: Sql, organizationId: string, cap: number): Promise<void> {
  await organizations.lockForLimits(tx, organizationId);
  if ((await contacts.countUpTo(tx, organizationId, cap)) < cap) return;
  const current = await contacts.count(tx, organizationId);
  throw new FeedbackError(
    'ERR_PLAN_LIMIT',
    `The workspace's plan allows at most ${cap} contacts and it has ${current}; upgrade the plan or delete contacts.`,
    { limit: cap, current, resource: 'contact' },
  );
}
