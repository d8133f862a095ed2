// What the team does with integrations from the console: connect (owners and admins), choose the mappings and the
// channel's events, and from a post create or link an issue (anyone who triages). Each is audited in its transaction;
// every call to the service is a job of the outbox, made after the commit by the scheduler's integration lane.
import {
  INTEGRATION_SERVICES,
  type IntegrationAuth,
  type IntegrationService,
  ISSUE_STATES,
  SLACK_NOTICES,
} from '../../schemas/integrations.js';
import { POST_STATUSES } from '../../schemas/posts.js';
import { type Actor, actAs, auditOf } from '../members/index.js';
import { newId } from '../shared/index.js';
import { integrations, type Sql } from '../store/index.js';
import {
  type ConnectInput,
  type Credentials,
  type IntegrationsContext,
  invalid,
  sealCredentials,
  trimmed,
} from './context.js';
import { requestIssue, requestLink, unlink } from './issue-actions.js';
import { enqueue } from './runner.js';
import { disconnect, requireIntegration } from './service.js';

/** The way in a connect input names, its credentials and its settings; a missing or malformed field is refused. */
function credentialsOf(ctx: IntegrationsContext, input: ConnectInput) {
  const fields = Object.fromEntries(Object.entries(input).map(([k, v]) => [k, trimmed(v)])) as Record<string, string>;
  const keep = (...names: (keyof Credentials)[]): Credentials =>
    Object.fromEntries(names.filter((n) => fields[n]).map((n) => [n, fields[n]]));
  if (input.service === 'linear') {
    if (!fields.apiKey && !fields.accessToken) throw invalid('Paste a Linear API key, or connect with Linear.');
    const auth: IntegrationAuth = fields.accessToken ? 'oauth' : 'api_key';
    return { auth, credentials: keep('apiKey', 'accessToken', 'refreshToken', 'webhookSecret'), settings: {} };
  }
  if (input.service === 'github') {
    const app = fields.appId || fields.privateKey || fields.installationId;
    if (!fields.token && !app) throw invalid('Paste a fine-grained token, or a GitHub App’s id, key and installation.');
    if (
      app &&
      !(fields.appId && fields.privateKey?.includes('PRIVATE KEY') && /^\d+$/.test(fields.installationId ?? ''))
    )
      throw invalid('A GitHub App needs its app id, its private key (PEM) and the installation’s number.');
    let apiUrl: string | undefined;
    if (fields.apiUrl) {
      const url = URL.canParse(fields.apiUrl) ? new URL(fields.apiUrl) : null;
      if (url?.protocol !== 'https:') throw invalid('The GitHub Enterprise API address must be an https URL.');
      apiUrl = url.href.replace(/\/+$/, '');
    }
    const credentials = fields.token
      ? keep('token', 'webhookSecret')
      : keep('appId', 'privateKey', 'installationId', 'webhookSecret');
    return {
      auth: (fields.token ? 'token' : 'app') as IntegrationAuth,
      credentials,
      settings: apiUrl ? { apiUrl } : {},
    };
  }
  if (fields.webhookUrl) {
    if (!fields.webhookUrl.startsWith(ctx.integrations.config.slack.hooksUrl))
      throw invalid(`An incoming-webhook URL starts with ${ctx.integrations.config.slack.hooksUrl}.`);
    return { auth: 'incoming_webhook' as IntegrationAuth, credentials: keep('webhookUrl'), settings: {} };
  }
  if (!fields.botToken?.startsWith('xoxb-')) throw invalid('Paste the bot token (xoxb-…) or an incoming-webhook URL.');
  return {
    auth: 'bot' as IntegrationAuth,
    credentials: keep('botToken', 'signingSecret'),
    settings: fields.channel ? { channel: fields.channel } : {},
  };
}

/** Settings the team may change, checked against the service. */
function checkedSettings(service: IntegrationService, change: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (change.statusMap !== undefined) {
    if (service === 'slack') throw invalid('Slack has no status mapping.');
    const states = ISSUE_STATES[service];
    const map = change.statusMap as Record<string, unknown>;
    for (const [state, status] of Object.entries(map ?? {})) {
      if (!states.includes(state)) throw invalid(`${state} is not a state of ${service}.`);
      if (status !== null && status !== '' && !(POST_STATUSES as readonly unknown[]).includes(status))
        throw invalid(`${String(status)} is not a post status.`);
    }
    out.statusMap = Object.fromEntries(Object.entries(map ?? {}).filter(([, s]) => s));
  }
  if (change.replyComments !== undefined) out.replyComments = change.replyComments === true;
  if (change.channel !== undefined) out.channel = trimmed(change.channel) || undefined;
  if (change.notices !== undefined) {
    const notices = change.notices as unknown[];
    if (!Array.isArray(notices) || notices.some((n) => !(SLACK_NOTICES as readonly unknown[]).includes(n)))
      throw invalid('Choose notices among new posts, new comments, status changes and paying voters.');
    out.notices = [...new Set(notices)];
  }
  if (change.minimumMrr !== undefined) {
    const n = change.minimumMrr === null || change.minimumMrr === '' ? null : Number(change.minimumMrr);
    if (n !== null && (!Number.isFinite(n) || n < 0)) throw invalid('The revenue must be a number, 0 or more.');
    out.minimumMrr = n;
  }
  if (change.currency !== undefined) {
    const c = trimmed(change.currency).toUpperCase();
    if (!/^[A-Z]{3}$/.test(c)) throw invalid('The currency is a three-letter code (USD, EUR).');
    out.currency = c;
  }
  return out;
}

const notifyEventsOf = (service: IntegrationService, settings: Record<string, unknown>) =>
  service === 'slack' && Array.isArray(settings.notices) && settings.notices.length
    ? `,${(settings.notices as string[]).join(',')},`
    : '';

/** A workspace's integrations, as one team member (or the command line). */
export function createIntegrationActions(ctx: IntegrationsContext, actor: Actor) {
  const audit = auditOf('integration');
  const asTeam = <T>(
    permission: 'manage' | 'triage',
    run: (tx: Sql, now: Date) => Promise<{ result: T; audit: ReturnType<typeof audit> | null }>,
  ) => actAs(ctx, actor, permission, (_inner, tx) => run(tx, ctx.clock()));
  return {
    connect: (input: ConnectInput) =>
      asTeam('manage', async (tx, now) => {
        if (!INTEGRATION_SERVICES.includes(input.service)) throw invalid('Choose Linear, GitHub or Slack.');
        const { auth, credentials, settings } = credentialsOf(ctx, input);
        const had = await integrations.find(tx, ctx.organizationId, { service: input.service }, true);
        const id = had?.id ?? newId('int', now.getTime());
        const kept = { ...(had?.settings ?? {}), ...settings };
        await integrations.save(
          tx,
          {
            id,
            organizationId: ctx.organizationId,
            service: input.service,
            auth,
            account: null,
            credentials: sealCredentials(ctx.integrations.secrets, id, credentials),
            settings: kept,
            notifyEvents: notifyEventsOf(input.service, kept),
            now,
          },
          had !== undefined,
        );
        await enqueue(tx, now, {
          organizationId: ctx.organizationId,
          integrationId: id,
          kind: `${input.service}.verify`,
          payload: {},
        });
        return { result: { id }, audit: audit('integration.connected', id, { service: input.service, auth }) };
      }),
    disconnect: (id: string) =>
      asTeam('manage', async (tx) => {
        const row = await requireIntegration(tx, ctx.organizationId, { id });
        return {
          result: await disconnect(tx, ctx.organizationId, id),
          audit: audit('integration.disconnected', id, { service: row.service }),
        };
      }),
    updateSettings: (id: string, change: Record<string, unknown>) =>
      asTeam('manage', async (tx, now) => {
        const row = await requireIntegration(tx, ctx.organizationId, { id });
        const settings = { ...row.settings, ...checkedSettings(row.service, change) };
        await integrations.updateSettings(tx, id, settings, notifyEventsOf(row.service, settings), now);
        return { result: settings, audit: audit('integration.updated', id, { fields: Object.keys(change) }) };
      }),
    /** Ask Linear (a team's id) or GitHub (`owner/repo`) for an issue made from the post. */
    createIssue: (postId: string, service: 'linear' | 'github', target: string, title?: string) =>
      asTeam('triage', (tx, now) => requestIssue(ctx, tx, now, { postId, service, target, title })),
    /** Link an issue that exists, by its URL or its identifier (`ENG-123`, `owner/repo#12`). */
    linkIssue: (postId: string, service: 'linear' | 'github', reference: string) =>
      asTeam('triage', (tx, now) => requestLink(ctx, tx, now, { postId, service, reference })),
    unlink: (linkId: string) => asTeam('triage', (tx) => unlink(ctx, tx, linkId)),
  };
}
export type IntegrationActions = ReturnType<typeof createIntegrationActions>;
