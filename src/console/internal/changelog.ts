import { html } from '@remix-run/html-template';
import { getRouterParams, type H3, type H3Event } from 'h3';
import { allows, CHANGELOG_POSTS_MAX, CONSOLE_PATH, FeedbackError, type Team } from '../../engine/index.js';
import { htmlResponse, markdown, seeOther } from '../../h3/index.js';
import type { ChangelogEntry } from '../../schemas/interactions.js';
import { POST_STATUS_LABELS, type PostStatus } from '../../schemas/posts.js';
import { csrfField, type Frame, page, when } from './layout.js';
import { type ConsoleSite, type ConsoleVisit, statusOf } from './site.js';

const DONE: Record<string, string> = {
  created: 'Draft created. Write it, link the posts it ships, then publish.',
  saved: 'Draft saved.',
  published: 'Published: it is on the portal’s changelog, and the mail is on its way.',
};

function listPage(
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
type Shipped = { id: string; title: string; status: PostStatus; voteCount: number };

interface EditorState {
  title: string;
  body: string;
  linked: Set<string>;
  refused: string | null;
}

function entryPage(
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
${candidates.length ? candidates.map((p) => html`<label class="check"><input type="checkbox" name="post" value="${p.id}"${state.linked.has(p.id) ? html.raw` checked` : ''}> ${postLink(p)}</label>`) : html`<p class="muted">No post is planned or in progress.</p>`}
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

/** The candidates a draft may link: the posts it links, then the roadmap's planned and in-progress posts. */
async function candidatesOf(site: ConsoleSite, team: Team, linked: Shipped[]): Promise<Shipped[]> {
  const columns = await site.engine.workspace(team.organizationId).triage.roadmap(['planned', 'in_progress']);
  const ids = new Set(linked.map((p) => p.id));
  return [...linked, ...columns.flatMap((c) => c.posts).filter((p) => !ids.has(p.id))];
}

async function renderEntry(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  entryId: string,
  options: { state?: EditorState; done?: string | null },
  status = 200,
) {
  const w = site.engine.workspace(team.organizationId);
  let entry: ChangelogEntry;
  try {
    entry = await w.changelog.retrieve(entryId);
  } catch (err) {
    if (err instanceof FeedbackError && err.code === 'ERR_NOT_FOUND')
      return site.notFound(v, 'There is no such changelog entry in this workspace.');
    throw err;
  }
  const linked = await w.changelog.linkedPosts(entry.id);
  const candidates = entry.status === 'draft' ? await candidatesOf(site, team, linked) : [];
  const state = options.state ?? {
    title: entry.title,
    body: entry.body,
    linked: new Set(linked.map((p) => p.id)),
    refused: null,
  };
  const frame: Frame = {
    ...v.frame,
    title: entry.title,
    section: 'changelog',
    team,
    notice: options.done ? (DONE[options.done] ?? null) : null,
  };
  return htmlResponse(status, entryPage(frame, team, entry, candidates, linked, state), v.cookies);
}

const stateOf = (form: URLSearchParams, refused: string | null = null): EditorState => ({
  title: form.get('title') ?? '',
  body: form.get('body') ?? '',
  linked: new Set(form.getAll('post')),
  refused,
});

/** The changelog: its entries, a new draft, a draft's editor with its preview and linked posts, and publishing. */
export function mountChangelog(router: H3, site: ConsoleSite): void {
  const list = `${CONSOLE_PATH}/:org/changelog`;
  const entryOf = (event: H3Event) => getRouterParams(event).entry ?? '';
  const renderList = async (
    v: ConsoleVisit,
    team: Team,
    done: string | null,
    refused: string | null = null,
    status = 200,
  ) => {
    const w = site.engine.workspace(team.organizationId);
    const [entries, boards] = await Promise.all([w.changelog.all(), w.boards.list({ limit: 100 }).then((b) => b.data)]);
    const frame: Frame = {
      ...v.frame,
      title: 'Changelog',
      section: 'changelog',
      team,
      notice: done ? (DONE[done] ?? null) : null,
    };
    return htmlResponse(status, listPage(frame, team, entries, boards, refused), v.cookies);
  };
  router.get(list, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    return renderList(m.v, m.team, event.url.searchParams.get('done'));
  });
  router.post(list, (event) =>
    site.act(
      event,
      (team) => `${CONSOLE_PATH}/${team.organizationId}/changelog`,
      async ({ form, team, actor, v }) => {
        const entry = await site.engine
          .workspace(team.organizationId)
          .as(actor)
          .changelog.create({ boardId: form.get('board') ?? '', title: (form.get('title') ?? '').trim() });
        return seeOther(`${CONSOLE_PATH}/${team.organizationId}/changelog/${entry.id}?done=created`, v.cookies);
      },
      (m, err) => renderList(m.v, m.team, null, err.message, statusOf(err)),
    ),
  );
  router.get(`${list}/:entry`, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    return renderEntry(site, m.v, m.team, entryOf(event), { done: event.url.searchParams.get('done') });
  });
  // The editor's text as it would be published, without saving it (the Preview button, and the script as one types).
  router.post(`${list}/:entry/preview`, async (event) => {
    const m = await site.memberForm(event);
    if (m instanceof Response) return m;
    return renderEntry(site, m.v, m.team, entryOf(event), { state: stateOf(m.form) });
  });
  router.post(`${list}/:entry`, (event) =>
    site.act(
      event,
      (team) => `${CONSOLE_PATH}/${team.organizationId}/changelog/${entryOf(event)}`,
      async ({ form, team, actor }) => {
        await site.engine
          .workspace(team.organizationId)
          .as(actor)
          .changelog.edit(entryOf(event), {
            title: (form.get('title') ?? '').trim(),
            body: form.get('body') ?? '',
            postIds: form.getAll('post'),
          });
        return 'saved';
      },
      // The editor again, with why and what was typed (an entry that does not exist is the 404 page).
      (m, err) =>
        renderEntry(site, m.v, m.team, entryOf(event), { state: stateOf(m.form, err.message) }, statusOf(err)),
    ),
  );
  router.post(`${list}/:entry/publish`, (event) =>
    site.act(
      event,
      (team) => `${CONSOLE_PATH}/${team.organizationId}/changelog/${entryOf(event)}`,
      async ({ form, team, actor }) => {
        await site.engine
          .workspace(team.organizationId)
          .as(actor)
          .changelog.publish(entryOf(event), { ship: form.get('ship') === '1' });
        return 'published';
      },
    ),
  );
}
