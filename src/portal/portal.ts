import { createHash } from 'node:crypto';
import { H3, getRouterParams, onResponse, type H3Event } from 'h3';
import { FeedbackError, HANDLE_PATTERN, PORTAL_PATH, UNAVAILABLE_RETRY_AFTER_SECONDS, isDatabaseUnavailable, pathsOf, type Engine, type OrganizationInfo, type PortalSort } from '../engine/index.js';
import type { AppSite } from '../h3/index.js';
import { textFault } from '../schemas/input.js';
import { SLUG_PATTERN as SLUG, type PostStatus } from '../schemas/posts.js';
import { ASSETS, WIDGET, assetResponse } from './internal/assets.js';
import { type PageFrame } from './internal/layout.js';
import { boardPage, boardsPage, changelogPage, errorPage, mergedPage, messagePage, postPage, roadmapPage, unavailablePage } from './internal/pages.js';
import { mountMailPages } from './internal/mail.js';
import { mountParticipation } from './internal/participate.js';
import { SESSION_COOKIE, csrfOf, factsOf, readCookie, type Visit } from './internal/requests.js';
import { cspFor, htmlResponse, respond } from './internal/responses.js';

export { PORTAL_PATH };

export interface PortalOptions {
  engine: Engine;
  /**
   * Whether a reverse proxy in front of the server is trusted for the client's address (`X-Forwarded-For`), scheme
   * (`X-Forwarded-Proto`, for Secure cookies) and host (`X-Forwarded-Host`). Off by default: those headers are the
   * client's to forge when nothing in front sets them.
   */
  trustProxy?: boolean;
  /** Requests per minute (override for tests or busy portals); see PORTAL_LIMITS. */
  limits?: Partial<PortalLimits>;
}

/**
 * Requests per minute a portal takes: sign-ins, posts, votes and comments per client address and per person, and
 * email codes per address and per email (each code is a mail the workspace sends to a stranger's inbox).
 */
export const PORTAL_LIMITS = { actionsPerIp: 30, actionsPerEmail: 20, codesPerIp: 10, codesPerEmail: 3 };
export type PortalLimits = typeof PORTAL_LIMITS;

/** What `?done=` says on the page a form leads to. */
const NOTICES: Record<string, string> = {
  vote: 'Your vote counts.',
  voted: 'You have already voted for this post.',
  comment: 'Your comment is posted.',
  post: 'Your post is up.',
  held: 'Thank you! Your post will appear once the team has looked at it.',
  'signed-out': 'You are signed out.',
};

const CODE_ID = /^pcode_[0-9a-z]{26}$/;
const COMMENT_ID = /^cmt_[0-9a-z]{26}$/;

/**
 * The public portal of every workspace that has a handle and turned its portal on: its boards, a board's posts (Top,
 * New, Trending; search; status filter; keyset pages), a post with its comments, the roadmap and the changelog; and
 * taking part: voting, commenting and posting, signed in with a token the workspace's backend mints or with a code
 * mailed to the person's address. Server-rendered HTML that works without JavaScript; every value is escaped by the
 * template (html-template); every form carries an anti-forgery token.
 * @example
 * const app = createApp({ engine, sites: [createPortal({ engine })] });
 */
export function createPortal(options: PortalOptions): AppSite {
  const { engine } = options;
  const trustProxy = options.trustProxy ?? false;
  const limits = { ...PORTAL_LIMITS, ...options.limits };
  // The app's error reporter, as the first request hands it over (it is the same one every time).
  let report: ((message: string, error: unknown) => void) | undefined;
  const router = new H3({
    // Failures are reported once, below, through the app's reporter (its logger): not also printed by h3.
    silent: true,
    onError(error, event) {
      const cause = error.cause ?? error;
      // The database went away (a restart, a failover, a network fault): the request may be sent again shortly.
      if (isDatabaseUnavailable(cause)) {
        report?.(`[feedback-service] portal: database unavailable on ${event.url.pathname}`, cause);
        return respond(503, unavailablePage(), [], { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS), 'cache-control': 'no-store' });
      }
      report?.(`[feedback-service] portal error on ${event.url.pathname}`, cause);
      return htmlResponse(500, errorPage());
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

  // A workspace that lets sites frame its portal (the widget) says so in the policy of every page it answers.
  router.use(
    onResponse((response, event) => {
      const origins = event.context.frameOrigins as string[] | undefined;
      if (origins?.length) response.headers.set('content-security-policy', cspFor(origins));
    }),
  );

  /**
   * A request to a workspace's portal: the workspace, who is signed in, the page frame (with the anti-forgery token)
   * and the cookies the answer must set.
   */
  async function visit(event: H3Event): Promise<Visit | null> {
    const ws = await workspaceOf(event);
    if (!ws) return null;
    event.context.frameOrigins = ws.org.portalFrameOrigins;
    const facts = factsOf(event, trustProxy);
    const csrf = csrfOf(event, facts);
    const participation = engine.workspace(ws.org.id).participation;
    const sessionToken = readCookie(event, SESSION_COOKIE);
    const viewer = sessionToken ? await participation.session(sessionToken) : null;
    const notice = NOTICES[event.url.searchParams.get('done') ?? ''] ?? null;
    return {
      org: ws.org,
      paths: ws.frame.paths,
      frame: { ...ws.frame, viewer, csrf: csrf.token, notice },
      facts,
      cookies: csrf.setCookie ? [csrf.setCookie] : [],
      participation,
      viewer,
      canTakePart: !ws.org.portalVerifiedOnly || viewer?.verified === true,
    };
  }

  const notFound = (frame: Omit<PageFrame, 'title'> | null, what: string) => htmlResponse(404, messagePage(frame, 'Not found', what));

  /** Count a request against a budget; the 429 page when it is spent. */
  async function overLimit(v: Visit, key: string, limit: number): Promise<Response | null> {
    // A budget's key is at most 40 characters where the windows are shared (PostgreSQL): a digest of what it counts.
    const state = await engine.limits.consume(`portal:${createHash('sha256').update(`${v.org.id}:${key}`).digest('base64url').slice(0, 33)}`, limit);
    if (state.allowed) return null;
    const seconds = Math.max(1, Math.ceil((state.resetAt - Date.now()) / 1000));
    return respond(429, messagePage(v.frame, 'Too many requests', `Please wait ${seconds} seconds and try again.`), v.cookies, { 'retry-after': String(seconds) });
  }

  router.get(`${PORTAL_PATH}/widget.js`, (event) => assetResponse(WIDGET, event.req.headers.get('accept-encoding'), 'public, max-age=300'));

  router.get(`${PORTAL_PATH}/assets/:name`, (event) => {
    const asset = ASSETS.get(getRouterParams(event).name ?? '');
    return asset ? assetResponse(asset, event.req.headers.get('accept-encoding')) : notFound(null, 'No such file.');
  });

  router.get(`${PORTAL_PATH}/:handle`, async (event) => {
    // The home page's address ends with a slash: `/portal/acme` goes there (the router matches both).
    if (!event.url.pathname.endsWith('/')) return new Response(null, { status: 308, headers: { location: `${event.url.pathname}/` } });
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    return htmlResponse(200, boardsPage({ ...v.frame, title: 'Boards', section: 'boards' }, await engine.workspace(v.org.id).portal.boards()), v.cookies);
  });

  router.get(`${PORTAL_PATH}/:handle/b/:board`, async (event) => {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    const { board: slug } = getRouterParams(event);
    const reader = engine.workspace(v.org.id).portal;
    const board = SLUG.test(slug ?? '') ? await reader.boardBySlug(slug!) : undefined;
    if (!board) return notFound(v.frame, 'There is no such board.');
    const query = event.url.searchParams;
    // The input rule of every request (U+0000, unpaired surrogates) holds for the search text too.
    const q = query.get('q')?.slice(0, 200);
    if (q !== undefined && textFault(q)) return htmlResponse(400, messagePage(v.frame, 'Cannot search for that', 'The search text holds characters that cannot be searched for.'), v.cookies);
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
    return htmlResponse(
      200,
      boardPage({ ...v.frame, title: board.name, section: 'boards' }, { board, posts: page.data, sort: page.sort, q: page.q, status: page.status, nextCursor: page.nextCursor }),
      v.cookies,
    );
  });

  router.get(`${PORTAL_PATH}/:handle/b/:board/p/:post`, async (event) => {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    const { board: boardSlug, post: postSlug } = getRouterParams(event);
    const reader = engine.workspace(v.org.id).portal;
    const board = SLUG.test(boardSlug ?? '') ? await reader.boardBySlug(boardSlug!) : undefined;
    const found = board && SLUG.test(postSlug ?? '') ? await reader.post(board.id, postSlug!) : null;
    if (!board || !found) return notFound(v.frame, 'There is no such post.');
    const frame = { ...v.frame, title: found.post.title, section: 'boards' as const };
    if (found.post.mergedIntoId) return htmlResponse(200, mergedPage(frame, { post: found.post, target: found.mergedInto }), v.cookies);
    const replyId = event.url.searchParams.get('reply');
    const replyTo = (replyId && found.comments.find((c) => c.id === replyId)) || null;
    const voted = v.viewer ? await v.participation.hasVoted(v.viewer, found.post.id) : false;
    return htmlResponse(200, postPage(frame, { board, post: found.post, comments: found.comments, merged: found.merged, voted, replyTo, canTakePart: v.canTakePart }), v.cookies);
  });

  mountParticipation(router, { engine, trustProxy, limits, visit, notFound, overLimit });
  mountMailPages(router, { engine, trustProxy, visit, notFound });

  router.get(`${PORTAL_PATH}/:handle/roadmap`, async (event) => {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    return htmlResponse(200, roadmapPage({ ...v.frame, title: 'Roadmap', section: 'roadmap' }, await engine.workspace(v.org.id).portal.roadmap()), v.cookies);
  });

  router.get(`${PORTAL_PATH}/:handle/changelog`, async (event) => {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    const reader = engine.workspace(v.org.id).portal;
    const cursor = event.url.searchParams.get('cursor') ?? undefined;
    const entries = await reader.changelog({ cursor }).catch((err: unknown) => {
      if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION') return reader.changelog();
      throw err;
    });
    return htmlResponse(200, changelogPage({ ...v.frame, title: 'Changelog', section: 'changelog' }, entries), v.cookies);
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
