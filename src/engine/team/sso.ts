// Single sign-on to the console with any OpenID Connect provider (Google Workspace, Okta, Entra ID, Keycloak), set
// up per workspace: the authorization code flow with PKCE, state and nonce, by openid-client (docs/console.md).
import * as oidc from 'openid-client';
import { FeedbackError } from '../shared/index.js';
import { sealedAt, type SecretBox } from '../secrets/index.js';
import { teamMembers, workspaceSso, type WorkspaceContext } from '../store/index.js';
import { actAs } from './acting.js';
import type { Actor } from './audit.js';
import { teamEmail } from './roles.js';
import { startSession, type TeamContext, type TeamSession } from './sign-in.js';

/** How long a sign-in may take at the provider, in seconds. */
export const SSO_PENDING_SECONDS = 600;
/** Where the provider sends people back to, under the console (register `<public address>/console/sso/callback`). */
export const SSO_CALLBACK_PATH = '/console/sso/callback';

export interface SsoSettings {
  issuer: string;
  clientId: string;
  /** The email domains whose people may sign in through it. */
  allowedDomains: string[];
}

export interface SsoInput extends SsoSettings {
  clientSecret: string;
}

export type SsoContext = TeamContext & { secrets: SecretBox };

const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** An issuer URL: https, or http on this machine only (a provider in development or in a test). */
function issuerUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new FeedbackError('ERR_VALIDATION', 'The issuer must be a URL, like https://accounts.google.com.');
  }
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) throw new FeedbackError('ERR_VALIDATION', 'The issuer must be an https URL.');
  return url;
}

function domains(list: string[]): string[] {
  const out = [...new Set(list.map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
  if (out.length === 0) throw new FeedbackError('ERR_VALIDATION', 'Name at least one email domain whose people sign in this way.');
  for (const d of out) if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d)) throw new FeedbackError('ERR_VALIDATION', `${d} is not an email domain.`);
  return out;
}

/** Set up (or replace) a workspace's single sign-on: owners and admins; audited. The secret is sealed at rest. */
export async function configureSso(ctx: WorkspaceContext & SsoContext, actor: Actor, input: SsoInput): Promise<SsoSettings> {
  const issuer = issuerUrl(input.issuer).href.replace(/\/$/, '');
  const allowedDomains = domains(input.allowedDomains);
  const clientId = input.clientId?.trim();
  if (!clientId || !input.clientSecret) throw new FeedbackError('ERR_VALIDATION', 'Give the client id and secret the provider issued.');
  return actAs(ctx, actor, 'manage', async (_inner, tx) => {
    const sealed = ctx.secrets.seal(input.clientSecret, sealedAt.ssoClientSecret(ctx.organizationId));
    await workspaceSso.upsert(tx, { organizationId: ctx.organizationId, issuer, clientId, clientSecret: sealed, allowedDomains }, ctx.clock());
    return { result: { issuer, clientId, allowedDomains }, audit: { action: 'team.sso_configured', resourceType: 'workspace', resourceId: ctx.organizationId, detail: { issuer, clientId, allowedDomains } } };
  });
}

export function removeSso(ctx: WorkspaceContext & SsoContext, actor: Actor): Promise<boolean> {
  return actAs(ctx, actor, 'manage', async (_inner, tx) => {
    const removed = await workspaceSso.remove(tx, ctx.organizationId);
    return { result: removed, audit: removed ? { action: 'team.sso_removed', resourceType: 'workspace', resourceId: ctx.organizationId } : null };
  });
}

export async function ssoSettings(ctx: WorkspaceContext): Promise<SsoSettings | null> {
  const row = await workspaceSso.find(ctx.db, ctx.organizationId);
  return row ? { issuer: row.issuer, clientId: row.clientId, allowedDomains: row.allowedDomains } : null;
}

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
    .discovery(url, row.clientId, secret, undefined, url.protocol === 'http:' ? { execute: [oidc.allowInsecureRequests] } : undefined)
    .catch((err: unknown) => {
      discovered.delete(key);
      throw new FeedbackError('ERR_UNAVAILABLE', `The sign-in provider ${row.issuer} could not be reached (${(err as Error).message}).`);
    });
  if (discovered.size > 1000) discovered.clear();
  discovered.set(key, { at: Date.now(), config });
  return config;
}

/** The redirect URI to register at the provider: the public address's callback (the request's origin without one). */
export const ssoCallbackUrl = (ctx: Pick<SsoContext, 'publicUrl'>, requestOrigin: string) => `${(ctx.publicUrl() ?? requestOrigin).replace(/\/$/, '')}${SSO_CALLBACK_PATH}`;

/** What the browser keeps between the redirect to the provider and its return (sealed: it cannot be read or altered). */
interface Pending {
  organizationId: string;
  state: string;
  nonce: string;
  verifier: string;
  redirectUri: string;
  expiresAt: number;
}

/**
 * Start signing in with single sign-on: the workspace whose allowed domains hold the address's domain, and the
 * provider's address to send the browser to (PKCE, state and nonce in it), with what the browser keeps meanwhile.
 */
export async function startSso(ctx: SsoContext, rawEmail: string, requestOrigin: string): Promise<{ url: string; pending: string; expiresAt: Date }> {
  const email = teamEmail(rawEmail);
  const redirectUri = ssoCallbackUrl(ctx, requestOrigin);
  const row = (await workspaceSso.all(ctx.db)).find((r) => r.allowedDomains.includes(domainOf(email)));
  if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No workspace signs in with single sign-on for ${domainOf(email)}: use the emailed code.`);
  const config = await configFor(ctx, row);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: 'openid email profile',
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: email,
  });
  const expiresAt = new Date(ctx.clock().getTime() + SSO_PENDING_SECONDS * 1000);
  const pending: Pending = { organizationId: row.organizationId, state, nonce, verifier, redirectUri, expiresAt: expiresAt.getTime() };
  return { url: url.href, pending: ctx.secrets.seal(JSON.stringify(pending), sealedAt.ssoPending()), expiresAt };
}

const refused = (why: string) => new FeedbackError('ERR_VALIDATION', why);

/**
 * Finish signing in: the provider's answer (`callbackUrl`, with its code and state) checked against what the browser
 * kept (state, then the code exchanged with the PKCE verifier, the ID token's signature, issuer, audience and nonce by
 * openid-client); then the address the provider vouches for must be verified, in an allowed domain, and on the
 * workspace's team. A new session, as a mailed code would give.
 */
export async function finishSso(ctx: SsoContext, sealedPending: string | undefined, callbackUrl: URL): Promise<TeamSession> {
  let pending: Pending;
  try {
    pending = JSON.parse(ctx.secrets.open(sealedPending ?? '', sealedAt.ssoPending())) as Pending;
  } catch {
    throw refused('This single sign-on has no sign-in started in this browser; start again.');
  }
  if (!sealedPending?.startsWith('fs1:') || pending.expiresAt <= ctx.clock().getTime()) throw refused('This single sign-on took too long; start again.');
  const row = await workspaceSso.find(ctx.db, pending.organizationId);
  if (!row) throw refused('Single sign-on is no longer set up for this workspace.');
  const config = await configFor(ctx, row);
  let claims: Record<string, unknown> | undefined;
  try {
    const checks = { pkceCodeVerifier: pending.verifier, expectedState: pending.state, expectedNonce: pending.nonce, idTokenExpected: true };
    // The redirect_uri the browser was sent with (a proxy may have changed the address this request came to).
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, checks, { redirect_uri: pending.redirectUri });
    const idToken = tokens.claims()!;
    // Providers that keep claims out of the ID token (as the OpenID Connect core profile allows) give them at userinfo.
    claims = typeof idToken.email === 'string' ? idToken : await oidc.fetchUserInfo(config, tokens.access_token, idToken.sub);
  } catch (err) {
    throw refused(`The sign-in provider's answer was refused: ${(err as Error).message}`);
  }
  const email = typeof claims?.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email) throw refused('The sign-in provider did not give an email address (ask for the email scope).');
  if (claims?.email_verified === false) throw refused(`The sign-in provider has not verified ${email}.`);
  if (!row.allowedDomains.includes(domainOf(email))) throw refused(`${email} is not in a domain this workspace signs in with.`);
  if (!(await teamMembers.find(ctx.db, row.organizationId, email))) throw refused(`${email} is not on this workspace’s team: ask an owner to invite you.`);
  await teamMembers.markJoined(ctx.db, email, ctx.clock());
  return startSession(ctx, email, 'sso');
}
