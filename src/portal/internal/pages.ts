import type {
  PortalBoard,
  PortalChangelogEntry,
  PortalComment,
  PortalPost,
  PortalSort,
  Translator,
} from '../../engine/index.js';
import { html, markdown, type SafeHtml } from '../../h3/index.js';
import { POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { honeypot, listVoteButton, notifyMe, voteControl, voteCount, votesForm } from './controls.js';
import { avatar, csrfField, type PageFrame, page, when } from './layout.js';

/** A post's status as a coloured pill (its colour is the design system's for that status). */
const status = (tr: Translator, s: PostStatus) => html`<span class="pill s-${s}">${tr.t(`status.${s}`)}</span>`;

/** An empty list, said plainly, with what to do next where there is something. */
const empty = (text: string, next?: SafeHtml) => html`<div class="empty"><p>${text}</p>${next ?? ''}</div>`;

export function boardsPage(frame: PageFrame, boards: PortalBoard[]): string {
  const { tr } = frame;
  const items = boards.map(
    (b) =>
      html`<li><a class="card" href="${frame.paths.board(b.slug)}"><span class="board-name" dir="auto">${b.name}</span>${b.description ? html`<span class="board-description" dir="auto">${b.description}</span>` : ''}<span class="counts">${tr.t('boards.posts', { count: b.postCount })}</span></a></li>`,
  );
  return page(
    { ...frame, summary: { description: tr.t('boards.summary', { workspace: frame.workspace }) } },
    html`<h1>${tr.t('nav.boards')}</h1>
${boards.length ? html`<ul class="boards">${items}</ul>` : empty(tr.t('boards.empty'))}`,
  );
}

export interface BoardView {
  board: { name: string; slug: string };
  posts: PortalPost[];
  sort: PortalSort;
  q: string | null;
  status: PostStatus | null;
  nextCursor: string | null;
  /** This page's cursor (null on the first page). */
  cursor: string | null;
  /** A search: the posts are ranked by relevance, whatever the sort. */
  relevance: boolean;
  /** The pages before this one (their cursors, oldest first; '' is the first page), for the previous page's link. */
  before: string[];
  /** Which of the shown posts the viewer voted on. */
  voted: ReadonlySet<string>;
  /** Whether the viewer may vote (false where the workspace takes only signed-in users and they are not). */
  canTakePart: boolean;
}

/** How many earlier pages a board's address remembers for "Previous page" (further back, the first page is a link). */
export const PAGES_REMEMBERED = 10;

/** The query string of a board page: what is set, in a fixed order. */
function boardQuery(v: {
  sort?: PortalSort;
  q?: string | null;
  status?: PostStatus | null;
  cursor?: string | null;
  before?: string[];
}): string {
  const params = new URLSearchParams();
  if (v.sort && v.sort !== 'top') params.set('sort', v.sort);
  if (v.q) params.set('q', v.q);
  if (v.status) params.set('status', v.status);
  if (v.cursor) params.set('cursor', v.cursor);
  if (v.before?.length) params.set('before', v.before.join('.'));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function postItem(frame: PageFrame, boardSlug: string, p: PortalPost, vote: { voted: boolean } | null): SafeHtml {
  const { tr } = frame;
  return html`<li class="card">
${vote ? listVoteButton(frame, boardSlug, p, vote.voted) : voteCount(tr, p.voteCount)}
<div class="text"><a class="post-title" dir="auto" href="${frame.paths.post(boardSlug, p.slug)}">${p.title}</a>
${p.bodyText ? html`<p class="excerpt" dir="auto">${p.bodyText.slice(0, 300)}</p>` : ''}
<div class="meta">${status(tr, p.status)}<span>${tr.t('board.comments', { count: p.commentCount })}</span><span>${when(tr, p.createdAt)}</span></div></div>
</li>`;
}

/**
 * Previous and next page. A keyset page knows only the next one, so the address carries the cursors of the pages
 * before (`before`, at most PAGES_REMEMBERED); further back than that, the link is to the first page.
 */
function pager(tr: Translator, base: string, v: BoardView): SafeHtml | string {
  const state = { sort: v.sort, q: v.q, status: v.status };
  const previous = v.before.length
    ? html`<a href="${base}${boardQuery({ ...state, cursor: v.before.at(-1) || null, before: v.before.slice(0, -1) })}" rel="prev">${tr.t('pager.previous')}</a>`
    : v.cursor
      ? html`<a href="${base}${boardQuery(state)}">${tr.t('pager.first')}</a>`
      : html`<span></span>`;
  const next = v.nextCursor
    ? html`<a href="${base}${boardQuery({ ...state, cursor: v.nextCursor, before: [...v.before, v.cursor ?? ''].slice(-PAGES_REMEMBERED) })}" rel="next">${tr.t('pager.next')}</a>`
    : '';
  return v.cursor || next ? html`<nav class="pager" aria-label="${tr.t('pager.label')}">${previous}${next}</nav>` : '';
}

export function boardPage(frame: PageFrame, v: BoardView): string {
  const { tr } = frame;
  const base = frame.paths.board(v.board.slug);
  const here = `${base}${boardQuery({ sort: v.sort, q: v.q, status: v.status, cursor: v.cursor, before: v.before })}`;
  const sorts = (['top', 'new', 'trending'] as const).map(
    (sort) =>
      html`<li><a href="${base}${boardQuery({ sort, q: v.q, status: v.status })}"${sort === v.sort ? html.raw` aria-current="true"` : ''}>${tr.t(`board.sort.${sort}`)}</a></li>`,
  );
  const options = POST_STATUSES.filter((s) => s !== 'duplicate').map(
    (s) => html`<option value="${s}"${s === v.status ? html.raw` selected` : ''}>${tr.t(`status.${s}`)}</option>`,
  );
  const filtered = Boolean(v.q || v.status);
  return page(
    {
      ...frame,
      summary: {
        description: tr.t('board.summary', { board: v.board.name, workspace: frame.workspace }),
      },
    },
    html`<div class="head"><h1 dir="auto">${v.board.name}</h1><a class="button" href="${frame.paths.newPost(v.board.slug)}">${tr.t('board.newPost')}</a></div>
<form class="filters" method="get" action="${base}" role="search">
${v.sort !== 'top' ? html`<input type="hidden" name="sort" value="${v.sort}">` : ''}
<label class="sr-only" for="q">${tr.t('board.search')}</label><input id="q" type="search" name="q" value="${v.q ?? ''}" maxlength="200" placeholder="${tr.t('board.search')}">
<label class="sr-only" for="status">${tr.t('board.status')}</label><select id="status" name="status"><option value="">${tr.t('board.anyStatus')}</option>${options}</select>
<button type="submit" class="secondary">${tr.t('board.apply')}</button>
</form>
${v.relevance ? html`<p class="muted">${tr.t('board.relevant')} <a href="${base}${boardQuery({ sort: v.sort, status: v.status })}">${tr.t('board.clearSearch')}</a></p>` : html`<nav aria-label="${tr.t('board.sorts')}"><ul class="sorts">${sorts}</ul></nav>`}
${
  v.posts.length
    ? v.canTakePart
      ? votesForm(
          frame,
          here,
          html`<ul class="posts">${v.posts.map((p) => postItem(frame, v.board.slug, p, { voted: v.voted.has(p.id) }))}</ul>`,
        )
      : html`<ul class="posts">${v.posts.map((p) => postItem(frame, v.board.slug, p, null))}</ul>`
    : filtered
      ? empty(tr.t('board.noMatch'), html`<p><a href="${base}">${tr.t('board.showAll')}</a></p>`)
      : empty(
          tr.t('board.empty'),
          html`<p><a class="button" href="${frame.paths.newPost(v.board.slug)}">${tr.t('board.newPost')}</a></p>`,
        )
}
${pager(tr, base, v)}`,
  );
}

export interface PostView {
  board: { name: string; slug: string };
  post: PortalPost;
  comments: PortalComment[];
  merged: PortalPost[];
  /** Whether the viewer has voted on it. */
  voted: boolean;
  /** The comment a reply is being written to (`?reply=`). */
  replyTo: PortalComment | null;
  /** Whether the viewer may take part (false where the workspace takes only signed-in users and they are not). */
  canTakePart: boolean;
}

const signInOnly = (frame: PageFrame) =>
  html`<p class="notice">${frame.tr.t('post.signInOnly', { workspace: frame.workspace })}</p>`;

/** What an author is called: the name they gave, else their contact's (the engine fills it in), else "Anonymous". */
const authorOf = (tr: Translator, c: { authorName: string | null }) => c.authorName ?? tr.t('post.anonymous');

/** Comments as a tree: replies under their parent, oldest first; a reply whose parent is not shown stands at the top. */
function thread(
  tr: Translator,
  comments: PortalComment[],
  replyHref: ((c: PortalComment) => string) | null,
  workspace: string,
): SafeHtml {
  const shown = new Set(comments.map((c) => c.id));
  const children = new Map<string | null, PortalComment[]>();
  for (const c of comments) {
    const parent = c.parentId && shown.has(c.parentId) ? c.parentId : null;
    const siblings = children.get(parent);
    if (siblings) siblings.push(c);
    else children.set(parent, [c]);
  }
  // A long thread repeats a few names and one "now": each name's avatar is written once.
  const now = Date.now();
  const avatars = new Map<string, SafeHtml>();
  // The reply link's words: the message formatted once, each comment's name filled in (escaped) where it goes.
  const replyParts = String(
    tr.html('comment.reply', { name: '\u0000' }, { hidden: (inside) => html`<span class="sr-only">${inside}</span>` }),
  ).split('\u0000');
  const replyLabel = (who: string) => html.raw`${replyParts.join(String(html`${who}`))}`;
  const badge = tr.t('comment.team', { workspace });
  // Iterative, so a long reply chain cannot exhaust the stack.
  const render = (root: string | null): SafeHtml => {
    const out: Array<SafeHtml | string> = [];
    const stack: Array<{ list: PortalComment[]; index: number }> = [{ list: children.get(root) ?? [], index: 0 }];
    out.push(html.raw`<ul class="comments">`);
    while (stack.length) {
      const top = stack[stack.length - 1]!;
      if (top.index >= top.list.length) {
        stack.pop();
        out.push(html.raw`</ul>`);
        if (stack.length) out.push(html.raw`</li>`);
        continue;
      }
      const c = top.list[top.index++]!;
      const who = c.official ? (c.authorName ?? workspace) : authorOf(tr, c);
      let face = avatars.get(who);
      if (face === undefined) avatars.set(who, (face = avatar(who)));
      out.push(
        html`<li class="comment${c.official ? ' official' : ''}" id="${c.id}"><div class="who-said">${face}<strong dir="auto">${who}</strong>${c.official ? html`<span class="team-badge">${badge}</span>` : ''}${when(tr, c.createdAt, now)}</div><div class="body" dir="auto">${c.bodyText}</div>${replyHref ? html`<a class="reply" href="${replyHref(c)}">${replyLabel(who)}</a>` : ''}`,
      );
      const replies = children.get(c.id);
      if (replies?.length) {
        out.push(html.raw`<ul>`);
        stack.push({ list: replies, index: 0 });
      } else out.push(html.raw`</li>`);
    }
    return html`${out}`;
  };
  return render(null);
}

export function postPage(frame: PageFrame, v: PostView): string {
  const { tr } = frame;
  const p = v.post;
  const paths = frame.paths;
  const reply = v.replyTo;
  const commentForm = html`<form class="stack" id="comment-form" method="post" action="${paths.comment(v.board.slug, p.slug)}">
${csrfField(frame)}${honeypot(tr)}
${reply ? html`<input type="hidden" name="parent_id" value="${reply.id}"><p class="muted">${tr.html('comment.replyingTo', { name: authorOf(tr, reply) }, { cancel: (inside) => html`<a href="${paths.post(v.board.slug, p.slug)}#comment-form">${inside}</a>` })}</p>` : ''}
<label>${tr.t(reply ? 'comment.yourReply' : 'comment.yourComment')} <textarea name="body_text" required maxlength="10000"></textarea></label>
${frame.viewer ? notifyMe(frame, 'notify.post') : ''}
<button type="submit">${tr.t(reply ? 'comment.sendReply' : 'comment.send')}</button>
</form>`;
  const description =
    p.bodyText || tr.t('post.summary', { count: p.voteCount, board: v.board.name, workspace: frame.workspace });
  return page(
    { ...frame, summary: { description, type: 'article' } },
    html`<p class="crumbs"><a href="${paths.board(v.board.slug)}">${tr.t('post.back', { board: v.board.name })}</a></p>
<article class="post card">
${v.canTakePart ? voteControl(frame, { boardSlug: v.board.slug, post: p, voted: v.voted }) : voteCount(tr, p.voteCount)}
<div class="text">
<h1 dir="auto">${p.title}</h1>
<div class="meta">${status(tr, p.status)}<span class="author">${avatar(authorOf(tr, p))}<span dir="auto">${authorOf(tr, p)}</span></span>${when(tr, p.createdAt)}<span data-vote-total>${tr.t('vote.count', { count: p.voteCount })}</span></div>
${p.bodyText ? html`<div class="body" dir="auto">${p.bodyText}</div>` : ''}
</div>
</article>
${v.canTakePart ? '' : signInOnly(frame)}
${v.merged.length ? html`<h2>${tr.t('post.merged')}</h2><ul>${v.merged.map((m) => html`<li><span dir="auto">${m.title}</span> <span class="muted">${tr.t('vote.count', { count: m.voteCount })}</span></li>`)}</ul>` : ''}
<h2>${tr.t('post.comments', { count: v.comments.length })}</h2>
${v.comments.length ? thread(tr, v.comments, v.canTakePart ? (c) => `?reply=${c.id}#comment-form` : null, frame.workspace) : html`<p class="muted">${tr.t('post.noComments')}</p>`}
${v.canTakePart ? html`<h2>${tr.t(reply ? 'post.replyHeading' : 'post.addComment')}</h2>${commentForm}` : ''}`,
  );
}

/** The form for a new post on a board. */
export function newPostPage(
  frame: PageFrame,
  v: { board: { name: string; slug: string }; canTakePart: boolean },
): string {
  const { tr } = frame;
  return page(
    frame,
    html`<p><a href="${frame.paths.board(v.board.slug)}">${v.board.name}</a></p>
<h1>${tr.t('newPost.heading')}</h1>
${
  v.canTakePart
    ? html`<form class="stack" method="post" action="${frame.paths.newPost(v.board.slug)}">
${csrfField(frame)}${honeypot(tr)}
<label>${tr.t('newPost.title')} <input type="text" name="title" required maxlength="200" autocomplete="off" data-similar="${frame.paths.similar(v.board.slug)}"></label>
<div id="similar" aria-live="polite"></div>
<label>${tr.t('newPost.details')} <span class="muted">${tr.t('newPost.optional')}</span> <textarea name="details" maxlength="50000"></textarea></label>
${frame.viewer ? notifyMe(frame, 'notify.post') : ''}
<button type="submit">${tr.t('newPost.send')}</button>
</form>`
    : signInOnly(frame)
}`,
  );
}

/** What an anonymous person is asked before their action counts: their name and email, and the opt-in. */
export function identifyPage(
  frame: PageFrame,
  v: { action: string; heading: string; hidden: Record<string, string>; name?: string; email?: string; error?: string },
): string {
  const { tr } = frame;
  return page(
    frame,
    html`<h1>${v.heading}</h1>
<p>${tr.t('identify.intro')}</p>
${v.error ? html`<p class="error" role="alert">${v.error}</p>` : ''}
<form class="stack" method="post" action="${v.action}">
${csrfField(frame)}${honeypot(tr)}
${Object.entries(v.hidden).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<label>${tr.t('identify.name')} <input type="text" name="name" autocomplete="name" maxlength="200" value="${v.name ?? ''}"></label>
<label>${tr.t('identify.email')} <input type="email" name="email" autocomplete="email" required maxlength="320" value="${v.email ?? ''}"></label>
${notifyMe(frame, 'notify.updates')}
<button type="submit">${tr.t('identify.send')}</button>
</form>`,
  );
}

/** Where the emailed code is entered. */
export function codePage(frame: PageFrame, v: { action: string; error?: string }): string {
  const { tr } = frame;
  return page(
    frame,
    html`<h1>${tr.t('code.heading')}</h1>
<p>${tr.t('code.intro')}</p>
${v.error ? html`<p class="error" role="alert">${v.error}</p>` : ''}
<form class="stack" method="post" action="${v.action}">
${csrfField(frame)}
<label>${tr.t('code.label')} <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required></label>
<button type="submit">${tr.t('code.send')}</button>
</form>`,
  );
}

export function mergedPage(
  frame: PageFrame,
  v: { post: PortalPost; target: (PortalPost & { boardSlug: string }) | null },
): string {
  const { tr } = frame;
  const target = v.target;
  return page(
    frame,
    html`<h1 dir="auto">${v.post.title}</h1>
<p class="notice">${
      target
        ? tr.html(
            'merged.into',
            { title: target.title },
            {
              link: (inside) =>
                html`<a dir="auto" href="${frame.paths.post(target.boardSlug, target.slug)}">${inside}</a>`,
            },
          )
        : tr.t('merged.intoAnother')
    }</p>`,
  );
}

export function roadmapPage(
  frame: PageFrame,
  columns: Array<{ status: PostStatus; posts: Array<PortalPost & { boardSlug: string }> }>,
): string {
  const { tr } = frame;
  const column = (c: (typeof columns)[number]) => html`<section aria-labelledby="col-${c.status}">
<h2 id="col-${c.status}">${status(tr, c.status)}<span class="muted">${tr.number(c.posts.length)}</span></h2>
${c.posts.length ? html`<ol>${c.posts.map((p) => html`<li class="card"><a dir="auto" href="${frame.paths.post(p.boardSlug, p.slug)}">${p.title}</a><span class="muted">${tr.t('vote.count', { count: p.voteCount })}</span></li>`)}</ol>` : html`<p class="muted">${tr.t('roadmap.empty')}</p>`}
</section>`;
  return page(frame, html`<h1>${tr.t('nav.roadmap')}</h1><div class="roadmap">${columns.map(column)}</div>`);
}

export function changelogPage(
  frame: PageFrame,
  v: { data: PortalChangelogEntry[]; nextCursor: string | null; cursor?: string | null },
): string {
  const { tr } = frame;
  const entry = (e: PortalChangelogEntry) =>
    html`<article class="card" id="${e.slug}"><h2 dir="auto">${e.title}</h2><p class="muted">${when(tr, e.publishedAt)}</p>${e.body ? html`<div class="markdown" dir="auto">${markdown(e.body)}</div>` : ''}</article>`;
  return page(
    frame,
    html`<h1>${tr.t('nav.changelog')}</h1>
${v.data.length ? html`<div class="entries">${v.data.map(entry)}</div>` : empty(tr.t('changelog.empty'))}
${v.nextCursor || v.cursor ? html`<nav class="pager" aria-label="${tr.t('pager.label')}">${v.cursor ? html`<a href="${frame.paths.changelog}">${tr.t('changelog.newer')}</a>` : html`<span></span>`}${v.nextCursor ? html`<a href="${frame.paths.changelog}?cursor=${v.nextCursor}" rel="next">${tr.t('changelog.older')}</a>` : ''}</nav>` : ''}`,
  );
}
