import { createChangelogInputSchema, type ChangelogEntry, type CreateChangelogInput } from '../../schemas/interactions.js';
import { requireBoard } from '../boards/index.js';
import { notifyChangelog } from '../notifications/index.js';
import { FeedbackError, firstFreeSlug, newId, parseInput, slugify, withSlugRetry } from '../shared/index.js';
import { changelogEntries, emit, type WorkspaceContext } from '../store/index.js';

async function read({ db, organizationId }: WorkspaceContext, entryId: string): Promise<ChangelogEntry> {
  const entry = await changelogEntries.find(db, organizationId, entryId);
  if (!entry) throw new FeedbackError('ERR_NOT_FOUND', `No changelog entry with id ${entryId}.`);
  return entry;
}

/** A draft entry on a board; its slug derives from the title, unique in the board. */
export async function create({ db, organizationId, clock }: WorkspaceContext, input: CreateChangelogInput): Promise<ChangelogEntry> {
  const i = parseInput(createChangelogInputSchema, input);
  return withSlugRetry(() =>
    db.transaction(async (tx) => {
      await requireBoard(tx, organizationId, i.boardId);
      const now = clock();
      const base = slugify(i.title);
      const entry: ChangelogEntry = {
        id: newId('chg', now.getTime()),
        organizationId,
        boardId: i.boardId,
        title: i.title,
        slug: firstFreeSlug(base, await changelogEntries.slugsLike(tx, i.boardId, base)),
        body: i.body ?? '',
        status: 'draft',
        publishedAt: null,
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      };
      await changelogEntries.insert(tx, entry);
      return entry;
    }),
  );
}

/**
 * Publish a draft: `changelog.published`, exactly once, and in the same transaction one mail to each subscriber the
 * consent rule lets through; publishing again is 409.
 */
export async function publish(ctx: WorkspaceContext, entryId: string): Promise<ChangelogEntry> {
  const { db, organizationId } = ctx;
  const entry = await read(ctx, entryId);
  if (entry.status === 'published') throw new FeedbackError('ERR_CONFLICT', 'This changelog entry is already published.');
  const now = ctx.clock();
  const published: ChangelogEntry = { ...entry, status: 'published', publishedAt: now.toISOString(), updatedAt: now.toISOString() };
  await db.transaction(async (tx) => {
    const { sql, params } = changelogEntries.publish(tx, organizationId, entryId, now);
    // Another publisher got there between our read and our write.
    if ((await tx.run(sql, params)) === 0) throw new FeedbackError('ERR_CONFLICT', 'This changelog entry is already published.');
    const summary = { id: entry.id, title: entry.title, slug: entry.slug, publishedAt: published.publishedAt! };
    const changeId = await emit(tx, { event: 'changelog.published', organizationId, boardId: entry.boardId, entry: summary }, now);
    await notifyChangelog(tx, { organizationId, changeId, now }, published);
  });
  return published;
}

/** A workspace's changelog: entries per board, drafts published once. Built once per workspace. */
export function createChangelogService(ctx: WorkspaceContext) {
  return {
    create: (input: CreateChangelogInput) => create(ctx, input),
    publish: (entryId: string) => publish(ctx, entryId),
    retrieve: (entryId: string) => read(ctx, entryId),
    /** A board's entries, newest first. */
    async list(boardId: string): Promise<ChangelogEntry[]> {
      await requireBoard(ctx.db, ctx.organizationId, boardId);
      return changelogEntries.listForBoard(ctx.db, ctx.organizationId, boardId);
    },
  };
}
export type ChangelogService = ReturnType<typeof createChangelogService>;
