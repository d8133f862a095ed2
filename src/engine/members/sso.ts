// Single sign-on to the console with any OpenID Connect provider (Google Workspace, Okta, Entra ID, Keycloak), set
// up per workspace: the authorization code flow with PKCE, state and nonce, by openid-client (docs/console.md). What a
// provider vouches for opens its own workspace only; the domains it is for are verified before the shared sign-in page
// sends anyone to it (domains.ts, docs/security.md).
import * as oidc from 'openid-client';
import { sealedAt } from '../secrets/index.js';
import { FeedbackError } from '../shared/index.js';
import {
  type Sql,
  ssoDomains,
  teamMembers,
  teamSessionSso,
  type WorkspaceContext,
  workspaceSso,
} from '../store/index.js';
import { actAs } from './acting.js';
import { type Actor, record } from './audit.js';
import { domainStates, newDomainToken, normalDomains, type SsoContext, type SsoDomainState } from './domains.js';
import { domainOf, teamEmail } from './roles.js';
import { type SignInFacts, startSession, type TeamSession } from './sessions.js';
import { CONSOLE_PATH } from './sign-in.js';

/** How long a sign-in may take at the provider, in seconds. */
export const SSO_PENDING_SECONDS = 600;
/** Where the provider sends people back to, under the console (register `<public address>/console/sso/callback`). */
export const SSO_CALLBACK_PATH = `${CONSOLE_PATH}/sso/callback`;

export interface SsoSettings {
  issuer: string;
  clientId: string;
  /** The email domains whose people may sign in through it, each with whether it is verified for this workspace. */
  domains: SsoDomainState[];
  /** Whether people of its verified domains must sign in to this workspace with it (no mailed codes for them here). */
  required: boolean;
}

export interface SsoInput {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The email domains whose people may sign in through it. */
  allowedDomains: string[];
}

/** An issuer URL: https, or http on this machine only (a provider in development or in a test). */
function issuerUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new FeedbackError('ERR_VALIDATION', 'The issuer must be a URL, like https://accounts.google.com.');
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw new FeedbackError('ERR_VALIDATION', 'The issuer must be an https URL.');
  return url;
}

/**
 * Set up (or replace) a workspace's single sign-on: owners and admins; audited. The secret is sealed at rest. Domains
 * kept from before keep their verification; new ones start unverified, each with its own token.
 */
export async function configureSso(
  ctx: WorkspaceContext & SsoContext,
  actor: Actor,
  input: SsoInput,
): Promise<SsoSettings> {
  const issuer = issuerUrl(input.issuer).href.replace(/\/$/, '');
  const allowedDomains = normalDomains(input.allowedDomains);
  const clientId = input.clientId?.trim();
  if (!clientId || !input.clientSecret)
    throw new FeedbackError('ERR_VALIDATION', 'Give the client id and secret the provider issued.');
  return actAs(ctx, actor, 'manage', async (_inner, tx) => {
    const sealed = ctx.secrets.seal(input.clientSecret, sealedAt.ssoClientSecret(ctx.organizationId));
    const before = await workspaceSso.find(tx, ctx.organizationId);
    await workspaceSso.upsert(
      tx,
      {
        organizationId: ctx.organizationId,
        issuer,
        clientId,
        clientSecret: sealed,
        enforced: before?.enforced ?? false,
      },
      ctx.clock(),
    );
    await ssoDomains.removeAllBut(tx, ctx.organizationId, allowedDomains);
    for (const domain of allowedDomains)
      await ssoDomains.add(tx, {
        organizationId: ctx.organizationId,
        domain,
        token: newDomainToken(),
        createdAt: ctx.clock(),
      });
    const settings = await settingsIn(tx, ctx.organizationId);
    return {
      result: settings!,
      audit: {
        action: 'team.sso_configured',
        resourceType: 'workspace',
        resourceId: ctx.organizationId,
        detail: { issuer, clientId, allowedDomains },
      },
    };
  });
}

/** Turn single sign-on off: its domains go, and the sessions it proved no longer open the workspace. */
export function removeSso(ctx: WorkspaceContext & SsoContext, actor: Actor): Promise<boolean> {
  return actAs(ctx, actor, 'manage', async (_inner, tx) => {
    const removed = await workspaceSso.remove(tx, ctx.organizationId);
    await ssoDomains.removeAll(tx, ctx.organizationId);
    await teamSessionSso.removeFor(tx, ctx.organizationId);
    return {
      result: removed,
      audit: removed ? { action: 'team.sso_removed', resourceType: 'workspace', resourceId: ctx.organizationId } : null,
    };
  });
}

/**
 * Require single sign-on for the people of the verified domains (no mailed codes for their addresses in this workspace),
 * or stop requiring it. Owners and admins; audited. Sessions their mailed code proved lose the workspace at once.
 */
export function requireSso(ctx: WorkspaceContext & SsoContext, actor: Actor, required: boolean): Promise<SsoSettings> {
  return actAs(ctx, actor, 'manage', async (_inner, tx) => {
    const row = await workspaceSso.find(tx, ctx.organizationId);
    if (!row) throw new FeedbackError('ERR_CONFLICT', 'Set up single sign-on first.');
    await workspaceSso.upsert(tx, { ...row, enforced: required }, ctx.clock());
    return {
      result: (await settingsIn(tx, ctx.organizationId))!,
      audit: {
        action: required ? 'team.sso_required' : 'team.sso_not_required',
        resourceType: 'workspace',
        resourceId: ctx.organizationId,
      },
    };
  });
}

async function settingsIn(sql: Sql, organizationId: string): Promise<SsoSettings | null> {
  const row = await workspaceSso.find(sql, organizationId);
  if (!row) return null;
  return {
    issuer: row.issuer,
    clientId: row.clientId,
    domains: domainStates(await ssoDomains.of(sql, organizationId)),
    required: row.enforced,
  };
}

/** The workspace's single sign-on (never its secret), or null. */
export const ssoSettings = (ctx: WorkspaceContext): Promise<SsoSettings | null> =>
  settingsIn(ctx.db, ctx.organizationId);

/**
 * Each workspace's provider configuration, discovered once (its metadata and keys) and kept for ten minutes, keyed by
 * everything it is made of (so new settings are discovered afresh).
 */
const discovered = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

function configFor(ctx: SsoContext, row: workspaceSso.SsoRow): Promise<oidc.Configuration> {
  const key = [row.organizationId, row.issuer, row.clientId, row.clientSecret].join(' ');
  const kept = discovered.get(key);
  if (kept && Date.now() - kept.at < 600_000) return kept.config;
  const url = issuerUrl(row.issuer);
  const secret = ctx.secrets.open(row.clientSecret, sealedAt.ssoClientSecret(row.organizationId));
  const config = oidc
    .discovery(
      url,
      row.clientId,
      secret,
      undefined,
      url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined,
    )
    .catch((err: unknown) => {
      discovered.delete(key);
      throw new FeedbackError(
        'ERR_UNAVAILABLE',
        `The sign-in provider ${row.issuer} could not be reached (${(err as Error).message}).`,
      );
    });
  if (discovered.size > 1000) discovered.clear();
  discovered.set(key, { at: Date.now(), config });
  return config;
}

/** The redirect URI to register at the provider: the public address's callback (the request's origin without one). */
export const ssoCallbackUrl = (ctx: Pick<SsoContext, 'publicUrl'>, requestOrigin: string) =>
  `${(ctx.publicUrl() ?? requestOrigin).replace(/\/$/, '')}${SSO_CALLBACK_PATH}`;

/** What the browser keeps between the redirect to the provider and its return (sealed: it cannot be read or altered). */
interface Pending {
  organizationId: string;
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  expiresAt: number;
}

/** Where a single sign-on starts: a workspace's own sign-in page (`organizationId`), or the shared one (by the address's domain). */
export interface SsoStart {
  email?: string | null;
  organizationId?: string | null;
}

/**
 * Start signing in with single sign-on, and the provider's address to send the browser to (PKCE, state and nonce in it),
 * with what the browser keeps meanwhile. From a workspace's own sign-in page, its provider (verified domains or not);
 * from the shared page, the provider of the workspace the address's domain is verified for, and no other: a workspace
 * that merely names a domain never receives that domain's sign-ins (nor their addresses as `login_hint`).
 */
export async function startSso(
  ctx: SsoContext,
  from: SsoStart,
  requestOrigin: string,
): Promise<{ url: string; pending: string; expiresAt: Date }> {
  const email = from.email?.trim() ? teamEmail(from.email) : null;
  let row: workspaceSso.SsoRow | undefined;
  if (from.organizationId) {
    row = await workspaceSso.find(ctx.db, from.organizationId);
    if (!row)
      throw new FeedbackError(
        'ERR_NOT_FOUND',
        'This workspace does not sign in with single sign-on: use the emailed code.',
      );
  } else {
    if (!email) throw new FeedbackError('ERR_VALIDATION', 'Enter your work email: its domain says where you sign in.');
    const verified = await ssoDomains.verifiedFor(ctx.db, domainOf(email));
    row = verified && (await workspaceSso.find(ctx.db, verified.organizationId));
    if (!row)
      throw new FeedbackError(
        'ERR_NOT_FOUND',
        `No workspace signs in with single sign-on for ${domainOf(email)} from this page: use the emailed code, or your workspace's own sign-in page.`,
      );
  }
  const domains = (await ssoDomains.of(ctx.db, row.organizationId)).map((d) => d.domain);
  const config = await configFor(ctx, row);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const redirectUri = ssoCallbackUrl(ctx, requestOrigin);
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    // Only an address of one of the workspace's own domains is handed to its provider.
    ...(email && domains.includes(domainOf(email)) ? { login_hint: email } : {}),
  });
  const expiresAt = new Date(ctx.clock().getTime() + SSO_PENDING_SECONDS * 1000);
  const pending: Pending = {
    organizationId: row.organizationId,
    state,
    nonce,
    verifier,
    redirectUri,
    expiresAt: expiresAt.getTime(),
  };
  return { url: url.href, pending: ctx.secrets.seal(JSON.stringify(pending), sealedAt.ssoPending()), expiresAt };
}

const refused = (why: string) => new FeedbackError('ERR_VALIDATION', why);

/** The sign-in the browser kept, opened: refused when there is none, it is not ours, or it took too long. */
function openPending(ctx: SsoContext, sealedPending: string | undefined): Pending {
  let pending: Pending;
  try {
    pending = JSON.parse(ctx.secrets.open(sealedPending ?? '', sealedAt.ssoPending())) as Pending;
  } catch {
    throw refused('This single sign-on has no sign-in started in this browser; start again.');
  }
  if (!sealedPending?.startsWith('fs1:') || pending.expiresAt <= ctx.clock().getTime())
    throw refused('This single sign-on took too long; start again.');
  return pending;
}

/**
 * What the provider vouches for: the code exchanged with the PKCE verifier (state and nonce checked, the ID token's
 * signature, issuer and audience by openid-client), then the ID token's claims, or userinfo's for providers that keep
 * them out of the ID token (as the OpenID Connect core profile allows).
 */
async function claimsOf(ctx: SsoContext, row: Parameters<typeof configFor>[1], pending: Pending, callbackUrl: URL) {
  const config = await configFor(ctx, row);
  const checks = {
    pkceCodeVerifier: pending.verifier,
    expectedState: pending.state,
    expectedNonce: pending.nonce,
    idTokenExpected: true,
  };
  // The redirect_uri the browser was sent with (a proxy may have changed the address this request came to).
  const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, checks, { redirect_uri: pending.redirectUri });
  const idToken = tokens.claims()!;
  return typeof idToken.email === 'string'
    ? idToken
    : await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
}

/**
 * Finish signing in: the provider's answer (`callbackUrl`, with its code and state) checked against what the browser
 * kept (state, then the code exchanged with the PKCE verifier, the ID token's signature, issuer, audience and nonce by
 * openid-client); then the address the provider vouches for must be verified by it, in one of the workspace's domains,
 * and on the workspace's team. The session it makes opens that workspace only. Every callback that reaches a workspace
 * is in its audit log: the sign-in (`team.signed_in`), or the refusal and why (`team.sso_refused`).
 */
export async function finishSso(
  ctx: SsoContext,
  sealedPending: string | undefined,
  callbackUrl: URL,
  facts: SignInFacts = {},
): Promise<{ session: TeamSession; organizationId: string }> {
  const pending = openPending(ctx, sealedPending);
  const row = await workspaceSso.find(ctx.db, pending.organizationId);
  if (!row) throw refused('Single sign-on is no longer set up for this workspace.');
  let email = '';
  const refuse = async (why: string, reason: string): Promise<never> => {
    await record(
      ctx.db,
      { organizationId: row.organizationId, clock: ctx.clock },
      { email: email || 'unknown', ip: facts.ip ?? null },
      {
        action: 'team.sso_refused',
        resourceType: 'team_member',
        resourceId: email || null,
        detail: { method: 'sso', issuer: row.issuer, reason },
      },
    );
    throw refused(why);
  };
  // The provider's own refusal (the person cancelled, or is not allowed there) comes back as `error`.
  const providerError = callbackUrl.searchParams.get('error');
  if (providerError)
    return refuse(
      `The sign-in provider did not sign you in (${providerError.slice(0, 100)}).`,
      `the provider answered ${providerError.slice(0, 100)}`,
    );
  let claims: Record<string, unknown> | undefined;
  try {
    claims = await claimsOf(ctx, row, pending, callbackUrl);
  } catch (err) {
    return refuse(
      `The sign-in provider's answer was refused: ${(err as Error).message}`,
      'the provider answer was refused',
    );
  }
  email = typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email)
    return refuse('The sign-in provider did not give an email address (ask for the email scope).', 'no email address');
  if (claims?.email_verified === false)
    return refuse(`The sign-in provider has not verified ${email}.`, 'email not verified by the provider');
  const domains = (await ssoDomains.of(ctx.db, row.organizationId)).map((d) => d.domain);
  if (!domains.includes(domainOf(email)))
    return refuse(`${email} is not in a domain this workspace signs in with.`, 'domain not allowed');
  if (!(await teamMembers.find(ctx.db, row.organizationId, email)))
    return refuse(`${email} is not on this workspace’s team: ask an owner to invite you.`, 'not on the team');
  const session = await ctx.db.transaction(async (tx) => {
    await teamMembers.markJoined(tx, email, ctx.clock(), row.organizationId);
    return startSession(
      { db: tx, clock: ctx.clock },
      email,
      { method: 'sso', organizationId: row.organizationId, issuer: row.issuer },
      facts,
    );
  });
  return { session, organizationId: row.organizationId };
}
