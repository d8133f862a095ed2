// The integrations concept's door: Linear, GitHub and Slack connections (docs/integrations.md). Every outbound call is
// a job of the integrations' outbox, done by the scheduler's integration lane through the runner; every inbound
// webhook is verified by its service's scheme, then a job.
import type { IntegrationRunner } from '../delivery/index.js';
import { CONSOLE_PATH } from '../members/index.js';
import type { Database } from '../store/index.js';
import type { IntegrationsParts } from './context.js';
import { GITHUB_JOBS } from './github-jobs.js';
import { receive } from './inbound.js';
import { LINEAR_JOBS } from './linear-jobs.js';
import { authorizeUrl, exchangeCode, openState, sealState } from './oauth.js';
import { createRunner } from './runner.js';
import { SLACK_JOBS } from './slack-jobs.js';

export { createIntegrationActions, type IntegrationActions } from './actions.js';
export { type ConnectInput, type IntegrationsContext, type IntegrationsParts, inboundPath } from './context.js';
export { createIntegrationHttp, type IntegrationHttp } from './http.js';
export { type InboundAnswer, LINEAR_WINDOW_MS, SLACK_WINDOW_MS } from './inbound.js';
export { LINEAR_SCOPES, SLACK_SCOPES } from './oauth.js';
export { type IntegrationsConfig, type IntegrationsOptions, integrationsConfig } from './options.js';
export {
  createIntegrationsService,
  INTEGRATION_OPERATIONS,
  type IntegrationsService,
  type IntegrationView,
} from './service.js';
export { SLACK_SHORTCUT } from './slack-jobs.js';

/** The integrations across workspaces: the lane's runner, the inbound endpoint, the OAuth hand-offs. */
export function createIntegrations(db: Database, clock: () => Date, parts: IntegrationsParts) {
  return {
    config: parts.config,
    runner: createRunner(db, clock, parts, { ...LINEAR_JOBS, ...GITHUB_JOBS, ...SLACK_JOBS }) as IntegrationRunner,
    /** An inbound webhook to `/integrations/<id>/webhook`: verified, then one job per delivery. */
    receive: (integrationId: string, headers: Headers, raw: Buffer) =>
      receive(db, clock, parts, integrationId, headers, raw),
    /** The OAuth redirect URI of a service (what its OAuth app is set up with): under this server's public address. */
    callbackUrl: (service: 'linear' | 'slack', requestOrigin: string) =>
      `${(parts.publicUrl() ?? requestOrigin).replace(/\/+$/, '')}${CONSOLE_PATH}/integrations/${service}/callback`,
    /** Where to send a person to connect by OAuth (Linear; Slack's "Add to Slack"). */
    authorizeUrl: (service: 'linear' | 'slack', redirectUri: string, state: string) =>
      authorizeUrl(parts, service, redirectUri, state),
    /** Trade the code the service sent back for what `connect` takes. */
    exchangeCode: (service: 'linear' | 'slack', code: string, redirectUri: string) =>
      exchangeCode(parts, service, code, redirectUri),
    /** The sealed `state` of an OAuth round trip started by `email` for the workspace (ten minutes). */
    oauthState: (s: { organizationId: string; service: 'linear' | 'slack'; email: string }) =>
      sealState(parts, clock(), s),
    /** What a `state` came back with, or null (not ours, tampered with, or older than ten minutes). */
    readOauthState: (state: string) => openState(parts, clock(), state),
    close: () => parts.http.close(),
  };
}
export type Integrations = ReturnType<typeof createIntegrations>;
