import { H3, getRouterParams, type H3Event } from 'h3';
import { FeedbackError, PORTAL_PATH, hashEmail, type Engine, type PortalAction, type PortalIdentity, type PortalSession } from '../../engine/index.js';
import { emailSchema } from '../../schemas/contacts.js';
import { textFault } from '../../schemas/input.js';
import { COMMENT_BODY_TEXT_MAX } from '../../schemas/interactions.js';
import { POST_BODY_TEXT_MAX, POST_TITLE_MAX, SLUG_PATTERN as SLUG } from '../../schemas/posts.js';
import type { PageFrame } from './layout.js';
import { codePage, identifyPage, messagePage, newPostPage } from './pages.js';
import { SESSION_COOKIE, cookie, field, forgeryRefusal, readCookie, readForm, type Visit } from './requests.js';
import { htmlResponse, jsonResponse, respond, seeOther } from './responses.js';

const CODE_ID = /^pcode_[0-9a-z]{26}$/;
const COMMENT_ID = /^cmt_[0-9a-z]{26}$/;

/** What the taking-part routes use of the portal they are mounted on. */
export interface PortalSite {
  engine: Engine;
  trustProxy: boolean;
  limits: { actionsPerIp: number; actionsPerEmail: number; codesPerIp: number; codesPerEmail: number };
  visit(event: H3Event): Promise<Visit | null>;
  notFound(frame: Omit<PageFrame, 'title'> | null, what: string): Response;
  /** Count a request against a budget; the 429 page when it is spent. */
  overLimit(v: Visit, key: string, limit: number): Promise<Response | null>;
}

/**
 * Taking part on the portal: the new-post form, votes, comments, the email step and its code, signing in with a
 * token and out, and the similar-posts lookup of the script. Each form goes through the same checks (`takePart`),
 * then the engine's participation service.
 */
export function mountParticipation(router: H3, site: PortalSite): void {
  const { engine, trustProxy, limits, visit, notFound, overLimit } = site;

  /** A form sent to this portal by one of its own pages; otherwise the page that says why it was not taken. */
  async function postedForm(event: H3Event, v: Visit): Promise<URLSearchParams | Response> {
    const form = await readForm(event);
    if (!(form instanceof URLSearchParams)) return htmlResponse(form.status, messagePage(v.frame, 'Could not send that', form.message), v.cookies);
    const forged = forgeryRefusal(event, form, trustProxy);
    return forged ? htmlResponse(403, messagePage(v.frame, 'Not accepted', forged), v.cookies) : form;
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
    const form = await postedForm(event, v);
    if (form instanceof Response) return form;
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
    const form = await postedForm(event, v);
    if (form instanceof Response) return form;
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
    const form = await postedForm(event, v);
    if (form instanceof Response) return form;
    const token = readCookie(event, SESSION_COOKIE);
    if (token) await v.participation.signOut(token);
    return seeOther(`${v.paths.home}?done=signed-out`, [...v.cookies, sessionCookie(v, null)]);
  });
}
