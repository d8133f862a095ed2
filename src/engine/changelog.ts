import { createChangelogInputSchema, type ChangelogEntry, type CreateChangelogInput } from '../schemas/interactions.js';
import { FeedbackError, parseInput } from './errors.js';
import { requireBoard } from './shared/boards.js';
import { newId } from './shared/ids.js';
import { firstFreeSlug, slugify, withSlugRetry } from './shared/slugs.js';
import * as entries from './store/changelog-entries.js';
import { emit } from './store/events.js';
import { notifyChangelog } from './notifications/outbox.js';
import type { Database } from './store/sql.js';

/** Workspace-scoped changelog: entries per board, drafts published once. */
export function createChangelogService(db: Database, organizationId: string, clock: () => Date) {
  const org = organizationId;
  async function read(entryId: string): Promise<ChangelogEntry> {
    const entry = await entries.find(db, org, entryId);
    if (!entry) throw new FeedbackError('ERR_NOT_FOUND', `No changelog entry with id ${entryId}.`);
    return entry;
  }
  return {
    /** A draft entry on a board; its slug derives from the title, unique in the board. */
    async create(input: CreateChangelogInput): Promise<ChangelogEntry> {
      const i = parseInput(createChangelogInputSchema, input);
      return withSlugRetry(() =>
        db.transaction(async (tx) => {
          await requireBoard(tx, org, i.boardId);
          const now = clock();
          const base = slugify(i.title);
          const entry: ChangelogEntry = {
            id: newId('chg', now.getTime()),
            organizationId: org,
            boardId: i.boardId,
            title: i.title,
            slug: firstFreeSlug(base, await entries.slugsLike(tx, i.boardId, base)),
            body: i.body ?? '',
            status: 'draft',
            publishedAt: null,
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          };
          await entries.insert(tx, entry);
          return entry;
        }),
      );
    },

    /**
     * Publish a draft: `changelog.published`, exactly once, and in the same transaction one mail to each subscriber the
     * consent rule lets through; publishing again is 409.
     */
    async publish(entryId: string): Promise<ChangelogEntry> {
      const entry = await read(entryId);
      if (entry.status === 'published') throw new FeedbackError('ERR_CONFLICT', 'This changelog entry is already published.');
      const now = clock();
      const published: ChangelogEntry = { ...entry, status: 'published', publishedAt: now.toISOString(), updatedAt: now.toISOString() };
      await db.transaction(async (tx) => {
        const { sql, params } = entries.publish(tx, org, entryId, now);
        // Another publisher got there between our read and our write.
        if ((await tx.run(sql, params)) === 0) throw new FeedbackError('ERR_CONFLICT', 'This changelog entry is already published.');
        const changeId = await emit(
          tx,
          { event: 'changelog.published', organizationId: org, boardId: entry.boardId, entry: { id: entry.id, title: entry.title, slug: entry.slug, publishedAt: published.publishedAt! } },
          now,
        );
        await notifyChangelog(tx, { organizationId: org, changeId, now }, published);
      });
      return published;
    },

    retrieve: read,

    /** A board's entries, newest first. */
    async list(boardId: string): Promise<ChangelogEntry[]> {
      await requireBoard(db, org, boardId);
      return entries.listForBoard(db, org, boardId);
    },
  };
}
export type ChangelogService = ReturnType<typeof createChangelogService>;
