import type { Page } from '../../schemas/common.js';
import {
  createPostBodySchema,
  pageQuerySchema,
  updatePostBodySchema,
  type ModerationStatus,
  type PageQueryInput,
  type Post,
  type PostStatus,
} from '../../schemas/posts.js';
import { FeedbackError, parseInput, validationError } from '../errors.js';
import { decodeCursor, encodeCursor, isFiniteNumber, isId } from '../internal/cursor.js';
import { newId } from '../internal/ids.js';
import { forUpdate, toBool, toInt, toIntOrNull, toIso, toIsoOrNull, ts, type Database, type Sql, isUniqueViolation } from '../internal/sql.js';
import { slugify } from './boards.js';
import { emitEvent } from './events.js';

export const POST_COLUMNS =
  'p.id, p.organization_id, p.board_id, p.contact_id, p.author_user_id, p.title, p.slug, p.body, p.body_text, p.status, p.moderation_status, p.hide_from_roadmap, p.roadmap_order, p.merged_into_id, p.comment_count, p.vote_count, p.created_at, p.updated_at, p.deleted_at';

export function toPost(row: Record<string, unknown>): Post {
  return {
    id: row.id as string,
    organizationId: row.organization_id as string,
    boardId: row.board_id as string,
    contactId: (row.contact_id as string | null) ?? null,
    authorUserId: (row.author_user_id as string | null) ?? null,
    title: row.title as string,
    slug: row.slug as string,
    body: row.body as string,
    bodyText: row.body_text as string,
    status: row.status as PostStatus,
    moderationStatus: row.moderation_status as ModerationStatus,
    hideFromRoadmap: toBool(row.hide_from_roadmap),
    roadmapOrder: toIntOrNull(row.roadmap_order),
    mergedIntoId: (row.merged_into_id as string | null) ?? null,
    commentCount: toInt(row.comment_count),
    voteCount: toInt(row.vote_count),
    createdAt: toIso(row.created_at),
    updatedAt: toIso(row.updated_at),
    deletedAt: toIsoOrNull(row.deleted_at),
  };
}

/** The post as `post.created` and `post.status_changed` carry it. */
function postSummary(post: Post) {
  return { id: post.id, title: post.title, slug: post.slug, status: post.status, createdAt: post.createdAt };
}

/** A live (not soft-deleted) post of the workspace, locked for the transaction on PostgreSQL. */
export async function readLivePost(tx: Sql, organizationId: string, postId: string, lock: boolean): Promise<Post> {
  const row = await tx.one<Record<string, unknown>>(
    `SELECT ${POST_COLUMNS} FROM post p WHERE p.organization_id = ? AND p.id = ? AND p.deleted_at IS NULL${lock ? forUpdate(tx) : ''}`,
    [organizationId, postId],
  );
  if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
  return toPost(row);
}

/** A body reference (`contactId`, `tagIds`) that is not in the workspace: 422 on that field. */
async function assertReferences(tx: Sql, organizationId: string, refs: { contactId?: string | null; tagIds?: string[] }) {
  if (refs.contactId) {
    const found = await tx.one('SELECT id FROM contact WHERE organization_id = ? AND id = ?', [organizationId, refs.contactId]);
    if (!found) throw validationError([{ path: 'contactId', code: 'not_found', message: `No contact with id ${refs.contactId} in this workspace.` }]);
  }
  if (refs.tagIds && refs.tagIds.length > 0) {
    const unique = [...new Set(refs.tagIds)];
    const rows = await tx.all<{ id: string }>(
      `SELECT id FROM tag WHERE organization_id = ? AND id IN (${unique.map(() => '?').join(', ')})`,
      [organizationId, ...unique],
    );
    const known = new Set(rows.map((r) => r.id));
    const missing = unique.find((id) => !known.has(id));
    if (missing) throw validationError([{ path: 'tagIds', code: 'not_found', message: `No tag with id ${missing} in this workspace.` }]);
  }
}

async function setTags(tx: Sql, postId: string, tagIds: string[]): Promise<void> {
  await tx.all('DELETE FROM post_tag WHERE post_id = ? RETURNING post_id', [postId]);
  for (const tagId of new Set(tagIds)) await tx.all('INSERT INTO post_tag (post_id, tag_id) VALUES (?, ?) RETURNING post_id', [postId, tagId]);
}

/** The first free slug in a board's posts or changelog: the base, then `-2`, `-3`, ... within 80 characters. */
export async function freeSlug(tx: Sql, table: 'post' | 'changelog_entry', boardId: string, base: string): Promise<string> {
  const taken = new Set(
    (await tx.all<{ slug: string }>(`SELECT slug FROM ${table} WHERE board_id = ? AND (slug = ? OR slug LIKE ?)`, [boardId, base, `${base}-%`])).map(
      (r) => r.slug,
    ),
  );
  let slug = base;
  for (let n = 2; taken.has(slug); n++) slug = `${base.slice(0, 80 - String(n).length - 1).replace(/-+$/, '')}-${n}`;
  return slug;
}

export interface NewPost {
  boardId: string;
  title: string;
  body?: { json: unknown; text: string };
  contactId: string | null;
  authorUserId?: string | null;
  tagIds?: string[];
  moderationStatus: ModerationStatus;
}

/**
 * Insert a post (slug derived from the title and made unique in the board), its tags and its
 * `post.created` event, in the caller's transaction. The board must be in the workspace.
 */
export async function insertPost(tx: Sql, organizationId: string, input: NewPost, now: Date): Promise<Post> {
  const slug = await freeSlug(tx, 'post', input.boardId, slugify(input.title));
  const post: Post = {
    id: newId('post', now.getTime()),
    organizationId,
    boardId: input.boardId,
    contactId: input.contactId,
    authorUserId: input.authorUserId ?? null,
    title: input.title,
    slug,
    body: input.body === undefined ? '' : JSON.stringify(input.body.json),
    bodyText: input.body?.text ?? '',
    status: 'open',
    moderationStatus: input.moderationStatus,
    hideFromRoadmap: false,
    roadmapOrder: null,
    mergedIntoId: null,
    commentCount: 0,
    voteCount: 0,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    deletedAt: null,
  };
  await tx.all(
    `INSERT INTO post (id, organization_id, board_id, contact_id, author_user_id, title, slug, body, body_text, status, moderation_status,
       hide_from_roadmap, roadmap_order, merged_into_id, comment_count, vote_count, created_at, updated_at, deleted_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL, 0, 0, ?, ?, NULL) RETURNING id`,
    [
      post.id, organizationId, post.boardId, post.contactId, post.authorUserId, post.title, post.slug, post.body, post.bodyText,
      post.status, post.moderationStatus, tx.dialect === 'postgresql' ? false : 0, ts(tx, now), ts(tx, now),
    ],
  );
  if (input.tagIds?.length) await setTags(tx, post.id, input.tagIds);
  await emitEvent(tx, { event: 'post.created', organizationId, boardId: post.boardId, post: postSummary(post) }, now);
  return post;
}

/** The board of the workspace, or 404 (path ids outside the workspace are indistinguishable from absent ones). */
export async function readBoard(tx: Sql, organizationId: string, boardId: string): Promise<{ id: string; isPublic: boolean }> {
  const row = await tx.one<Record<string, unknown>>('SELECT id, is_public FROM board WHERE organization_id = ? AND id = ?', [organizationId, boardId]);
  if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No board with id ${boardId}.`);
  return { id: row.id as string, isPublic: toBool(row.is_public) };
}

/** A slug collision under a concurrent insert is retried with the next free slug. */
export async function withSlugRetry<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (attempt < 5 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}

/** Workspace-scoped posts. */
export function createPostsService(db: Database, organizationId: string, clock: () => Date) {
  const org = organizationId;
  return {
    /** `POST /v1/boards/{boardId}/posts`: an API-created post (moderation `approved`), with `post.created`. */
    async create(boardId: string, body: unknown): Promise<Post> {
      const input = parseInput(createPostBodySchema, body);
      return withSlugRetry(() =>
        db.transaction(async (tx) => {
          await readBoard(tx, org, boardId);
          await assertReferences(tx, org, { contactId: input.contactId, tagIds: input.tagIds });
          return insertPost(
            tx,
            org,
            { boardId, title: input.title, body: input.body, contactId: input.contactId ?? null, tagIds: input.tagIds, moderationStatus: 'approved' },
            clock(),
          );
        }),
      );
    },

    /**
     * `PATCH /v1/posts/{postId}`: changes what is sent; `post.status_changed` (with `previousStatus`)
     * only when the status really changes. An explicit slug taken in the board is 409.
     */
    async update(postId: string, body: unknown): Promise<Post> {
      const input = parseInput(updatePostBodySchema, body);
      return db.transaction(async (tx) => {
        const current = await readLivePost(tx, org, postId, true);
        await assertReferences(tx, org, { contactId: input.contactId, tagIds: input.tagIds });
        const now = clock();
        const next: Post = { ...current };
        if (input.title !== undefined) next.title = input.title;
        if (input.body !== undefined) {
          next.body = JSON.stringify(input.body.json);
          next.bodyText = input.body.text;
        }
        if (input.contactId !== undefined) next.contactId = input.contactId;
        if (input.hideFromRoadmap !== undefined) next.hideFromRoadmap = input.hideFromRoadmap;
        if (input.slug !== undefined) next.slug = input.slug;
        if (input.status !== undefined) next.status = input.status;
        const fields = ['title', 'body', 'bodyText', 'contactId', 'hideFromRoadmap', 'slug', 'status'] as const;
        const changed = fields.some((f) => next[f] !== current[f]) || input.tagIds !== undefined;
        if (!changed) return current;
        next.updatedAt = now.toISOString();
        if (next.slug !== current.slug) {
          const taken = await tx.one('SELECT id FROM post WHERE board_id = ? AND slug = ? AND id <> ?', [current.boardId, next.slug, current.id]);
          if (taken) throw new FeedbackError('ERR_CONFLICT', `slug ${next.slug} is already taken in this board`);
        }
        try {
          await tx.all(
            `UPDATE post SET title = ?, body = ?, body_text = ?, contact_id = ?, hide_from_roadmap = ?, slug = ?, status = ?, updated_at = ?
             WHERE id = ? RETURNING id`,
            [
              next.title, next.body, next.bodyText, next.contactId,
              tx.dialect === 'postgresql' ? next.hideFromRoadmap : next.hideFromRoadmap ? 1 : 0,
              next.slug, next.status, ts(tx, now), current.id,
            ],
          );
        } catch (err) {
          if (isUniqueViolation(err)) throw new FeedbackError('ERR_CONFLICT', `slug ${next.slug} is already taken in this board`);
          throw err;
        }
        if (input.tagIds !== undefined) await setTags(tx, current.id, input.tagIds);
        if (next.status !== current.status) {
          await emitEvent(
            tx,
            { event: 'post.status_changed', organizationId: org, boardId: next.boardId, post: postSummary(next), previousStatus: current.status },
            now,
          );
        }
        return next;
      });
    },

    /** Soft-delete a post: it leaves every listing and count; its row and slug stay. */
    async delete(postId: string): Promise<{ id: string; deleted: true }> {
      const now = clock();
      const rows = await db.all('UPDATE post SET deleted_at = ?, updated_at = ? WHERE organization_id = ? AND id = ? AND deleted_at IS NULL RETURNING id', [
        ts(db, now),
        ts(db, now),
        org,
        postId,
      ]);
      if (rows.length === 0) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
      return { id: postId, deleted: true };
    },

    /** A live post of the workspace. */
    retrieve(postId: string): Promise<Post> {
      return readLivePost(db, org, postId, false);
    },

    /**
     * `GET /v1/contacts/{contactId}/posts`: every live post attached to the contact, across boards,
     * newest first; keyset on (createdAt, id). An unknown contact is 404.
     */
    async listForContact(contactId: string, query: PageQueryInput = {}): Promise<Page<Post>> {
      const q = parseInput(pageQuerySchema, query);
      const key = q.cursor === undefined ? undefined : decodeCursor(q.cursor, 'contact-posts', (k) => k.length === 2 && isFiniteNumber(k[0]) && isId(k[1]));
      const contact = await db.one('SELECT id FROM contact WHERE organization_id = ? AND id = ?', [org, contactId]);
      if (!contact) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${contactId}.`);
      const rows = await db.all<Record<string, unknown>>(
        `SELECT ${POST_COLUMNS} FROM post p
         WHERE p.contact_id = ? AND p.organization_id = ? AND p.deleted_at IS NULL${key ? ' AND (p.created_at, p.id) < (?, ?)' : ''}
         ORDER BY p.created_at DESC, p.id DESC LIMIT ?`,
        [contactId, org, ...(key ? [ts(db, new Date(key[0] as number)), key[1]] : []), q.limit + 1],
      );
      const page = rows.slice(0, q.limit).map(toPost);
      const last = page[page.length - 1];
      return {
        data: page,
        nextCursor: rows.length > q.limit && last ? encodeCursor('contact-posts', [Date.parse(last.createdAt), last.id]) : null,
      };
    },
  };
}
export type PostsService = ReturnType<typeof createPostsService>;
