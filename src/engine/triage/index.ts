// The console's triage: every post of a workspace in one list, filtered and sorted as the team works (docs/console.md).
import type { CompanyRef } from '../../schemas/companies.js';
import type { ListPostsQuery, Post } from '../../schemas/posts.js';
import { toCompanyRef } from '../companies/index.js';
import { ROADMAP_STATUSES } from '../portal/index.js';
import type { Embeddings } from '../search/index.js';
import { answer, type Bindings, type CursorKey, FeedbackError, isId, readCursor, toPage } from '../shared/index.js';
import {
  boards,
  companies,
  postImpacts,
  postNotes,
  posts,
  postTags,
  triage,
  type WorkspaceContext,
} from '../store/index.js';
import { type MergeSuggestion, mergeSuggestions, type PossibleDuplicate, possibleDuplicates } from './duplicates.js';
import { listPosts } from './list.js';
import { isCount, searchedPage, sortedPage, type TriageSort } from './pages.js';

export type { MergeSuggestion, PossibleDuplicate };

export const ROADMAP_LIMIT = triage.ROADMAP_LIMIT;
export type TriageComment = triage.TriageComment;
export type TriagePost = triage.TriagePost;
/** A voter or an author as the post page shows them: with the companies their contact belongs to. */
export type TriageVoter = triage.TriageVoter & { companies: CompanyRef[] };
export type Impact = postImpacts.Impact;

/** How many voters (a page), comments and notes the post page shows. */
export const TRIAGE_POST_LIMITS = { voters: 25, comments: 500, notes: 500 };

/** The voters who pay nothing (free contacts, votes not linked to a contact), as a group of the post page's voters. */
export const FREE_VOTERS = 'free';

/** Which of a post's voters to show, a page at a time: paying in a currency (its code), or FREE_VOTERS. */
export interface VotersQuery {
  group?: string;
  cursor?: string;
}

/** A page of a post's voters: one currency's payers by revenue, or those who pay nothing, earliest first. */
export interface VoterPage<Voter = TriageVoter> {
  /** The group shown: a currency's code, or FREE_VOTERS. */
  group: string;
  /** Every group the post's voters fall in, with how many each holds (currencies by revenue, then FREE_VOTERS). */
  groups: Array<{ group: string; voters: number }>;
  data: Voter[];
  nextCursor: string | null;
}

/** A post as the team's post page shows it. */
export interface TriagePostDetail {
  post: Post;
  boardName: string;
  /** Where it was merged, if it was. */
  mergedInto: { id: string; title: string } | null;
  /** Its monthly revenue per currency: the distinct paying contacts who voted. */
  impact: Impact[];
  /** The tags it carries (ids). */
  tagIds: string[];
  /** Who wrote it: the name they gave, and their contact (with its companies) where it is linked to one. */
  author: { name: string | null; contact: TriageVoter | null };
  voters: VoterPage;
  comments: triage.TriageComment[];
  notes: postNotes.PostNoteRow[];
}

export { TRIAGE_SORTS, type TriageSort } from './pages.js';

/** The posts page's query: its filter (the store's, one definition), and the search, order and page. */
export interface TriageQuery extends triage.TriageFilter {
  /** Words to search titles and bodies for (docs/search.md): then the order is relevance. */
  q?: string;
  sort?: TriageSort;
  /** The currency the impact sort ranks by (default: the workspace's most common, see impactCurrency). */
  currency?: string;
  cursor?: string;
  limit?: number;
}

/** The posts with their impact per currency and their tags (one statement each for the page). */
async function withImpact<T extends { id: string }>(
  ctx: WorkspaceContext,
  list: T[],
): Promise<Array<T & { impact: Impact[]; tagIds: string[] }>> {
  const ids = list.map((p) => p.id);
  const [impact, tags] = await Promise.all([postImpacts.forPosts(ctx.db, ids), postTags.forPosts(ctx.db, ids)]);
  return list.map((p) => ({ ...p, impact: impact.get(p.id) ?? [], tagIds: tags.get(p.id) ?? [] }));
}

/**
 * The workspace's currency for impact: the one asked for if the workspace has it, else its most common (the one most
 * posts have paying voters in; ties alphabetically); null without any. The posts page, its form and the post page
 * all use it, so one rule holds everywhere.
 */
export function impactCurrency(
  known: ReadonlyArray<{ currency: string; posts: number }>,
  asked?: string,
): string | null {
  if (asked && known.some((k) => k.currency === asked)) return asked;
  return (
    known.reduce<{ currency: string; posts: number } | null>(
      (best, k) => (!best || k.posts > best.posts ? k : best),
      null,
    )?.currency ?? null
  );
}

const isVoterPosition = (k: CursorKey) => k.length === 2 && isCount(k[0]) && isId(k[1]);

/**
 * A page of the post's voters in `query.group` (default: the workspace's impact currency where the post has voters
 * paying in it, else the currency its voters pay most in, else FREE_VOTERS). An unknown group is the default.
 */
async function voterPage(
  ctx: WorkspaceContext,
  chooser: CurrencyChooser,
  post: Post,
  impact: Impact[],
  query: VotersQuery,
): Promise<VoterPage<triage.TriageVoter>> {
  const paying = impact.reduce((n, i) => n + i.payingVoters, 0);
  const groups = [
    ...impact.filter((i) => i.payingVoters > 0).map((i) => ({ group: i.currency, voters: i.payingVoters })),
    ...(post.voteCount > paying ? [{ group: FREE_VOTERS, voters: post.voteCount - paying }] : []),
  ];
  const known = (g: string | null | undefined) => (g && groups.some((x) => x.group === g) ? g : null);
  const { chosen: workspace } = await chooser();
  const group = known(query.group) ?? known(workspace) ?? groups[0]?.group ?? FREE_VOTERS;
  const kind = `triage:voters:${group}`;
  const after = readCursor(query.cursor, kind, isVoterPosition) as [number, string] | undefined;
  const limit = TRIAGE_POST_LIMITS.voters;
  const rows =
    group === FREE_VOTERS
      ? await triage.freeVoters(ctx.db, post.id, limit + 1, after)
      : await triage.payingVoters(ctx.db, ctx.organizationId, post, group, limit + 1, after);
  const page = toPage(rows, limit, kind, (last) => last.position);
  return { group, groups, data: page.data.map(({ position: _p, ...v }) => v), nextCursor: page.nextCursor };
}

/** A live post of the workspace with what the team sees of it; undefined for any other id. */
async function postDetail(
  ctx: WorkspaceContext,
  chooser: CurrencyChooser,
  postId: string,
  votersQuery: VotersQuery = {},
): Promise<TriagePostDetail | undefined> {
  const { db, organizationId } = ctx;
  const post = await posts.findLive(db, organizationId, postId);
  if (!post) return undefined;
  const impact = await postImpacts.forPosts(db, [post.id]).then((m) => m.get(post.id) ?? []);
  const [board, target, tagIds, author, voters, comments, notes] = await Promise.all([
    boards.find(db, organizationId, post.boardId),
    post.mergedIntoId ? posts.findLive(db, organizationId, post.mergedIntoId) : undefined,
    postTags.forPosts(db, [post.id]).then((m) => m.get(post.id) ?? []),
    triage.authorOf(db, post.id),
    voterPage(ctx, chooser, post, impact, votersQuery).catch((err: unknown) => {
      // A cursor that is not this group's (edited, or of another group): the group's first page.
      if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION')
        return voterPage(ctx, chooser, post, impact, { group: votersQuery.group });
      throw err;
    }),
    triage.comments(db, post.id, TRIAGE_POST_LIMITS.comments),
    postNotes.listForPost(db, post.id, TRIAGE_POST_LIMITS.notes),
  ]);
  const mergedInto = target ? { id: target.id, title: target.title } : null;
  // The companies of the author and of the page's voters, in one read.
  const people = [author.contact, ...voters.data].flatMap((v) => (v?.contactId ? [v.contactId] : []));
  const memberships = await companies.ofContacts(db, people);
  const withCompanies = (v: triage.TriageVoter): TriageVoter => ({
    ...v,
    companies: (v.contactId ? (memberships.get(v.contactId) ?? []) : []).map(toCompanyRef),
  });
  return {
    post,
    boardName: board?.name ?? '',
    mergedInto,
    impact,
    tagIds,
    author: { name: author.name, contact: author.contact && withCompanies(author.contact) },
    voters: { ...voters, data: voters.data.map(withCompanies) },
    comments,
    notes,
  };
}

/**
 * A page of the workspace's live, unmerged posts (held ones too), most votes first by default; with the currencies
 * its impact is in (what the page offers to rank by) and the one this page ranks by.
 */
async function postsPage(ctx: WorkspaceContext, chooser: CurrencyChooser, query: TriageQuery = {}) {
  const { q, sort: asked, currency: askedCurrency, cursor, limit: askedLimit, ...filter } = query;
  const limit = Math.min(Math.max(askedLimit ?? 50, 1), 100);
  // The currency the page ranks by, or would rank by: the form shows it chosen whatever the sort.
  const { currencies, chosen } = await chooser(askedCurrency);
  if (q !== undefined && q.trim() !== '') {
    const page = await searchedPage(ctx, q, filter, limit, cursor);
    const data = await withImpact(
      ctx,
      page.data.map(({ position: _p, ...post }) => post),
    );
    return { data, nextCursor: page.nextCursor, sort: 'relevance' as const, currencies, currency: chosen };
  }
  const sort = asked ?? 'votes';
  const currency = sort === 'impact' ? chosen : undefined;
  const page = await sortedPage(ctx, sort, currency, filter, limit, cursor);
  const data = await withImpact(
    ctx,
    page.data.map(({ position: _p, ...post }) => post),
  );
  return { data, nextCursor: page.nextCursor, sort, currencies, currency: chosen };
}

/** The workspace's currencies, and the one impact is in: the one asked for if the workspace has it, else its most common. */
type CurrencyChooser = (asked?: string) => Promise<{ currencies: string[]; chosen: string | null }>;

/** How long the workspace's most common currency is kept once counted (the count reads up to 10,000 index entries each). */
export const MOST_COMMON_CURRENCY_TTL_MS = 60_000;

/**
 * The reader's currency rule: the currencies are read fresh each time (one index seek each); which is the most common
 * is counted at most once a minute, or again as soon as the currencies change.
 */
function currencyChooser(ctx: WorkspaceContext): CurrencyChooser {
  let kept: { at: number; known: string; shares: Promise<Array<{ currency: string; posts: number }>> } | null = null;
  return async (asked) => {
    const currencies = await postImpacts.currencies(ctx.db, ctx.organizationId);
    if (asked && currencies.includes(asked)) return { currencies, chosen: asked };
    const now = ctx.clock().getTime();
    if (!kept || now - kept.at >= MOST_COMMON_CURRENCY_TTL_MS || kept.known !== currencies.join())
      kept = {
        at: now,
        known: currencies.join(),
        shares: postImpacts.currencyShares(ctx.db, ctx.organizationId, currencies),
      };
    const shares = kept.shares;
    shares.catch(() => {
      kept = null;
    });
    return { currencies, chosen: impactCurrency(await shares) };
  };
}

/** What the console reads of a workspace (built once per workspace). */
export function createTriageReader(ctx: WorkspaceContext & { embeddings?: Embeddings }) {
  const chooser = currencyChooser(ctx);
  return {
    post: (postId: string, voters?: VotersQuery) => postDetail(ctx, chooser, postId, voters),
    /** The roadmap's columns (planned, in progress, shipped; or those asked for), each its first ROADMAP_LIMIT posts in order. */
    async roadmap(statuses: readonly (typeof ROADMAP_STATUSES)[number][] = ROADMAP_STATUSES) {
      const columns = await Promise.all(
        statuses.map((status) => triage.roadmapColumn(ctx.db, ctx.organizationId, status, triage.ROADMAP_LIMIT)),
      );
      return statuses.map((status, i) => ({ status, posts: columns[i]! }));
    },
    /** The titles of these posts of the workspace, by id (what the audit log names). */
    titles: (ids: readonly string[]) => triage.titles(ctx.db, ctx.organizationId, [...new Set(ids)].slice(0, 500)),
    /** The currencies the workspace's impact is in (those of its paying voters), alphabetically, and its most common. */
    async currencies() {
      const { currencies, chosen } = await chooser();
      return { currencies, mostCommon: chosen };
    },
    posts: (query: TriageQuery = {}) => postsPage(ctx, chooser, query),
    /** The workspace's posts most alike this one (possible duplicates), but those the team dismissed with it. */
    duplicates: (postId: string) => possibleDuplicates(ctx, postId),
    /** Merge suggestions among the newest posts, most alike first. */
    mergeSuggestions: () => mergeSuggestions(ctx),
    /** `GET /v1/posts`: the API's list of the workspace's posts. */
    list: (query?: ListPostsQuery) => listPosts(ctx, query),
  };
}
export type TriageReader = ReturnType<typeof createTriageReader>;

/** The contract's operations the triage reader does: the posts list. */
export const TRIAGE_OPERATIONS = {
  listPosts: (reader, { input }) => answer(reader.list(input)),
} satisfies Bindings<TriageReader>;
