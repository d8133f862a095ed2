import type { Sql } from '../sql.js';

/** How far the held posts are counted: the console shows "99+" beyond. */
export const HELD_COUNT_CAP = 100;

/** What the console's navigation counts beside its sections: what waits for the team, and how much there is. */
export interface SectionCounts {
  /** Posts held for moderation (up to HELD_COUNT_CAP). */
  held: number;
  /** Changelog drafts. */
  drafts: number;
  /** Webhooks turned off (by the team, or by failures). */
  webhooksOff: number;
  /** API keys in use (not revoked). */
  keys: number;
  /** Team members. */
  members: number;
}

/**
 * The counts in one statement: each an index range of the workspace (the held posts: post_held_idx, partial) or a
 * small table's rows of it, so the navigation costs the same in a workspace of a million posts.
 */
export async function sectionCounts(sql: Sql, organizationId: string): Promise<SectionCounts> {
  const row = await sql.one(
    `SELECT
       (SELECT count(*) FROM (SELECT 1 FROM post WHERE organization_id = ? AND moderation_status = 'pending' AND deleted_at IS NULL LIMIT ?) h) AS held,
       (SELECT count(*) FROM changelog_entry WHERE organization_id = ? AND status = 'draft') AS drafts,
       (SELECT count(*) FROM webhook WHERE organization_id = ? AND enabled = ?) AS webhooks_off,
       (SELECT count(*) FROM api_key WHERE organization_id = ? AND revoked_at IS NULL) AS live_keys,
       (SELECT count(*) FROM team_member WHERE organization_id = ?) AS members`,
    [organizationId, HELD_COUNT_CAP, organizationId, organizationId, false, organizationId, organizationId],
  );
  return {
    held: Number(row?.held ?? 0),
    drafts: Number(row?.drafts ?? 0),
    webhooksOff: Number(row?.webhooks_off ?? 0),
    keys: Number(row?.live_keys ?? 0),
    members: Number(row?.members ?? 0),
  };
}
