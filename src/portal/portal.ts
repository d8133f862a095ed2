import { H3, getRouterParams, type H3Event } from 'h3';
import { FeedbackError, HANDLE_PATTERN, type Engine, type OrganizationInfo, type PortalSort } from '../engine/index.js';
import type { AppSite } from '../h3/index.js';
import { textFault } from '../schemas/input.js';
import { SLUG_PATTERN as SLUG, type PostStatus } from '../schemas/posts.js';
import { ASSETS, assetResponse } from './internal/assets.js';
import { PORTAL_PATH, pathsOf, type PageFrame } from './internal/layout.js';
import { boardPage, boardsPage, changelogPage, mergedPage, messagePage, postPage, roadmapPage } from './internal/pages.js';

export { PORTAL_PATH };

export interface PortalOptions {
  engine: Engine;
}

/**
 * Every portal answer's headers: no inline script or style may run, nothing loads from elsewhere, forms post only
 * here, and no other site may frame the pages.
 */
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

function htmlResponse(status: number, body: string): Response {
  return new Response(body, { status, headers: { ...SECURITY_HEADERS, 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } });
}


/**
 * The public portal of every workspace that has a handle and turned its portal on: its boards, a board's posts (Top,
 * New, Trending; search; status filter; keyset pages), a post with its comments, the roadmap and the changelog.
 * Server-rendered HTML that works without JavaScript; every value is escaped by the template (html-template).
 * @example
 * const app = createApp({ engine, sites: [createPortal({ engine })] });
 */
export function createPortal(options: PortalOptions): AppSite {
  const { engine } = options;
  // The app's error reporter, as the first request hands it over (it is the same one every time).
  let report: ((message: string, error: unknown) => void) | undefined;
  const router = new H3({
    onError(error, event) {
      report?.(`[feedback-service] portal error on ${event.url.pathname}`, error.cause ?? error);
      return htmlResponse(
        500,
        '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Error</title></head><body><main><h1>Something went wrong</h1><p>Please try again.</p></main></body></html>',
      );
    },
  });

  /** The workspace behind a handle, if its portal is on. */
  async function workspaceOf(event: H3Event): Promise<{ org: OrganizationInfo; frame: Omit<PageFrame, 'title'> } | null> {
    const handle = getRouterParams(event).handle ?? '';
    if (!HANDLE_PATTERN.test(handle)) return null;
    const org = await engine.organizations.byHandle(handle);
    if (!org || !org.portalEnabled) return null;
    return { org, frame: { workspace: org.name, paths: pathsOf(handle) } };
  }

  const notFound = (frame: Omit<PageFrame, 'title'> | null, what: string) => htmlResponse(404, messagePage(frame, 'Not found', what));

  router.get(`${PORTAL_PATH}/assets/:name`, (event) => {
    const asset = ASSETS.get(getRouterParams(event).name ?? '');
    return asset ? assetResponse(asset, event.req.headers.get('accept-encoding')) : notFound(null, 'No such file.');
  });

  router.get(`${PORTAL_PATH}/:handle`, async (event) => {
    // The home page's address ends with a slash: `/portal/acme` goes there (the router matches both).
    if (!event.url.pathname.endsWith('/')) return new Response(null, { status: 308, headers: { location: `${event.url.pathname}/` } });
    const ws = await workspaceOf(event);
    if (!ws) return notFound(null, 'No such portal.');
    return htmlResponse(200, boardsPage({ ...ws.frame, title: 'Boards', section: 'boards' }, await engine.workspace(ws.org.id).portal.boards()));
  });

  router.get(`${PORTAL_PATH}/:handle/b/:board`, async (event) => {
    const ws = await workspaceOf(event);
    if (!ws) return notFound(null, 'No such portal.');
    const { board: slug } = getRouterParams(event);
    const reader = engine.workspace(ws.org.id).portal;
    const board = SLUG.test(slug ?? '') ? await reader.boardBySlug(slug!) : undefined;
    if (!board) return notFound(ws.frame, 'There is no such board.');
    const query = event.url.searchParams;
    // The input rule of every request (U+0000, unpaired surrogates) holds for the search text too.
    const q = query.get('q')?.slice(0, 200);
    if (q !== undefined && textFault(q)) return htmlResponse(400, messagePage(ws.frame, 'Cannot search for that', 'The search text holds characters that cannot be searched for.'));
    let page;
    try {
      page = await reader.posts(board.id, {
        sort: (query.get('sort') ?? undefined) as PortalSort | undefined,
        q,
        status: (query.get('status') || undefined) as PostStatus | undefined,
        cursor: query.get('cursor') ?? undefined,
      });
    } catch (err) {
      // A cursor that is not one of ours (edited, or from another sort): the first page, not an error page.
      if (!(err instanceof FeedbackError && err.code === 'ERR_VALIDATION')) throw err;
      page = await reader.posts(board.id, { sort: (query.get('sort') ?? undefined) as PortalSort | undefined });
    }
    return htmlResponse(200, boardPage({ ...ws.frame, title: board.name, section: 'boards' }, { board, posts: page.data, sort: page.sort, q: page.q, status: page.status, nextCursor: page.nextCursor }));
  });

  router.get(`${PORTAL_PATH}/:handle/b/:board/p/:post`, async (event) => {
    const ws = await workspaceOf(event);
    if (!ws) return notFound(null, 'No such portal.');
    const { board: boardSlug, post: postSlug } = getRouterParams(event);
    const reader = engine.workspace(ws.org.id).portal;
    const board = SLUG.test(boardSlug ?? '') ? await reader.boardBySlug(boardSlug!) : undefined;
    const found = board && SLUG.test(postSlug ?? '') ? await reader.post(board.id, postSlug!) : null;
    if (!board || !found) return notFound(ws.frame, 'There is no such post.');
    const frame = { ...ws.frame, title: found.post.title, section: 'boards' as const };
    if (found.post.mergedIntoId) return htmlResponse(200, mergedPage(frame, { post: found.post, target: found.mergedInto }));
    return htmlResponse(200, postPage(frame, { board, post: found.post, comments: found.comments, merged: found.merged }));
  });

  router.get(`${PORTAL_PATH}/:handle/roadmap`, async (event) => {
    const ws = await workspaceOf(event);
    if (!ws) return notFound(null, 'No such portal.');
    return htmlResponse(200, roadmapPage({ ...ws.frame, title: 'Roadmap', section: 'roadmap' }, await engine.workspace(ws.org.id).portal.roadmap()));
  });

  router.get(`${PORTAL_PATH}/:handle/changelog`, async (event) => {
    const ws = await workspaceOf(event);
    if (!ws) return notFound(null, 'No such portal.');
    const reader = engine.workspace(ws.org.id).portal;
    const cursor = event.url.searchParams.get('cursor') ?? undefined;
    const entries = await reader.changelog({ cursor }).catch((err: unknown) => {
      if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION') return reader.changelog();
      throw err;
    });
    return htmlResponse(200, changelogPage({ ...ws.frame, title: 'Changelog', section: 'changelog' }, entries));
  });

  router.all('/**', () => notFound(null, 'No such page.'));

  return {
    path: PORTAL_PATH,
    async fetch(request, { logError }) {
      report = logError;
      return router.fetch(request);
    },
  };
}
