import type { PortalBoard, PortalChangelogEntry, PortalComment, PortalPost, PortalSort } from '../../engine/index.js';
import { POST_STATUSES, type PostStatus } from '../../schemas/posts.js';
import { STATUS_LABELS, count, html, page, when, type PageFrame, type Paths, type SafeHtml } from './layout.js';

const status = (s: PostStatus) => html`<span class="status">${STATUS_LABELS[s]}</span>`;

export function boardsPage(frame: PageFrame, boards: PortalBoard[]): string {
  const items = boards.map(
    (b) => html`<li><a class="post-title" href="${frame.paths.board(b.slug)}">${b.name}</a> <span class="muted">${count(b.postCount, 'post')}</span></li>`,
  );
  return page(
    frame,
    html`<h1>Boards</h1>
${boards.length ? html`<ul class="boards">${items}</ul>` : html`<p class="muted">No public boards yet.</p>`}`,
  );
}

export interface BoardView {
  board: { name: string; slug: string };
  posts: PortalPost[];
  sort: PortalSort;
  q: string | null;
  status: PostStatus | null;
  nextCursor: string | null;
}

const SORT_LABELS: Record<PortalSort, string> = { top: 'Top', new: 'New', trending: 'Trending' };

/** The query string of a board page: what is set, in a fixed order. */
function boardQuery(v: { sort?: PortalSort; q?: string | null; status?: PostStatus | null; cursor?: string | null }): string {
  const params = new URLSearchParams();
  if (v.sort && v.sort !== 'top') params.set('sort', v.sort);
  if (v.q) params.set('q', v.q);
  if (v.status) params.set('status', v.status);
  if (v.cursor) params.set('cursor', v.cursor);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function postItem(paths: Paths, boardSlug: string, p: PortalPost): SafeHtml {
  return html`<li>
<div class="votes" aria-label="${count(p.voteCount, 'vote')}"><strong>${p.voteCount}</strong><span class="muted">${p.voteCount === 1 ? 'vote' : 'votes'}</span></div>
<div><a class="post-title" href="${paths.post(boardSlug, p.slug)}">${p.title}</a>
<div>${status(p.status)} <span class="muted">${count(p.commentCount, 'comment')} · ${when(p.createdAt)}</span></div></div>
</li>`;
}

export function boardPage(frame: PageFrame, v: BoardView): string {
  const base = frame.paths.board(v.board.slug);
  const sorts = (['top', 'new', 'trending'] as const).map(
    (sort) => html`<li><a href="${base}${boardQuery({ sort, q: v.q, status: v.status })}"${sort === v.sort ? html.raw` aria-current="true"` : ''}>${SORT_LABELS[sort]}</a></li>`,
  );
  const options = POST_STATUSES.filter((s) => s !== 'duplicate').map(
    (s) => html`<option value="${s}"${s === v.status ? html.raw` selected` : ''}>${STATUS_LABELS[s]}</option>`,
  );
  return page(
    frame,
    html`<h1>${v.board.name}</h1>
<form class="filters" method="get" action="${base}" role="search">
${v.sort !== 'top' ? html`<input type="hidden" name="sort" value="${v.sort}">` : ''}
<label>Search posts <input type="search" name="q" value="${v.q ?? ''}" maxlength="200"></label>
<label>Status <select name="status"><option value="">Any status</option>${options}</select></label>
<button type="submit">Apply</button>
</form>
<nav aria-label="Sort posts"><ul class="sorts">${sorts}</ul></nav>
${v.posts.length ? html`<ul class="posts">${v.posts.map((p) => postItem(frame.paths, v.board.slug, p))}</ul>` : html`<p class="muted">No posts match.</p>`}
${v.nextCursor ? html`<p class="pager"><a href="${base}${boardQuery({ sort: v.sort, q: v.q, status: v.status, cursor: v.nextCursor })}" rel="next">Next page</a></p>` : ''}`,
  );
}

export interface PostView {
  board: { name: string; slug: string };
  post: PortalPost;
  comments: PortalComment[];
  merged: PortalPost[];
}

/** Comments as a tree: replies under their parent, oldest first; a reply whose parent is not shown stands at the top. */
function thread(comments: PortalComment[]): SafeHtml {
  const shown = new Set(comments.map((c) => c.id));
  const children = new Map<string | null, PortalComment[]>();
  for (const c of comments) {
    const parent = c.parentId && shown.has(c.parentId) ? c.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), c]);
  }
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
      out.push(html`<li class="comment" id="${c.id}"><div class="meta">${c.authorName ?? 'Someone'} · ${when(c.createdAt)}</div><div class="body">${c.bodyText}</div>`);
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
  return page(
    frame,
    html`<p><a href="${frame.paths.board(v.board.slug)}">${v.board.name}</a></p>
<article>
<h1>${p.title}</h1>
<p>${status(p.status)} <span class="muted">${count(p.voteCount, 'vote')} · ${p.authorName ? html`${p.authorName} · ` : ''}${when(p.createdAt)}</span></p>
${p.bodyText ? html`<div class="body">${p.bodyText}</div>` : ''}
</article>
${v.merged.length ? html`<h2>Merged into this post</h2><ul>${v.merged.map((m) => html`<li>${m.title} <span class="muted">${count(m.voteCount, 'vote')}</span></li>`)}</ul>` : ''}
<h2>${count(v.comments.length, 'comment')}</h2>
${v.comments.length ? thread(v.comments) : html`<p class="muted">No comments yet.</p>`}`,
  );
}

export function mergedPage(frame: PageFrame, v: { post: PortalPost; target: (PortalPost & { boardSlug: string }) | null }): string {
  return page(
    frame,
    html`<h1>${v.post.title}</h1>
<p class="notice">This post was merged into ${v.target ? html`<a href="${frame.paths.post(v.target.boardSlug, v.target.slug)}">${v.target.title}</a>` : 'another post'}: votes and comments continue there.</p>`,
  );
}

export function roadmapPage(frame: PageFrame, columns: Array<{ status: PostStatus; posts: Array<PortalPost & { boardSlug: string }> }>): string {
  const column = (c: (typeof columns)[number]) => html`<section aria-labelledby="col-${c.status}">
<h2 id="col-${c.status}">${STATUS_LABELS[c.status]}</h2>
${c.posts.length ? html`<ol>${c.posts.map((p) => html`<li><a href="${frame.paths.post(p.boardSlug, p.slug)}">${p.title}</a> <span class="muted">${count(p.voteCount, 'vote')}</span></li>`)}</ol>` : html`<p class="muted">Nothing here yet.</p>`}
</section>`;
  return page(frame, html`<h1>Roadmap</h1><div class="roadmap">${columns.map(column)}</div>`);
}

export function changelogPage(frame: PageFrame, v: { data: PortalChangelogEntry[]; nextCursor: string | null }): string {
  const entry = (e: PortalChangelogEntry) => html`<article id="${e.slug}"><h2>${e.title}</h2><p class="muted">${when(e.publishedAt)}</p>${e.body ? html`<div class="body">${e.body}</div>` : ''}</article>`;
  return page(
    frame,
    html`<h1>Changelog</h1>
${v.data.length ? html`<div class="entries">${v.data.map(entry)}</div>` : html`<p class="muted">Nothing published yet.</p>`}
${v.nextCursor ? html`<p class="pager"><a href="${frame.paths.changelog}?cursor=${v.nextCursor}" rel="next">Older entries</a></p>` : ''}`,
  );
}

/** A page that says why there is nothing to show: `heading` is also its title. */
export function messagePage(frame: Omit<PageFrame, 'title'> | null, heading: string, text: string): string {
  if (!frame) return String(html`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${heading}</title></head><body><main><h1>${heading}</h1><p>${text}</p></main></body></html>`);
  return page({ ...frame, title: heading }, html`<h1>${heading}</h1><p>${text}</p><p><a href="${frame.paths.home}">All boards</a></p>`);
}
