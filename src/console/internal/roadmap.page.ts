// The roadmap page: columns by status in the portal order, each post with its Up and Down buttons.

import { allows, CONSOLE_PATH, type Team, type TriagePost } from '../../engine/index.js';
import { html } from '../../h3/index.js';
import type { PostStatus } from '../../schemas/posts.js';
import { csrfField, type Frame, page } from './layout.js';
import { say, sayHtml } from './words.js';

export type Column = { status: PostStatus; posts: Array<TriagePost & { roadmapOrder: number | null }> };
export function roadmapPage(frame: Frame, team: Team, columns: Column[]): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/roadmap`;
  const mayOrder = allows(team.role, 'triage');
  const move = (c: Column, p: Column['posts'][number], i: number) =>
    mayOrder
      ? html`<span class="order-buttons"><form method="post" action="${base}/move" class="inline">${csrfField(frame)}<input type="hidden" name="status" value="${c.status}"><input type="hidden" name="post" value="${p.id}"><input type="hidden" name="to" value="${i - 1}"><button type="submit" class="secondary small"${i === 0 ? html.raw` disabled` : ''}>${sayHtml('console.roadmap.up', { title: p.title })}</button></form>
<form method="post" action="${base}/move" class="inline">${csrfField(frame)}<input type="hidden" name="status" value="${c.status}"><input type="hidden" name="post" value="${p.id}"><input type="hidden" name="to" value="${i + 1}"><button type="submit" class="secondary small"${i === c.posts.length - 1 ? html.raw` disabled` : ''}>${sayHtml('console.roadmap.down', { title: p.title })}</button></form></span>`
      : '';
  const column = (c: Column) => html`<section class="column" aria-labelledby="col-${c.status}">
<h2 id="col-${c.status}">${say(`status.${c.status}`)} ${sayHtml('console.roadmap.count', { count: c.posts.length })}</h2>
${
  c.posts.length
    ? html`<ol class="cards"${mayOrder ? html.raw` data-sortable` : ''} data-status="${c.status}">${c.posts.map(
        (
          p,
          i,
        ) => html`<li data-post="${p.id}"${mayOrder ? html.raw` draggable="true"` : ''}><a href="${CONSOLE_PATH}/${team.organizationId}/posts/${p.id}">${p.title}</a>
<span class="muted">${say('console.roadmap.meta', { votes: say('console.votes', { count: p.voteCount }), board: p.boardName })}</span>${move(c, p, i)}</li>`,
      )}</ol>`
    : html`<p class="muted">${say('console.roadmap.empty', { status: say(`status.${c.status}`).toLowerCase() })}</p>`
}</section>`;
  const body = html`<h1>${say('console.roadmap.heading')}</h1>
<p class="muted">${say('console.roadmap.intro')} ${mayOrder ? say('console.roadmap.drag') : ''} ${say('console.roadmap.hidden')}</p>
${mayOrder ? html`<form id="roadmap-order" method="post" action="${base}/order" hidden>${csrfField(frame)}</form>` : ''}
<div class="roadmap">${columns.map(column)}</div>`;
  return page(frame, body);
}

/** The roadmap page and its ordering: a whole column's order (drag and drop), or one post moved to a place (Up, Down). */
