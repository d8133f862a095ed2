// The queue of merge suggestions: possible duplicates among the workspace's newest posts (docs/search.md), each a
// pair to merge or to dismiss; dismissed pairs are not suggested again.
import type { H3, H3Event } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import { allows, CONSOLE_PATH, type MergeSuggestion, type Team } from '../../engine/index.js';
import { html, htmlResponse, type SafeHtml } from '../../h3/index.js';
import { csrfField, type Frame, page } from './layout.js';
import { type ConsoleSite, noticeOf } from './site.js';
import { say, sayHtml } from './words.js';

const DONE: Record<string, ConsoleKey> = {
  merged: 'console.done.duplicates.merged',
  dismissed: 'console.done.duplicates.dismissed',
};

const votes = (n: number) => say('console.votes', { count: n });

const back = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/duplicates`;

function queuePage(frame: Frame, team: Team, suggestions: MergeSuggestion[]): string {
  const base = back(team);
  const post = (id: string) => `${CONSOLE_PATH}/${team.organizationId}/posts/${id}`;
  const mayTriage = allows(team.role, 'triage');
  const link = (href: string) => (inside: SafeHtml) => html`<a href="${href}">${inside}</a>`;
  const body = html`<p class="crumbs">${sayHtml('console.duplicates.crumbs', {}, { posts: link(`${CONSOLE_PATH}/${team.organizationId}/posts`) })}</p>
<h1>${say('console.duplicates.heading')}</h1>
<p class="muted">${say('console.duplicates.intro')}</p>
${
  suggestions.length === 0
    ? html`<p>${say('console.duplicates.none')}</p>`
    : html`<ul class="targets">${suggestions.map(
        ({ merge, into, score }) =>
          html`<li>${sayHtml('console.duplicates.pair', { merge: merge.title, into: into.title, mergeVotes: votes(merge.voteCount), intoVotes: votes(into.voteCount), score: Math.round(score * 100) / 100 }, { mergeLink: link(post(merge.id)), intoLink: link(post(into.id)) })}${
            mayTriage
              ? html`<div><form method="post" action="${base}/merge" class="inline">${csrfField(frame)}<input type="hidden" name="merge" value="${merge.id}"><input type="hidden" name="into" value="${into.id}"><button type="submit" class="secondary">${sayHtml('console.duplicates.merge', { merge: merge.title, into: into.title })}</button></form> <form method="post" action="${base}/dismiss" class="inline">${csrfField(frame)}<input type="hidden" name="a" value="${merge.id}"><input type="hidden" name="b" value="${into.id}"><button type="submit" class="secondary">${sayHtml('console.duplicates.dismiss', { merge: merge.title, into: into.title })}</button></form></div>`
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
      title: say('console.duplicates.heading'),
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
