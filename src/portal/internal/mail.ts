import type { H3, H3Event } from 'h3';
import {
  FeedbackError,
  MAIL_PAGES,
  type MailRecipient,
  type OrganizationInfo,
  PORTAL_PATH,
} from '../../engine/index.js';
import { spentBudget } from '../../h3/index.js';
import { invalidLinkPage, type MailFrame, preferencesPage, refusedPage, unsubscribePage } from './mail-pages.js';
import { messagePage } from './pages.js';
import { csrfOf, factsOf, forgeryRefusal, readForm, readFormText } from './requests.js';
import { htmlResponse, respond } from './responses.js';
import type { PortalSite } from './site.js';

/** Requests per minute per client address to the pages mail links lead to. */
const MAIL_PAGES_PER_IP = 60;

/** A page reached through a mail's token: no referrer leaves it (the token is in its address), nothing caches it. */
const tokenPage = (status: number, body: string, cookies: readonly string[] = []) =>
  respond(status, body, cookies, { 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });

type Linked = { recipient: MailRecipient; org: OrganizationInfo; token: string };

/**
 * The recipient and workspace a link names, or the page that says why the link does not work. Pages count against the
 * client address's budget; the one-click POST does not (`limited` false): mail providers send those for all their users
 * from a few addresses, and it costs one HMAC and one idempotent insert.
 */
async function linked(site: PortalSite, event: H3Event, limited = true): Promise<Linked | Response> {
  const { engine } = site;
  const ip = factsOf(event, site.trustProxy).ip;
  const seconds = limited ? await spentBudget(engine, 'portal', `mail-pages:${ip}`, MAIL_PAGES_PER_IP) : null;
  if (seconds !== null) {
    return respond(429, invalidLinkPage(null, `Too many requests: please wait ${seconds} seconds and try again.`), [], {
      'retry-after': String(seconds),
    });
  }
  const token = event.url.searchParams.get('t') ?? '';
  let recipient: MailRecipient;
  try {
    recipient = await engine.mailLinks.verify(token);
  } catch (err) {
    if (err instanceof FeedbackError && err.code === 'ERR_UNAUTHORIZED')
      return tokenPage(400, invalidLinkPage(null, err.message));
    throw err;
  }
  const org = await engine.organizations.get(recipient.organizationId);
  if (!org) return tokenPage(404, invalidLinkPage(null, 'This workspace no longer exists.'));
  return { recipient, org, token };
}

function frameOf(
  site: PortalSite,
  event: H3Event,
  link: Linked,
  notice?: string,
): { frame: MailFrame; cookies: string[] } {
  const csrf = csrfOf(event, factsOf(event, site.trustProxy));
  const t = encodeURIComponent(link.token);
  return {
    frame: {
      workspace: link.org.name,
      preferences: `${MAIL_PAGES.preferences}?t=${t}`,
      unsubscribe: `${MAIL_PAGES.unsubscribe}?t=${t}`,
      csrf: csrf.token,
      notice,
    },
    cookies: csrf.setCookie ? [csrf.setCookie] : [],
  };
}

/**
 * RFC 8058 one-click: the mail client POSTs `List-Unsubscribe=One-Click` (multipart/form-data or urlencoded) with no
 * cookie; the page's own button posts here too. Either way the token is the authority, and the answer is a 200.
 */
async function oneClick(site: PortalSite, event: H3Event): Promise<Response> {
  const link = await linked(site, event, false);
  if (link instanceof Response) return link;
  const body = await readFormText(event);
  if (typeof body !== 'string')
    return tokenPage(413, refusedPage(link.org.name, 'Not sent', 'That request is too large.'));
  // Multipart or urlencoded: only the page's own button (urlencoded) says where it came from.
  const fromPage = new URLSearchParams(body).get('from') === 'page';
  const notifications = site.engine.workspace(link.org.id).notifications;
  await notifications.unsubscribe(link.recipient, fromPage ? 'preferences' : 'one_click');
  const { frame, cookies } = frameOf(site, event, link, 'You are unsubscribed.');
  return tokenPage(200, unsubscribePage(frame, await notifications.preferences(link.recipient)), cookies);
}

/** The preferences form, sent: what the person gets from now on. */
async function savePreferences(site: PortalSite, event: H3Event): Promise<Response> {
  const link = await linked(site, event);
  if (link instanceof Response) return link;
  const form = await readForm(event);
  if (!(form instanceof URLSearchParams))
    return tokenPage(form.status, refusedPage(link.org.name, 'Not saved', form.message));
  const forged = forgeryRefusal(event, form, site.trustProxy);
  if (forged) return tokenPage(403, refusedPage(link.org.name, 'Not saved', forged));
  const digest = form.get('digest');
  const on = new Set(form.getAll('post'));
  try {
    await site.engine.workspace(link.org.id).notifications.updatePreferences(link.recipient, {
      all: form.get('all') === 'off',
      posts: form.get('posts') === 'on',
      changelog: form.get('changelog') === 'on',
      ...(digest === 'instant' || digest === 'hourly' ? { digest } : {}),
      postUpdates: Object.fromEntries(form.getAll('listed').map((id) => [id, on.has(id)])),
    });
  } catch (err) {
    if (!(err instanceof FeedbackError && err.code === 'ERR_VALIDATION')) throw err;
    return tokenPage(422, refusedPage(link.org.name, 'Not saved', err.message));
  }
  return respond(303, null, [], {
    location: `${MAIL_PAGES.preferences}?t=${encodeURIComponent(link.token)}&done=saved`,
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
}

/** Someone signed in on a portal: their own preferences page, by a link made for them now. */
async function ownSettings(site: PortalSite, event: H3Event): Promise<Response> {
  const v = await site.visit(event);
  if (!v) return site.notFound(null, 'No such portal.');
  if (!v.viewer)
    return htmlResponse(
      401,
      messagePage(
        v.frame,
        'Sign in first',
        'Your email settings are in the emails we send you, or here once you are signed in.',
      ),
      v.cookies,
    );
  const recipient = await site.engine.workspace(v.org.id).notifications.recipientFor(v.viewer.email);
  if (!recipient)
    return htmlResponse(
      200,
      messagePage(
        v.frame,
        'No email from us',
        `${v.org.name} sends you no email: tick “Email me” when you vote, comment or post to hear back.`,
      ),
      v.cookies,
    );
  const token = encodeURIComponent(await site.engine.mailLinks.sign(recipient));
  return respond(303, null, v.cookies, {
    location: `${MAIL_PAGES.preferences}?t=${token}`,
    'cache-control': 'no-store',
  });
}

/**
 * The pages a notification's links lead to, for every workspace, portal or not: the one-click unsubscribe (RFC 8058:
 * a plain POST from the mail client, no cookie, answered 200 without a redirect), its page for people (a button, so a
 * link scanner that opens the address changes nothing), and the preferences page. The link's signed token (`t`) names
 * the workspace and the address; it is the only authority these pages need. Plus, for someone signed in on a portal,
 * `/portal/HANDLE/notifications`, which leads to their own preferences page.
 */
export function mountMailPages(router: H3, site: PortalSite): void {
  router.get(MAIL_PAGES.unsubscribe, async (event) => {
    const link = await linked(site, event);
    if (link instanceof Response) return link;
    const { frame, cookies } = frameOf(site, event, link);
    return tokenPage(
      200,
      unsubscribePage(frame, await site.engine.workspace(link.org.id).notifications.preferences(link.recipient)),
      cookies,
    );
  });
  router.post(MAIL_PAGES.unsubscribe, (event) => oneClick(site, event));
  router.get(MAIL_PAGES.preferences, async (event) => {
    const link = await linked(site, event);
    if (link instanceof Response) return link;
    const { frame, cookies } = frameOf(
      site,
      event,
      link,
      event.url.searchParams.get('done') === 'saved' ? 'Your email settings are saved.' : undefined,
    );
    return tokenPage(
      200,
      preferencesPage(frame, await site.engine.workspace(link.org.id).notifications.preferences(link.recipient)),
      cookies,
    );
  });
  router.post(MAIL_PAGES.preferences, (event) => savePreferences(site, event));
  router.get(`${PORTAL_PATH}/:handle/notifications`, (event) => ownSettings(site, event));
}
