// The roadmap page: columns by status in the portal order, each post with its Up and Down buttons.

import { allows, CONSOLE_PATH, type Team, type TriagePost } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import { POST_STATUS_LABELS, type PostStatus } from '../../schemas/posts.js';
import { csrfField, type Frame, page } from './layout.js';

export type Column = { status: PostStatus; posts: Array<TriagePost & { roadmapOrder: number | null }> };
export function roadmapPage(frame: Frame, team: Team, columns: Column[]): string {
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
