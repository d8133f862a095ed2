import type { PortalBoard, PortalChangelogEntry, PortalComment, PortalPost, PortalSort } from '../../engine/index.js';
import { html, markdown, type SafeHtml } from '../../h3/index.js';
import { POST_STATUSES, type PostStatus, POST_STATUS_LABELS as STATUS_LABELS } from '../../schemas/posts.js';
import { honeypot, listVoteButton, notifyMe, voteControl, voteCount, votesForm } from './controls.js';
import { avatar, count, csrfField, mailPage, type PageFrame, page, when } from './layout.js';

/** A post's status as a coloured pill (its colour is the design system's for that status). */
const status = (s: PostStatus) => html`<span class="pill s-${s}">${STATUS_LABELS[s]}</span>`;

/** An empty list, said plainly, with what to do next where there is something. */
const empty = (text: string, next?: SafeHtml) => html`<div class="empty"><p>${text}</p>${next ?? ''}</div>`;

export function boardsPage(frame: PageFrame, boards: PortalBoard[]): string {
  const items = boards.map(
    (b) =>
      html`<li><a class="card" href="${frame.paths.board(b.slug)}"><span class="board-name" dir="auto">${b.name}</span>${b.description ? html`<span class="board-description" dir="auto">${b.description}</span>` : ''}<span class="counts">${count(b.postCount, 'post')}</span></a></li>`,
  );
  return page(
    { ...frame, summary: { description: `Ideas and feedback for ${frame.workspace}: vote on what matters to you.` } },
    html`<h1>Boards</h1>
${boards.length ? html`<ul class="boards">${items}</ul>` : empty('No public boards yet.')}`,
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

const SORT_LABELS: Record<PortalSort, string> = { top: 'Top', new: 'New', trending: 'Trending' };

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
  return html`<li class="card">
${vote ? listVoteButton(frame, boardSlug, p, vote.voted) : voteCount(p.voteCount)}
<div class="text"><a class="post-title" dir="auto" href="${frame.paths.post(boardSlug, p.slug)}">${p.title}</a>
${p.bodyText ? html`<p class="excerpt" dir="auto">${p.bodyText.slice(0, 300)}</p>` : ''}
<div class="meta">${status(p.status)}<span>${count(p.commentCount, 'comment')}</span><span>${when(p.createdAt)}</span></div></div>
</li>`;
}

/**
 * Previous and next page. A keyset page knows only the next one, so the address carries the cursors of the pages
 * before (`before`, at most PAGES_REMEMBERED); further back than that, the link is to the first page.
 */
function pager(base: string, v: BoardView): SafeHtml | string {
  const state = { sort: v.sort, q: v.q, status: v.status };
  const previous = v.before.length
    ? html`<a href="${base}${boardQuery({ ...state, cursor: v.before.at(-1) || null, before: v.before.slice(0, -1) })}" rel="prev">← Previous page</a>`
    : v.cursor
      ? html`<a href="${base}${boardQuery(state)}">← First page</a>`
      : html`<span></span>`;
  const next = v.nextCursor
    ? html`<a href="${base}${boardQuery({ ...state, cursor: v.nextCursor, before: [...v.before, v.cursor ?? ''].slice(-PAGES_REMEMBERED) })}" rel="next">Next page →</a>`
    : '';
  return v.cursor || next ? html`<nav class="pager" aria-label="Pages">${previous}${next}</nav>` : '';
}

export function boardPage(frame: PageFrame, v: BoardView): string {
  const base = frame.paths.board(v.board.slug);
  const here = `${base}${boardQuery({ sort: v.sort, q: v.q, status: v.status, cursor: v.cursor, before: v.before })}`;
  const sorts = (['top', 'new', 'trending'] as const).map(
    (sort) =>
      html`<li><a href="${base}${boardQuery({ sort, q: v.q, status: v.status })}"${sort === v.sort ? html.raw` aria-current="true"` : ''}>${SORT_LABELS[sort]}</a></li>`,
  );
  const options = POST_STATUSES.filter((s) => s !== 'duplicate').map(
    (s) => html`<option value="${s}"${s === v.status ? html.raw` selected` : ''}>${STATUS_LABELS[s]}</option>`,
  );
  const filtered = Boolean(v.q || v.status);
  return page(
    {
      ...frame,
      summary: {
        description: `${v.board.name}: ideas and feedback for ${frame.workspace}. Vote on what matters to you.`,
      },
    },
    html`<div class="head"><h1 dir="auto">${v.board.name}</h1><a class="button" href="${frame.paths.newPost(v.board.slug)}">New post</a></div>
<form class="filters" method="get" action="${base}" role="search">
${v.sort !== 'top' ? html`<input type="hidden" name="sort" value="${v.sort}">` : ''}
<label class="sr-only" for="q">Search posts</label><input id="q" type="search" name="q" value="${v.q ?? ''}" maxlength="200" placeholder="Search posts">
<label class="sr-only" for="status">Status</label><select id="status" name="status"><option value="">Any status</option>${options}</select>
<button type="submit" class="secondary">Apply</button>
</form>
${v.relevance ? html`<p class="muted">Most relevant first. <a href="${base}${boardQuery({ sort: v.sort, status: v.status })}">Clear the search</a></p>` : html`<nav aria-label="Sort posts"><ul class="sorts">${sorts}</ul></nav>`}
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
      ? empty('No posts match.', html`<p><a href="${base}">Show every post</a></p>`)
      : empty(
          'No posts yet. Be the first to share an idea.',
          html`<p><a class="button" href="${frame.paths.newPost(v.board.slug)}">New post</a></p>`,
        )
}
${pager(base, v)}`,
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
  html`<p class="notice">${frame.workspace} takes feedback from signed-in users: sign in on ${frame.workspace}'s site to vote, comment and post.</p>`;

/** What an author is called: the name they gave, else their contact's (the engine fills it in), else "Anonymous". */
const authorOf = (c: { authorName: string | null }) => c.authorName ?? 'Anonymous';

/** Comments as a tree: replies under their parent, oldest first; a reply whose parent is not shown stands at the top. */
function thread(
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
      const who = c.official ? (c.authorName ?? workspace) : authorOf(c);
      let face = avatars.get(who);
      if (face === undefined) avatars.set(who, (face = avatar(who)));
      out.push(
        html`<li class="comment${c.official ? ' official' : ''}" id="${c.id}"><div class="who-said">${face}<strong dir="auto">${who}</strong>${c.official ? html`<span class="team-badge">${workspace} team</span>` : ''}${when(c.createdAt, now)}</div><div class="body" dir="auto">${c.bodyText}</div>${replyHref ? html`<a class="reply" href="${replyHref(c)}">Reply<span class="sr-only"> to ${who}</span></a>` : ''}`,
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
  const p = v.post;
  const paths = frame.paths;
  const reply = v.replyTo;
  const commentForm = html`<form class="stack" id="comment-form" method="post" action="${paths.comment(v.board.slug, p.slug)}">
${csrfField(frame)}${honeypot}
${reply ? html`<input type="hidden" name="parent_id" value="${reply.id}"><p class="muted">Replying to ${authorOf(reply)}: <a href="${paths.post(v.board.slug, p.slug)}#comment-form">cancel</a></p>` : ''}
<label>${reply ? 'Your reply' : 'Your comment'} <textarea name="body_text" required maxlength="10000"></textarea></label>
${frame.viewer ? notifyMe(frame, 'this post') : ''}
<button type="submit">${reply ? 'Reply' : 'Comment'}</button>
</form>`;
  const description = p.bodyText ? p.bodyText : `${count(p.voteCount, 'vote')} on ${v.board.name}, ${frame.workspace}.`;
  return page(
    { ...frame, summary: { description, type: 'article' } },
    html`<p class="crumbs"><a href="${paths.board(v.board.slug)}">← ${v.board.name}</a></p>
<article class="post card">
${v.canTakePart ? voteControl(frame, { boardSlug: v.board.slug, post: p, voted: v.voted }) : voteCount(p.voteCount)}
<div class="text">
<h1 dir="auto">${p.title}</h1>
<div class="meta">${status(p.status)}<span class="author">${avatar(authorOf(p))}<span dir="auto">${authorOf(p)}</span></span>${when(p.createdAt)}<span data-vote-total>${count(p.voteCount, 'vote')}</span></div>
${p.bodyText ? html`<div class="body" dir="auto">${p.bodyText}</div>` : ''}
</div>
</article>
${v.canTakePart ? '' : signInOnly(frame)}
${v.merged.length ? html`<h2>Merged into this post</h2><ul>${v.merged.map((m) => html`<li><span dir="auto">${m.title}</span> <span class="muted">${count(m.voteCount, 'vote')}</span></li>`)}</ul>` : ''}
<h2>${count(v.comments.length, 'comment')}</h2>
${v.comments.length ? thread(v.comments, v.canTakePart ? (c) => `?reply=${c.id}#comment-form` : null, frame.workspace) : html`<p class="muted">No comments yet. Start the conversation.</p>`}
${v.canTakePart ? html`<h2>${reply ? 'Reply' : 'Add a comment'}</h2>${commentForm}` : ''}`,
  );
}

/** The form for a new post on a board. */
export function newPostPage(
  frame: PageFrame,
  v: { board: { name: string; slug: string }; canTakePart: boolean },
): string {
  return page(
    frame,
    html`<p><a href="${frame.paths.board(v.board.slug)}">${v.board.name}</a></p>
<h1>New post</h1>
${
  v.canTakePart
    ? html`<form class="stack" method="post" action="${frame.paths.newPost(v.board.slug)}">
${csrfField(frame)}${honeypot}
<label>Title <input type="text" name="title" required maxlength="200" autocomplete="off" data-similar="${frame.paths.similar(v.board.slug)}"></label>
<div id="similar" aria-live="polite"></div>
<label>Details <span class="muted">(optional)</span> <textarea name="details" maxlength="50000"></textarea></label>
${frame.viewer ? notifyMe(frame, 'this post') : ''}
<button type="submit">Post</button>
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
  return page(
    frame,
    html`<h1>${v.heading}</h1>
<p>We will email you a code to confirm your address. Your name is shown with what you write; your email is not.</p>
${v.error ? html`<p class="error" role="alert">${v.error}</p>` : ''}
<form class="stack" method="post" action="${v.action}">
${csrfField(frame)}${honeypot}
${Object.entries(v.hidden).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
<label>Your name <input type="text" name="name" autocomplete="name" maxlength="200" value="${v.name ?? ''}"></label>
<label>Your email <input type="email" name="email" autocomplete="email" required maxlength="320" value="${v.email ?? ''}"></label>
${notifyMe(frame, 'updates to this post (status changes and replies)')}
<button type="submit">Email me a code</button>
</form>`,
  );
}

/** Where the emailed code is entered. */
export function codePage(frame: PageFrame, v: { action: string; error?: string }): string {
  return page(
    frame,
    html`<h1>Check your email</h1>
<p>We sent a six-digit code to the address you gave. It works once, for 15 minutes.</p>
${v.error ? html`<p class="error" role="alert">${v.error}</p>` : ''}
<form class="stack" method="post" action="${v.action}">
${csrfField(frame)}
<label>Code <input type="text" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9]{6}" maxlength="6" required></label>
<button type="submit">Confirm</button>
</form>`,
  );
}

export function mergedPage(
  frame: PageFrame,
  v: { post: PortalPost; target: (PortalPost & { boardSlug: string }) | null },
): string {
  return page(
    frame,
    html`<h1 dir="auto">${v.post.title}</h1>
<p class="notice">This post was merged into ${v.target ? html`<a dir="auto" href="${frame.paths.post(v.target.boardSlug, v.target.slug)}">${v.target.title}</a>` : 'another post'}: votes and comments continue there.</p>`,
  );
}

export function roadmapPage(
  frame: PageFrame,
  columns: Array<{ status: PostStatus; posts: Array<PortalPost & { boardSlug: string }> }>,
): string {
  const column = (c: (typeof columns)[number]) => html`<section aria-labelledby="col-${c.status}">
<h2 id="col-${c.status}">${status(c.status)}<span class="muted">${c.posts.length}</span></h2>
${c.posts.length ? html`<ol>${c.posts.map((p) => html`<li class="card"><a dir="auto" href="${frame.paths.post(p.boardSlug, p.slug)}">${p.title}</a><span class="muted">${count(p.voteCount, 'vote')}</span></li>`)}</ol>` : html`<p class="muted">Nothing here yet.</p>`}
</section>`;
  return page(frame, html`<h1>Roadmap</h1><div class="roadmap">${columns.map(column)}</div>`);
}

export function changelogPage(
  frame: PageFrame,
  v: { data: PortalChangelogEntry[]; nextCursor: string | null; cursor?: string | null },
): string {
  const entry = (e: PortalChangelogEntry) =>
    html`<article class="card" id="${e.slug}"><h2 dir="auto">${e.title}</h2><p class="muted">${when(e.publishedAt)}</p>${e.body ? html`<div class="markdown" dir="auto">${markdown(e.body)}</div>` : ''}</article>`;
  return page(
    frame,
    html`<h1>Changelog</h1>
${v.data.length ? html`<div class="entries">${v.data.map(entry)}</div>` : empty('Nothing published yet. Shipped work will be announced here.')}
${v.nextCursor || v.cursor ? html`<nav class="pager" aria-label="Pages">${v.cursor ? html`<a href="${frame.paths.changelog}">← Newest entries</a>` : html`<span></span>`}${v.nextCursor ? html`<a href="${frame.paths.changelog}?cursor=${v.nextCursor}" rel="next">Older entries →</a>` : ''}</nav>` : ''}`,
  );
}

/**
 * The page for when the database cannot be reached (a restart, a failover, a network fault): it needs nothing from the
 * database, and says what happened to what was being sent.
 */
export function unavailablePage(): string {
  return mailPage(
    { workspace: 'Feedback', title: 'Temporarily unavailable' },
    html`<h1>We will be right back</h1><p>This page cannot be shown right now: the service cannot reach its database. If you were sending something, it was not saved.</p><p>Please try again in a few seconds.</p>`,
  );
}

/** The page for a failure nobody expected; the log has the details under the request's id. */
export function errorPage(): string {
  return mailPage(
    { workspace: 'Feedback', title: 'Error' },
    html`<h1>Something went wrong</h1><p>Please try again.</p>`,
  );
}

export function messagePage(
  frame: Omit<PageFrame, 'title'> | null,
  heading: string,
  text: string,
  back?: { href: string; label: string },
): string {
  if (!frame)
    return String(
      html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${heading}</title></head><body><main><h1>${heading}</h1><p>${text}</p></main></body></html>`,
    );
  return page(
    { ...frame, title: heading },
    html`<h1>${heading}</h1><p>${text}</p><p>${back ? html`<a href="${back.href}">${back.label}</a> · ` : ''}<a href="${frame.paths.home}">All boards</a></p>`,
  );
}
