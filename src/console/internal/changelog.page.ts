// The changelog pages: the entries with the new draft's form, and a draft's editor with its preview and linked posts.

import { allows, CHANGELOG_POSTS_MAX, CONSOLE_PATH, type Team } from '../../engine/index.js';
import { html, markdown } from '../../h3/index.js';
import type { ChangelogEntry } from '../../schemas/interactions.js';
import type { PostStatus } from '../../schemas/posts.js';
import { csrfField, type Frame, page, when } from './layout.js';
import { say, sayHtml } from './words.js';

export function listPage(
  frame: Frame,
  team: Team,
  entries: ChangelogEntry[],
  boards: Array<{ id: string; name: string }>,
  refused: string | null,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/changelog`;
  const boardName = new Map(boards.map((b) => [b.id, b.name]));
  const create = allows(team.role, 'triage')
    ? html`<section aria-labelledby="new-h"><h2 id="new-h">${say('console.changelog.newEntry')}</h2>
<form method="post" action="${base}" class="row">${csrfField(frame)}
<label>${say('console.changelog.title')} <input name="title" required maxlength="200"${refused ? html.raw` aria-invalid="true" aria-describedby="new-error"` : ''}></label>
${boards.length > 1 ? html`<label>${say('console.changelog.board')} <select name="board">${boards.map((b) => html`<option value="${b.id}">${b.name}</option>`)}</select></label>` : boards.length ? html`<input type="hidden" name="board" value="${boards[0]!.id}">` : ''}
<button type="submit">${say('console.changelog.createDraft')}</button></form>
${refused ? html`<p class="error" role="alert" id="new-error">${refused}</p>` : ''}</section>`
    : '';
  const body = html`<h1>${say('console.changelog.heading')}</h1>
<p class="muted">${say('console.changelog.intro')}</p>
${boards.length ? create : html`<p>${say('console.changelog.boardFirst')}</p>`}
${
  entries.length
    ? html`<table><thead><tr><th scope="col">${say('console.changelog.entry')}</th><th scope="col">${say('console.changelog.board')}</th><th scope="col">${say('console.changelog.state')}</th><th scope="col">${say('console.changelog.changed')}</th></tr></thead>
<tbody>${entries.map(
        (e) =>
          html`<tr><td><a href="${base}/${e.id}">${e.title}</a></td><td>${boardName.get(e.boardId) ?? ''}</td><td>${e.status === 'published' ? sayHtml('console.changelog.published', { at: when(e.publishedAt!) }) : html`<span class="held">${say('console.changelog.draft')}</span>`}</td><td>${when(e.updatedAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>${say('console.changelog.none')}</p>`
}`;
  return page(frame, body);
}

/** A post as the editor lists it. */
export type Shipped = { id: string; title: string; status: PostStatus; voteCount: number };

export interface EditorState {
  title: string;
  body: string;
  linked: Set<string>;
  refused: string | null;
}

export function entryPage(
  frame: Frame,
  team: Team,
  entry: ChangelogEntry,
  candidates: Shipped[],
  linked: Shipped[],
  state: EditorState,
): string {
  const base = `${CONSOLE_PATH}/${team.organizationId}/changelog/${entry.id}`;
  const mayEdit = allows(team.role, 'triage') && entry.status === 'draft';
  const preview = html`<section id="preview" class="preview" aria-labelledby="preview-h" aria-live="polite"><h2 id="preview-h">${say('console.changelog.preview')}</h2>
<h3>${state.title}</h3>${state.body.trim() ? html`<div class="markdown">${markdown(state.body)}</div>` : html`<p class="muted">${say('console.changelog.nothingWritten')}</p>`}</section>`;
  const postLink = (p: Shipped) =>
    html`<a href="${CONSOLE_PATH}/${team.organizationId}/posts/${p.id}">${p.title}</a> <span class="muted">${say('console.changelog.postMeta', { status: say(`status.${p.status}`), count: p.voteCount })}</span>`;
  if (!mayEdit) {
    const body = html`<p class="crumbs"><a href="${CONSOLE_PATH}/${team.organizationId}/changelog">${say('console.changelog.heading')}</a></p>
<h1>${entry.title}</h1>
<p class="muted">${entry.status === 'published' ? sayHtml('console.changelog.published', { at: when(entry.publishedAt!) }) : say('console.changelog.draft')}</p>
${entry.body.trim() ? html`<div class="markdown">${markdown(entry.body)}</div>` : ''}
${linked.length ? html`<h2>${say('console.changelog.ships')}</h2><ul class="targets">${linked.map((p) => html`<li>${postLink(p)}</li>`)}</ul>` : ''}`;
    return page(frame, body);
  }
  const error = state.refused ? html`<p class="error" role="alert" id="entry-error">${state.refused}</p>` : '';
  const body = html`<p class="crumbs"><a href="${CONSOLE_PATH}/${team.organizationId}/changelog">${say('console.changelog.heading')}</a></p>
<h1>${entry.title} <span class="held">${say('console.changelog.draft')}</span></h1>
${error}
<div class="columns">
<form method="post" action="${base}" id="editor">${csrfField(frame)}
<label for="title">${say('console.changelog.title')}</label><input id="title" name="title" required maxlength="200" size="60" value="${state.title}">
<label for="body">${sayHtml('console.changelog.whatShipped')}</label>
<textarea id="body" name="body" rows="14" data-preview="${base}/preview"${state.refused ? html.raw` aria-describedby="entry-error"` : ''}>${state.body}</textarea>
<fieldset class="ships"><legend>${sayHtml('console.changelog.postsItShips', { max: CHANGELOG_POSTS_MAX })}</legend>
${
  candidates.length
    ? html`<label for="ships-filter" class="inline-label">${say('console.changelog.findPost')}</label> <input id="ships-filter" type="search" data-filter="ships-list" placeholder="${say('console.changelog.filterPlaceholder')}" autocomplete="off">
<div class="picker-list" id="ships-list">${candidates.map((p) => html`<label class="check"><input type="checkbox" name="post" value="${p.id}"${state.linked.has(p.id) ? html.raw` checked` : ''}> <span>${postLink(p)}</span></label>`)}</div>
<p class="muted" id="ships-count">${say('console.changelog.candidates', { count: candidates.length, chosen: state.linked.size })}</p>`
    : html`<p class="muted">${say('console.changelog.noCandidates')}</p>`
}
</fieldset>
<p><button type="submit">${say('console.changelog.save')}</button> <button type="submit" class="secondary" formaction="${base}/preview">${say('console.changelog.preview')}</button></p>
</form>
${preview}
</div>
<section aria-labelledby="publish-h" class="held-box"><h2 id="publish-h">${say('console.changelog.publish')}</h2>
<form method="post" action="${base}/publish">${csrfField(frame)}
<p>${say('console.changelog.publishText', { count: linked.length })}</p>
<label class="check"><input type="checkbox" name="ship" value="1"${linked.length ? html.raw` checked` : html.raw` disabled`}> ${say('console.changelog.ship')}</label>
<p><button type="submit">${say('console.changelog.publishSubmit')}</button></p>
</form></section>`;
  return page(frame, body);
}
