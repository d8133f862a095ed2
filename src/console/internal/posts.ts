import { html } from '@remix-run/html-template';
import type { H3 } from 'h3';
import { CONSOLE_PATH, FeedbackError, TRIAGE_SORTS, type Impact, type Team, type TriagePost, type TriageQuery, type TriageSort } from '../../engine/index.js';
import { POST_STATUSES, POST_STATUS_LABELS, type PostStatus } from '../../schemas/posts.js';
import { htmlResponse } from '../../h3/index.js';
import { money, page, type Frame } from './layout.js';
import type { ConsoleSite } from './site.js';

const label = (status: PostStatus) => POST_STATUS_LABELS[status];

/** The query the page's filter form and links carry, read leniently: an unknown value is no filter. */
function queryOf(params: URLSearchParams): TriageQuery {
  const status = params.get('status') ?? '';
  const sort = params.get('sort') ?? '';
  return {
    boardId: params.get('board') || undefined,
    status: (POST_STATUSES as readonly string[]).includes(status) ? (status as PostStatus) : undefined,
    held: params.get('held') === '1' || undefined,
    q: params.get('q')?.trim() || undefined,
    sort: (TRIAGE_SORTS as readonly string[]).includes(sort) ? (sort as TriageQuery['sort']) : undefined,
    currency: params.get('currency') || undefined,
    cursor: params.get('cursor') || undefined,
  };
}

const SORT_LABELS: Record<TriageSort, string> = { votes: 'Most votes', newest: 'Newest', impact: 'Impact (revenue of voters)' };

function filters(team: Team, query: TriageQuery, boards: Array<{ id: string; name: string }>, currencies: string[], currency: string | null) {
  const option = (value: string, text: string, selected: boolean) => html`<option value="${value}"${selected ? html.raw` selected` : ''}>${text}</option>`;
  return html`<form class="filters" method="get" action="${CONSOLE_PATH}/${team.organizationId}/posts" role="search">
<label>Search <input type="search" name="q" value="${query.q ?? ''}"></label>
<label>Board <select name="board">${option('', 'All boards', !query.boardId)}${boards.map((b) => option(b.id, b.name, b.id === query.boardId))}</select></label>
<label>Status <select name="status">${option('', 'Any status', !query.status)}${POST_STATUSES.map((s) => option(s, label(s), s === query.status))}</select></label>
<label>Sort <select name="sort">${TRIAGE_SORTS.map((s) => option(s, SORT_LABELS[s], s === (query.sort ?? 'votes')))}</select></label>
${currencies.length > 1 ? html`<label>Currency <select name="currency">${currencies.map((c) => option(c, c, c === currency))}</select></label>` : ''}
<label class="check"><input type="checkbox" name="held" value="1"${query.held ? html.raw` checked` : ''}> Held for moderation</label>
<button type="submit">Show</button>
</form>`;
}

const impactText = (impact: Impact[]) => impact.map((i) => `${money(i.mrrCents, i.currency)} (${i.payingVoters})`).join(' · ');

function table(team: Team, posts: Array<TriagePost & { impact: Impact[] }>, sort: string) {
  if (posts.length === 0) return html`<p>${sort === 'impact' ? 'No post matches with paying voters in this currency. Sort by votes to see every post.' : 'No posts match.'}</p>`;
  return html`<table>
<caption class="muted">Posts of every board</caption>
<thead><tr><th scope="col">Post</th><th scope="col">Board</th><th scope="col">Status</th><th scope="col" class="num">Votes</th><th scope="col" class="num">Impact <span class="muted">(paying voters)</span></th><th scope="col" class="num">Comments</th><th scope="col">Created</th></tr></thead>
<tbody>${posts.map(
    (p) => html`<tr><td><a href="${CONSOLE_PATH}/${team.organizationId}/posts/${p.id}">${p.title}</a>${p.moderationStatus === 'pending' ? html` <span class="held">held</span>` : ''}</td><td>${p.boardName}</td><td>${label(p.status)}</td><td class="num">${p.voteCount}</td><td class="num">${impactText(p.impact)}</td><td class="num">${p.commentCount}</td><td><time datetime="${p.createdAt}">${p.createdAt.slice(0, 10)}</time></td></tr>`,
  )}</tbody>
</table>`;
}

/** The posts page: every post of the workspace's boards in one list, filtered, searched and sorted. */
export function mountPosts(router: H3, site: ConsoleSite): void {
  router.get(`${CONSOLE_PATH}/:org/posts`, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    const { v, team } = m;
    const query = queryOf(event.url.searchParams);
    const w = site.engine.workspace(team.organizationId);
    let result;
    try {
      result = await w.triage.posts(query);
    } catch (err) {
      if (!(err instanceof FeedbackError) || err.code !== 'ERR_VALIDATION') throw err;
      result = await w.triage.posts({ ...query, cursor: undefined });
    }
    const boards = (await w.boards.list({ limit: 100 })).data;
    const next = result.nextCursor && new URLSearchParams({ ...Object.fromEntries(event.url.searchParams), cursor: result.nextCursor });
    const frame: Frame = { ...v.frame, title: 'Posts', section: 'posts', team };
    const body = html`<h1>Posts</h1>
${filters(team, query, boards, await w.triage.currencies(), result.currency)}
${table(team, result.data, result.sort)}
${next ? html`<p class="pager"><a href="${CONSOLE_PATH}/${team.organizationId}/posts?${next.toString()}" rel="next">Next page</a></p>` : ''}`;
    return htmlResponse(200, page(frame, body), v.cookies);
  });
}
