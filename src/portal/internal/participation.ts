import { getRouterParams, type H3, type H3Event } from 'h3';
import { FeedbackError, PORTAL_PATH, type Translator } from '../../engine/index.js';
import { textFault } from '../../schemas/input.js';
import { COMMENT_BODY_TEXT_MAX } from '../../schemas/interactions.js';
import { POST_BODY_TEXT_MAX, POST_TITLE_MAX, SLUG_PATTERN as SLUG } from '../../schemas/posts.js';
import { messagePage, signInRefusedPage } from './message-pages.js';
import { codePage, newPostPage } from './pages.js';
import { type Built, participationForm, perform, sessionCookie } from './participation-steps.js';
import { field, readCookie, SESSION_COOKIE, type Visit } from './requests.js';
import { htmlResponse, jsonResponse, respond, seeOther } from './responses.js';
import type { PortalSite } from './site.js';

const CODE_ID = /^pcode_[0-9a-z]{26}$/;
const COMMENT_ID = /^cmt_[0-9a-z]{26}$/;

/** Why a code was not taken, in the page's words (the engine names the reason). */
function codeRefusal(tr: Translator, err: FeedbackError): string {
  const d = err.details ?? {};
  switch (d.reason) {
    case 'gone':
      return tr.t('code.gone');
    case 'expired':
      return tr.t('code.expired');
    case 'last_try':
      return tr.t('code.lastTry');
    case 'wrong':
      return tr.t('code.wrong', { left: Number(d.left) });
    case 'paused':
      return tr.t('code.paused', { until: tr.exactTime(String(d.pausedUntil)) });
    case 'wrong_paused':
      return tr.t('code.wrongPaused', { until: tr.exactTime(String(d.pausedUntil)) });
    default:
      return err.message;
  }
}

/** The post a form on a post page is for, from the page's address (one statement); the 404 page when it is not on the portal. */
async function postOf(
  site: PortalSite,
  event: H3Event,
  v: Visit,
): Promise<{ postId: string; path: string } | Response> {
  const { board: boardSlug, post: postSlug } = getRouterParams(event);
  const ref =
    SLUG.test(boardSlug ?? '') && SLUG.test(postSlug ?? '')
      ? await site.engine.workspace(v.org.id).portal.postRef(boardSlug!, postSlug!)
      : undefined;
  if (!ref) return site.notFound(v, v.frame.tr.t('page.noPost'));
  return { postId: ref.postId, path: v.paths.post(boardSlug!, postSlug!) };
}

/** The new-post form, sent: its title and details. */
async function newPost(site: PortalSite, event: H3Event, form: URLSearchParams, v: Visit): Promise<Built | Response> {
  const { tr } = v.frame;
  const { board: slug } = getRouterParams(event);
  const board = SLUG.test(slug ?? '') ? await site.engine.workspace(v.org.id).portal.boardBySlug(slug!) : undefined;
  if (!board) return site.notFound(v, tr.t('page.noBoard'));
  const title = field(form, 'title', POST_TITLE_MAX, tr, {
    required: 'field.title.required',
    tooLong: 'field.title.tooLong',
  });
  const details = field(form, 'details', POST_BODY_TEXT_MAX, tr, { tooLong: 'field.details.tooLong' });
  const error = title.error ?? details.error;
  if (error)
    return htmlResponse(
      422,
      messagePage(v.frame, tr.t('page.notSent'), error, {
        href: v.paths.newPost(board.slug),
        label: tr.t('page.backToForm'),
      }),
      v.cookies,
    );
  return {
    action: {
      kind: 'post',
      boardId: board.id,
      title: title.value!,
      ...(details.value ? { bodyText: details.value } : {}),
      notifyMe: false,
      returnTo: v.paths.board(board.slug),
    },
    heading: tr.t('identify.post'),
    hidden: { title: title.value!, ...(details.value ? { details: details.value } : {}) },
  };
}

/** A comment (or a reply) on a post, sent. */
async function newComment(
  site: PortalSite,
  event: H3Event,
  form: URLSearchParams,
  v: Visit,
): Promise<Built | Response> {
  const { tr } = v.frame;
  const target = await postOf(site, event, v);
  if (target instanceof Response) return target;
  const body = field(form, 'body_text', COMMENT_BODY_TEXT_MAX, tr, {
    required: 'field.comment.required',
    tooLong: 'field.comment.tooLong',
  });
  const parentId = form.get('parent_id') || undefined;
  if (body.error)
    return htmlResponse(
      422,
      messagePage(v.frame, tr.t('page.notSent'), body.error, { href: target.path, label: tr.t('page.backToPost') }),
      v.cookies,
    );
  if (parentId !== undefined && !COMMENT_ID.test(parentId)) return site.notFound(v, tr.t('page.noComment'));
  return {
    action: {
      kind: 'comment',
      postId: target.postId,
      bodyText: body.value!,
      ...(parentId ? { parentId } : {}),
      notifyMe: false,
      returnTo: target.path,
    },
    heading: tr.t('identify.comment'),
    hidden: { body_text: body.value!, ...(parentId ? { parent_id: parentId } : {}) },
  };
}

/** The board's posts most alike the title being typed (possible duplicates), for the script on the new-post form. */
async function similar(site: PortalSite, event: H3Event): Promise<Response> {
  const v = await site.visit(event);
  if (!v) return jsonResponse(404, { data: [] });
  const reader = site.engine.workspace(v.org.id).portal;
  const { board: slug } = getRouterParams(event);
  const board = SLUG.test(slug ?? '') ? await reader.boardBySlug(slug!) : undefined;
  if (!board) return jsonResponse(404, { data: [] });
  if (await site.overLimit(v, `similar:${v.facts.ip}`, site.limits.actionsPerIp * 2))
    return jsonResponse(429, { data: [] });
  const q = (event.url.searchParams.get('q') ?? '').slice(0, 200);
  // The board's posts most alike the title being typed (engine/search/similar.ts), most alike first.
  const posts = textFault(q) || q.trim() === '' ? [] : await reader.similar(board.id, q, 5);
  const { tr } = v.frame;
  const data = posts.map((p) => ({
    title: p.title,
    href: v.paths.post(board.slug, p.slug),
    voteCount: p.voteCount,
    votes: tr.t('vote.count', { count: p.voteCount }),
  }));
  // The words the script shows them with, in the page's language.
  return jsonResponse(200, { data, heading: tr.t('newPost.similar') });
}

/** The code an anonymous person was mailed, entered: their session, and what they asked to do. */
async function confirmCode(site: PortalSite, event: H3Event): Promise<Response> {
  const v = await site.visit(event);
  if (!v) return site.noPortal(event);
  const { tr } = v.frame;
  const codeId = getRouterParams(event).code ?? '';
  if (!CODE_ID.test(codeId)) return site.notFound(v, tr.t('page.noCode'));
  const form = await site.form(event, v);
  if (form instanceof Response) return form;
  const limited = await site.overLimit(v, `ip:${v.facts.ip}`, site.limits.actionsPerIp);
  if (limited) return limited;
  let confirmed;
  try {
    confirmed = await v.participation.confirmCode(codeId, form.get('code') ?? '');
  } catch (err) {
    if (!(err instanceof FeedbackError && err.code === 'ERR_VALIDATION')) throw err;
    const refusal = codeRefusal(tr, err);
    if (err.details?.retry)
      return htmlResponse(
        422,
        codePage({ ...v.frame, title: tr.t('code.heading') }, { action: v.paths.confirm(codeId), error: refusal }),
        v.cookies,
      );
    return htmlResponse(422, messagePage(v.frame, tr.t('code.notAccepted'), refusal), v.cookies);
  }
  return perform(site, v, confirmed.session.identity, confirmed.action, [
    ...v.cookies,
    sessionCookie(v, confirmed.session),
  ]);
}

/**
 * Signing in with a token the workspace's backend minted (docs/portal.md): a link to this address with `token`, and
 * `return`, the portal page to land on.
 */
async function signIn(site: PortalSite, event: H3Event): Promise<Response> {
  const v = await site.visit(event);
  if (!v) return site.noPortal(event);
  const { tr } = v.frame;
  const query = event.url.searchParams;
  const token = query.get('token');
  if (!token) return htmlResponse(400, messagePage(v.frame, tr.t('signIn.failed'), tr.t('signIn.noToken')), v.cookies);
  const limited = await site.overLimit(v, `ip:${v.facts.ip}`, site.limits.actionsPerIp);
  if (limited) return limited;
  let session;
  try {
    session = await v.participation.signIn(token);
  } catch (err) {
    if (!(err instanceof FeedbackError && (err.code === 'ERR_UNAUTHORIZED' || err.code === 'ERR_FORBIDDEN'))) throw err;
    return respond(err.status, signInRefusedPage(v.frame, err.message), v.cookies, {
      'referrer-policy': 'no-referrer',
    });
  }
  const wanted = query.get('return') ?? '';
  const landing = wanted.startsWith(v.paths.home) && !/[\\]|\/\/|\.\./.test(wanted) ? wanted : v.paths.home;
  return respond(303, null, [...v.cookies, sessionCookie(v, session)], {
    location: landing,
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
}

/**
 * Taking part on the portal: the new-post form, votes, comments, the email step and its code, signing in with a token
 * and out, and the similar-posts lookup of the script. Each form goes through the same checks (`participationForm`), then the
 * engine's participation service.
 */
export function mountParticipation(router: H3, site: PortalSite): void {
  router.get(`${PORTAL_PATH}/:handle/b/:board/similar`, (event) => similar(site, event));
  router.get(`${PORTAL_PATH}/:handle/b/:board/new`, async (event) => {
    const v = await site.visit(event);
    if (!v) return site.noPortal(event);
    const { tr } = v.frame;
    const { board: slug } = getRouterParams(event);
    const board = SLUG.test(slug ?? '') ? await site.engine.workspace(v.org.id).portal.boardBySlug(slug!) : undefined;
    if (!board) return site.notFound(v, tr.t('page.noBoard'));
    return htmlResponse(
      200,
      newPostPage(
        { ...v.frame, title: tr.t('newPost.pageTitle', { board: board.name }), section: 'boards' },
        { board, canTakePart: v.canTakePart },
      ),
      v.cookies,
    );
  });
  router.post(`${PORTAL_PATH}/:handle/b/:board/new`, (event) =>
    participationForm(site, event, (form, v) => newPost(site, event, form, v)),
  );
  // A vote, and taking it back: from a board's list they return to that list (a page of this portal's, nothing else).
  for (const kind of ['vote', 'unvote'] as const)
    router.post(`${PORTAL_PATH}/:handle/b/:board/p/:post/${kind}`, (event) =>
      participationForm(site, event, async (form, v) => {
        const target = await postOf(site, event, v);
        if (target instanceof Response) return target;
        const back = form.get('return') ?? '';
        const returnTo =
          back.startsWith(v.paths.home) && !back.includes('//') && back.length <= 2000 ? back : target.path;
        return {
          action: { kind, postId: target.postId, notifyMe: false, returnTo },
          heading: v.frame.tr.t(kind === 'vote' ? 'identify.vote' : 'identify.unvote'),
          hidden: {},
        };
      }),
    );
  router.post(`${PORTAL_PATH}/:handle/b/:board/p/:post/comment`, (event) =>
    participationForm(site, event, (form, v) => newComment(site, event, form, v)),
  );
  router.get(`${PORTAL_PATH}/:handle/confirm/:code`, async (event) => {
    const v = await site.visit(event);
    if (!v) return site.noPortal(event);
    const codeId = getRouterParams(event).code ?? '';
    if (!CODE_ID.test(codeId)) return site.notFound(v, v.frame.tr.t('page.noCode'));
    return htmlResponse(
      200,
      codePage({ ...v.frame, title: v.frame.tr.t('code.heading') }, { action: v.paths.confirm(codeId) }),
      v.cookies,
    );
  });
  router.post(`${PORTAL_PATH}/:handle/confirm/:code`, (event) => confirmCode(site, event));
  router.get(`${PORTAL_PATH}/:handle/sign-in`, (event) => signIn(site, event));
  router.post(`${PORTAL_PATH}/:handle/sign-out`, async (event) => {
    const v = await site.visit(event);
    if (!v) return site.noPortal(event);
    const form = await site.form(event, v);
    if (form instanceof Response) return form;
    const token = readCookie(event, SESSION_COOKIE);
    if (token) await v.participation.signOut(token);
    return seeOther(`${v.paths.home}?done=signed-out`, [...v.cookies, sessionCookie(v, null)]);
  });
}
