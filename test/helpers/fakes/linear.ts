// A local stand-in for Linear's GraphQL API, written from Linear's public documentation: one endpoint (POST /graphql),
// `Authorization: <API key>` or `Bearer <OAuth token>`, answers `{ data }` or `{ errors: [{ message, extensions: { type,
// code, userPresentableMessage } }] }`, and a spent rate limit as Linear answers it (RATELIMITED with the reset time
// in `X-RateLimit-Requests-Reset`, epoch milliseconds). It keeps the issues it made; `issueCreate` takes a client-chosen
// `id` and refuses a second issue with the same one. Also the OAuth token endpoint (POST /oauth/token).
import { createHmac, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type ReceivedRequest, type Receiver, startReceiver } from '../receiver.js';

export interface FakeLinearIssue {
  id: string;
  identifier: string;
  url: string;
  title: string;
  description: string;
  teamId: string;
  state: { name: string; type: string };
}

export interface FakeLinear {
  readonly receiver: Receiver;
  /** `http://127.0.0.1:<port>/graphql` */
  readonly apiUrl: string;
  readonly tokenUrl: string;
  readonly issues: Map<string, FakeLinearIssue>;
  /** The GraphQL requests received, parsed. */
  readonly calls: Array<{ headers: ReceivedRequest['headers']; query: string; variables: Record<string, unknown> }>;
  /** Where the fake's time comes from (its rate limit's reset): the engine's clock in a test that moves it. */
  clock(now: () => number): void;
  /** Answer the next `n` requests as rate-limited. */
  rateLimit(n: number): void;
  /** End the OAuth access token in force (as its expiry does): calls with it are refused until it is refreshed. */
  expireToken(): void;
  /** Run before an `issueCreate` is answered (after the issue is made): a test may kill its caller there. */
  onCreate(hook: ((issue: FakeLinearIssue, res: ServerResponse) => boolean | undefined) | null): void;
  /** An issue made in Linear directly (to link). */
  addIssue(identifier: string, title: string, state?: { name: string; type: string }): FakeLinearIssue;
  close(): Promise<void>;
}

export const LINEAR_API_KEY = 'lin_api_test_key_1234567890';
export const LINEAR_OAUTH_TOKEN = 'lin_oauth_test_token';
export const LINEAR_TEAM = { id: 'team-uuid-1', key: 'ENG', name: 'Engineering' };

const error = (type: string, code: string, message: string) => ({
  errors: [{ message, extensions: { type, code, userPresentableMessage: message } }],
});

export async function startFakeLinear(): Promise<FakeLinear> {
  const issues = new Map<string, FakeLinearIssue>();
  const calls: FakeLinear['calls'] = [];
  let limited = 0;
  let now = () => Date.now();
  /** The OAuth access token in force, and the refresh token that trades for the next (the code grant starts them). */
  let accessToken: string | null = LINEAR_OAUTH_TOKEN;
  let refreshToken = 'lin_refresh_initial';
  let hook: ((issue: FakeLinearIssue, res: ServerResponse) => boolean | undefined) | null = null;
  let number = 100;
  const make = (
    id: string,
    title: string,
    teamId: string,
    description: string,
    state = { name: 'Todo', type: 'unstarted' },
  ) => {
    const identifier = `${LINEAR_TEAM.key}-${++number}`;
    const issue = {
      id,
      identifier,
      url: `https://linear.app/acme/issue/${identifier}/${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
      title,
      description,
      teamId,
      state,
    };
    issues.set(id, issue);
    return issue;
  };
  const shown = (i: FakeLinearIssue) => ({
    id: i.id,
    identifier: i.identifier,
    url: i.url,
    title: i.title,
    state: i.state,
  });
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const receiver = await startReceiver((req, res) => {
    if (req.path === '/oauth/token') {
      const form = new URLSearchParams(req.body);
      const grant = form.get('grant_type');
      const byCode = grant === 'authorization_code' && form.get('code') === 'linear-code';
      const byRefresh = grant === 'refresh_token' && form.get('refresh_token') === refreshToken;
      if ((!byCode && !byRefresh) || form.get('client_secret') === null)
        return send(res, 400, { error: 'invalid_grant' });
      // A refresh token is good once: the answer carries the next one.
      accessToken = byCode ? LINEAR_OAUTH_TOKEN : `lin_oauth_${randomUUID()}`;
      refreshToken = `lin_refresh_${randomUUID()}`;
      return send(res, 200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: 86399,
        refresh_token: refreshToken,
        scope: 'read write',
      });
    }
    if (req.method !== 'POST' || req.path !== '/graphql') return send(res, 404, { error: 'not found' });
    const { query = '', variables = {} } = JSON.parse(req.body || '{}') as {
      query?: string;
      variables?: Record<string, unknown>;
    };
    calls.push({ headers: req.headers, query, variables });
    const auth = req.headers.authorization;
    if (auth !== LINEAR_API_KEY && (accessToken === null || auth !== `Bearer ${accessToken}`))
      return send(
        res,
        400,
        error('authentication error', 'AUTHENTICATION_ERROR', 'Authentication required, not authenticated'),
      );
    if (limited > 0) {
      limited--;
      return send(res, 400, error('ratelimited', 'RATELIMITED', 'Rate limit exceeded'), {
        'x-ratelimit-requests-limit': '1500',
        'x-ratelimit-requests-remaining': '0',
        'x-ratelimit-requests-reset': String(now() + 30_000),
      });
    }
    if (query.includes('issueCreate')) {
      const input = variables.input as { id?: string; teamId: string; title: string; description?: string };
      if (input.teamId !== LINEAR_TEAM.id)
        return send(res, 400, error('invalid input', 'INPUT_ERROR', 'Entity not found: Team'));
      const id = input.id ?? randomUUID();
      if (issues.has(id)) return send(res, 400, error('invalid input', 'INPUT_ERROR', 'Entity already exists'));
      const issue = make(id, input.title, input.teamId, input.description ?? '');
      if (hook?.(issue, res)) return;
      return send(res, 200, { data: { issueCreate: { success: true, issue: shown(issue) } } });
    }
    if (query.includes('issue(id')) {
      const id = String(variables.id);
      const issue = issues.get(id) ?? [...issues.values()].find((i) => i.identifier === id);
      if (!issue)
        return send(res, 200, { data: null, ...error('invalid input', 'INPUT_ERROR', 'Entity not found: Issue') });
      return send(res, 200, { data: { issue: shown(issue) } });
    }
    if (query.includes('viewer')) {
      return send(res, 200, {
        data: {
          viewer: { id: 'user-uuid-1', name: 'Ada Admin' },
          organization: { name: 'Acme', urlKey: 'acme' },
          teams: { nodes: [LINEAR_TEAM] },
        },
      });
    }
    return send(res, 400, error('graphql error', 'GRAPHQL_VALIDATION_FAILED', 'Unknown query'));
  });
  return {
    receiver,
    apiUrl: `${receiver.origin}/graphql`,
    tokenUrl: `${receiver.origin}/oauth/token`,
    issues,
    calls,
    clock: (c) => void (now = c),
    rateLimit: (n) => void (limited = n),
    expireToken: () => void (accessToken = null),
    onCreate: (h) => void (hook = h),
    addIssue: (identifier, title, state = { name: 'Backlog', type: 'backlog' }) => {
      const issue = make(randomUUID(), title, LINEAR_TEAM.id, '', state);
      issues.delete(issue.id);
      const renamed = { ...issue, identifier, url: `https://linear.app/acme/issue/${identifier}/x` };
      issues.set(renamed.id, renamed);
      return renamed;
    },
    close: () => receiver.close(),
  };
}

/** A Linear webhook delivery as Linear signs it: the hex HMAC-SHA256 of the raw body in `Linear-Signature`. */
export function linearDelivery(secret: string, payload: Record<string, unknown>, at = Date.now()) {
  const body = JSON.stringify({ webhookTimestamp: at, ...payload });
  return {
    body,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'linear-delivery': randomUUID(),
      'linear-event': String(payload.type ?? 'Issue'),
      'linear-signature': createHmac('sha256', secret).update(body).digest('hex'),
      'user-agent': 'Linear-Webhook',
    },
  };
}
