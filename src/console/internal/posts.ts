import { html } from '@remix-run/html-template';
import type { H3 } from 'h3';
import {
  allows,
  type BulkAction,
  CONSOLE_PATH,
  FeedbackError,
  type Impact,
  type Team,
  TRIAGE_SORTS,
  type TriagePost,
  type TriageQuery,
  type TriageSort,
} from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import { POST_STATUS_LABELS, POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { type Frame, money, page, when } from './layout.js';
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
    tagId: params.get('tag') || undefined,
    voterPlan: params.get('plan')?.trim() || undefined,
    cursor: params.get('cursor') || undefined,
  };
}

const SORT_LABELS: Record<TriageSort, string> = {
  votes: 'Most votes',
  newest: 'Newest',
  trending: 'Trending (votes this week)',
  impact: 'Impact (revenue of voters)',
};

type Named = Array<{ id: string; name: string }>;

function filters(
  team: Team,
  query: TriageQuery & { fresh?: boolean },
  boards: Named,
  tags: Named,
  currencies: string[],
  currency: string | null,
  lastLook: Date | null,
) {
  const option = (value: string, text: string, selected: boolean) =>
    html`<option value="${value}"${selected ? html.raw` selected` : ''}>${text}</option>`;
  return html`<form class="filters" method="get" action="${CONSOLE_PATH}/${team.organizationId}/posts" role="search">
<label>Search <input type="search" name="q" value="${query.q ?? ''}"></label>
<label>Board <select name="board">${option('', 'All boards', !query.boardId)}${boards.map((b) => option(b.id, b.name, b.id === query.boardId))}</select></label>
<label>Status <select name="status">${option('', 'Any status', !query.status)}${POST_STATUSES.map((s) => option(s, label(s), s === query.status))}</select></label>
${tags.length ? html`<label>Tag <select name="tag">${option('', 'Any tag', !query.tagId)}${tags.map((t) => option(t.id, t.name, t.id === query.tagId))}</select></label>` : ''}
<label>Voters' plan <input name="plan" size="10" value="${query.voterPlan ?? ''}"></label>
<label>Sort <select name="sort">${TRIAGE_SORTS.map((s) => option(s, SORT_LABELS[s], s === (query.sort ?? 'votes')))}</select></label>
${currencies.length > 1 ? html`<label>Currency <select name="currency">${currencies.map((c) => option(c, c, c === currency))}</select></label>` : ''}
<label class="check"><input type="checkbox" name="held" value="1"${query.held ? html.raw` checked` : ''}> Held for moderation</label>
${lastLook ? html`<label class="check"><input type="checkbox" name="new" value="1"${query.fresh ? html.raw` checked` : ''}> New since my last look <span class="muted">(${when(lastLook.toISOString(), 'minute')} UTC)</span></label>` : ''}
<button type="submit">Show</button>
</form>`;
}

const impactText = (impact: Impact[]) =>
  impact.map((i) => `${money(i.mrrCents, i.currency)} (${i.payingVoters})`).join(' · ');

/** The bulk form's choices: a status, a tag to add, approve or reject held posts. */
function bulkControls(tags: Named, boards: Named) {
  return html`<div class="bulk"><label for="bulk-action">With the chosen posts</label>
<select id="bulk-action" name="action">
<optgroup label="Set the status">${POST_STATUSES.map((s) => html`<option value="status:${s}">${label(s)}</option>`)}</optgroup>
${tags.length ? html`<optgroup label="Add a tag">${tags.map((t) => html`<option value="tag:${t.id}">${t.name}</option>`)}</optgroup>` : ''}
${boards.length > 1 ? html`<optgroup label="Move to the board">${boards.map((b) => html`<option value="move:${b.id}">${b.name}</option>`)}</optgroup>` : ''}
<optgroup label="Held for moderation"><option value="approve">Approve</option><option value="reject">Reject as spam</option></optgroup>
</select> <button type="submit">Apply</button></div>`;
}

function table(
  team: Team,
  posts: Array<TriagePost & { impact: Impact[]; tagIds: string[] }>,
  sort: string,
  tags: Named,
  boards: Named,
  mayTriage: boolean,
  csrf: string,
) {
  const none: Record<string, string> = {
    impact: 'No post matches with paying voters in this currency. Sort by votes to see every post.',
    trending: 'No post that matches got a vote in the last 7 days. Sort by votes to see every post.',
  };
  if (posts.length === 0) return html`<p>${none[sort] ?? 'No posts match.'}</p>`;
  const tagName = new Map(tags.map((t) => [t.id, t.name]));
  const rows = html`<table class="posts">
<caption class="muted">Posts of every board <span class="keys">(keys: j and k move, x ticks, Enter opens, / searches)</span></caption>
<thead><tr>${mayTriage ? html`<th scope="col"><span class="sr-only">Choose</span></th>` : ''}<th scope="col">Post</th><th scope="col">Board</th><th scope="col">Status</th><th scope="col" class="num">Votes</th><th scope="col" class="num">Impact <span class="muted">(paying voters)</span></th><th scope="col" class="num">Comments</th><th scope="col">Created</th></tr></thead>
<tbody>${posts.map(
    (p) =>
      html`<tr>${mayTriage ? html`<td><input type="checkbox" name="post" value="${p.id}" id="pick-${p.id}" aria-label="Choose ${p.title}"></td>` : ''}<td><a href="${CONSOLE_PATH}/${team.organizationId}/posts/${p.id}">${p.title}</a>${p.moderationStatus === 'pending' ? html` <span class="held">held</span>` : ''}${p.tagIds.map((id) => html` <span class="tag">${tagName.get(id) ?? ''}</span>`)}</td><td>${p.boardName}</td><td>${label(p.status)}</td><td class="num">${p.voteCount}</td><td class="num">${impactText(p.impact)}</td><td class="num">${p.commentCount}</td><td>${when(p.createdAt)}</td></tr>`,
  )}</tbody>
</table>`;
  if (!mayTriage) return rows;
  return html`<form method="post" action="${CONSOLE_PATH}/${team.organizationId}/posts/bulk"><input type="hidden" name="csrf" value="${csrf}">${bulkControls(tags, boards)}${rows}</form>`;
}

/** A bulk form's action, or null when it is not one of the page's choices. */
function bulkAction(value: string): BulkAction | null {
  if (value === 'approve' || value === 'reject') return { kind: value };
  const [kind, arg] = [value.slice(0, value.indexOf(':')), value.slice(value.indexOf(':') + 1)];
  if (kind === 'status' && (POST_STATUSES as readonly string[]).includes(arg))
    return { kind, status: arg as PostStatus };
  if (kind === 'tag' && arg) return { kind, tagId: arg };
  if (kind === 'move' && arg) return { kind, boardId: arg };
  return null;
}

/** The posts page: every post of the workspace's boards in one list, filtered, searched and sorted; bulk actions. */
export function mountPosts(router: H3, site: ConsoleSite): void {
  router.post(`${CONSOLE_PATH}/:org/posts/bulk`, (event) =>
    site.act(
      event,
      (team) => `${CONSOLE_PATH}/${team.organizationId}/posts`,
      async ({ form, team, actor }) => {
        const action = bulkAction(form.get('action') ?? '');
        if (!action) throw new FeedbackError('ERR_VALIDATION', 'Choose what to do with the chosen posts.');
        const { changed } = await site.engine
          .workspace(team.organizationId)
          .as(actor)
          .posts.bulk(form.getAll('post'), action);
        return String(changed);
      },
    ),
  );
  router.get(`${CONSOLE_PATH}/:org/posts`, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    const { v, team } = m;
    const w = site.engine.workspace(team.organizationId);
    const lastLook = await w.team.lookAtPosts(site.actor(v));
    const fresh = event.url.searchParams.get('new') === '1' && lastLook !== null;
    const query = { ...queryOf(event.url.searchParams), ...(fresh ? { since: lastLook } : {}) };
    let result;
    try {
      result = await w.triage.posts(query);
    } catch (err) {
      if (!(err instanceof FeedbackError) || err.code !== 'ERR_VALIDATION') throw err;
      result = await w.triage.posts({ ...query, cursor: undefined });
    }
    const [boards, tags] = await Promise.all([w.boards.list({ limit: 100 }).then((b) => b.data), w.tags.list()]);
    const next =
      result.nextCursor &&
      new URLSearchParams({ ...Object.fromEntries(event.url.searchParams), cursor: result.nextCursor });
    const done = event.url.searchParams.get('done');
    const frame: Frame = {
      ...v.frame,
      title: 'Posts',
      section: 'posts',
      team,
      notice: done && /^\d{1,3}$/.test(done) ? `Done: ${done} ${done === '1' ? 'post' : 'posts'} changed.` : null,
    };
    const body = html`<h1>Posts</h1>
${filters(team, { ...query, fresh }, boards, tags, result.currencies, result.currency, lastLook)}
${table(team, result.data, result.sort, tags, boards, allows(team.role, 'triage'), v.frame.csrf)}
${next ? html`<p class="pager"><a href="${CONSOLE_PATH}/${team.organizationId}/posts?${next.toString()}" rel="next">Next page</a></p>` : ''}`;
    return htmlResponse(200, page(frame, body), v.cookies);
  });
}
