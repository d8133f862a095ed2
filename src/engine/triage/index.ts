// The console's triage: every post of a workspace in one list, filtered and sorted as the team works (docs/console.md).
import type { PostStatus } from '../../schemas/posts.js';
import { isFiniteNumber, isId, isIntegerIn, isRelevancePosition, isTime, parseSearch, readCursor, toPage, type CursorKey } from '../shared/index.js';
import { boards, postNotes, posts, search, type WorkspaceContext } from '../store/index.js';
import type { Actor } from '../team/index.js';
import type { Post } from '../../schemas/posts.js';
import { createTriageActions } from './actions.js';
import * as triage from './sql.js';

export type { TriageActions } from './actions.js';
export type { Impact, TriageComment, TriagePost, TriageVoter } from './sql.js';

/** How many voters, comments and notes the post page shows (the most paying voters first). */
export const TRIAGE_POST_LIMITS = { voters: 100, comments: 500, notes: 500 };

/** A post as the team's post page shows it. */
export interface TriagePostDetail {
  post: Post;
  boardName: string;
  /** Where it was merged, if it was. */
  mergedInto: { id: string; title: string } | null;
  /** Its monthly revenue per currency: the distinct paying contacts who voted. */
  impact: triage.Impact[];
  voters: triage.TriageVoter[];
  comments: triage.TriageComment[];
  notes: postNotes.PostNoteRow[];
}

export const TRIAGE_SORTS = ['votes', 'newest'] as const;
export type TriageSort = (typeof TRIAGE_SORTS)[number];

export interface TriageQuery {
  boardId?: string;
  status?: PostStatus;
  /** Only posts waiting for moderation. */
  held?: boolean;
  /** Only posts created after this time ("new since I last looked"). */
  since?: Date;
  /** Words to search titles and bodies for (docs/search.md): then the order is relevance. */
  q?: string;
  sort?: TriageSort;
  cursor?: string;
  limit?: number;
}

const isVotesPosition = (k: CursorKey) => k.length === 3 && isIntegerIn(0, Number.MAX_SAFE_INTEGER)(k[0]) && isTime(k[1]) && isId(k[2]);
const isNewestPosition = (k: CursorKey) => k.length === 3 && isFiniteNumber(k[0]) && isTime(k[1]) && isId(k[2]);

/** What the console reads of a workspace (built once per workspace), and its actions as a team member. */
export function createTriageReader(ctx: WorkspaceContext) {
  return {
    /** The actions of one team member (or the command line), each checked against their role and audited. */
    as: (actor: Actor) => createTriageActions(ctx, actor),

    /** A live post of the workspace with what the team sees of it; undefined for any other id. */
    async post(postId: string): Promise<TriagePostDetail | undefined> {
      const post = await posts.findLive(ctx.db, ctx.organizationId, postId);
      if (!post) return undefined;
      const [board, target, impact, voters, comments, notes] = await Promise.all([
        boards.find(ctx.db, ctx.organizationId, post.boardId),
        post.mergedIntoId ? posts.findLive(ctx.db, ctx.organizationId, post.mergedIntoId) : undefined,
        triage.impact(ctx.db, post.id),
        triage.voters(ctx.db, post.id, TRIAGE_POST_LIMITS.voters),
        triage.comments(ctx.db, post.id, TRIAGE_POST_LIMITS.comments),
        postNotes.listForPost(ctx.db, post.id, TRIAGE_POST_LIMITS.notes),
      ]);
      return { post, boardName: board?.name ?? '', mergedInto: target ? { id: target.id, title: target.title } : null, impact, voters, comments, notes };
    },

    /** A page of the workspace's live, unmerged posts (held ones too), most votes first by default. */
    async posts(query: TriageQuery = {}) {
      const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
      const filter = { boardId: query.boardId, status: query.status, held: query.held, since: query.since };
      const terms = query.q ? parseSearch(query.q) : [];
      if (query.q !== undefined && query.q.trim() !== '') {
        const position = readCursor(query.cursor, 'triage:relevance', isRelevancePosition) as triage.RelevancePosition | undefined;
        await search.indexPending(ctx.db);
        const rows = terms.length ? await triage.searchPosts(ctx.db, ctx.organizationId, terms, filter, limit + 1, position) : [];
        const page = toPage(rows, limit, 'triage:relevance', (last) => [...last.position]);
        return { data: page.data.map(({ position: _p, ...post }) => post), nextCursor: page.nextCursor, sort: 'relevance' as const };
      }
      const sort = query.sort ?? 'votes';
      const kind = `triage:${sort}`;
      const position = readCursor(query.cursor, kind, sort === 'votes' ? isVotesPosition : isNewestPosition) as [number, number, string] | undefined;
      const rows = await triage.posts(ctx.db, ctx.organizationId, sort, filter, limit + 1, position);
      const page = toPage(rows, limit, kind, (last) => [...last.position]);
      return { data: page.data.map(({ position: _p, ...post }) => post), nextCursor: page.nextCursor, sort };
    },
  };
}
export type TriageReader = ReturnType<typeof createTriageReader>;
