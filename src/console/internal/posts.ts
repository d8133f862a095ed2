import type { H3 } from 'h3';
import {
  allows,
  type BulkAction,
  CONSOLE_PATH,
  FeedbackError,
  TRIAGE_SORTS,
  type TriageQuery,
} from '../../engine/index.js';
import { html, htmlResponse } from '../../h3/index.js';
import { POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { type Frame, page } from './layout.js';
import { filters, table } from './posts.page.js';
import type { ConsoleSite } from './site.js';
import { say } from './words.js';

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
    companyPlan: params.get('company_plan')?.trim() || undefined,
    cursor: params.get('cursor') || undefined,
  };
}

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
        if (!action) throw new FeedbackError('ERR_VALIDATION', say('console.posts.chooseAction'));
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
      title: say('console.posts.heading'),
      section: 'posts',
      team,
      notice: done && /^\d{1,3}$/.test(done) ? say('console.posts.done', { count: Number(done) }) : null,
    };
    const body = html`<h1>${say('console.posts.heading')}</h1>
${filters(team, { ...query, fresh }, boards, tags, result.currencies, result.currency, lastLook)}
${table(team, result.data, result.sort, tags, boards, allows(team.role, 'triage'), v.frame.csrf)}
${next ? html`<p class="pager"><a href="${CONSOLE_PATH}/${team.organizationId}/posts?${next.toString()}" rel="next">${say('console.posts.next')}</a></p>` : ''}
<p><a href="${CONSOLE_PATH}/${team.organizationId}/duplicates">${say('console.posts.duplicatesLink')}</a></p>`;
    return htmlResponse(200, page(frame, body), v.cookies);
  });
}
