import { defineEntity, p } from '@mikro-orm/core';
import { placeholders, type Sql, ts } from '../sql.js';
import { Organization } from './organizations.js';

/**
 * Two posts the team said are not duplicates of each other (the console's "Not a duplicate"): never suggested
 * together again. Each pair once, its lower id first.
 */
export const DuplicateDismissal = defineEntity({
  name: 'DuplicateDismissal',
  tableName: 'duplicate_dismissal',
  indexes: [{ name: 'duplicate_dismissal_other_idx', properties: ['otherId'] }],
  properties: {
    postId: p.string().primary().length(40),
    otherId: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    createdAt: p.datetime().length(3),
  },
});

const pair = (a: string, b: string) => (a < b ? [a, b] : [b, a]);

/** Remember that two posts are not duplicates (again: nothing changes). */
export async function dismiss(sql: Sql, organizationId: string, a: string, b: string, now: Date): Promise<void> {
  const [postId, otherId] = pair(a, b);
  await sql.run(
    'INSERT INTO duplicate_dismissal (post_id, other_id, organization_id, created_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
    [postId, otherId, organizationId, ts(sql, now)],
  );
}

/** The pairs among these posts the team dismissed, each as `a b` with the lower id first. */
export async function dismissedAmong(sql: Sql, postIds: readonly string[]): Promise<Set<string>> {
  if (postIds.length === 0) return new Set();
  const rows = await sql.all<{ post_id: string; other_id: string }>(
    `SELECT post_id, other_id FROM duplicate_dismissal WHERE post_id IN (${placeholders(postIds)})
     UNION SELECT post_id, other_id FROM duplicate_dismissal WHERE other_id IN (${placeholders(postIds)})`,
    [...postIds, ...postIds],
  );
  return new Set(rows.map((r) => `${r.post_id} ${r.other_id}`));
}

/** Whether the pair was dismissed, in `dismissedAmong`'s set. */
export const isDismissed = (set: Set<string>, a: string, b: string) => set.has(pair(a, b).join(' '));
