// Server-rendered sites on the app (the portal, the console): what their forms share. The request's facts (https, the
// client's address, framed or not), cookies, the anti-forgery check (Fetch Metadata or Origin, and a double-submit
// token), and reading a form no larger than FORM_MAX_BYTES.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { getRequestIP, type H3Event, parseCookies } from 'h3';
import { type Engine, FeedbackError, translator } from '../engine/index.js';
import { textFault } from '../schemas/input.js';
import { readBodyText } from './internal/body.js';

/** The cookie the forms' anti-forgery token is checked against (double submit). */
export const CSRF_COOKIE = 'fs_csrf';
/** The largest form body a site reads. */
export const FORM_MAX_BYTES = 64 * 1024;

export interface RequestFacts {
  /** Whether the browser reached us over https (directly, or through a trusted proxy that says so). */
  https: boolean;
  /** The client's address: the socket's, or the proxy's X-Forwarded-For when the proxy is trusted. */
  ip: string;
  /** Whether the page is loaded in a frame (`Sec-Fetch-Dest: iframe`): the widget's panel on another site. */
  framed: boolean;
}

export function factsOf(event: H3Event, trustProxy: boolean): RequestFacts {
  const proto = trustProxy ? event.req.headers.get('x-forwarded-proto')?.split(',')[0]?.trim() : undefined;
  return {
    https: proto ? proto === 'https' : event.url.protocol === 'https:',
    ip: getRequestIP(event, { xForwardedFor: trustProxy }) ?? 'unknown',
    framed: event.req.headers.get('sec-fetch-dest') === 'iframe',
  };
}

/**
 * A `Set-Cookie` value: HttpOnly always; `SameSite=Lax`, and Secure on https. In a frame on another site (the widget)
 * a Lax cookie would never come back, so there it is `SameSite=None; Secure; Partitioned`: a cookie kept for that
 * site only (CHIPS), which the browser sends back to the portal inside that site's frame and nowhere else.
 * `maxAge` 0 removes the cookie.
 */
export function cookie(
  name: string,
  value: string,
  options: { path: string; maxAge?: number; facts: RequestFacts },
): string {
  const parts = [
    `${name}=${value}`,
    `Path=${options.path}`,
    'HttpOnly',
    ...(options.facts.framed ? ['SameSite=None', 'Secure', 'Partitioned'] : ['SameSite=Lax']),
  ];
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  if (options.facts.https && !options.facts.framed) parts.push('Secure');
  return parts.join('; ');
}

/** A session's cookie on `path` (it lasts as long as the session), or with `session` null the one that removes it. */
export function sessionCookie(
  name: string,
  path: string,
  facts: RequestFacts,
  session: { token: string; expiresAt: Date } | null,
): string {
  return session
    ? cookie(name, session.token, {
        path,
        maxAge: Math.floor((session.expiresAt.getTime() - Date.now()) / 1000),
        facts,
      })
    : cookie(name, '', { path, maxAge: 0, facts });
}

/**
 * Count a request against a per-minute budget of the engine's limiter (shared by every instance on PostgreSQL): the
 * seconds to wait when it is spent, else null. A budget is named by the site and a digest of what it counts, at most
 * 40 characters, as the shared windows keep them.
 */
export async function spentBudget(engine: Engine, site: string, key: string, limit: number): Promise<number | null> {
  const state = await engine.limits.consume(
    `${site}:${createHash('sha256')
      .update(key)
      .digest('base64url')
      .slice(0, 39 - site.length)}`,
    limit,
  );
  return state.allowed ? null : Math.max(1, Math.ceil((state.resetAt - engine.clock().getTime()) / 1000));
}

export const readCookie = (event: H3Event, name: string): string | undefined => parseCookies(event)[name];

/**
 * The page's anti-forgery token: the browser's, or a new one to set (its cookie on `path`, the site's). Forms carry it in a hidden field; a post is
 * accepted only when the field equals the cookie, which another site can neither read nor set.
 */
export function csrfOf(event: H3Event, facts: RequestFacts, path: string): { token: string; setCookie?: string } {
  const current = readCookie(event, CSRF_COOKIE);
  if (current && /^[A-Za-z0-9_-]{43}$/.test(current)) return { token: current };
  const token = randomBytes(32).toString('base64url');
  return { token, setCookie: cookie(CSRF_COOKIE, token, { path, facts }) };
}

/**
 * Whether a state-changing request comes from another site: the browser's Fetch Metadata (`Sec-Fetch-Site`) when it
 * sends it, else `Origin` against the request's host; then the form's token against the cookie. Both must pass.
 */
export function forgeryReason(
  event: H3Event,
  form: URLSearchParams,
  trustProxy: boolean,
): 'page.forged' | 'page.expired' | null {
  const headers = event.req.headers;
  const site = headers.get('sec-fetch-site');
  const origin = headers.get('origin');
  const host =
    (trustProxy && headers.get('x-forwarded-host')?.split(',')[0]?.trim()) || headers.get('host') || event.url.host;
  if (
    site ? site !== 'same-origin' && site !== 'none' : origin !== null && origin !== 'null' && safeHost(origin) !== host
  )
    return 'page.forged';
  const cookieToken = readCookie(event, CSRF_COOKIE) ?? '';
  const formToken = form.get('csrf') ?? '';
  if (
    !cookieToken ||
    cookieToken.length !== formToken.length ||
    !timingSafeEqual(Buffer.from(cookieToken), Buffer.from(formToken))
  )
    return 'page.expired';
  return null;
}

/** `forgeryReason`, in English words (the console's). */
export function forgeryRefusal(event: H3Event, form: URLSearchParams, trustProxy: boolean): string | null {
  const reason = forgeryReason(event, form, trustProxy);
  return reason ? translator().t(reason) : null;
}

/** Why a form could not be read: its status, the message's name in the catalogs, and the message in English. */
export type FormRefusal = { status: number; key: 'page.notAForm' | 'page.tooLarge'; message: string };

function safeHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/** The form's fields, or why it cannot be read (too large, not a form). */
export async function readForm(event: H3Event): Promise<URLSearchParams | FormRefusal> {
  const type = event.req.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded'))
    return { status: 415, key: 'page.notAForm', message: translator().t('page.notAForm') };
  const text = await readFormText(event);
  return typeof text === 'string' ? new URLSearchParams(text) : text;
}

/** A form body's text, read no further than FORM_MAX_BYTES whatever its framing; 413 past it. */
export async function readFormText(event: H3Event): Promise<string | (FormRefusal & { status: 413 })> {
  try {
    return await readBodyText(event.req as Request, FORM_MAX_BYTES);
  } catch (err) {
    if (err instanceof FeedbackError && err.code === 'ERR_PAYLOAD_TOO_LARGE')
      return { status: 413, key: 'page.tooLarge', message: translator().t('page.tooLarge') };
    throw err;
  }
}

/** A form field's text, trimmed, or what is wrong with it: missing, too long, or characters no text may hold. */
export function fieldFault(
  form: URLSearchParams,
  name: string,
  max: number,
  required: boolean,
): { value?: string; fault?: 'required' | 'tooLong' | 'characters'; detail?: string } {
  const value = (form.get(name) ?? '').trim();
  if (!value) return required ? { fault: 'required' } : {};
  if (value.length > max) return { fault: 'tooLong' };
  const detail = textFault(value);
  return detail ? { fault: 'characters', detail } : { value };
}

/** A form field's text, trimmed, or why it cannot be taken, in English (the console's words). */
export function field(
  form: URLSearchParams,
  name: string,
  label: string,
  max: number,
  required: boolean,
): { value?: string; error?: string } {
  const { value, fault, detail } = fieldFault(form, name, max, required);
  if (fault === 'required') return { error: `${label} is required.` };
  if (fault === 'tooLong') return { error: `${label} must be at most ${max} characters.` };
  return fault ? { error: `${label} ${detail}.` } : value === undefined ? {} : { value };
}
