import { getRouterParams, type H3Event } from 'h3';
import { CONSOLE_PATH, type Actor, type Engine, type Team, type TeamIdentity } from '../../engine/index.js';
import { csrfOf, factsOf, forgeryRefusal, htmlResponse, readCookie, readForm, respond, seeOther, sessionCookie, spentBudget, type RequestFacts } from '../../h3/index.js';
import { message, type Frame } from './layout.js';

/** The cookie that holds a team member's session token (its path is the console's). */
export const CONSOLE_SESSION_COOKIE = 'fs_console';

/** Requests per minute the console's sign-in takes: per client address, and mails per address asked for. */
export const CONSOLE_LIMITS = { signInsPerIp: 20, codesPerEmail: 3 };
export type ConsoleLimits = typeof CONSOLE_LIMITS;

/** A request to the console: who is signed in (if anyone), the page frame, and the cookies the answer sets. */
export interface ConsoleVisit {
  facts: RequestFacts;
  identity: TeamIdentity | null;
  frame: Omit<Frame, 'title'>;
  cookies: string[];
}

/** What every console route shares: the engine, whether a proxy is trusted, the budgets, and the first steps. */
export class ConsoleSite {
  constructor(
    readonly engine: Engine,
    readonly trustProxy: boolean,
    readonly limits: ConsoleLimits,
  ) {}

  async visit(event: H3Event): Promise<ConsoleVisit> {
    const facts = factsOf(event, this.trustProxy);
    const csrf = csrfOf(event, facts, CONSOLE_PATH);
    const identity = await this.engine.team.session(readCookie(event, CONSOLE_SESSION_COOKIE));
    return { facts, identity, frame: { csrf: csrf.token, identity }, cookies: csrf.setCookie ? [csrf.setCookie] : [] };
  }

  /** The session's cookie, or the one that removes it. */
  sessionCookie(v: ConsoleVisit, session: { token: string; expiresAt: Date } | null): string {
    return sessionCookie(CONSOLE_SESSION_COOKIE, CONSOLE_PATH, v.facts, session);
  }

  /** The team of the workspace in the path that the signed-in person is on; null for any other id (nothing is said of it). */
  teamOf(v: ConsoleVisit, organizationId: string | undefined): Team | null {
    return v.identity?.teams.find((t) => t.organizationId === organizationId) ?? null;
  }

  /**
   * A page of the workspace in the path (`:org`) for someone on its team; otherwise the sign-in page (nobody signed
   * in) or 404 (any other workspace id: nothing is said of it).
   */
  async member(event: H3Event): Promise<{ v: ConsoleVisit; team: Team } | Response> {
    const v = await this.visit(event);
    if (!v.identity) return seeOther(`${CONSOLE_PATH}/sign-in`, v.cookies);
    const team = this.teamOf(v, getRouterParams(event).org);
    return team ? { v, team } : this.notFound(v);
  }

  /** A form posted to a workspace's page by someone on its team, from the console's own pages, with who acts. */
  async memberForm(event: H3Event): Promise<{ v: ConsoleVisit; team: Team; form: URLSearchParams; actor: Actor } | Response> {
    const m = await this.member(event);
    if (m instanceof Response) return m;
    const form = await this.form(event, m.v);
    if (form instanceof Response) return form;
    return { ...m, form, actor: { email: m.v.identity!.email, ip: m.v.facts.ip } };
  }

  notFound(v: ConsoleVisit, what = 'No such page.'): Response {
    return htmlResponse(404, message({ ...v.frame, title: 'Not found' }, 'Not found', what, { href: `${CONSOLE_PATH}/`, label: 'Back to the console' }), v.cookies);
  }

  /** A form sent by one of the console's own pages; otherwise the page that says why it was not taken. */
  async form(event: H3Event, v: ConsoleVisit): Promise<URLSearchParams | Response> {
    const form = await readForm(event);
    if (!(form instanceof URLSearchParams)) return htmlResponse(form.status, message({ ...v.frame, title: 'Not sent' }, 'Could not send that', form.message), v.cookies);
    const forged = forgeryRefusal(event, form, this.trustProxy);
    return forged ? htmlResponse(403, message({ ...v.frame, title: 'Not accepted' }, 'Not accepted', forged), v.cookies) : form;
  }

  /** Count a request against a budget; the 429 page when it is spent. */
  async overLimit(v: ConsoleVisit, key: string, limit: number): Promise<Response | null> {
    const seconds = await spentBudget(this.engine, 'console', key, limit);
    if (seconds === null) return null;
    return respond(429, message({ ...v.frame, title: 'Too many requests' }, 'Too many requests', `Please wait ${seconds} seconds and try again.`), v.cookies, {
      'retry-after': String(seconds),
    });
  }
}
