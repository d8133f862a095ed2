import type { Post } from '../../schemas/posts.js';
import { CONSOLE_PATH } from '../members/index.js';
import { pathsOf } from '../shared/index.js';
import { boards, organizations, postImpacts, type Sql } from '../store/index.js';

/**
 * Where people read a post: the team in the console, everyone on the portal (when it is on, for a public board). The
 * post's board, when the caller read it already.
 */
export async function postAddresses(
  sql: Sql,
  organizationId: string,
  post: Pick<Post, 'id' | 'boardId' | 'slug'>,
  publicUrl: string | undefined,
  known?: { board: boards.BoardRow | undefined },
): Promise<{ console: string | null; portal: string | null }> {
  if (!publicUrl) return { console: null, portal: null };
  const base = publicUrl.replace(/\/+$/, '');
  const [org, board] = await Promise.all([
    organizations.find(sql, organizationId),
    known ? known.board : boards.find(sql, organizationId, post.boardId),
  ]);
  const portal =
    org?.handle && org.portalEnabled && board?.isPublic
      ? `${base}${pathsOf(org.handle).post(board.slug, post.slug)}`
      : null;
  return { console: `${base}${CONSOLE_PATH}/${organizationId}/posts/${post.id}`, portal };
}

/** An amount in cents as the services' messages show revenue: its currency, no cents (`$2,500`). */
export const wholeMoney = (cents: number, currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency, maximumFractionDigits: 0 }).format(cents / 100);

/** A post's impact in words: its voters, and the monthly revenue of the companies behind them per currency. */
export async function impactLine(sql: Sql, post: Pick<Post, 'id' | 'voteCount'>): Promise<string> {
  const impact = (await postImpacts.forPosts(sql, [post.id])).get(post.id) ?? [];
  const money = impact.filter((i) => i.mrrCents > 0).map((i) => wholeMoney(i.mrrCents, i.currency));
  const votes = `${post.voteCount} ${post.voteCount === 1 ? 'vote' : 'votes'}`;
  return money.length ? `${votes} · ${money.join(' + ')} monthly revenue behind it` : votes;
}
