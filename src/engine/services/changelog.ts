import { createChangelogInputSchema, type ChangelogEntry, type CreateChangelogInput } from '../../schemas/interactions.js';
import { FeedbackError, parseInput } from '../errors.js';
import { newId } from '../internal/ids.js';
import { toIso, toIsoOrNull, ts, type Database } from '../internal/sql.js';
import { slugify } from './boards.js';
import { writeWithEvent } from './events.js';
import { freeSlug, readBoard, withSlugRetry } from './posts.js';

function toEntry(row: Record<string, unknown>): ChangelogEntry {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    boardId: row.board_id as string,
    title: row.title as string,
    slug: row.slug as string,
    body: row.body as string,
    status: row.status as ChangelogEntry['status'],
    publishedAt: toIsoOrNull(row.published_at),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
  };
}

const ENTRY_COLUMNS = 'id, organization_id, board_id, title, slug, body, status, published_at, created_at, updated_at';

/** Workspace-scoped changelog: entries per board, drafts published once. */
export function createChangelogService(db: Database, organizationId: string, clock: () => Date) {
  const org = organizationId;
  async function read(entryId: string): Promise<ChangelogEntry> {
    const row = await db.one<Record<string, unknown>>(`SELECT ${ENTRY_COLUMNS} FROM changelog_entry WHERE organization_id = ? AND id = ?`, [org, entryId]);
    if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No changelog entry with id ${entryId}.`);
    return toEntry(row);
  }
  return {
    /** A draft entry on a board; its slug derives from the title, unique in the board. */
    async create(input: CreateChangelogInput): Promise<ChangelogEntry> {
      const i = parseInput(createChangelogInputSchema, input);
      return withSlugRetry(() =>
        db.transaction(async (tx) => {
          await readBoard(tx, org, i.boardId);
          const now = clock();
          const entry: ChangelogEntry = {
            id: newId('chg', now.getTime()),
            organizationId: org,
            boardId: i.boardId,
            title: i.title,
            slug: await freeSlug(tx, 'changelog_entry', i.boardId, slugify(i.title)),
            body: i.body ?? '',
            status: 'draft',
            publishedAt: null,
            createdAt: now.toISOString(),
            updatedAt: now.toISOString(),
          };
          await tx.all(
            `INSERT INTO changelog_entry (${ENTRY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, 'draft', NULL, ?, ?) RETURNING id`,
            [entry.id, org, entry.boardId, entry.title, entry.slug, entry.body, ts(tx, now), ts(tx, now)],
          );
          return entry;
        }),
      );
    },

    /** Publish a draft: `changelog.published`, exactly once; publishing again is 409. */
    async publish(entryId: string): Promise<ChangelogEntry> {
      const entry = await read(entryId);
      if (entry.status === 'published') throw new FeedbackError('ERR_CONFLICT', 'This changelog entry is already published.');
      const now = clock();
      const published: ChangelogEntry = { ...entry, status: 'published', publishedAt: now.toISOString(), updatedAt: now.toISOString() };
      const written = await writeWithEvent(
        db,
        {
          sql: "UPDATE changelog_entry SET status = 'published', published_at = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND status = 'draft'",
          params: [ts(db, now), ts(db, now), org, entryId],
        },
        {
          event: 'changelog.published',
          organizationId: org,
          boardId: entry.boardId,
          entry: { id: entry.id, title: entry.title, slug: entry.slug, publishedAt: published.publishedAt! },
        },
        now,
      );
      // Another publisher got there between our read and our write.
      if (!written) throw new FeedbackError('ERR_CONFLICT', 'This changelog entry is already published.');
      return published;
    },

    retrieve: read,

    /** A board's entries, newest first. */
    async list(boardId: string): Promise<ChangelogEntry[]> {
      await readBoard(db, org, boardId);
      const rows = await db.all<Record<string, unknown>>(
        `SELECT ${ENTRY_COLUMNS} FROM changelog_entry WHERE organization_id = ? AND board_id = ? ORDER BY created_at DESC, id DESC`,
        [org, boardId],
      );
      return rows.map(toEntry);
    },
  };
}
export type ChangelogService = ReturnType<typeof createChangelogService>;
