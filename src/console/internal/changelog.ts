import { getRouterParams, type H3, type H3Event } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import { CONSOLE_PATH, FeedbackError, type Team } from '../../engine/index.js';
import { htmlResponse, seeOther } from '../../h3/index.js';
import type { ChangelogEntry } from '../../schemas/interactions.js';
import { type EditorState, entryPage, listPage, type Shipped } from './changelog.page.js';
import type { Frame } from './layout.js';
import { type ConsoleSite, type ConsoleVisit, statusOf } from './site.js';
import { say } from './words.js';

const DONE: Record<string, ConsoleKey> = {
  created: 'console.done.changelog.created',
  saved: 'console.done.changelog.saved',
  published: 'console.done.changelog.published',
};

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
      return site.notFound(v, say('console.changelog.noSuch'));
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
    notice: options.done ? (DONE[options.done] ? say(DONE[options.done]!) : null) : null,
  };
  return htmlResponse(status, entryPage(frame, team, entry, candidates, linked, state), v.cookies);
}

const stateOf = (form: URLSearchParams, refused: string | null = null): EditorState => ({
  title: form.get('title') ?? '',
  body: form.get('body') ?? '',
  linked: new Set(form.getAll('post')),
  refused,
});

const entryOf = (event: H3Event) => getRouterParams(event).entry ?? '';
const listPath = (team: Team) => `${CONSOLE_PATH}/${team.organizationId}/changelog`;

/** The entries, and the new draft's form (with a refusal). */
async function renderList(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  done: string | null,
  refused: string | null = null,
  status = 200,
) {
  const w = site.engine.workspace(team.organizationId);
  const [entries, boards] = await Promise.all([w.changelog.all(), w.boards.list({ limit: 100 }).then((b) => b.data)]);
  const notice = done ? (DONE[done] ? say(DONE[done]!) : null) : null;
  const frame: Frame = { ...v.frame, title: say('console.changelog.heading'), section: 'changelog', team, notice };
  return htmlResponse(status, listPage(frame, team, entries, boards, refused), v.cookies);
}

/** A new draft on a board: on to its editor. */
const createDraft = (site: ConsoleSite) => (event: H3Event) =>
  site.act(
    event,
    listPath,
    async ({ form, team, actor, v }) => {
      const draft = { boardId: form.get('board') ?? '', title: (form.get('title') ?? '').trim() };
      const entry = await site.engine.workspace(team.organizationId).as(actor).changelog.create(draft);
      return seeOther(`${listPath(team)}/${entry.id}?done=created`, v.cookies);
    },
    (m, err) => renderList(site, m.v, m.team, null, err.message, statusOf(err)),
  );

/** A draft saved: its title, text and linked posts; refused, the editor again with why and what was typed. */
const saveDraft = (site: ConsoleSite) => (event: H3Event) =>
  site.act(
    event,
    (team) => `${listPath(team)}/${entryOf(event)}`,
    async ({ form, team, actor }) => {
      const edit = {
        title: (form.get('title') ?? '').trim(),
        body: form.get('body') ?? '',
        postIds: form.getAll('post'),
      };
      await site.engine.workspace(team.organizationId).as(actor).changelog.edit(entryOf(event), edit);
      return 'saved';
    },
    // An entry that does not exist is the 404 page.
    (m, err) => renderEntry(site, m.v, m.team, entryOf(event), { state: stateOf(m.form, err.message) }, statusOf(err)),
  );

/** Publishing, with or without shipping its linked posts. */
const publish = (site: ConsoleSite) => (event: H3Event) =>
  site.act(
    event,
    (team) => `${listPath(team)}/${entryOf(event)}`,
    async ({ form, team, actor }) => {
      const options = { ship: form.get('ship') === '1' };
      await site.engine.workspace(team.organizationId).as(actor).changelog.publish(entryOf(event), options);
      return 'published';
    },
  );

/** The changelog: its entries, a new draft, a draft's editor with its preview and linked posts, and publishing. */
export function mountChangelog(router: H3, site: ConsoleSite): void {
  const list = `${CONSOLE_PATH}/:org/changelog`;
  router.get(list, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    return renderList(site, m.v, m.team, event.url.searchParams.get('done'));
  });
  router.post(list, createDraft(site));
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
  router.post(`${list}/:entry`, saveDraft(site));
  router.post(`${list}/:entry/publish`, publish(site));
}
