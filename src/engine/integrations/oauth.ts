// Connecting by OAuth: Linear's authorization code flow and Slack's OAuth v2 ("Add to Slack"). The console sends the
// person to the service and back; the code is traded for a token in that request (a code lives for minutes: it cannot
// wait in the outbox).
import { FeedbackError } from '../shared/index.js';
import type { ConnectInput, IntegrationsParts } from './context.js';
import { CallFailure } from './http.js';

/** The scopes asked for: Linear's to read and write issues and comments; Slack's bot scopes (docs/integrations.md). */
export const LINEAR_SCOPES = 'read,write';
export const SLACK_SCOPES = 'chat:write,commands,users:read,users:read.email,channels:history,groups:history';

const unavailable = (service: string) =>
  new FeedbackError('ERR_VALIDATION', `This server has no ${service} OAuth app; paste a key instead.`);

/** Where to send the person to allow the connection, or an error when the server has no app for the service. */
export function authorizeUrl(
  parts: IntegrationsParts,
  service: 'linear' | 'slack',
  redirectUri: string,
  state: string,
): string {
  const app = service === 'linear' ? parts.config.linear.oauth : parts.config.slack.oauth;
  if (!app) throw unavailable(service === 'linear' ? 'Linear' : 'Slack');
  const url = new URL(app.authorizeUrl);
  url.searchParams.set('client_id', app.clientId);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('state', state);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('scope', service === 'linear' ? LINEAR_SCOPES : SLACK_SCOPES);
  return url.href;
}

async function formPost(
  parts: IntegrationsParts,
  url: string,
  form: Record<string, string>,
): Promise<Record<string, unknown>> {
  const response = await parts.http.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
    body: new URLSearchParams(form).toString(),
  });
  const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) throw new FeedbackError('ERR_VALIDATION', `The service refused the code (${response.status}).`);
  return body;
}

/** Trade the code the service sent back for what `connect` takes. */
export async function exchangeCode(
  parts: IntegrationsParts,
  service: 'linear' | 'slack',
  code: string,
  redirectUri: string,
): Promise<ConnectInput> {
  if (service === 'linear') {
    const app = parts.config.linear.oauth;
    if (!app) throw unavailable('Linear');
    const token = await formPost(parts, app.tokenUrl, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
    if (typeof token.access_token !== 'string') throw new FeedbackError('ERR_VALIDATION', 'Linear sent no token.');
    return {
      service: 'linear',
      accessToken: token.access_token,
      ...(typeof token.refresh_token === 'string' ? { refreshToken: token.refresh_token } : {}),
    };
  }
  const app = parts.config.slack.oauth;
  if (!app) throw unavailable('Slack');
  const answer = await formPost(parts, `${parts.config.slack.apiUrl}/oauth.v2.access`, {
    code,
    redirect_uri: redirectUri,
    client_id: app.clientId,
    client_secret: app.clientSecret,
  });
  if (answer.ok !== true || typeof answer.access_token !== 'string')
    throw new FeedbackError('ERR_VALIDATION', `Slack refused the code (${String(answer.error ?? 'no token')}).`);
  const hook = answer.incoming_webhook as { channel_id?: string } | undefined;
  return {
    service: 'slack',
    botToken: answer.access_token,
    signingSecret: app.signingSecret,
    ...(hook?.channel_id ? { channel: hook.channel_id } : {}),
  };
}

/**
 * A Linear OAuth access token ended (Linear's tokens last a day, with a refresh token that is good once): the next pair,
 * from the refresh token. A refused refresh leaves the connection failing until the team connects again.
 */
export async function refreshLinearToken(
  parts: IntegrationsParts,
  refreshToken: string,
): Promise<{ accessToken: string; refreshToken: string }> {
  const app = parts.config.linear.oauth;
  if (!app)
    throw new CallFailure(
      'Linear: the OAuth token ended, and this server has no Linear OAuth app to renew it',
      true,
      null,
      true,
    );
  let answer: Record<string, unknown>;
  try {
    answer = await formPost(parts, app.tokenUrl, {
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: app.clientId,
      client_secret: app.clientSecret,
    });
  } catch (err) {
    throw new CallFailure(
      `Linear: the OAuth token could not be renewed (${(err as Error).message}); connect again`,
      true,
      null,
      true,
    );
  }
  if (typeof answer.access_token !== 'string')
    throw new CallFailure('Linear: no token came back from the renewal', true, null, true);
  return {
    accessToken: answer.access_token,
    refreshToken: typeof answer.refresh_token === 'string' ? answer.refresh_token : refreshToken,
  };
}

/** How long a person has to come back from the service: ten minutes. */
const STATE_MS = 10 * 60_000;
const STATE_CONTEXT = 'integration-oauth-state';

/**
 * The `state` an OAuth round trip carries: the workspace, the service and the person who started it, sealed, for ten
 * minutes. The way back takes it only from the same person, so a code someone else obtained cannot be made to connect
 * their account to this workspace.
 */
export function sealState(
  parts: IntegrationsParts,
  now: Date,
  s: { organizationId: string; service: string; email: string },
) {
  return parts.secrets.seal(JSON.stringify({ ...s, until: now.getTime() + STATE_MS }), STATE_CONTEXT);
}

export function openState(
  parts: IntegrationsParts,
  now: Date,
  state: string,
): { organizationId: string; service: 'linear' | 'slack'; email: string } | null {
  try {
    const s = JSON.parse(parts.secrets.open(state, STATE_CONTEXT)) as {
      organizationId: string;
      service: 'linear' | 'slack';
      email: string;
      until: number;
    };
    return s.until > now.getTime() && (s.service === 'linear' || s.service === 'slack') ? s : null;
  } catch {
    return null;
  }
}
