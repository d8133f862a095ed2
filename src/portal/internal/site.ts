import { getRouterParams, type H3Event } from 'h3';
import {
  type Engine,
  HANDLE_PATTERN,
  type MessageKey,
  type MessageValues,
  type OrganizationInfo,
  pathsOf,
  type Translator,
  translator,
  type Wording,
} from '../../engine/index.js';
import { SiteBase } from '../../h3/index.js';
import { askedLocale, bareWords, languageCookie, pageLocale } from './languages.js';
import type { PageFrame } from './layout.js';
import { messagePage } from './message-pages.js';
import { csrfOf, factsOf, readCookie, SESSION_COOKIE, type Visit } from './requests.js';

/**
 * Requests per minute a portal takes: sign-ins, posts, votes and comments per client address and per person, and
 * email codes per address and per email (each code is a mail the workspace sends to a stranger's inbox).
 */
export const PORTAL_LIMITS = { actionsPerIp: 30, actionsPerEmail: 20, codesPerIp: 10, codesPerEmail: 3 };
export type PortalLimits = typeof PORTAL_LIMITS;

/** What `?done=` says on the page a form leads to. */
const NOTICES: Record<string, MessageKey> = {
  vote: 'notice.vote',
  voted: 'notice.voted',
  unvote: 'notice.unvote',
  comment: 'notice.comment',
  post: 'notice.post',
  held: 'notice.held',
  'signed-out': 'notice.signedOut',
};

/** The page a language switcher comes back to: this one, without `lang` and `done`. */
function thisPage(event: H3Event): string {
  const query = new URLSearchParams(event.url.search);
  query.delete('lang');
  query.delete('done');
  const rest = query.toString();
  return `${event.url.pathname}${rest ? `?${rest}` : ''}`;
}

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

  protected messagePage(v: Visit | null, heading: string, text: string, tr?: Translator): string {
    return messagePage(v?.frame ?? null, heading, text, undefined, tr);
  }

  protected override say(v: Visit | null, key: MessageKey, values?: MessageValues): string {
    return (v?.frame.tr ?? translator()).t(key, values);
  }

  /** The page for an address that is no workspace's portal, in the browser's language. */
  noPortal(event: H3Event): Response {
    const tr = bareWords(event);
    return this.notFound(null, tr.t('page.noPortal'), tr);
  }

  /** A portal's budgets are its workspace's. */
  protected override budgetKey(v: Visit, key: string): string {
    return `${v.org.id}:${key}`;
  }

  /** The workspace behind a handle, if its portal is on. */
  async workspaceOf(event: H3Event): Promise<{ org: OrganizationInfo; frame: Omit<PageFrame, 'title' | 'tr'> } | null> {
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
    const tr = translator(
      pageLocale(event, {
        person: viewer ? await participation.locale(viewer) : null,
        workspace: ws.org.locale,
      }),
      ws.org.portalWording as Wording,
    );
    const notice = NOTICES[event.url.searchParams.get('done') ?? ''];
    const cookies = csrf.setCookie ? [csrf.setCookie] : [];
    // A link that names its language (a mail's): this browser keeps it.
    const asked = askedLocale(event);
    if (asked) cookies.push(languageCookie(asked, facts));
    const here = {
      method: 'post' as const,
      action: ws.frame.paths.language,
      fields: [
        ['csrf', csrf.token],
        ['return', thisPage(event)],
      ] as const,
    };
    return {
      org: ws.org,
      paths: ws.frame.paths,
      frame: { ...ws.frame, tr, here, viewer, csrf: csrf.token, notice: notice ? tr.t(notice) : null },
      facts,
      cookies,
      participation,
      viewer,
      canTakePart: !ws.org.portalVerifiedOnly || viewer?.verified === true,
    };
  }
}
