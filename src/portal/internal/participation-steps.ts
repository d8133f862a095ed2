import type { H3Event } from 'h3';
import {
  FeedbackError,
  hashEmail,
  type PortalAction,
  type PortalIdentity,
  type PortalSession,
} from '../../engine/index.js';
import { sessionCookie as siteSessionCookie } from '../../h3/index.js';
import { emailSchema } from '../../schemas/contacts.js';
import { voteTitle } from './controls.js';
import { messagePage } from './message-pages.js';
import { identifyPage } from './pages.js';
import { field, SESSION_COOKIE, type Visit } from './requests.js';
import { htmlResponse, jsonResponse, seeOther } from './responses.js';
import type { PortalSite } from './site.js';

/** What a form asks to do: the action, the heading of the email step, and the fields that step carries along. */
export type Built = { action: PortalAction; heading: string; hidden: Record<string, string> };

/** A session's cookie for this workspace's pages, or the one that removes it. */
export function sessionCookie(v: Visit, session: PortalSession | null): string {
  return siteSessionCookie(SESSION_COOKIE, v.paths.home, v.facts, session);
}

/** The script's vote answer: whether it counted now or already had, and the post's votes. */
async function voteAnswer(site: PortalSite, v: Visit, postId: string, voteCount?: number): Promise<Response> {
  const count = voteCount ?? (await site.engine.workspace(v.org.id).posts.retrieve(postId)).voteCount;
  return voteJson(v, { voted: true, already: voteCount === undefined, voteCount: count });
}

/** The script's vote answer, with the words it shows in the page's language: the count, the button's and the notice. */
function voteJson(v: Visit, a: { voted: boolean; already: boolean; voteCount: number }): Response {
  const { tr } = v.frame;
  const notice = a.voted ? (a.already ? 'notice.voted' : 'notice.vote') : 'notice.unvote';
  return jsonResponse(200, {
    ...a,
    words: {
      count: tr.number(a.voteCount),
      label: tr.t('vote.button', { count: a.voteCount }),
      total: tr.t('vote.count', { count: a.voteCount }),
      title: voteTitle(tr, a.voted),
      notice: tr.t(notice),
    },
  });
}

/** Where to land after an action: the page it came from, with what was done (`done=`) added to its query. */
const landing = (back: string, done: string) => `${back}${back.includes('?') ? '&' : '?'}done=${done}`;

/** Do what was asked as this person, then show where it landed (or, for the script's vote, say so in JSON). */
export async function perform(
  site: PortalSite,
  v: Visit,
  identity: PortalIdentity,
  action: PortalAction,
  cookies: string[],
  json = false,
): Promise<Response> {
  const back = action.returnTo ?? v.paths.home;
  let result;
  try {
    result = await v.participation.act(identity, action);
  } catch (err) {
    if (!(err instanceof FeedbackError)) throw err;
    if (err.code === 'ERR_CONFLICT' && action.kind === 'vote')
      return json ? voteAnswer(site, v, action.postId) : seeOther(landing(back, 'voted'), cookies);
    if (json) return jsonResponse(err.status, { error: err.toJSON() });
    const { tr } = v.frame;
    const [heading, text] =
      err.code === 'ERR_NOT_FOUND'
        ? [tr.t('page.notFound'), tr.t('page.noPost')]
        : err.code === 'ERR_FORBIDDEN'
          ? [tr.t('takePart.heading'), tr.t('takePart.text', { workspace: v.org.name })]
          : [tr.t('page.notSent'), tr.t('page.notDone')];
    return htmlResponse(
      err.status,
      messagePage(v.frame, heading, text, { href: back, label: tr.t('page.back') }),
      cookies,
    );
  }
  if (json && result.kind === 'vote') return voteAnswer(site, v, result.vote.postId, result.voteCount);
  if (json && result.kind === 'unvote')
    return voteJson(v, { voted: false, already: !result.removed, voteCount: result.voteCount });
  if (result.kind === 'post')
    return seeOther(result.held ? `${back}?done=held` : `${back}/p/${result.post.slug}?done=post`, cookies);
  return seeOther(`${landing(back, result.kind)}${result.kind === 'comment' ? `#${result.comment.id}` : ''}`, cookies);
}

/** Someone not signed in: the page that asks who they are, then a mailed code (its form comes back with the same fields). */
async function emailStep(
  site: PortalSite,
  event: H3Event,
  v: Visit,
  form: URLSearchParams,
  built: Built,
): Promise<Response> {
  const identify = (status: number, error?: string, values: { name?: string; email?: string } = {}) =>
    htmlResponse(
      status,
      identifyPage(
        { ...v.frame, title: built.heading },
        { action: event.url.pathname, heading: built.heading, hidden: built.hidden, error, ...values },
      ),
      v.cookies,
    );
  if (!form.has('email')) return identify(200);
  const { tr } = v.frame;
  const name = field(form, 'name', 200, tr, { tooLong: 'field.name.tooLong' });
  const email = (form.get('email') ?? '').trim();
  const values = { name: form.get('name') ?? '', email };
  if (name.error) return identify(422, name.error, values);
  if (!emailSchema.safeParse(email).success) return identify(422, tr.t('field.email.invalid'), values);
  const limited =
    (await site.overLimit(v, `code-ip:${v.facts.ip}`, site.limits.codesPerIp)) ??
    (await site.overLimit(v, `code-email:${hashEmail(email)}`, site.limits.codesPerEmail));
  if (limited) return limited;
  const notifyMe = form.get('notify_me') === 'on';
  try {
    const { codeId } = await v.participation.requestCode(
      { email, name: name.value ?? null },
      { ...built.action, notifyMe },
      { workspace: v.org.name, locale: tr.locale },
    );
    return seeOther(v.paths.confirm(codeId), v.cookies);
  } catch (err) {
    // Codes for the address are paused here (too many wrong ones): the page says until when.
    if (!(err instanceof FeedbackError && err.code === 'ERR_RATE_LIMITED')) throw err;
    const seconds = Math.max(
      1,
      Math.ceil((Date.parse(String(err.details?.resetAt)) - site.engine.clock().getTime()) / 1000),
    );
    const page = htmlResponse(
      429,
      messagePage(
        v.frame,
        tr.t('code.pausedHeading'),
        tr.t('code.paused', { until: tr.exactTime(String(err.details?.resetAt)) }),
        { href: built.action.returnTo ?? v.paths.home, label: tr.t('page.back') },
      ),
      v.cookies,
    );
    page.headers.set('retry-after', String(seconds));
    return page;
  }
}

/**
 * A form that asks to post, vote or comment. Checked in this order: sent by our own page (anti-forgery), not a bot
 * (honeypot), within the address's budget, its fields. Then: a signed-in person acts at once; anyone else gives their
 * name and email and confirms a mailed code first.
 */
export async function participationForm(
  site: PortalSite,
  event: H3Event,
  build: (form: URLSearchParams, v: Visit) => Promise<Built | Response>,
): Promise<Response> {
  const v = await site.visit(event);
  if (!v) return site.noPortal(event);
  const { tr } = v.frame;
  const form = await site.form(event, v);
  if (form instanceof Response) return form;
  const built = await build(form, v);
  if (built instanceof Response) return built;
  const back = built.action.returnTo ?? v.paths.home;
  // A filled honeypot: a bot. It is told nothing and nothing is written.
  if (form.get('website')) return seeOther(back, v.cookies);
  const limited = await site.overLimit(v, `ip:${v.facts.ip}`, site.limits.actionsPerIp);
  if (limited) return limited;
  if (!v.canTakePart)
    return htmlResponse(
      403,
      messagePage(v.frame, tr.t('takePart.heading'), tr.t('takePart.text', { workspace: v.org.name }), {
        href: back,
        label: tr.t('page.back'),
      }),
      v.cookies,
    );
  // The script's vote (docs/portal.md): JSON for someone signed in; anyone else is sent on to the pages.
  const json =
    (built.action.kind === 'vote' || built.action.kind === 'unvote') &&
    (event.req.headers.get('accept') ?? '').includes('application/json');
  if (v.viewer) {
    const byEmail = await site.overLimit(v, `email:${hashEmail(v.viewer.email)}`, site.limits.actionsPerEmail);
    return (
      byEmail ??
      perform(site, v, v.viewer, { ...built.action, notifyMe: form.get('notify_me') === 'on' }, v.cookies, json)
    );
  }
  if (json) return jsonResponse(401, { error: { code: 'ERR_UNAUTHORIZED', message: tr.t('takePart.confirmFirst') } });
  return emailStep(site, event, v, form, built);
}
