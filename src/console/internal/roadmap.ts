import { html } from '@remix-run/html-template';
import type { H3 } from 'h3';
import {
  allows,
  CONSOLE_PATH,
  FeedbackError,
  ROADMAP_STATUSES,
  type Team,
  type TriagePost,
} from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import { POST_STATUS_LABELS, type PostStatus } from '../../schemas/posts.js';
import { csrfField, type Frame, page } from './layout.js';
import type { ConsoleSite } from './site.js';

type Column = { status: PostStatus; posts: Array<TriagePost & { roadmapOrder: number | null }> };

const DONE: Record<string, string> = {
  moved: 'Moved: the portal’s roadmap shows the new order.',
  ordered: 'Order saved: the portal’s roadmap shows it.',
};

/**
 * The roadmap: a column per status the portal's roadmap shows, its posts in the order the portal shows them. Drag a
 * post to reorder (with JavaScript), or use its Up and Down buttons (keyboard, and without JavaScript).
 */
function roadmapPage(frame: Frame, team: Team, columns: Column[]): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/roadmap`;
  const mayOrder = allows(team.role, 'triage');
  const move = (c: Column, p: Column['posts'][number], i: number) =>
    mayOrder
      ? html`<span class="order-buttons"><form method="post" action="${base}/move" class="inline">${csrfField(frame)}<input type="hidden" name="status" value="${c.status}"><input type="hidden" name="post" value="${p.id}"><input type="hidden" name="to" value="${i - 1}"><button type="submit" class="secondary small"${i === 0 ? html.raw` disabled` : ''}>Up<span class="sr-only">: move “${p.title}” up</span></button></form>
<form method="post" action="${base}/move" class="inline">${csrfField(frame)}<input type="hidden" name="status" value="${c.status}"><input type="hidden" name="post" value="${p.id}"><input type="hidden" name="to" value="${i + 1}"><button type="submit" class="secondary small"${i === c.posts.length - 1 ? html.raw` disabled` : ''}>Down<span class="sr-only">: move “${p.title}” down</span></button></form></span>`
      : '';
  const column = (c: Column) => html`<section class="column" aria-labelledby="col-${c.status}">
<h2 id="col-${c.status}">${POST_STATUS_LABELS[c.status]} <span class="muted">(${c.posts.length})</span></h2>
${
  c.posts.length
    ? html`<ol class="cards"${mayOrder ? html.raw` data-sortable` : ''} data-status="${c.status}">${c.posts.map(
        (
          p,
          i,
        ) => html`<li data-post="${p.id}"${mayOrder ? html.raw` draggable="true"` : ''}><a href="${CONSOLE_PATH}/${team.organizationId}/posts/${p.id}">${p.title}</a>
<span class="muted">${p.voteCount} ${p.voteCount === 1 ? 'vote' : 'votes'} · ${p.boardName}</span>${move(c, p, i)}</li>`,
      )}</ol>`
    : html`<p class="muted">No post is ${POST_STATUS_LABELS[c.status].toLowerCase()}. Set a post’s status to put it here.</p>`
}</section>`;
  const body = html`<h1>Roadmap</h1>
<p class="muted">The order here is the order of the portal’s roadmap. ${mayOrder ? 'Drag a post, or use its Up and Down buttons.' : ''} Posts hidden from the roadmap are left out.</p>
${mayOrder ? html`<form id="roadmap-order" method="post" action="${base}/order" hidden>${csrfField(frame)}</form>` : ''}
<div class="roadmap">${columns.map(column)}</div>`;
  return page(frame, body);
}

/** The roadmap page and its ordering: a whole column's order (drag and drop), or one post moved to a place (Up, Down). */
export function mountRoadmap(router: H3, site: ConsoleSite): void {
  const isColumn = (s: string | null): s is PostStatus => (ROADMAP_STATUSES as readonly string[]).includes(s ?? '');
  const back = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/roadmap`;
  router.get(`${CONSOLE_PATH}/:org/roadmap`, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    const columns = await site.engine.workspace(m.team.organizationId).triage.roadmap();
    const done = event.url.searchParams.get('done');
    const frame: Frame = {
      ...m.v.frame,
      title: 'Roadmap',
      section: 'roadmap',
      team: m.team,
      notice: done ? (DONE[done] ?? null) : null,
    };
    return htmlResponse(200, roadmapPage(frame, m.team, columns), m.v.cookies);
  });
  // One post to a place in its column (0 is the top).
  router.post(`${CONSOLE_PATH}/:org/roadmap/move`, (event) =>
    site.act(event, back, async ({ form, team, actor }) => {
      const status = form.get('status');
      if (!isColumn(status)) throw new FeedbackError('ERR_VALIDATION', 'Choose a column of the roadmap.');
      await site.engine
        .workspace(team.organizationId)
        .as(actor)
        .posts.place(status, form.get('post') ?? '', Number.parseInt(form.get('to') ?? '', 10));
      return 'moved';
    }),
  );
  // A column's whole order, as the page's script sends it after a drop.
  router.post(`${CONSOLE_PATH}/:org/roadmap/order`, (event) =>
    site.act(event, back, async ({ form, team, actor }) => {
      const status = form.get('status');
      if (!isColumn(status)) throw new FeedbackError('ERR_VALIDATION', 'Choose a column of the roadmap.');
      await site.engine.workspace(team.organizationId).as(actor).posts.reorder(status, form.getAll('post'));
      return 'ordered';
    }),
  );
}
