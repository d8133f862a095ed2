import { createHash } from 'node:crypto';
import { H3, getRouterParams, onResponse, type H3Event } from 'h3';
import {
  FeedbackError,
  HANDLE_PATTERN,
  hashEmail,
  type Engine,
  type OrganizationInfo,
  type PortalAction,
  type PortalIdentity,
  type PortalSession,
  type PortalSort,
} from '../engine/index.js';
import type { AppSite } from '../h3/index.js';
import { emailSchema } from '../schemas/contacts.js';
import { textFault } from '../schemas/input.js';
import { COMMENT_BODY_TEXT_MAX } from '../schemas/interactions.js';
import { POST_BODY_TEXT_MAX, POST_TITLE_MAX, SLUG_PATTERN as SLUG, type PostStatus } from '../schemas/posts.js';
import { ASSETS, WIDGET, assetResponse } from './internal/assets.js';
import { PORTAL_PATH, pathsOf, type PageFrame } from './internal/layout.js';
import { boardPage, boardsPage, changelogPage, codePage, identifyPage, mergedPage, messagePage, newPostPage, postPage, roadmapPage } from './internal/pages.js';
import { SESSION_COOKIE, cookie, csrfOf, factsOf, forgeryRefusal, readCookie, readForm } from './internal/requests.js';

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

/**
 * Every portal answer's headers: no inline script or style may run, nothing loads from elsewhere, forms post only
 * here, and no other site may frame the pages.
 */
const CSP = "default-src 'none'; style-src 'self'; img-src 'self' data:; script-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'";
/** The policy of a workspace's pages: framed only by the origins it lists (the widget's hosts), else by nobody. */
const cspFor = (frameOrigins: readonly string[]) => `${CSP}; frame-ancestors ${frameOrigins.length ? frameOrigins.join(' ') : "'none'"}`;
const SECURITY_HEADERS: Record<string, string> = {
  'content-security-policy': cspFor([]),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
};

function respond(status: number, body: string | null, cookies: readonly string[] = [], extra: Record<string, string> = {}): Response {
  const headers = new Headers({ ...SECURITY_HEADERS, 'cache-control': 'no-cache', ...extra });
  if (body !== null) headers.set('content-type', 'text/html; charset=utf-8');
  for (const c of cookies) headers.append('set-cookie', c);
  return new Response(body, { status, headers });
}
const htmlResponse = (status: number, body: string, cookies?: readonly string[]) => respond(status, body, cookies);
const jsonResponse = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { ...SECURITY_HEADERS, 'content-type': 'application/json', 'cache-control': 'no-store' } });
/** After a form: go to the page that shows its result (303, so a reload does not send it again). */
const seeOther = (location: string, cookies?: readonly string[]) => respond(303, null, cookies, { location, 'cache-control': 'no-store' });

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

/** A form field's text, trimmed, or why it cannot be taken. */
function field(form: URLSearchParams, name: string, label: string, max: number, required: boolean): { value?: string; error?: string } {
  const value = (form.get(name) ?? '').trim();
  if (!value) return required ? { error: `${label} is required.` } : {};
  if (value.length > max) return { error: `${label} must be at most ${max} characters.` };
  const fault = textFault(value);
  return fault ? { error: `${label} ${fault}.` } : { value };
}

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
  async function visit(event: H3Event) {
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
      cookies: csrf.setCookie ? [csrf.setCookie] : ([] as string[]),
      participation,
      viewer,
      /** Whether this viewer may post, vote and comment here. */
      canTakePart: !ws.org.portalVerifiedOnly || viewer?.verified === true,
    };
  }
  type Visit = NonNullable<Awaited<ReturnType<typeof visit>>>;

  const notFound = (frame: Omit<PageFrame, 'title'> | null, what: string) => htmlResponse(404, messagePage(frame, 'Not found', what));

  /** Count a request against a budget; the 429 page when it is spent. */
  async function overLimit(v: Visit, key: string, limit: number): Promise<Response | null> {
    // A budget's key is at most 40 characters where the windows are shared (PostgreSQL): a digest of what it counts.
    const state = await engine.limits.consume(`portal:${createHash('sha256').update(`${v.org.id}:${key}`).digest('base64url').slice(0, 33)}`, limit);
    if (state.allowed) return null;
    const seconds = Math.max(1, Math.ceil((state.resetAt - Date.now()) / 1000));
    return respond(429, messagePage(v.frame, 'Too many requests', `Please wait ${seconds} seconds and try again.`), v.cookies, { 'retry-after': String(seconds) });
  }

  /** A session's cookie for this workspace's pages, or the one that removes it. */
  const sessionCookie = (v: Visit, session: PortalSession | null) =>
    session
      ? cookie(SESSION_COOKIE, session.token, { path: v.paths.home, maxAge: Math.floor((session.expiresAt.getTime() - Date.now()) / 1000), facts: v.facts })
      : cookie(SESSION_COOKIE, '', { path: v.paths.home, maxAge: 0, facts: v.facts });

  /** Do what was asked as this person, then show where it landed (or, for the script's vote, say so in JSON). */
  async function perform(v: Visit, identity: PortalIdentity, action: PortalAction, cookies: string[], json = false): Promise<Response> {
    const back = action.returnTo ?? v.paths.home;
    let result;
    try {
      result = await v.participation.act(identity, action);
    } catch (err) {
      if (!(err instanceof FeedbackError)) throw err;
      if (err.code === 'ERR_CONFLICT' && action.kind === 'vote') {
        if (json) return jsonResponse(200, { voted: true, already: true, voteCount: (await engine.workspace(v.org.id).posts.retrieve(action.postId)).voteCount });
        return seeOther(`${back}?done=voted`, cookies);
      }
      if (json) return jsonResponse(err.status, { error: err.toJSON() });
      const heading = err.code === 'ERR_NOT_FOUND' ? 'Not found' : 'Could not send that';
      return htmlResponse(err.status, messagePage(v.frame, heading, err.message, { href: back, label: 'Back' }), cookies);
    }
    if (json && result.kind === 'vote') return jsonResponse(200, { voted: true, already: false, voteCount: (await engine.workspace(v.org.id).posts.retrieve(result.vote.postId)).voteCount });
    if (result.kind === 'post') return seeOther(result.held ? `${back}?done=held` : `${back}/p/${result.post.slug}?done=post`, cookies);
    return seeOther(`${back}?done=${result.kind}${result.kind === 'comment' ? `#${result.comment.id}` : ''}`, cookies);
  }

  /**
   * A form that asks to post, vote or comment. Checked in this order: sent by our own page (anti-forgery), not a bot
   * (honeypot), within the address's budget, its fields. Then: a signed-in person acts at once; anyone else gives
   * their name and email and confirms a mailed code first.
   */
  async function takePart(event: H3Event, build: (form: URLSearchParams, v: Visit) => Promise<{ action: PortalAction; heading: string; hidden: Record<string, string> } | Response>) {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    const form = await readForm(event);
    if (!(form instanceof URLSearchParams)) return htmlResponse(form.status, messagePage(v.frame, 'Could not send that', form.message), v.cookies);
    const forged = forgeryRefusal(event, form, trustProxy);
    if (forged) return htmlResponse(403, messagePage(v.frame, 'Not accepted', forged), v.cookies);
    const built = await build(form, v);
    if (built instanceof Response) return built;
    const back = built.action.returnTo ?? v.paths.home;
    // A filled honeypot: a bot. It is told nothing and nothing is written.
    if (form.get('website')) return seeOther(back, v.cookies);
    const limited = await overLimit(v, `ip:${v.facts.ip}`, limits.actionsPerIp);
    if (limited) return limited;
    if (!v.canTakePart) return htmlResponse(403, messagePage(v.frame, 'Sign in to take part', `${v.org.name} takes feedback only from signed-in users.`, { href: back, label: 'Back' }), v.cookies);
    const notifyMe = form.get('notify_me') === 'on';
    // The script's vote (docs/portal.md): JSON for someone signed in; anyone else is sent on to the pages.
    const json = built.action.kind === 'vote' && (event.req.headers.get('accept') ?? '').includes('application/json');
    if (v.viewer) {
      const byEmail = await overLimit(v, `email:${hashEmail(v.viewer.email)}`, limits.actionsPerEmail);
      return byEmail ?? perform(v, v.viewer, { ...built.action, notifyMe }, v.cookies, json);
    }
    if (json) return jsonResponse(401, { error: { code: 'ERR_UNAUTHORIZED', message: 'Confirm your email address first.' } });
    // Not signed in: first the page that asks who they are (its form comes back here with the same fields).
    const identify = (status: number, error?: string, values: { name?: string; email?: string } = {}) =>
      htmlResponse(status, identifyPage({ ...v.frame, title: built.heading }, { action: event.url.pathname, heading: built.heading, hidden: built.hidden, error, ...values }), v.cookies);
    if (!form.has('email')) return identify(200);
    const name = field(form, 'name', 'Your name', 200, false);
    const email = (form.get('email') ?? '').trim();
    const values = { name: form.get('name') ?? '', email };
    if (name.error) return identify(422, name.error, values);
    if (!emailSchema.safeParse(email).success) return identify(422, 'Enter an email address like name@example.com.', values);
    const limitedCodes = (await overLimit(v, `code-ip:${v.facts.ip}`, limits.codesPerIp)) ?? (await overLimit(v, `code-email:${hashEmail(email)}`, limits.codesPerEmail));
    if (limitedCodes) return limitedCodes;
    const { codeId } = await v.participation.requestCode({ email, name: name.value ?? null }, { ...built.action, notifyMe }, { workspace: v.org.name });
    return seeOther(v.paths.confirm(codeId), v.cookies);
  }

  /** The board and post a form on a post page is for; the 404 page when either is not on the portal. */
  async function postOf(event: H3Event, v: Visit) {
    const { board: boardSlug, post: postSlug } = getRouterParams(event);
    const reader = engine.workspace(v.org.id).portal;
    const board = SLUG.test(boardSlug ?? '') ? await reader.boardBySlug(boardSlug!) : undefined;
    const found = board && SLUG.test(postSlug ?? '') ? await reader.post(board.id, postSlug!) : null;
    if (!board || !found || found.post.mergedIntoId) return notFound(v.frame, 'There is no such post.');
    return { board, post: found.post, path: v.paths.post(board.slug, found.post.slug) };
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

  // Posts whose titles share words with the title being typed, for the script on the new-post form.
  router.get(`${PORTAL_PATH}/:handle/b/:board/similar`, async (event) => {
    const v = await visit(event);
    if (!v) return jsonResponse(404, { data: [] });
    const { board: slug } = getRouterParams(event);
    const reader = engine.workspace(v.org.id).portal;
    const board = SLUG.test(slug ?? '') ? await reader.boardBySlug(slug!) : undefined;
    if (!board) return jsonResponse(404, { data: [] });
    const limited = await overLimit(v, `similar:${v.facts.ip}`, limits.actionsPerIp * 2);
    if (limited) return jsonResponse(429, { data: [] });
    const q = (event.url.searchParams.get('q') ?? '').slice(0, 200);
    // The title's three longest words (of three letters or more); posts matching more of them first, then by votes.
    const words = textFault(q) ? [] : [...new Set(q.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w.length >= 3))].sort((a, b) => b.length - a.length).slice(0, 3);
    const found = new Map<string, { title: string; href: string; voteCount: number; hits: number }>();
    for (const word of words) {
      for (const p of (await reader.posts(board.id, { q: word, limit: 5 })).data) {
        const seen = found.get(p.id) ?? { title: p.title, href: v.paths.post(board.slug, p.slug), voteCount: p.voteCount, hits: 0 };
        seen.hits++;
        found.set(p.id, seen);
      }
    }
    const data = [...found.values()].sort((a, b) => b.hits - a.hits || b.voteCount - a.voteCount).slice(0, 5);
    return jsonResponse(200, { data: data.map(({ hits: _hits, ...p }) => p) });
  });

  router.get(`${PORTAL_PATH}/:handle/b/:board/new`, async (event) => {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    const { board: slug } = getRouterParams(event);
    const board = SLUG.test(slug ?? '') ? await engine.workspace(v.org.id).portal.boardBySlug(slug!) : undefined;
    if (!board) return notFound(v.frame, 'There is no such board.');
    return htmlResponse(200, newPostPage({ ...v.frame, title: `New post · ${board.name}`, section: 'boards' }, { board, canTakePart: v.canTakePart }), v.cookies);
  });

  router.post(`${PORTAL_PATH}/:handle/b/:board/new`, (event) =>
    takePart(event, async (form, v) => {
      const { board: slug } = getRouterParams(event);
      const board = SLUG.test(slug ?? '') ? await engine.workspace(v.org.id).portal.boardBySlug(slug!) : undefined;
      if (!board) return notFound(v.frame, 'There is no such board.');
      const back = { href: v.paths.newPost(board.slug), label: 'Back to the form' };
      const title = field(form, 'title', 'The title', POST_TITLE_MAX, true);
      const details = field(form, 'details', 'The details', POST_BODY_TEXT_MAX, false);
      const error = title.error ?? details.error;
      if (error) return htmlResponse(422, messagePage(v.frame, 'Could not send that', error, back), v.cookies);
      return {
        action: { kind: 'post', boardId: board.id, title: title.value!, ...(details.value ? { bodyText: details.value } : {}), notifyMe: false, returnTo: v.paths.board(board.slug) },
        heading: 'Confirm your email to post',
        hidden: { title: title.value!, ...(details.value ? { details: details.value } : {}) },
      };
    }),
  );

  router.post(`${PORTAL_PATH}/:handle/b/:board/p/:post/vote`, (event) =>
    takePart(event, async (_form, v) => {
      const target = await postOf(event, v);
      if (target instanceof Response) return target;
      return { action: { kind: 'vote', postId: target.post.id, notifyMe: false, returnTo: target.path }, heading: 'Confirm your email to vote', hidden: {} };
    }),
  );

  router.post(`${PORTAL_PATH}/:handle/b/:board/p/:post/comment`, (event) =>
    takePart(event, async (form, v) => {
      const target = await postOf(event, v);
      if (target instanceof Response) return target;
      const body = field(form, 'body_text', 'The comment', COMMENT_BODY_TEXT_MAX, true);
      const parentId = form.get('parent_id') || undefined;
      if (body.error) return htmlResponse(422, messagePage(v.frame, 'Could not send that', body.error, { href: target.path, label: 'Back to the post' }), v.cookies);
      if (parentId !== undefined && !COMMENT_ID.test(parentId)) return notFound(v.frame, 'There is no such comment.');
      return {
        action: { kind: 'comment', postId: target.post.id, bodyText: body.value!, ...(parentId ? { parentId } : {}), notifyMe: false, returnTo: target.path },
        heading: 'Confirm your email to comment',
        hidden: { body_text: body.value!, ...(parentId ? { parent_id: parentId } : {}) },
      };
    }),
  );

  router.get(`${PORTAL_PATH}/:handle/confirm/:code`, async (event) => {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    const codeId = getRouterParams(event).code ?? '';
    if (!CODE_ID.test(codeId)) return notFound(v.frame, 'There is no such code.');
    return htmlResponse(200, codePage({ ...v.frame, title: 'Check your email' }, { action: v.paths.confirm(codeId) }), v.cookies);
  });

  router.post(`${PORTAL_PATH}/:handle/confirm/:code`, async (event) => {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    const codeId = getRouterParams(event).code ?? '';
    if (!CODE_ID.test(codeId)) return notFound(v.frame, 'There is no such code.');
    const form = await readForm(event);
    if (!(form instanceof URLSearchParams)) return htmlResponse(form.status, messagePage(v.frame, 'Could not send that', form.message), v.cookies);
    const forged = forgeryRefusal(event, form, trustProxy);
    if (forged) return htmlResponse(403, messagePage(v.frame, 'Not accepted', forged), v.cookies);
    const limited = await overLimit(v, `ip:${v.facts.ip}`, limits.actionsPerIp);
    if (limited) return limited;
    let confirmed;
    try {
      confirmed = await v.participation.confirmCode(codeId, form.get('code') ?? '');
    } catch (err) {
      if (!(err instanceof FeedbackError && err.code === 'ERR_VALIDATION')) throw err;
      if (err.details?.retry) return htmlResponse(422, codePage({ ...v.frame, title: 'Check your email' }, { action: v.paths.confirm(codeId), error: err.message }), v.cookies);
      return htmlResponse(422, messagePage(v.frame, 'Code not accepted', err.message), v.cookies);
    }
    return perform(v, confirmed.session.identity, confirmed.action, [...v.cookies, sessionCookie(v, confirmed.session)]);
  });

  // Signing in with a token the workspace's backend minted (docs/portal.md): a link to this address with `token`,
  // and `return`, the portal page to land on.
  router.get(`${PORTAL_PATH}/:handle/sign-in`, async (event) => {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    const query = event.url.searchParams;
    const token = query.get('token');
    if (!token) return htmlResponse(400, messagePage(v.frame, 'Could not sign you in', 'The sign-in link has no token.'), v.cookies);
    const limited = await overLimit(v, `ip:${v.facts.ip}`, limits.actionsPerIp);
    if (limited) return limited;
    let session;
    try {
      session = await v.participation.signIn(token);
    } catch (err) {
      if (!(err instanceof FeedbackError && (err.code === 'ERR_UNAUTHORIZED' || err.code === 'ERR_FORBIDDEN'))) throw err;
      return respond(err.status, messagePage(v.frame, 'Could not sign you in', err.message), v.cookies, { 'referrer-policy': 'no-referrer' });
    }
    const wanted = query.get('return') ?? '';
    const landing = wanted.startsWith(v.paths.home) && !/[\\]|\/\/|\.\./.test(wanted) ? wanted : v.paths.home;
    return respond(303, null, [...v.cookies, sessionCookie(v, session)], { location: landing, 'cache-control': 'no-store', 'referrer-policy': 'no-referrer' });
  });

  router.post(`${PORTAL_PATH}/:handle/sign-out`, async (event) => {
    const v = await visit(event);
    if (!v) return notFound(null, 'No such portal.');
    const form = await readForm(event);
    if (!(form instanceof URLSearchParams)) return htmlResponse(form.status, messagePage(v.frame, 'Could not send that', form.message), v.cookies);
    const forged = forgeryRefusal(event, form, trustProxy);
    if (forged) return htmlResponse(403, messagePage(v.frame, 'Not accepted', forged), v.cookies);
    const token = readCookie(event, SESSION_COOKIE);
    if (token) await v.participation.signOut(token);
    return seeOther(`${v.paths.home}?done=signed-out`, [...v.cookies, sessionCookie(v, null)]);
  });

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
