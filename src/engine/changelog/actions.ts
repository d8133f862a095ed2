import { type Actor, actAs, auditOf } from '../members/index.js';
import type { WorkspaceContext } from '../store/index.js';
import { createChangelogService } from './api.js';
import type { ChangelogEdit } from './service.js';

/** The changelog, as one team member: anyone who may triage, each change audited. */
export function createChangelogActions(ctx: WorkspaceContext, actor: Actor) {
  const audit = auditOf('changelog_entry');
  return {
    create: (input: { boardId: string; title: string; body?: string }) =>
      actAs(ctx, actor, 'triage', async (inner) => {
        const entry = await createChangelogService(inner).create(input);
        return { result: entry, audit: audit('changelog.drafted', entry.id) };
      }),
    /** Change a draft's title, Markdown body and the posts it ships, together. */
    edit: (entryId: string, change: ChangelogEdit & { postIds?: readonly string[] }) =>
      actAs(ctx, actor, 'triage', async (inner) => {
        const { postIds, ...text } = change;
        const service = createChangelogService(inner);
        const entry = await service.edit(entryId, text);
        const linked = postIds === undefined ? undefined : await service.linkPosts(entryId, postIds);
        const detail = { fields: Object.keys(change), ...(linked ? { posts: linked } : {}) };
        return { result: entry, audit: audit('changelog.edited', entryId, detail) };
      }),
    /** Publish (with `ship`, its linked posts move to shipped); the mail goes out with it. */
    publish: (entryId: string, options: { ship?: boolean } = {}) =>
      actAs(ctx, actor, 'triage', async (inner) => ({
        result: await createChangelogService(inner).publish(entryId, options),
        audit: audit('changelog.published', entryId, { ship: options.ship === true }),
      })),
  };
}
