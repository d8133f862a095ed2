import { getRouterParams, type H3, type H3Event } from 'h3';
import type { ConsoleKey } from '../../engine/index.js';
import {
  CONSOLE_PATH,
  FeedbackError,
  type PostActions,
  type Team,
  type VotersQuery,
  type WorkspaceActions,
} from '../../engine/index.js';
import { htmlResponse } from '../../h3/index.js';
import { POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import type { Frame } from './layout.js';
import { postPage, type Refused } from './post.page.js';
import { type ConsoleSite, type ConsoleVisit, statusOf } from './site.js';
import { say } from './words.js';

/** What each action's success says on the page it returns to (a fixed word in the address, never text sent back). */
const DONE: Record<string, ConsoleKey> = {
  status: 'console.done.post.status',
  reply: 'console.done.post.reply',
  internal: 'console.done.post.internal',
  edit: 'console.done.post.edit',
  tags: 'console.done.post.tags',
  moved: 'console.done.post.moved',
  approved: 'console.done.post.approved',
  spam: 'console.done.post.spam',
  merged: 'console.done.post.merged',
  dismissed: 'console.done.post.dismissed',
  requested: 'console.done.integrations.requested',
  unlinked: 'console.done.integrations.unlinked',
};

/** What the page shows back after a refused form: the section, why, and what was typed. */
interface PostForm {
  section: Refused['section'];
  run: (form: URLSearchParams, actions: PostActions, postId: string, all: WorkspaceActions) => Promise<string>;
  drafts?: Record<string, string>;
}

/**
 * A form posted to one of the post's actions: done, it returns to the post page with a word of what was done; refused
 * (a check of the engine), the post page again with why, beside the form, and what was typed.
 */
function act(site: ConsoleSite, event: H3Event, form: PostForm) {
  const postId = getRouterParams(event).post ?? '';
  return site.act(
    event,
    (team) => `${CONSOLE_PATH}/${team.organizationId}/posts/${postId}`,
    ({ form: sent, team, actor }) => {
      const all = site.engine.workspace(team.organizationId).as(actor);
      return form.run(sent, all.posts, postId, all);
    },
    async (m, err) => {
      if (err.code === 'ERR_NOT_FOUND') return site.notFound(m.v, say('console.post.noSuch'));
      const drafts = Object.fromEntries(
        Object.entries(form.drafts ?? {}).map(([draft, field]) => [draft, m.form.get(field) ?? '']),
      );
      return render(
        site,
        m.v,
        m.team,
        postId,
        { refused: { section: form.section, message: err.message, drafts } },
        statusOf(err),
      );
    },
  );
}

async function render(
  site: ConsoleSite,
  v: ConsoleVisit,
  team: Team,
  postId: string,
  options: { refused?: Refused | null; mergeQ?: string; done?: string | null; voters?: VotersQuery },
  status = 200,
) {
  const w = site.engine.workspace(team.organizationId);
  const d = await w.triage.post(postId, options.voters);
  if (!d) return site.notFound(v, say('console.post.noSuch'));
  const q = options.mergeQ?.trim() ?? '';
  const found = q ? (await w.triage.posts({ q, limit: 10 })).data.filter((t) => t.id !== d.post.id) : null;
  const [tags, boards, duplicates, linked, connected] = await Promise.all([
    w.tags.list(),
    w.boards.list({ limit: 100 }).then((b) => b.data),
    d.mergedInto ? [] : w.triage.duplicates(d.post.id),
    w.integrations.forPost(d.post.id),
    w.integrations.overview(),
  ]);
  const issues = { ...linked, trackers: connected.filter((i) => i.service !== 'slack') };
  const notice = options.done ? (DONE[options.done] ? say(DONE[options.done]!) : null) : null;
  const frame: Frame = { ...v.frame, title: d.post.title, section: 'posts', team, notice };
  return htmlResponse(
    status,
    postPage(frame, team, d, {
      merge: { q, found },
      refused: options.refused ?? null,
      tags,
      boards,
      duplicates,
      issues,
    }),
    v.cookies,
  );
}

const isStatus = (s: string): s is PostStatus => (POST_STATUSES as readonly string[]).includes(s);
const trackerOf = (form: URLSearchParams): 'linear' | 'github' =>
  form.get('service') === 'github' ? 'github' : 'linear';

/** The post page's forms, by the path they post to under the post's address. */
const FORMS: Record<string, PostForm> = {
  status: {
    section: 'status',
    run: async (form, actions, postId) => {
      const status = form.get('status') ?? '';
      if (!isStatus(status)) throw new FeedbackError('ERR_VALIDATION', say('console.post.chooseStatus'));
      await actions.setStatus(postId, status, form.get('note'));
      return 'status';
    },
    drafts: { status: 'status', note: 'note' },
  },
  moderate: {
    section: 'moderate',
    run: async (form, actions, postId) => {
      const decision = form.get('decision');
      if (decision !== 'approved' && decision !== 'spam')
        throw new FeedbackError('ERR_VALIDATION', say('console.post.chooseDecision'));
      await actions.moderate(postId, decision);
      return decision;
    },
  },
  tags: {
    section: 'tags',
    run: async (form, actions, postId) => {
      await actions.setTags(postId, form.getAll('tag'));
      return 'tags';
    },
  },
  board: {
    section: 'board',
    run: async (form, actions, postId) => {
      await actions.move(postId, form.get('board') ?? '');
      return 'moved';
    },
  },
  reply: {
    section: 'reply',
    run: async (form, actions, postId) => {
      await actions.reply(postId, form.get('text') ?? '');
      return 'reply';
    },
    drafts: { reply: 'text' },
  },
  notes: {
    section: 'internal',
    run: async (form, actions, postId) => {
      await actions.addNote(postId, form.get('text') ?? '');
      return 'internal';
    },
    drafts: { internal: 'text' },
  },
  edit: {
    section: 'edit',
    run: async (form, actions, postId) => {
      await actions.edit(postId, { title: form.get('title') ?? '', bodyText: form.get('body') ?? '' });
      return 'edit';
    },
    drafts: { title: 'title', body: 'body' },
  },
  merge: {
    section: 'merge',
    run: async (form, actions, postId) => {
      await actions.merge(postId, form.get('into') ?? '');
      return 'merged';
    },
  },
  issue: {
    section: 'issues',
    run: async (form, _actions, postId, all) => {
      await all.integrations.createIssue(postId, trackerOf(form), form.get('target') ?? '', form.get('title') ?? '');
      return 'requested';
    },
  },
  link: {
    section: 'issues',
    run: async (form, _actions, postId, all) => {
      await all.integrations.linkIssue(postId, trackerOf(form), form.get('reference') ?? '');
      return 'requested';
    },
  },
  unlink: {
    section: 'issues',
    run: async (form, _actions, _postId, all) => {
      await all.integrations.unlink(form.get('link') ?? '');
      return 'unlinked';
    },
  },
  'not-duplicate': {
    section: 'merge',
    run: async (form, actions, postId) => {
      await actions.dismissDuplicate(postId, form.get('other') ?? '');
      return 'dismissed';
    },
  },
};

/** The post page and its forms: status (with a public note), moderation, tags, board, official reply, internal note, edit, merge. */
export function mountPost(router: H3, site: ConsoleSite): void {
  const path = `${CONSOLE_PATH}/:org/posts/:post`;
  router.get(path, async (event) => {
    const m = await site.member(event);
    if (m instanceof Response) return m;
    const params = event.url.searchParams;
    return render(site, m.v, m.team, getRouterParams(event).post ?? '', {
      mergeQ: params.get('merge_q') ?? '',
      voters: { group: params.get('voters') ?? undefined, cursor: params.get('voters_cursor') ?? undefined },
      done: params.get('done'),
    });
  });
  for (const [name, form] of Object.entries(FORMS)) router.post(`${path}/${name}`, (event) => act(site, event, form));
}
