// The changelog pages: the entries with the new draft's form, and a draft's editor with its preview and linked posts.

import { allows, CHANGELOG_POSTS_MAX, CONSOLE_PATH, type Team } from '../../engine/index.js';
import { html, markdown } from '../../h3/index.js';
import type { ChangelogEntry } from '../../schemas/interactions.js';
import { POST_STATUS_LABELS, type PostStatus } from '../../schemas/posts.js';
import { csrfField, type Frame, page, when } from './layout.js';

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
    ? html`<section aria-labelledby="new-h"><h2 id="new-h">New entry</h2>
<form method="post" action="${base}" class="row">${csrfField(frame)}
<label>Title <input name="title" required maxlength="200"${refused ? html.raw` aria-invalid="true" aria-describedby="new-error"` : ''}></label>
${boards.length > 1 ? html`<label>Board <select name="board">${boards.map((b) => html`<option value="${b.id}">${b.name}</option>`)}</select></label>` : boards.length ? html`<input type="hidden" name="board" value="${boards[0]!.id}">` : ''}
<button type="submit">Create draft</button></form>
${refused ? html`<p class="error" role="alert" id="new-error">${refused}</p>` : ''}</section>`
    : '';
  const body = html`<h1>Changelog</h1>
<p class="muted">What the team shipped, on the portal’s changelog. Publishing an entry mails the changelog’s subscribers and the people of the posts it ships.</p>
${boards.length ? create : html`<p>Create a board first: changelog entries belong to a board.</p>`}
${
  entries.length
    ? html`<table><thead><tr><th scope="col">Entry</th><th scope="col">Board</th><th scope="col">State</th><th scope="col">Changed</th></tr></thead>
<tbody>${entries.map(
        (e) =>
          html`<tr><td><a href="${base}/${e.id}">${e.title}</a></td><td>${boardName.get(e.boardId) ?? ''}</td><td>${e.status === 'published' ? html`Published ${when(e.publishedAt!)}` : html`<span class="held">Draft</span>`}</td><td>${when(e.updatedAt)}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No entries yet.</p>`
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
  const preview = html`<section id="preview" class="preview" aria-labelledby="preview-h" aria-live="polite"><h2 id="preview-h">Preview</h2>
<h3>${state.title}</h3>${state.body.trim() ? html`<div class="markdown">${markdown(state.body)}</div>` : html`<p class="muted">Nothing written yet.</p>`}</section>`;
  const postLink = (p: Shipped) =>
    html`<a href="${CONSOLE_PATH}/${team.organizationId}/posts/${p.id}">${p.title}</a> <span class="muted">${POST_STATUS_LABELS[p.status]} · ${p.voteCount} ${p.voteCount === 1 ? 'vote' : 'votes'}</span>`;
  if (!mayEdit) {
    const body = html`<p class="crumbs"><a href="${CONSOLE_PATH}/${team.organizationId}/changelog">Changelog</a></p>
<h1>${entry.title}</h1>
<p class="muted">${entry.status === 'published' ? html`Published ${when(entry.publishedAt!)}` : 'Draft'}</p>
${entry.body.trim() ? html`<div class="markdown">${markdown(entry.body)}</div>` : ''}
${linked.length ? html`<h2>Ships</h2><ul class="targets">${linked.map((p) => html`<li>${postLink(p)}</li>`)}</ul>` : ''}`;
    return page(frame, body);
  }
  const error = state.refused ? html`<p class="error" role="alert" id="entry-error">${state.refused}</p>` : '';
  const body = html`<p class="crumbs"><a href="${CONSOLE_PATH}/${team.organizationId}/changelog">Changelog</a></p>
<h1>${entry.title} <span class="held">Draft</span></h1>
${error}
<div class="columns">
<form method="post" action="${base}" id="editor">${csrfField(frame)}
<label for="title">Title</label><input id="title" name="title" required maxlength="200" size="60" value="${state.title}">
<label for="body">What shipped <span class="muted">(Markdown: **bold**, *italic*, [links](https://example.com), lists, headings)</span></label>
<textarea id="body" name="body" rows="14" data-preview="${base}/preview"${state.refused ? html.raw` aria-describedby="entry-error"` : ''}>${state.body}</textarea>
<fieldset class="ships"><legend>Posts it ships <span class="muted">(their people hear of it; at most ${CHANGELOG_POSTS_MAX})</span></legend>
${
  candidates.length
    ? html`<label for="ships-filter" class="inline-label">Find a post</label> <input id="ships-filter" type="search" data-filter="ships-list" placeholder="Type to narrow the list" autocomplete="off">
<div class="picker-list" id="ships-list">${candidates.map((p) => html`<label class="check"><input type="checkbox" name="post" value="${p.id}"${state.linked.has(p.id) ? html.raw` checked` : ''}> <span>${postLink(p)}</span></label>`)}</div>
<p class="muted" id="ships-count">${candidates.length} planned or in progress; ${state.linked.size} chosen.</p>`
    : html`<p class="muted">No post is planned or in progress.</p>`
}
</fieldset>
<p><button type="submit">Save draft</button> <button type="submit" class="secondary" formaction="${base}/preview">Preview</button></p>
</form>
${preview}
</div>
<section aria-labelledby="publish-h" class="held-box"><h2 id="publish-h">Publish</h2>
<form method="post" action="${base}/publish">${csrfField(frame)}
<p>Publishing puts the saved draft on the portal’s changelog and mails the changelog’s subscribers and the people of the ${linked.length} linked ${linked.length === 1 ? 'post' : 'posts'} who may be emailed. It cannot be undone.</p>
<label class="check"><input type="checkbox" name="ship" value="1"${linked.length ? html.raw` checked` : html.raw` disabled`}> Set the linked posts’ status to Shipped</label>
<p><button type="submit">Publish and notify</button></p>
</form></section>`;
  return page(frame, body);
}
