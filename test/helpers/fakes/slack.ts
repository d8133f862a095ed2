// A local stand-in for Slack's Web API and incoming webhooks, written from Slack's public documentation: POST
// /api/<method> with `Authorization: Bearer xoxb-…` and a form or JSON body, answers `{ ok: true, … }` or `{ ok: false,
// error }` (200), a rate limit as 429 with `Retry-After` (seconds); an incoming webhook answers `ok`, or `no_service`
// (404) for a URL it does not know. Messages keep their metadata, which `conversations.history` returns with
// `include_all_metadata`.
import { createHmac } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type ReceivedRequest, type Receiver, startReceiver } from '../receiver.js';

export const SLACK_BOT_TOKEN = 'xoxb-1-test-bot-token';
export const SLACK_CHANNEL = 'C0FEEDBACK';
export const SLACK_HOOK_PATH = '/services/T0001/B0001/abcdefghijklmnop';

export interface FakeSlackMessage {
  channel: string;
  ts: string;
  text: string;
  blocks: unknown[];
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
}

export interface FakeSlack {
  readonly receiver: Receiver;
  readonly apiUrl: string;
  readonly hooksUrl: string;
  readonly messages: FakeSlackMessage[];
  /** What incoming webhooks received. */
  readonly hooked: Array<{ text: string; blocks: unknown[] }>;
  readonly calls: Array<{ method: string; headers: ReceivedRequest['headers']; args: Record<string, unknown> }>;
  /** Views opened, with the trigger they used. */
  readonly views: Array<{ trigger_id: string; view: Record<string, unknown> }>;
  /** A Slack user the fake knows. */
  user(id: string, email: string, name: string): void;
  rateLimit(n: number): void;
  /** Where a message's `ts` (seconds since the epoch) comes from: the engine's clock in a test that moves it. */
  clock(now: () => number): void;
  onPost(hook: ((res: ServerResponse) => boolean | undefined) | null): void;
  close(): Promise<void>;
}

export async function startFakeSlack(): Promise<FakeSlack> {
  const messages: FakeSlackMessage[] = [];
  const hooked: FakeSlack['hooked'] = [];
  const calls: FakeSlack['calls'] = [];
  const views: FakeSlack['views'] = [];
  const users = new Map<string, { email: string; name: string }>();
  let limited = 0;
  let hook: ((res: ServerResponse) => boolean | undefined) | null = null;
  let seq = 0;
  let now = () => Date.now();
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const json = (v: unknown) => (typeof v === 'string' ? (JSON.parse(v) as unknown) : v);
  const receiver = await startReceiver((req, res) => {
    const url = new URL(req.path, 'http://x');
    if (url.pathname.startsWith('/services/')) {
      if (url.pathname !== SLACK_HOOK_PATH) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('no_service');
        return;
      }
      const body = JSON.parse(req.body) as { text: string; blocks: unknown[] };
      hooked.push(body);
      if (hook?.(res)) return;
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    const method = url.pathname.replace(/^\/api\//, '');
    const form = String(req.headers['content-type']).includes('json')
      ? (JSON.parse(req.body) as Record<string, unknown>)
      : Object.fromEntries(new URLSearchParams(req.body));
    calls.push({ method, headers: req.headers, args: form });
    if (limited > 0) {
      limited--;
      return send(res, 429, { ok: false, error: 'ratelimited' }, { 'retry-after': '7' });
    }
    if (method === 'oauth.v2.access') {
      if (form.code !== 'slack-code') return send(res, 200, { ok: false, error: 'invalid_code' });
      return send(res, 200, {
        ok: true,
        access_token: SLACK_BOT_TOKEN,
        token_type: 'bot',
        team: { id: 'T0001', name: 'Acme HQ' },
        incoming_webhook: { channel_id: SLACK_CHANNEL, url: `${receiver.origin}${SLACK_HOOK_PATH}` },
      });
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? form.token;
    if (token !== SLACK_BOT_TOKEN) return send(res, 200, { ok: false, error: 'invalid_auth' });
    switch (method) {
      case 'auth.test':
        return send(res, 200, { ok: true, team: 'Acme HQ', team_id: 'T0001', user_id: 'U0BOT', bot_id: 'B0BOT' });
      case 'chat.postMessage': {
        if (form.channel !== SLACK_CHANNEL) return send(res, 200, { ok: false, error: 'channel_not_found' });
        const message: FakeSlackMessage = {
          channel: String(form.channel),
          ts: `${Math.floor(now() / 1000)}.${String(++seq).padStart(6, '0')}`,
          text: String(form.text ?? ''),
          blocks: (json(form.blocks) as unknown[]) ?? [],
          ...(form.metadata ? { metadata: json(form.metadata) as FakeSlackMessage['metadata'] } : {}),
        };
        messages.push(message);
        if (hook?.(res)) return;
        return send(res, 200, { ok: true, channel: message.channel, ts: message.ts, message });
      }
      case 'conversations.history': {
        const oldest = Number(form.oldest ?? 0);
        const found = messages
          .filter((m) => m.channel === form.channel && Number(m.ts) >= oldest)
          .map(({ metadata, ...m }) =>
            form.include_all_metadata === 'true' || form.include_all_metadata === true ? { ...m, metadata } : m,
          );
        return send(res, 200, { ok: true, messages: found.reverse(), has_more: false });
      }
      case 'views.open': {
        if (!String(form.trigger_id ?? '').startsWith('trig-'))
          return send(res, 200, { ok: false, error: 'invalid_trigger_id' });
        views.push({ trigger_id: String(form.trigger_id), view: json(form.view) as Record<string, unknown> });
        return send(res, 200, { ok: true, view: { id: `V${views.length}` } });
      }
      case 'users.info': {
        const user = users.get(String(form.user));
        if (!user) return send(res, 200, { ok: false, error: 'user_not_found' });
        return send(res, 200, {
          ok: true,
          user: { id: form.user, profile: { email: user.email, real_name: user.name } },
        });
      }
      case 'chat.getPermalink':
        return send(res, 200, {
          ok: true,
          permalink: `https://acme.slack.com/archives/${form.channel}/p${String(form.message_ts).replace('.', '')}`,
        });
      default:
        return send(res, 200, { ok: false, error: 'unknown_method' });
    }
  });
  return {
    receiver,
    apiUrl: `${receiver.origin}/api`,
    hooksUrl: `${receiver.origin}/services/`,
    messages,
    hooked,
    calls,
    views,
    user: (id, email, name) => void users.set(id, { email, name }),
    rateLimit: (n) => void (limited = n),
    clock: (c) => void (now = c),
    onPost: (h) => void (hook = h),
    close: () => receiver.close(),
  };
}

/** A Slack request as Slack signs it: `v0=` and the hex HMAC-SHA256 of `v0:<timestamp>:<body>`, the timestamp in seconds. */
export function slackRequest(
  secret: string,
  body: string,
  at = Date.now(),
  contentType = 'application/x-www-form-urlencoded',
) {
  const timestamp = String(Math.floor(at / 1000));
  return {
    body,
    headers: {
      'content-type': contentType,
      'x-slack-request-timestamp': timestamp,
      'x-slack-signature': `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`,
    },
  };
}

/** An interaction payload as Slack posts it: a form with one `payload` field of JSON. */
export const interaction = (payload: Record<string, unknown>) =>
  new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
