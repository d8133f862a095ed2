import { getRouterParams, type H3Event } from 'h3';
import { type Engine, HANDLE_PATTERN, type OrganizationInfo, pathsOf } from '../../engine/index.js';
import { SiteBase } from '../../h3/index.js';
import type { PageFrame } from './layout.js';
import { messagePage } from './pages.js';
import { csrfOf, factsOf, readCookie, SESSION_COOKIE, type Visit } from './requests.js';

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
  unvote: 'Your vote is taken back.',
  comment: 'Your comment is posted.',
  post: 'Your post is up.',
  held: 'Thank you! Your post will appear once the team has looked at it.',
  'signed-out': 'You are signed out.',
};

/**
 * What every portal route shares: the engine, whether a proxy in front is trusted, the request budgets, and the
 * steps most routes begin with (who the workspace is, who is signed in, the budget, the 404 page).
 */
export class PortalSite extends SiteBase<Visit> {
  constructor(
    engine: Engine,
    trustProxy: boolean,
    readonly limits: PortalLimits,
  ) {
    super(engine, trustProxy, 'portal');
  }

  protected messagePage(v: Visit | null, heading: string, text: string): string {
    return messagePage(v?.frame ?? null, heading, text);
  }

  /** A portal's budgets are its workspace's. */
  protected override budgetKey(v: Visit, key: string): string {
    return `${v.org.id}:${key}`;
  }

  /** The workspace behind a handle, if its portal is on. */
  async workspaceOf(event: H3Event): Promise<{ org: OrganizationInfo; frame: Omit<PageFrame, 'title'> } | null> {
    const handle = getRouterParams(event).handle ?? '';
    if (!HANDLE_PATTERN.test(handle)) return null;
    const org = await this.engine.organizations.byHandle(handle);
    if (!org?.portalEnabled) return null;
    return {
      org,
      frame: {
        workspace: org.name,
        paths: pathsOf(handle),
        brand: { logoUrl: org.portalLogoUrl, accent: org.portalAccent },
      },
    };
  }

  /**
   * A request to a workspace's portal: the workspace, who is signed in, the page frame (with the anti-forgery token)
   * and the cookies the answer must set. A workspace that lets sites frame its portal says so in every answer's policy.
   */
  async visit(event: H3Event): Promise<Visit | null> {
    const ws = await this.workspaceOf(event);
    if (!ws) return null;
    event.context.frameOrigins = ws.org.portalFrameOrigins;
    if (ws.org.portalLogoUrl) event.context.imageOrigins = [new URL(ws.org.portalLogoUrl).origin];
    const facts = factsOf(event, this.trustProxy);
    const csrf = csrfOf(event, facts);
    const participation = this.engine.workspace(ws.org.id).participation;
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
}
