import { getRouterParams, type H3, type H3Event } from 'h3';
import { FeedbackError, PORTAL_PATH, type PortalSort } from '../../engine/index.js';
import { textFault } from '../../schemas/input.js';
import { type PostStatus, SLUG_PATTERN as SLUG } from '../../schemas/posts.js';
import { messagePage } from './message-pages.js';
import { boardPage, boardsPage, changelogPage, mergedPage, PAGES_REMEMBERED, postPage, roadmapPage } from './pages.js';
import { htmlResponse } from './responses.js';
import type { PortalSite } from './site.js';

/** A board's page: its posts by the sort asked for, the search and the status filter, a keyset page at a time. */
async function boardRoute(site: PortalSite, event: H3Event): Promise<Response> {
  const v = await site.visit(event);
  if (!v) return site.noPortal(event);
  const { board: slug } = getRouterParams(event);
  const reader = site.engine.workspace(v.org.id).portal;
  const board = SLUG.test(slug ?? '') ? await reader.boardBySlug(slug!) : undefined;
  const { tr } = v.frame;
  if (!board) return site.notFound(v, tr.t('page.noBoard'));
  const query = event.url.searchParams;
  // The input rule of every request (U+0000, unpaired surrogates) holds for the search text too.
  const q = query.get('q')?.slice(0, 200);
  if (q !== undefined && textFault(q))
    return htmlResponse(400, messagePage(v.frame, tr.t('search.refused'), tr.t('search.refusedText')), v.cookies);
  const sort = (query.get('sort') ?? undefined) as PortalSort | undefined;
  let page;
  try {
    page = await reader.posts(board.id, {
      sort,
      q,
      status: (query.get('status') || undefined) as PostStatus | undefined,
      cursor: query.get('cursor') ?? undefined,
    });
  } catch (err) {
    // A cursor that is not one of ours (edited, or from another sort): the first page, not an error page.
    if (!(err instanceof FeedbackError && err.code === 'ERR_VALIDATION')) throw err;
    page = await reader.posts(board.id, { sort });
  }
  const cursor = query.get('cursor');
  const before = (query.get('before') ?? '').split('.').filter((c, i, all) => c || i < all.length - 1);
  const shown = {
    board,
    posts: page.data,
    sort: page.sort,
    q: page.q,
    status: page.status,
    nextCursor: page.nextCursor,
    relevance: page.relevance,
    cursor: cursor && page.data.length ? cursor : null,
    before: cursor ? before.slice(-PAGES_REMEMBERED) : [],
    voted: v.viewer
      ? await v.participation.votedOn(
          v.viewer,
          page.data.map((p) => p.id),
        )
      : new Set<string>(),
    canTakePart: v.canTakePart,
  };
  return htmlResponse(200, boardPage({ ...v.frame, title: board.name, section: 'boards' }, shown), v.cookies);
}

/** A post's page (or where it was merged), with its comments and whether the viewer voted. */
async function postRoute(site: PortalSite, event: H3Event): Promise<Response> {
  const v = await site.visit(event);
  if (!v) return site.noPortal(event);
  const { board: boardSlug, post: postSlug } = getRouterParams(event);
  const reader = site.engine.workspace(v.org.id).portal;
  const board = SLUG.test(boardSlug ?? '') ? await reader.boardBySlug(boardSlug!) : undefined;
  const found = board && SLUG.test(postSlug ?? '') ? await reader.post(board.id, postSlug!) : null;
  if (board && !found && SLUG.test(postSlug ?? '')) {
    // A post that moved to another board: its old address sends to the new one, for good.
    const moved = await reader.movedFrom(board.id, postSlug!);
    if (moved)
      return new Response(null, {
        status: 301,
        headers: { location: v.frame.paths.post(moved.boardSlug, moved.slug) },
      });
  }
  if (!board || !found) return site.notFound(v, v.frame.tr.t('page.noPost'));
  const frame = { ...v.frame, title: found.post.title, section: 'boards' as const };
  if (found.post.mergedIntoId) {
    // A merged post's address sends its visitors (and search engines) to the post it was merged into, for good.
    if (found.mergedInto)
      return new Response(null, {
        status: 301,
        headers: { location: v.frame.paths.post(found.mergedInto.boardSlug, found.mergedInto.slug) },
      });
    return htmlResponse(200, mergedPage(frame, { post: found.post, target: null }), v.cookies);
  }
  const replyId = event.url.searchParams.get('reply');
  const replyTo = (replyId && found.comments.find((c) => c.id === replyId)) || null;
  const voted = v.viewer ? (await v.participation.votedOn(v.viewer, [found.post.id])).has(found.post.id) : false;
  return htmlResponse(
    200,
    postPage(frame, {
      board,
      post: found.post,
      comments: found.comments,
      merged: found.merged,
      voted,
      replyTo,
      canTakePart: v.canTakePart,
    }),
    v.cookies,
  );
}

/** The pages people read: the boards, a board, a post, the roadmap, the changelog. */
export function mountReading(router: H3, site: PortalSite): void {
  router.get(`${PORTAL_PATH}/:handle`, async (event) => {
    // The home page's address ends with a slash: `/portal/acme` goes there (the router matches both).
    if (!event.url.pathname.endsWith('/'))
      return new Response(null, { status: 308, headers: { location: `${event.url.pathname}/` } });
    const v = await site.visit(event);
    if (!v) return site.noPortal(event);
    return htmlResponse(
      200,
      boardsPage(
        { ...v.frame, title: v.frame.tr.t('nav.boards'), section: 'boards' },
        await site.engine.workspace(v.org.id).portal.boards(),
      ),
      v.cookies,
    );
  });
  router.get(`${PORTAL_PATH}/:handle/b/:board`, (event) => boardRoute(site, event));
  router.get(`${PORTAL_PATH}/:handle/b/:board/p/:post`, (event) => postRoute(site, event));
  router.get(`${PORTAL_PATH}/:handle/roadmap`, async (event) => {
    const v = await site.visit(event);
    if (!v) return site.noPortal(event);
    return htmlResponse(
      200,
      roadmapPage(
        { ...v.frame, title: v.frame.tr.t('nav.roadmap'), section: 'roadmap' },
        await site.engine.workspace(v.org.id).portal.roadmap(),
      ),
      v.cookies,
    );
  });
  router.get(`${PORTAL_PATH}/:handle/changelog`, async (event) => {
    const v = await site.visit(event);
    if (!v) return site.noPortal(event);
    const reader = site.engine.workspace(v.org.id).portal;
    const cursor = event.url.searchParams.get('cursor') ?? undefined;
    const entries = await reader.changelog({ cursor }).catch((err: unknown) => {
      if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION') return reader.changelog();
      throw err;
    });
    return htmlResponse(
      200,
      changelogPage(
        { ...v.frame, title: v.frame.tr.t('nav.changelog'), section: 'changelog' },
        { ...entries, cursor: cursor ?? null },
      ),
      v.cookies,
    );
  });
}
