// The queue of merge suggestions: possible duplicates among the workspace's newest posts (docs/search.md), each a
// pair to merge or to dismiss; dismissed pairs are not suggested again.
import type { H3, H3Event } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import { allows, CONSOLE_PATH, type MergeSuggestion, type Team } from '../../engine/index.js';
import { html, htmlResponse } from '../../h3/index.js';
import { csrfField, type Frame, page } from './layout.js';
import { type ConsoleSite, noticeOf } from './site.js';

const DONE: Record<string, ConsoleKey> = {
  merged: 'console.done.duplicates.merged',
  dismissed: 'console.done.duplicates.dismissed',
};

const votes = (n: number) => `${n.toLocaleString('en')} ${n === 1 ? 'vote' : 'votes'}`;

const back = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/duplicates`;

function queuePage(frame: Frame, team: Team, suggestions: MergeSuggestion[]): string {
  const base = back(team);
  const post = (id: string) => `${CONSOLE_PATH}/${team.organizationId}/posts/${id}`;
  const mayTriage = allows(team.role, 'triage');
  const body = html`<p class="crumbs"><a href="${CONSOLE_PATH}/${team.organizationId}/posts">Posts</a> › Possible duplicates</p>
<h1>Possible duplicates</h1>
<p class="muted">Among the newest posts, those most alike another post by their titles, most alike first. Merging moves the votes (one per person), subscribers and notes to the post kept; its portal page sends there.</p>
${
  suggestions.length === 0
    ? html`<p>No possible duplicates among the newest posts.</p>`
    : html`<ul class="targets">${suggestions.map(
        ({ merge, into, score }) =>
          html`<li><a href="${post(merge.id)}">${merge.title}</a> <span class="muted">(${votes(merge.voteCount)})</span> and <a href="${post(into.id)}">${into.title}</a> <span class="muted">(${votes(into.voteCount)}) · ${Math.round(score * 100)} % alike</span>${
            mayTriage
              ? html`<div><form method="post" action="${base}/merge" class="inline">${csrfField(frame)}<input type="hidden" name="merge" value="${merge.id}"><input type="hidden" name="into" value="${into.id}"><button type="submit" class="secondary">Merge the first into the second<span class="sr-only">: ${merge.title} into ${into.title}</span></button></form> <form method="post" action="${base}/dismiss" class="inline">${csrfField(frame)}<input type="hidden" name="a" value="${merge.id}"><input type="hidden" name="b" value="${into.id}"><button type="submit" class="secondary">Not duplicates<span class="sr-only">: ${merge.title} and ${into.title}</span></button></form></div>`
              : ''
          }</li>`,
      )}</ul>`
}`;
  return page(frame, body);
}

/** The queue page, and its two forms (merge a pair, dismiss a pair), for roles that may triage. */
export function mountDuplicates(router: H3, site: ConsoleSite): void {
  const path = `${CONSOLE_PATH}/:org/duplicates`;
  router.get(path, async (event: H3Event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    const suggestions = await site.engine.workspace(m.team.organizationId).triage.mergeSuggestions();
    const frame: Frame = {
      ...m.v.frame,
      title: 'Possible duplicates',
      section: 'posts',
      team: m.team,
      notice: noticeOf(event, DONE),
    };
    return htmlResponse(200, queuePage(frame, m.team, suggestions), m.v.cookies);
  });
  router.post(`${path}/merge`, (event) =>
    site.act(event, back, async ({ form, team, actor }) => {
      await site.engine
        .workspace(team.organizationId)
        .as(actor)
        .posts.merge(form.get('merge') ?? '', form.get('into') ?? '');
      return 'merged';
    }),
  );
  router.post(`${path}/dismiss`, (event) =>
    site.act(event, back, async ({ form, team, actor }) => {
      await site.engine
        .workspace(team.organizationId)
        .as(actor)
        .posts.dismissDuplicate(form.get('a') ?? '', form.get('b') ?? '');
      return 'dismissed';
    }),
  );
}
