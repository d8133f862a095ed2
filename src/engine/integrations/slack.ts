// Slack: the Web API through `@slack/web-api`'s client (our transport, its own retries off: the lane retries), or an
// incoming webhook; messages as Block Kit.
import { LogLevel, WebClient } from '@slack/web-api';
import type { SlackNotice } from '../../schemas/integrations.js';
import type { Credentials, IntegrationsParts } from './context.js';
import { CallFailure, innerFailure, retryAfterOf } from './http.js';

/** A Slack error as the lane sees it: rate limits and outages are tried again, a refused request is not. */
export function slackFailure(err: unknown): CallFailure {
  const inner = innerFailure(err);
  if (inner) return inner;
  const e = err as {
    code?: string;
    message?: string;
    retryAfter?: number;
    data?: { error?: string };
    statusCode?: number;
  };
  if (e.code === 'slack_webapi_rate_limited_error')
    return new CallFailure('Slack: rate limited', true, (e.retryAfter ?? 1) * 1000);
  if (e.code === 'slack_webapi_platform_error') {
    const code = e.data?.error ?? 'error';
    const credentials = ['invalid_auth', 'not_authed', 'account_inactive', 'token_revoked', 'token_expired'].includes(
      code,
    );
    return new CallFailure(
      `Slack: ${code}`,
      credentials || code === 'internal_error' || code === 'fatal_error',
      null,
      credentials,
    );
  }
  if (e.code === 'slack_webapi_http_error')
    return new CallFailure(`Slack: HTTP ${e.statusCode ?? ''}`.trim(), (e.statusCode ?? 500) >= 500);
  return new CallFailure(`Slack: ${e.message ?? String(err)}`, true);
}

/** A Slack connection's choices: its channel (a bot's), the events it posts, the revenue a voter's company must reach. */
export interface SlackSettings {
  channel?: string;
  notices?: SlackNotice[];
  /** "A company paying at least X voted": X in `currency`'s major unit (monthly revenue). */
  minimumMrr?: number | null;
  currency?: string;
}

/** What a notice's message carries: its text (the notification's fallback) and its blocks. */
export interface SlackMessage {
  text: string;
  blocks: unknown[];
}

/** The event type our messages carry in their metadata, with the job's id: how a repeated call finds its message. */
export const NOTICE_METADATA = 'feedback_service_notice';

/** Slack as one connection sees it. */
export function slackApi(parts: IntegrationsParts, credentials: Credentials) {
  const web = new WebClient(credentials.botToken, {
    slackApiUrl: `${parts.config.slack.apiUrl}/`,
    fetch: parts.http.fetch as never,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    timeout: parts.config.timeoutMs,
    // The lane records every failure on the job and the connection; the client's own warnings would repeat them.
    logLevel: LogLevel.ERROR,
  });
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      throw slackFailure(err);
    }
  };
  return {
    authTest: () => call(() => web.auth.test()),
    post: (channel: string, message: SlackMessage, jobId: string) =>
      call(() =>
        web.chat.postMessage({
          channel,
          text: message.text,
          blocks: message.blocks as never,
          unfurl_links: false,
          metadata: { event_type: NOTICE_METADATA, event_payload: { job: jobId } },
        }),
      ),
    /** Whether the channel holds our message for `jobId`, posted since `since`. */
    async posted(channel: string, jobId: string, since: Date): Promise<boolean> {
      const history = await call(() =>
        web.conversations.history({
          channel,
          oldest: String(Math.floor(since.getTime() / 1000)),
          include_all_metadata: true,
          limit: 200,
        }),
      );
      return (history.messages ?? []).some(
        (m) =>
          (m as { metadata?: { event_type?: string; event_payload?: { job?: string } } }).metadata?.event_payload
            ?.job === jobId,
      );
    },
    openView: (triggerId: string, view: unknown) =>
      call(() => web.views.open({ trigger_id: triggerId, view: view as never })),
    userEmail: async (user: string) =>
      (await call(() => web.users.info({ user }))).user as
        | { profile?: { email?: string; real_name?: string } }
        | undefined,
    permalink: async (channel: string, ts: string) =>
      (await call(() => web.chat.getPermalink({ channel, message_ts: ts }))).permalink ?? null,
  };
}

/** Post to an incoming webhook: Slack answers 200 `ok`, or an error in words. */
export async function postToIncomingWebhook(
  parts: IntegrationsParts,
  url: string,
  message: SlackMessage,
): Promise<void> {
  let response: Response;
  try {
    response = await parts.http.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(message),
    });
  } catch (err) {
    const inner = innerFailure(err);
    if (inner) throw inner;
    // An incoming webhook cannot be asked what it received: only a call that surely never reached Slack is made again.
    const code = (err as { cause?: { code?: string } }).cause?.code ?? '';
    const unsent = ['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ENETUNREACH', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'];
    if (unsent.includes(code)) throw new CallFailure(`Slack: ${code}`, true);
    throw new CallFailure(
      `Slack: no answer (${code || (err as Error).message}); not sent again, since an incoming webhook cannot be asked whether it arrived`,
      false,
    );
  }
  const text = (await response.text()).slice(0, 200);
  if (response.ok) return;
  if (response.status === 429)
    throw new CallFailure('Slack: rate limited', true, retryAfterOf(response.headers, new Date()));
  const gone =
    response.status === 404 || response.status === 410 || text === 'no_service' || text === 'channel_is_archived';
  throw new CallFailure(`Slack: ${response.status} ${text}`.trim(), response.status >= 500, null, gone);
}
