import { z } from 'zod';
import { CHANGELOG_POSTS_MAX } from '../../schemas/changelog.js';
import {
  type ChangelogEntry,
  type CreateChangelogInput,
  createChangelogInputSchema,
} from '../../schemas/interactions.js';
import { type Post, postTitleSchema } from '../../schemas/posts.js';
import { requireBoard } from '../boards/index.js';
import { notifyChangelog } from '../notifications/index.js';
import { createPostsService } from '../posts/index.js';
import { FeedbackError, firstFreeSlug, newId, parseInput, slugify, withSlugRetry } from '../shared/index.js';
import { changelogEntries, emit, inTransaction, posts, type Sql, type WorkspaceContext } from '../store/index.js';

async function read({ db, organizationId }: WorkspaceContext, entryId: string): Promise<ChangelogEntry> {
  const entry = await changelogEntries.find(db, organizationId, entryId);
  if (!entry) throw new FeedbackError('ERR_NOT_FOUND', `No changelog entry with id ${entryId}.`);
  return entry;
}

/** A draft entry on a board; its slug derives from the title, unique in the board; `postIds`: the posts it ships. */
export async function create(
  { db, organizationId, clock }: WorkspaceContext,
  input: CreateChangelogInput,
  postIds: readonly string[] = [],
): Promise<ChangelogEntry> {
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
      if (postIds.length > 0) await linkIn(tx, organizationId, entry.id, [...new Set(postIds)]);
      return entry;
    }),
  );
}

/** What a draft's edit may change: its title and its Markdown body. */
const editSchema = z.strictObject({ title: postTitleSchema.optional(), body: z.string().max(50_000).optional() });
export type ChangelogEdit = z.input<typeof editSchema>;

export { CHANGELOG_POSTS_MAX };

/** A draft of the workspace, locked; a published entry is 409 (what was published stays as it was mailed). */
export async function requireDraft(tx: Sql, organizationId: string, entryId: string): Promise<ChangelogEntry> {
  const entry = await changelogEntries.find(tx, organizationId, entryId);
  if (!entry) throw new FeedbackError('ERR_NOT_FOUND', `No changelog entry with id ${entryId}.`);
  if (entry.status === 'published')
    throw new FeedbackError('ERR_CONFLICT', 'This changelog entry is already published.');
  return entry;
}

/** Change a draft's title or body (its slug stays: it was chosen at creation). */
export async function edit(
  { db, organizationId, clock }: WorkspaceContext,
  entryId: string,
  change: ChangelogEdit,
): Promise<ChangelogEntry> {
  const i = parseInput(editSchema, change);
  return db.transaction(async (tx) => {
    const entry = await requireDraft(tx, organizationId, entryId);
    const next = {
      ...entry,
      ...(i.title !== undefined ? { title: i.title } : {}),
      ...(i.body !== undefined ? { body: i.body } : {}),
      updatedAt: clock().toISOString(),
    };
    await changelogEntries.update(tx, next);
    return next;
  });
}

/** Link the posts a draft ships (replacing the list): live posts of the workspace, at most CHANGELOG_POSTS_MAX. */
export async function linkPosts(
  { db, organizationId }: WorkspaceContext,
  entryId: string,
  postIds: readonly string[],
): Promise<string[]> {
  const ids = [...new Set(postIds)];
  if (ids.length > CHANGELOG_POSTS_MAX)
    throw new FeedbackError('ERR_VALIDATION', `A changelog entry links at most ${CHANGELOG_POSTS_MAX} posts.`);
  return db.transaction(async (tx) => {
    await requireDraft(tx, organizationId, entryId);
    return linkIn(tx, organizationId, entryId, ids);
  });
}

/** Make these the posts a draft ships, in the caller's transaction: live posts of the workspace, or 404. */
export async function linkIn(tx: Sql, organizationId: string, entryId: string, ids: readonly string[]) {
  const live = new Set((await posts.findLiveMany(tx, organizationId, ids)).map((p) => p.id));
  const missing = ids.find((id) => !live.has(id));
  if (missing) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${missing}.`);
  await changelogEntries.setPosts(tx, entryId, ids);
  return [...ids];
}

/** The posts an entry ships (live ones; a post deleted since is left out). */
export async function linkedPosts({ db, organizationId }: WorkspaceContext, entryId: string): Promise<Post[]> {
  return posts.findLiveMany(db, organizationId, await changelogEntries.postsOf(db, entryId));
}

/**
 * Publish a draft: `changelog.published`, exactly once, and in the same transaction one mail to each subscriber of
 * the changelog and each person of the posts it ships that the consent rule lets through; publishing again is 409.
 * With `ship`, each linked post not yet `shipped` moves there too (`post.status_changed` each, as PATCH emits; the
 * entry's mail carries the news, so the status change writes none of its own).
 */
export async function publish(
  ctx: WorkspaceContext,
  entryId: string,
  options: { ship?: boolean } = {},
): Promise<ChangelogEntry> {
  const { organizationId } = ctx;
  const entry = await read(ctx, entryId);
  if (entry.status === 'published')
    throw new FeedbackError('ERR_CONFLICT', 'This changelog entry is already published.');
  const now = ctx.clock();
  const published: ChangelogEntry = {
    ...entry,
    status: 'published',
    publishedAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  await ctx.db.transaction(async (tx) => {
    const { sql, params } = changelogEntries.publish(tx, organizationId, entryId, now);
    // Another publisher got there between our read and our write.
    if ((await tx.run(sql, params)) === 0)
      throw new FeedbackError('ERR_CONFLICT', 'This changelog entry is already published.');
    const summary = { id: entry.id, title: entry.title, slug: entry.slug, publishedAt: published.publishedAt! };
    const changeId = await emit(
      tx,
      { event: 'changelog.published', organizationId, boardId: entry.boardId, entry: summary },
      now,
    );
    let ships = await linkedPosts({ ...ctx, db: inTransaction(tx) }, entryId);
    if (options.ship) {
      const service = createPostsService({ ...ctx, db: inTransaction(tx) });
      const shipped: Post[] = [];
      for (const p of ships)
        shipped.push(p.status === 'shipped' ? p : await service.update(p.id, { status: 'shipped' }, { mail: false }));
      ships = shipped;
    }
    await notifyChangelog(tx, { organizationId, changeId, now }, published, ships);
  });
  return published;
}

/** A workspace's changelog as the console and the command line use it (api.ts adds the API's half). */
export function changelogCore(ctx: WorkspaceContext) {
  return {
    create: (input: CreateChangelogInput) => create(ctx, input),
    /** Change a draft's title or Markdown body; a published entry is 409. */
    edit: (entryId: string, change: ChangelogEdit) => edit(ctx, entryId, change),
    /** Link the posts a draft ships (the list replaces the last one). */
    linkPosts: (entryId: string, postIds: readonly string[]) => linkPosts(ctx, entryId, postIds),
    linkedPosts: (entryId: string) => linkedPosts(ctx, entryId),
    publish: (entryId: string, options?: { ship?: boolean }) => publish(ctx, entryId, options),
    /** Every board's entries, newest first: drafts and published. */
    all: (): Promise<ChangelogEntry[]> => changelogEntries.listForWorkspace(ctx.db, ctx.organizationId),
    retrieve: (entryId: string) => read(ctx, entryId),
    /** A board's entries, newest first. */
    async list(boardId: string): Promise<ChangelogEntry[]> {
      await requireBoard(ctx.db, ctx.organizationId, boardId);
      return changelogEntries.listForBoard(ctx.db, ctx.organizationId, boardId);
    },
  };
}
