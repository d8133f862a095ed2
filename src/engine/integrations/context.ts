import type { IntegrationService } from '../../schemas/integrations.js';
import type { Actor } from '../members/index.js';
import { type SecretBox, sealedAt } from '../secrets/index.js';
import { FeedbackError } from '../shared/index.js';
import type { integrations, WorkspaceContext } from '../store/index.js';
import type { IntegrationHttp } from './http.js';
import type { IntegrationsConfig } from './options.js';

/** What the integrations run with: the server's configuration, the one HTTP transport, the sealing key, the address. */
export interface IntegrationsParts {
  config: IntegrationsConfig;
  http: IntegrationHttp;
  secrets: SecretBox;
  /** This server's public address: the inbound URL a team pastes into Linear, GitHub or Slack starts with it. */
  publicUrl: () => string | undefined;
}

export type IntegrationsContext = WorkspaceContext & { integrations: IntegrationsParts };

/**
 * A connection's secrets, one sealed JSON object: what it signs in with (Linear's `apiKey` or OAuth `accessToken`;
 * GitHub's `token`, or a GitHub App's `appId`, `privateKey` and `installationId`; Slack's `botToken` or `webhookUrl`)
 * and what the service signs its webhooks with (`webhookSecret`; Slack's `signingSecret`).
 */
export type Credentials = Partial<
  Record<
    | 'apiKey'
    | 'accessToken'
    | 'refreshToken'
    | 'token'
    | 'appId'
    | 'privateKey'
    | 'installationId'
    | 'botToken'
    | 'webhookUrl'
    | 'webhookSecret'
    | 'signingSecret',
    string
  >
>;

export const sealCredentials = (secrets: SecretBox, integrationId: string, credentials: Credentials): string =>
  secrets.seal(JSON.stringify(credentials), sealedAt.integrationCredentials(integrationId));

export const openCredentials = (secrets: SecretBox, row: integrations.StoredIntegration): Credentials =>
  JSON.parse(secrets.open(row.credentials, sealedAt.integrationCredentials(row.id))) as Credentials;

/** What the team gives to connect a service (the fields of its way in). */
export type ConnectInput =
  | { service: 'linear'; apiKey?: string; accessToken?: string; refreshToken?: string; webhookSecret?: string }
  | {
      service: 'github';
      token?: string;
      appId?: string;
      privateKey?: string;
      installationId?: string;
      webhookSecret?: string;
      /** A GitHub Enterprise Server's API address (`https://github.example.com/api/v3`). */
      apiUrl?: string;
    }
  | { service: 'slack'; botToken?: string; signingSecret?: string; channel?: string; webhookUrl?: string };

/** A field of the team's input refused: 422 with why. */
export const invalid = (message: string) => new FeedbackError('ERR_VALIDATION', message);
/** A field of the team's input, trimmed ('' for anything not a string). */
export const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : '');

/** The inbound URL of a connection: where its service sends webhooks (and Slack its interactions). */
export const inboundPath = (integrationId: string) => `/integrations/${integrationId}/webhook`;
export function inboundUrl(parts: IntegrationsParts, integrationId: string): string {
  return `${(parts.publicUrl() ?? '').replace(/\/+$/, '')}${inboundPath(integrationId)}`;
}

/** An integration as the actor of what it changes: its changes are audited as `integration:<service>`. */
export function integrationActor(service: IntegrationService, name?: string | null): Actor {
  const label = { linear: 'Linear', github: 'GitHub', slack: 'Slack' }[service];
  return { email: `integration:${service}`, vouched: { role: 'admin', name: name ?? label } };
}
