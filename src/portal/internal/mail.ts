import type { H3, H3Event } from 'h3';
import {
  FeedbackError,
  MAIL_PAGES,
  type MailRecipient,
  type OrganizationInfo,
  PORTAL_PATH,
  type Translator,
  translator,
  type Wording,
} from '../../engine/index.js';
import { spentBudget } from '../../h3/index.js';
import { askedLocale, bareWords, languageCookie, pageLocale } from './languages.js';
import { invalidLinkPage, type MailFrame, preferencesPage, refusedPage, unsubscribePage } from './mail-pages.js';
import { messagePage } from './message-pages.js';
import { csrfOf, factsOf, forgeryReason, readForm, readFormText } from './requests.js';
import { htmlResponse, respond } from './responses.js';
import type { PortalSite } from './site.js';

/** Requests per minute per client address to the pages mail links lead to. */
const MAIL_PAGES_PER_IP = 60;

/** A page reached through a mail's token: no referrer leaves it (the token is in its address), nothing caches it. */
const tokenPage = (status: number, body: string, cookies: readonly string[] = []) =>
  respond(status, body, cookies, { 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });

type Linked = { recipient: MailRecipient; org: OrganizationInfo; token: string; tr: Translator };

/** The words of a mail's page: its workspace's, in the language the link asks for (a mail's links name the recipient's). */
const wordsOf = (event: H3Event, org: OrganizationInfo) =>
  translator(pageLocale(event, { workspace: org.locale }), org.portalWording as Wording);

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
    const tr = bareWords(event);
    return respond(429, invalidLinkPage(tr, tr.t('page.wait', { seconds })), [], {
      'retry-after': String(seconds),
    });
  }
  const token = event.url.searchParams.get('t') ?? '';
  let recipient: MailRecipient;
  try {
    recipient = await engine.mailLinks.verify(token);
  } catch (err) {
    if (err instanceof FeedbackError && err.code === 'ERR_UNAUTHORIZED') {
      const tr = bareWords(event);
      const days = Number(err.details?.days);
      const why = err.details?.reason === 'expired' ? tr.t('link.expired', { days }) : tr.t('link.notValid');
      return tokenPage(400, invalidLinkPage(tr, why));
    }
    throw err;
  }
  const org = await engine.organizations.get(recipient.organizationId);
  if (!org) {
    const tr = bareWords(event);
    return tokenPage(404, invalidLinkPage(tr, tr.t('link.noWorkspace')));
  }
  return { recipient, org, token, tr: wordsOf(event, org) };
}

function frameOf(
  site: PortalSite,
  event: H3Event,
  link: Linked,
  notice?: string,
): { frame: MailFrame; cookies: string[] } {
  const facts = factsOf(event, site.trustProxy);
  const csrf = csrfOf(event, facts);
  const t = encodeURIComponent(link.token);
  const asked = askedLocale(event);
  return {
    frame: {
      tr: link.tr,
      // The switcher asks for this page again in another language (the token is the page's only authority).
      here: { method: 'get', action: event.url.pathname, fields: [['t', link.token]] },
      workspace: link.org.name,
      preferences: `${MAIL_PAGES.preferences}?t=${t}`,
      unsubscribe: `${MAIL_PAGES.unsubscribe}?t=${t}`,
      csrf: csrf.token,
      notice,
    },
    cookies: [...(csrf.setCookie ? [csrf.setCookie] : []), ...(asked ? [languageCookie(asked, facts)] : [])],
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
    return tokenPage(413, refusedPage(link.tr, link.org.name, link.tr.t('link.notSent'), link.tr.t('link.tooLarge')));
  // Multipart or urlencoded: only the page's own button (urlencoded) says where it came from.
  const fromPage = new URLSearchParams(body).get('from') === 'page';
  const notifications = site.engine.workspace(link.org.id).notifications;
  await notifications.unsubscribe(link.recipient, fromPage ? 'preferences' : 'one_click');
  const { frame, cookies } = frameOf(site, event, link, link.tr.t('unsubscribe.notice'));
  return tokenPage(200, unsubscribePage(frame, await notifications.preferences(link.recipient)), cookies);
}

/** The preferences form, sent: what the person gets from now on. */
async function savePreferences(site: PortalSite, event: H3Event): Promise<Response> {
  const link = await linked(site, event);
  if (link instanceof Response) return link;
  const form = await readForm(event);
  const { tr } = link;
  if (!(form instanceof URLSearchParams))
    return tokenPage(form.status, refusedPage(tr, link.org.name, tr.t('link.notSaved'), tr.t(form.key)));
  const forged = forgeryReason(event, form, site.trustProxy);
  if (forged) return tokenPage(403, refusedPage(tr, link.org.name, tr.t('link.notSaved'), tr.t(forged)));
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
    return tokenPage(422, refusedPage(tr, link.org.name, tr.t('link.notSaved'), err.message));
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
  if (!v) return site.noPortal(event);
  const { tr } = v.frame;
  if (!v.viewer)
    return htmlResponse(401, messagePage(v.frame, tr.t('prefs.signInHeading'), tr.t('prefs.signInText')), v.cookies);
  const recipient = await site.engine.workspace(v.org.id).notifications.recipientFor(v.viewer.email);
  if (!recipient)
    return htmlResponse(
      200,
      messagePage(v.frame, tr.t('prefs.noneHeading'), tr.t('prefs.noneText', { workspace: v.org.name })),
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
      event.url.searchParams.get('done') === 'saved' ? link.tr.t('prefs.saved') : undefined,
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
