import type { Page } from '../schemas/common.js';
import { createPostBodySchema, pageQuerySchema, updatePostBodySchema, type PageQueryInput, type Post } from '../schemas/posts.js';
import { FeedbackError, parseInput, validationError } from './errors.js';
import { notifyPostStatus } from './notifications/outbox.js';
import { requireBoard } from './shared/boards.js';
import { readCursor, toPage } from './shared/pages.js';
import { insertPost, postSummary } from './shared/posts.js';
import { withSlugRetry } from './shared/slugs.js';
import { changeTime } from './shared/time.js';
import * as contacts from './store/contacts.js';
import { emit } from './store/events.js';
import * as posts from './store/posts.js';
import { isUniqueViolation, type Database, type Sql } from './store/sql.js';
import * as tags from './store/tags.js';

/** A body reference (`contactId`, `tagIds`) that is not in the workspace: 422 on that field. */
async function assertReferences(tx: Sql, organizationId: string, refs: { contactId?: string | null; tagIds?: string[] }) {
  if (refs.contactId && !(await contacts.exists(tx, organizationId, refs.contactId)))
    throw validationError([{ path: 'contactId', code: 'not_found', message: `No contact with id ${refs.contactId} in this workspace.` }]);
  if (refs.tagIds && refs.tagIds.length > 0) {
    const unique = [...new Set(refs.tagIds)];
    const known = await tags.existing(tx, organizationId, unique);
    const missing = unique.find((id) => !known.has(id));
    if (missing) throw validationError([{ path: 'tagIds', code: 'not_found', message: `No tag with id ${missing} in this workspace.` }]);
  }
}

/** A live post of the workspace, or 404. */
async function requireLivePost(tx: Sql, organizationId: string, postId: string, lock = false): Promise<Post> {
  const post = await posts.findLive(tx, organizationId, postId, lock);
  if (!post) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
  return post;
}

const EDITABLE = ['title', 'body', 'bodyText', 'contactId', 'hideFromRoadmap', 'slug', 'status'] as const;

/** Workspace-scoped posts. */
export function createPostsService(db: Database, organizationId: string, clock: () => Date) {
  const org = organizationId;
  return {
    /** `POST /v1/boards/{boardId}/posts`: an API-created post (moderation `approved`), with `post.created`. */
    async create(boardId: string, body: unknown): Promise<Post> {
      const input = parseInput(createPostBodySchema, body);
      return withSlugRetry(() =>
        db.transaction(async (tx) => {
          await requireBoard(tx, org, boardId);
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
     * `PATCH /v1/posts/{postId}`: changes what is sent; `post.status_changed` (with `previousStatus`) only when the
     * status really changes, and then, in the same transaction, one mail to each participant the consent rule lets
     * through. An explicit slug taken in the board is 409.
     */
    async update(postId: string, body: unknown): Promise<Post> {
      const input = parseInput(updatePostBodySchema, body);
      return db.transaction(async (tx) => {
        const current = await requireLivePost(tx, org, postId, true);
        await assertReferences(tx, org, { contactId: input.contactId, tagIds: input.tagIds });
        const now = changeTime(clock, current.updatedAt);
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
        if (!EDITABLE.some((f) => next[f] !== current[f]) && input.tagIds === undefined) return current;
        next.updatedAt = now.toISOString();
        const slugConflict = () => new FeedbackError('ERR_CONFLICT', `slug ${next.slug} is already taken in this board`);
        if (next.slug !== current.slug && (await posts.slugTaken(tx, current.boardId, next.slug, current.id))) throw slugConflict();
        try {
          await posts.update(tx, next);
        } catch (err) {
          if (isUniqueViolation(err)) throw slugConflict();
          throw err;
        }
        if (input.tagIds !== undefined) await tags.setForPost(tx, current.id, new Set(input.tagIds));
        if (next.status !== current.status) {
          const changeId = await emit(tx, { event: 'post.status_changed', organizationId: org, boardId: next.boardId, post: postSummary(next), previousStatus: current.status }, now);
          await notifyPostStatus(tx, { organizationId: org, changeId, now }, next, current.status);
        }
        return next;
      });
    },

    /**
     * Merge a duplicate into another post of the workspace: it leaves the portal's lists, its page points to the
     * target, the target's page lists it, and its status becomes `duplicate` (with `post.status_changed`).
     */
    async merge(postId: string, intoId: string): Promise<Post> {
      return db.transaction(async (tx) => {
        const current = await requireLivePost(tx, org, postId, true);
        const target = await requireLivePost(tx, org, intoId, true);
        if (target.id === current.id) throw validationError([{ path: 'intoId', code: 'invalid', message: 'A post cannot be merged into itself.' }]);
        if (target.mergedIntoId) throw validationError([{ path: 'intoId', code: 'invalid', message: `Post ${intoId} is itself merged into ${target.mergedIntoId}.` }]);
        const now = changeTime(clock, current.updatedAt);
        await posts.merge(tx, current.id, target.id, now);
        const next: Post = { ...current, mergedIntoId: target.id, status: 'duplicate', updatedAt: now.toISOString() };
        if (current.status !== 'duplicate') {
          const changeId = await emit(tx, { event: 'post.status_changed', organizationId: org, boardId: next.boardId, post: postSummary(next), previousStatus: current.status }, now);
          await notifyPostStatus(tx, { organizationId: org, changeId, now }, next, current.status, target);
        }
        return next;
      });
    },

    /**
     * Moderate a post held as `pending` (an anonymous portal post in a workspace that moderates): `approved` puts it on
     * the portal and emits the `post.created` it was held without; `spam` keeps it off. A post that is not pending is
     * refused with ERR_CONFLICT, so a post is announced once.
     */
    async moderate(postId: string, decision: 'approved' | 'spam'): Promise<Post> {
      return db.transaction(async (tx) => {
        const current = await requireLivePost(tx, org, postId, true);
        if (current.moderationStatus !== 'pending') throw new FeedbackError('ERR_CONFLICT', `Post ${postId} is not waiting for moderation (it is ${current.moderationStatus}).`);
        const now = changeTime(clock, current.updatedAt);
        await posts.setModeration(tx, current.id, decision, now);
        const next: Post = { ...current, moderationStatus: decision, updatedAt: now.toISOString() };
        if (decision === 'approved') await emit(tx, { event: 'post.created', organizationId: org, boardId: next.boardId, post: postSummary(next) }, now);
        return next;
      });
    },

    /** The posts waiting for moderation, oldest first (at most 100). */
    pending: (): Promise<Post[]> => posts.listPending(db, org, 100),

    /** Soft-delete a post: it leaves every listing and count; its row and slug stay. */
    async delete(postId: string): Promise<{ id: string; deleted: true }> {
      if (!(await posts.softDelete(db, org, postId, clock()))) throw new FeedbackError('ERR_NOT_FOUND', `No post with id ${postId}.`);
      return { id: postId, deleted: true };
    },

    /** A live post of the workspace. */
    retrieve: (postId: string): Promise<Post> => requireLivePost(db, org, postId),

    /**
     * `GET /v1/contacts/{contactId}/posts`: every live post attached to the contact, across boards, newest first;
     * keyset on (createdAt, id). An unknown contact is 404.
     */
    async listForContact(contactId: string, query: PageQueryInput = {}): Promise<Page<Post>> {
      const q = parseInput(pageQuerySchema, query);
      const key = readCursor(q.cursor, 'contact-posts');
      if (!(await contacts.exists(db, org, contactId))) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${contactId}.`);
      const rows = await posts.listForContact(db, org, contactId, q.limit + 1, key && { at: key[0] as number, id: key[1] as string });
      return toPage(rows, q.limit, 'contact-posts', (last) => [Date.parse(last.createdAt), last.id]);
    },
  };
}
export type PostsService = ReturnType<typeof createPostsService>;
