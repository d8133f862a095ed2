// The post page's linked issues: Linear's and GitHub's, with the calls still on their way (or failed), and the forms to
// create an issue from the post, link one, or unlink one.
import type { IntegrationView, Team } from '../../engine/index.js';
import { CONSOLE_PATH } from '../../engine/index.js';
import { html, type SafeHtml } from '../../h3/index.js';
import type { IssueLink } from '../../schemas/integrations.js';
import { csrfField, type Frame } from './layout.js';
import { say, sayHtml } from './words.js';

/** What the section shows: the post's links and calls, and the trackers connected (with their teams or repositories). */
export interface PostIssues {
  links: IssueLink[];
  calls: Array<{ id: string; kind: string; status: string; lastError: string | null }>;
  trackers: IntegrationView[];
}

const SERVICE = { linear: 'console.integrations.linear', github: 'console.integrations.github' } as const;

function createForm(base: string, frame: Frame, t: IntegrationView, title: string): SafeHtml {
  const service = t.service as 'linear' | 'github';
  const id = `issue-${service}`;
  const targets =
    service === 'linear'
      ? ((t.settings.teams as Array<{ id: string; key: string; name: string }> | undefined) ?? []).map((x) => ({
          value: x.id,
          label: `${x.key} · ${x.name}`,
        }))
      : ((t.settings.repos as string[] | undefined) ?? []).map((r) => ({ value: r, label: r }));
  const target = targets.length
    ? html`<select id="${id}-target" name="target">${targets.map((o) => html`<option value="${o.value}">${o.label}</option>`)}</select>`
    : html`<input id="${id}-target" name="target" required${service === 'github' ? html.raw` placeholder="owner/repo"` : ''}>`;
  return html`<details><summary>${say('console.integrations.createIn', { service: say(SERVICE[service]) })}</summary>
<form method="post" action="${base}/issue">${csrfField(frame)}<input type="hidden" name="service" value="${service}">
<label for="${id}-target">${say(service === 'linear' ? 'console.integrations.team' : 'console.integrations.repo')}</label>${target}
<label for="${id}-title">${say('console.integrations.issueTitle')}</label><input id="${id}-title" name="title" value="${title}" size="50">
<p><button type="submit">${say('console.integrations.create')}</button></p></form></details>`;
}

function linkForm(base: string, frame: Frame, trackers: IntegrationView[]): SafeHtml {
  return html`<details><summary>${say('console.integrations.linkExisting')}</summary>
<form method="post" action="${base}/link">${csrfField(frame)}
${
  trackers.length > 1
    ? html`<select name="service" aria-label="${say('console.integrations.heading')}">${trackers.map((t) => html`<option value="${t.service}">${say(SERVICE[t.service as 'linear'])}</option>`)}</select>`
    : html`<input type="hidden" name="service" value="${trackers[0]!.service}">`
}
<label for="issue-ref">${say('console.integrations.reference')}</label><input id="issue-ref" name="reference" required size="50" placeholder="ENG-123 · https://github.com/acme/app/issues/12">
<p><button type="submit">${say('console.integrations.link')}</button></p></form></details>`;
}

export function issuesSection(
  base: string,
  frame: Frame,
  team: Team,
  issues: PostIssues,
  title: string,
  mayTriage: boolean,
  /** A refusal of one of the section's forms, said above them. */
  error: SafeHtml | '',
): SafeHtml | '' {
  const { links, calls, trackers } = issues;
  if (!links.length && !calls.length && !trackers.length) {
    if (!mayTriage) return '';
    const to = (inside: SafeHtml) => html`<a href="${CONSOLE_PATH}/${team.organizationId}/integrations">${inside}</a>`;
    return html`<section aria-labelledby="issues-h"><h2 id="issues-h">${say('console.integrations.issues')}</h2><p class="muted">${sayHtml('console.integrations.connectFirst', {}, { link: to })}</p></section>`;
  }
  const what = (kind: string) => say(`console.integrations.kind.${kind}` as never);
  return html`<section aria-labelledby="issues-h"><h2 id="issues-h">${say('console.integrations.issues')}</h2>
${error}
${
  links.length
    ? html`<ul class="issues">${links.map(
        (l) =>
          html`<li><a href="${l.url}" rel="noopener noreferrer">${l.key}</a> ${l.title ? html`<span dir="auto">${l.title}</span>` : ''} ${l.state ? html`<span class="muted">${l.state}</span>` : ''}${
            mayTriage
              ? html` <form method="post" action="${base}/unlink" class="inline">${csrfField(frame)}<input type="hidden" name="link" value="${l.id}"><button type="submit" class="link">${sayHtml('console.integrations.unlink', { key: l.key })}</button></form>`
              : ''
          }</li>`,
      )}</ul>`
    : html`<p class="muted">${say('console.integrations.noIssues')}</p>`
}
${calls.map((c) =>
  c.status === 'failed'
    ? html`<p>${sayHtml('console.integrations.failed', { what: what(c.kind), error: c.lastError ?? '' })}</p>`
    : html`<p class="muted">${say('console.integrations.onItsWay', { what: what(c.kind) })}</p>`,
)}
${mayTriage && trackers.length ? html`${trackers.map((t) => createForm(base, frame, t, title))}${linkForm(base, frame, trackers)}` : ''}
</section>`;
}
