import type { Deleted, Page } from '../../schemas/common.js';
import { type PageQueryInput, type PostDetail, pageQuerySchema } from '../../schemas/posts.js';
import { setPostTagsBodySchema, tagBodySchema } from '../../schemas/tags.js';
import {
  answer,
  type Bindings,
  FeedbackError,
  newId,
  pageByCreation,
  parseInput,
  postSummary,
  slugify,
} from '../shared/index.js';
import { emit, posts, postTags, tags, type WorkspaceContext } from '../store/index.js';
import { withDetail } from './details.js';
import { update } from './update.js';

export type Tag = tags.TagRow;

const taken = (slug: string) => new FeedbackError('ERR_CONFLICT', `A tag with slug ${slug} already exists.`);

/** `POST /v1/tags`: a tag; its slug derives from the name and is unique in the workspace (409 when taken). */
export async function createTag({ db, organizationId, clock }: WorkspaceContext, body: unknown): Promise<Tag> {
  const { name } = parseInput(tagBodySchema, body);
  const now = clock();
  const tag: Tag = {
    id: newId('tag', now.getTime()),
    organizationId,
    name,
    slug: slugify(name),
    createdAt: now.toISOString(),
  };
  if (!(await tags.insert(db, tag))) throw taken(tag.slug);
  return tag;
}

/** `PATCH /v1/tags/{tagId}`: a new name, and the slug that follows from it (409 when another tag has it). */
export async function renameTag({ db, organizationId }: WorkspaceContext, tagId: string, body: unknown): Promise<Tag> {
  const { name } = parseInput(tagBodySchema, body);
  return db.transaction(async (tx) => {
    const current = await requireTag(tx, organizationId, tagId);
    const next = { ...current, name, slug: slugify(name) };
    if (next.name === current.name) return current;
    if (!(await tags.rename(tx, next))) throw taken(next.slug);
    return next;
  });
}

/**
 * `DELETE /v1/tags/{tagId}`: the tag goes, and every post that carried it loses it (each announced post with its
 * `post.updated`, `changes.tagIds`), in one transaction.
 */
export async function deleteTag({ db, organizationId, clock }: WorkspaceContext, tagId: string): Promise<Deleted> {
  return db.transaction(async (tx) => {
    const tag = await requireTag(tx, organizationId, tagId);
    const carrying = await posts.findLiveMany(tx, organizationId, await postTags.postsWith(tx, tag.id));
    const had = await postTags.forPosts(
      tx,
      carrying.map((p) => p.id),
    );
    await tags.remove(tx, tag.id);
    const now = clock();
    for (const post of carrying) {
      if (post.moderationStatus !== 'approved') continue;
      const from = had.get(post.id) ?? [];
      const changes = { tagIds: { from, to: from.filter((id) => id !== tag.id) } };
      await emit(
        tx,
        { event: 'post.updated', organizationId, boardId: post.boardId, post: postSummary(post), changes },
        now,
      );
    }
    return { id: tag.id, deleted: true as const };
  });
}

async function requireTag(sql: Parameters<typeof tags.find>[0], organizationId: string, id: string): Promise<Tag> {
  const tag = await tags.find(sql, organizationId, id);
  if (!tag) throw new FeedbackError('ERR_NOT_FOUND', `No tag with id ${id}.`);
  return tag;
}

/** `GET /v1/tags`: the workspace's tags, oldest first. */
export async function listTags(
  { db, organizationId }: WorkspaceContext,
  query: PageQueryInput = {},
): Promise<Page<Tag>> {
  const page = pageByCreation('tags', parseInput(pageQuerySchema, query));
  return page((limit, after) => tags.page(db, organizationId, limit, after));
}

/** `PUT /v1/posts/{postId}/tags`: the post's tags, exactly, as PATCH's `tagIds` sets them (with `post.updated`). */
export async function setPostTags(ctx: WorkspaceContext, postId: string, body: unknown): Promise<PostDetail> {
  const { tagIds } = parseInput(setPostTagsBodySchema, body);
  return withDetail(ctx.db, await update(ctx, postId, { tagIds }));
}

/** Workspace-scoped tags (a post carries at most three). Built once per workspace. */
export function createTagsService(ctx: WorkspaceContext) {
  return {
    create: (body: { name: string } | Record<string, unknown>) => createTag(ctx, body),
    /** Every tag of the workspace, by name. */
    list: (): Promise<Tag[]> => tags.list(ctx.db, ctx.organizationId),
    page: (query?: PageQueryInput) => listTags(ctx, query),
    rename: (tagId: string, body: unknown) => renameTag(ctx, tagId, body),
    delete: (tagId: string) => deleteTag(ctx, tagId),
    setForPost: (postId: string, body: unknown) => setPostTags(ctx, postId, body),
  };
}
export type TagsService = ReturnType<typeof createTagsService>;

/** The contract's tag operations, on this service. */
export const TAG_OPERATIONS = {
  listTags: (service, { input }) => answer(service.page(input)),
  createTag: (service, { input }) => answer(service.create(input)),
  updateTag: (service, { params, input }) => answer(service.rename(params.tagId!, input)),
  deleteTag: (service, { params }) => answer(service.delete(params.tagId!)),
  setPostTags: (service, { params, input }) => answer(service.setForPost(params.postId!, input)),
} satisfies Bindings<TagsService>;
