import {
  type ChangelogEntryDetail,
  createChangelogEntryBodySchema,
  listChangelogQuerySchema,
  publishChangelogEntryBodySchema,
  updateChangelogEntryBodySchema,
} from '../../schemas/changelog.js';
import type { Deleted, Page } from '../../schemas/common.js';
import type { ChangelogEntry } from '../../schemas/interactions.js';
import { answer, type Bindings, FeedbackError, pageByCreation, parseInput } from '../shared/index.js';
import { changelogEntries, type Sql, type WorkspaceContext } from '../store/index.js';
import { changelogCore, create, linkIn, publish, requireDraft } from './service.js';

// The changelog over the API: the console's rules (drafts edited until published once, with their mail through the
// consent rule), each write in one transaction.

const withPosts = async (sql: Sql, entry: ChangelogEntry): Promise<ChangelogEntryDetail> => ({
  ...entry,
  postIds: await changelogEntries.postsOf(sql, entry.id),
});

async function requireEntry({ db, organizationId }: WorkspaceContext, entryId: string): Promise<ChangelogEntry> {
  const entry = await changelogEntries.find(db, organizationId, entryId);
  if (!entry) throw new FeedbackError('ERR_NOT_FOUND', `No changelog entry with id ${entryId}.`);
  return entry;
}

/** `GET /v1/changelog`: the workspace's entries (of a board, in a status), newest first. */
export async function listEntries(ctx: WorkspaceContext, query: unknown = {}): Promise<Page<ChangelogEntryDetail>> {
  const q = parseInput(listChangelogQuerySchema, query);
  const filter = { ...(q.boardId && { boardId: q.boardId }), ...(q.status && { status: q.status }) };
  const { data, nextCursor } = await pageByCreation(
    'changelog',
    q,
  )((limit, after) => changelogEntries.page(ctx.db, ctx.organizationId, filter, limit, after));
  return { data: await Promise.all(data.map((e) => withPosts(ctx.db, e))), nextCursor };
}

/** `POST /v1/changelog`: a draft on a board, with the posts it ships, in one transaction. */
export async function createEntry(ctx: WorkspaceContext, body: unknown): Promise<ChangelogEntryDetail> {
  const { postIds, ...input } = parseInput(createChangelogEntryBodySchema, body);
  return withPosts(ctx.db, await create(ctx, input, postIds));
}

/** `PATCH /v1/changelog/{entryId}`: a draft's title, body or posts (a published entry is 409). */
export async function updateEntry(
  { db, organizationId, clock }: WorkspaceContext,
  entryId: string,
  body: unknown,
): Promise<ChangelogEntryDetail> {
  const input = parseInput(updateChangelogEntryBodySchema, body);
  return db.transaction(async (tx) => {
    const entry = await requireDraft(tx, organizationId, entryId);
    const next = {
      ...entry,
      ...(input.title !== undefined && { title: input.title }),
      ...(input.body !== undefined && { body: input.body }),
    };
    if (next.title !== entry.title || next.body !== entry.body) {
      next.updatedAt = clock().toISOString();
      await changelogEntries.update(tx, next);
    }
    if (input.postIds !== undefined) await linkIn(tx, organizationId, entryId, [...new Set(input.postIds)]);
    return withPosts(tx, next);
  });
}

/** `DELETE /v1/changelog/{entryId}`: a draft goes; a published entry stays (409): it was announced and mailed. */
export async function deleteEntry({ db, organizationId }: WorkspaceContext, entryId: string): Promise<Deleted> {
  return db.transaction(async (tx) => {
    await requireDraft(tx, organizationId, entryId);
    await changelogEntries.removeDraft(tx, entryId);
    return { id: entryId, deleted: true as const };
  });
}

/** `POST /v1/changelog/{entryId}/publish`: as the console publishes (`shipPosts`: the linked posts become shipped). */
export async function publishEntry(
  ctx: WorkspaceContext,
  entryId: string,
  body: unknown,
): Promise<ChangelogEntryDetail> {
  const { shipPosts } = parseInput(publishChangelogEntryBodySchema, body);
  return withPosts(ctx.db, await publish(ctx, entryId, { ship: shipPosts === true }));
}

/** A workspace's changelog: entries per board, drafts published once. Built once per workspace. */
export function createChangelogService(ctx: WorkspaceContext) {
  return {
    ...changelogCore(ctx),
    page: (query?: unknown) => listEntries(ctx, query),
    createEntry: (body: unknown) => createEntry(ctx, body),
    detail: async (entryId: string) => withPosts(ctx.db, await requireEntry(ctx, entryId)),
    updateEntry: (entryId: string, body: unknown) => updateEntry(ctx, entryId, body),
    deleteEntry: (entryId: string) => deleteEntry(ctx, entryId),
    publishEntry: (entryId: string, body: unknown) => publishEntry(ctx, entryId, body),
  };
}
export type ChangelogService = ReturnType<typeof createChangelogService>;

/** The contract's changelog operations, on the workspace's changelog service. */
export const CHANGELOG_OPERATIONS = {
  listChangelogEntries: (service, { input }) => answer(service.page(input)),
  createChangelogEntry: (service, { input }) => answer(service.createEntry(input)),
  retrieveChangelogEntry: (service, { params }) => answer(service.detail(params.entryId!)),
  updateChangelogEntry: (service, { params, input }) => answer(service.updateEntry(params.entryId!, input)),
  deleteChangelogEntry: (service, { params }) => answer(service.deleteEntry(params.entryId!)),
  publishChangelogEntry: (service, { params, input }) => answer(service.publishEntry(params.entryId!, input)),
} satisfies Bindings<ChangelogService>;
