import { getRouterParams, type H3Event } from 'h3';
import {
  type Actor,
  allows,
  CONSOLE_PATH,
  type ConsoleKey,
  type Engine,
  FeedbackError,
  type Team,
  type TeamIdentity,
  type TeamRole,
} from '../../engine/index.js';
import {
  csrfOf,
  factsOf,
  htmlResponse,
  type RequestFacts,
  readCookie,
  SiteBase,
  seeOther,
  sessionCookie,
} from '../../h3/index.js';
import { type Frame, message } from './layout.js';
import { say } from './words.js';

/** The cookie that holds a team member's session token (its path is the console's). */
export const CONSOLE_SESSION_COOKIE = 'fs_console';

/** Requests per minute the console's sign-in takes: per client address, and mails per address asked for. */
export const CONSOLE_LIMITS = { signInsPerIp: 20, codesPerEmail: 3 };
export type ConsoleLimits = typeof CONSOLE_LIMITS;

/**
 * Who is at the console, as a host application that embeds it says (its own sign-in): the workspace, their address,
 * their role there, and optionally the name that signs their official replies. Null for nobody signed in.
 */
export interface HostMember {
  organizationId: string;
  email: string;
  role: TeamRole;
  name?: string | null;
}
export type HostMemberOf = (request: Request) => HostMember | null | Promise<HostMember | null>;

/** The HTTP status of an engine refusal on a console page. */
export function statusOf(err: FeedbackError): number {
  const statuses: Record<string, number> = {
    ERR_FORBIDDEN: 403,
    ERR_NOT_FOUND: 404,
    ERR_CONFLICT: 409,
    ERR_PLAN_LIMIT: 402,
    ERR_UNAVAILABLE: 503,
  };
  return statuses[err.code] ?? 422;
}

/** What a page says after a form (`?done=word`, as `act` answers): the page's words for it, or nothing. */
export function noticeOf(event: H3Event, notices: Record<string, ConsoleKey>): string | null {
  const done = event.url.searchParams.get('done');
  const key = done ? notices[done] : undefined;
  return key ? say(key) : null;
}

/** A form posted by a team member: the visit, the workspace, the form's fields and who acts. */
export interface ActContext {
  v: ConsoleVisit;
  team: Team;
  form: URLSearchParams;
  actor: Actor;
}

/** A request to the console: who is signed in (if anyone), the page frame, and the cookies the answer sets. */
export interface ConsoleVisit {
  facts: RequestFacts;
  identity: TeamIdentity | null;
  /** The host application's word for who this is, when the console is embedded. */
  host: HostMember | null;
  frame: Omit<Frame, 'title'>;
  cookies: string[];
}

/** What every console route shares: the engine, whether a proxy is trusted, the budgets, and the first steps. */
export class ConsoleSite extends SiteBase<ConsoleVisit> {
  constructor(
    engine: Engine,
    trustProxy: boolean,
    readonly limits: ConsoleLimits,
    /** Set when a host application embeds the console: it says who is signed in, and the console's own sign-in is off. */
    readonly hostMember: HostMemberOf | null = null,
  ) {
    super(engine, trustProxy, 'console');
  }

  /** The console's message pages lead back to the console. */
  protected messagePage(v: ConsoleVisit | null, heading: string, text: string): string {
    const frame = v?.frame ?? { csrf: '', team: null };
    return message({ ...frame, title: heading } as Frame, heading, text, {
      href: `${CONSOLE_PATH}/`,
      label: say('console.backToConsole'),
    });
  }

  get embedded(): boolean {
    return this.hostMember !== null;
  }

  async visit(event: H3Event): Promise<ConsoleVisit> {
    const facts = factsOf(event, this.trustProxy);
    const csrf = csrfOf(event, facts, CONSOLE_PATH);
    const host = this.hostMember ? await this.hostMember(event.req) : null;
    const identity = this.hostMember
      ? host && (await this.hostIdentity(host))
      : await this.engine.team.session(readCookie(event, CONSOLE_SESSION_COOKIE));
    return {
      facts,
      identity,
      host,
      frame: { csrf: csrf.token, identity, embedded: this.embedded },
      cookies: csrf.setCookie ? [csrf.setCookie] : [],
    };
  }

  /** The identity a host's member stands for: one team, the workspace named (null for a workspace that does not exist). */
  private async hostIdentity(m: HostMember): Promise<TeamIdentity | null> {
    const org = await this.engine.organizations.get(m.organizationId);
    return (
      org && {
        email: m.email.trim().toLowerCase(),
        teams: [{ organizationId: org.id, workspace: org.name, role: m.role, name: m.name ?? null }],
        elsewhere: [],
        addressProven: false,
      }
    );
  }

  /** Who acts: the signed-in member from this client address; the host's word for their role when embedded. */
  actor(v: ConsoleVisit): Actor {
    const email = v.identity!.email;
    return v.host
      ? { email, ip: v.facts.ip, vouched: { role: v.host.role, name: v.host.name ?? null } }
      : { email, ip: v.facts.ip };
  }

  /** Where someone not signed in goes: the sign-in page, or (embedded) a page that says the host decides. */
  signInFirst(v: ConsoleVisit): Response {
    if (!this.embedded) return seeOther(`${CONSOLE_PATH}/sign-in`, v.cookies);
    return htmlResponse(
      401,
      message(
        { ...v.frame, title: say('console.notSignedIn') },
        say('console.notSignedIn'),
        say('console.notSignedInText'),
      ),
      v.cookies,
    );
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
   * A page of the workspace in the path (`:org`) for someone whose session opens its team; otherwise the sign-in page
   * (nobody signed in), the workspace's own sign-in page (a team of the address that asks for its own single sign-on),
   * or 404 (any other workspace id: nothing is said of it).
   */
  async member(event: H3Event): Promise<{ v: ConsoleVisit; team: Team } | Response> {
    const m = await this.admitted(event);
    if (m instanceof Response) return m;
    // What the navigation counts beside its sections: read for a page, not for a form (it answers with a redirect).
    m.v.frame = { ...m.v.frame, counts: await this.engine.workspace(m.team.organizationId).team.sectionCounts() };
    return m;
  }

  /** Someone whose session opens the path's workspace, as `member` finds them, without reading the page's counts. */
  private async admitted(event: H3Event): Promise<{ v: ConsoleVisit; team: Team } | Response> {
    const v = await this.visit(event);
    if (!v.identity) return this.signInFirst(v);
    const organizationId = getRouterParams(event).org;
    const team = this.teamOf(v, organizationId);
    if (team) return { v, team };
    if (v.identity.elsewhere.some((t) => t.organizationId === organizationId))
      return seeOther(`${CONSOLE_PATH}/${organizationId}/sign-in`, v.cookies);
    return this.notFound(v);
  }

  /**
   * A page for owners and admins (webhooks, keys, settings): theirs, 403 for other roles. The engine checks the role
   * again for every action; this only spares others a page of forms they cannot use.
   */
  async manager(event: H3Event): Promise<{ v: ConsoleVisit; team: Team } | Response> {
    const m = await this.member(event);
    if (m instanceof Response || allows(m.team.role, 'manage')) return m;
    const frame = { ...m.v.frame, title: say('console.notForRole'), team: m.team };
    return htmlResponse(403, message(frame, say('console.notForRole'), say('console.notForRoleText')), m.v.cookies);
  }

  /**
   * A form posted to a workspace's page: `run` makes the change (the engine checks the role) and answers with a word of
   * what was done (303 to `back` with `?done=word`, so a reload sends nothing again) or a page of its own (a secret
   * shown once); a refusal of the engine is `refused` (the page again with why), else the page that says why.
   */
  async act(
    event: H3Event,
    back: (team: Team) => string,
    run: (m: ActContext) => Promise<string | Response>,
    refused?: (m: ActContext, err: FeedbackError) => Promise<Response>,
  ): Promise<Response> {
    const m = await this.memberForm(event);
    if (m instanceof Response) return m;
    try {
      const done = await run(m);
      if (done instanceof Response) return done;
      const to = back(m.team);
      return seeOther(`${to}${to.includes('?') ? '&' : '?'}done=${done}`, m.v.cookies);
    } catch (err) {
      if (!(err instanceof FeedbackError)) throw err;
      return refused
        ? refused(m, err)
        : this.refused(m.v, m.team, err, { href: back(m.team), label: say('console.back') });
    }
  }

  /** An engine refusal as a page: why, and the way back. */
  refused(v: ConsoleVisit, team: Team, err: FeedbackError, back: { href: string; label: string }): Response {
    return htmlResponse(
      statusOf(err),
      message({ ...v.frame, title: say('console.notDone'), team }, say('console.nothingChanged'), err.message, back),
      v.cookies,
    );
  }

  /** A form posted to a workspace's page by someone on its team, from the console's own pages, with who acts. */
  async memberForm(
    event: H3Event,
  ): Promise<{ v: ConsoleVisit; team: Team; form: URLSearchParams; actor: Actor } | Response> {
    const m = await this.admitted(event);
    if (m instanceof Response) return m;
    const form = await this.form(event, m.v);
    if (form instanceof Response) return form;
    return { ...m, form, actor: this.actor(m.v) };
  }
}
