import type { Deleted, Page } from '../../schemas/common.js';
import {
  createVoteBodySchema,
  type ListPostVotesQuery,
  listPostVotesQuerySchema,
  type PostVote,
} from '../../schemas/votes.js';
import {
  FeedbackError,
  hashEmail,
  isId,
  isIntegerIn,
  isTime,
  newId,
  parseInput,
  readCursor,
  toPage,
  validationError,
} from '../shared/index.js';
import { companies, contacts, emit, postVotes, type Sql, votes, type WorkspaceContext } from '../store/index.js';
import { requireLivePost } from './references.js';

/** The votes with the companies of their voters (one read for the page). */
async function withCompanies(sql: Sql, rows: postVotes.PostVoteRow[]): Promise<PostVote[]> {
  const memberships = await companies.ofContacts(
    sql,
    rows.flatMap((r) => (r.voter ? [r.voter.id] : [])),
  );
  return rows.map((r) => ({
    ...r,
    companies: (r.voter ? (memberships.get(r.voter.id) ?? []) : []).map((c) => ({
      id: c.id,
      externalCompanyId: c.externalCompanyId,
      name: c.name,
    })),
  }));
}

/**
 * How a contact votes: by their user id (the workspace's externalUserId) where they have one, else by their address,
 * as the portal counts voters; a contact with neither by their contact id. Their earlier vote may carry any of these
 * keys, or the contact (one person, one vote: docs/identity.md).
 */
function voterOf(contact: { id: string; externalUserId: string | null; email: string | null }) {
  const emailHash = hashEmail(contact.email);
  const byUser = contact.externalUserId ? votes.voterKey(contact.externalUserId, '') : null;
  const byAddress = emailHash ? votes.voterKey(null, emailHash) : null;
  const voterKey = byUser ?? byAddress ?? `c:${contact.id}`;
  const keys = [...new Set([voterKey, ...(byAddress ? [byAddress] : [])])];
  return { emailHash, voterKey, person: { keys, contactId: contact.id } };
}

const isPosition = (sort: 'newest' | 'mrr') => (k: readonly unknown[]) =>
  k.length === 2 && (sort === 'newest' ? isTime(k[0]) : isIntegerIn(0, Number.MAX_SAFE_INTEGER)(k[0])) && isId(k[1]);

/** `GET /v1/posts/{postId}/votes`: newest first, or the voters paying in a currency by their revenue. */
export async function listVotes(
  { db, organizationId }: WorkspaceContext,
  postId: string,
  query: ListPostVotesQuery = {},
): Promise<Page<PostVote>> {
  const q = parseInput(listPostVotesQuerySchema, query);
  const sort = q.sort ?? 'newest';
  const kind = sort === 'mrr' ? `votes:mrr:${q.currency}` : 'votes:newest';
  const after = readCursor(q.cursor, kind, isPosition(sort)) as postVotes.VotePosition | undefined;
  const post = await requireLivePost(db, organizationId, postId);
  const rows =
    sort === 'mrr'
      ? await postVotes.byRevenue(db, post.id, q.currency!, q.limit + 1, after)
      : await postVotes.newest(db, post.id, q.limit + 1, after);
  const page = toPage(rows, q.limit, kind, (last) => [...postVotes.positionOf(last, sort)]);
  return { data: await withCompanies(db, page.data), nextCursor: page.nextCursor };
}

/**
 * `POST /v1/posts/{postId}/votes`: the contact votes (a backend voting for its signed-in user). One vote per voter and
 * post: when the contact (or the same user id or address) has voted, the existing vote is the answer (`created`
 * false) and nothing is written. Counted on the post, `vote.created`, and the post's impact (kept by the database).
 */
export async function createVote(
  { db, organizationId, clock }: WorkspaceContext,
  postId: string,
  body: unknown,
): Promise<{ vote: PostVote; created: boolean }> {
  const { contactId } = parseInput(createVoteBodySchema, body);
  return db.transaction(async (tx) => {
    const post = await requireLivePost(tx, organizationId, postId, true);
    if (post.mergedIntoId)
      throw new FeedbackError('ERR_CONFLICT', `Post ${post.id} is merged into ${post.mergedIntoId}: vote there.`);
    const contact = await contacts.find(tx, organizationId, contactId);
    if (!contact)
      throw validationError([
        { path: 'contactId', code: 'not_found', message: `No contact with id ${contactId} in this workspace.` },
      ]);
    const { emailHash, voterKey, person } = voterOf(contact);
    const answer = async (id: string, created: boolean) => ({
      vote: (await withCompanies(tx, [(await postVotes.one(tx, post.id, id))!]))[0]!,
      created,
    });
    const existing = await votes.findOnPost(tx, post.id, person);
    if (existing) return answer(existing.id, false);
    const now = clock();
    const id = newId('vote', now.getTime());
    const userId = contact.externalUserId;
    const counted = await votes.insert(tx, {
      id,
      organizationId,
      postId: post.id,
      userId,
      emailHash,
      voterKey,
      contactId: contact.id,
      createdAt: now,
    });
    if (counted === null) throw new FeedbackError('ERR_CONFLICT', 'This voter has already voted on this post.');
    const vote = { id, postId: post.id, userId, createdAt: now.toISOString() };
    await emit(tx, { event: 'vote.created', organizationId, boardId: post.boardId, vote }, now);
    return answer(id, true);
  });
}

/** `DELETE /v1/posts/{postId}/votes/{contactId}`: take the contact's vote back (`vote.deleted`); 404 without one. */
export async function deleteVote(
  { db, organizationId, clock }: WorkspaceContext,
  postId: string,
  contactId: string,
): Promise<Deleted> {
  return db.transaction(async (tx) => {
    const post = await requireLivePost(tx, organizationId, postId, true);
    const contact = await contacts.find(tx, organizationId, contactId);
    if (!contact) throw new FeedbackError('ERR_NOT_FOUND', `No contact with id ${contactId}.`);
    const vote = await votes.findOnPost(tx, post.id, voterOf(contact).person);
    if (!vote || !(await votes.remove(tx, vote.id, post.id)))
      throw new FeedbackError('ERR_NOT_FOUND', `Contact ${contactId} has no vote on post ${postId}.`);
    const now = clock();
    await emit(
      tx,
      {
        event: 'vote.deleted',
        organizationId,
        boardId: post.boardId,
        vote: { id: vote.id, postId: post.id, userId: vote.userId, createdAt: vote.createdAt },
      },
      now,
    );
    return { id: vote.id, deleted: true as const };
  });
}
