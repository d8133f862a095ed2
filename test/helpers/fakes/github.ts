// A local stand-in for GitHub's REST API, written from GitHub's public documentation: `Authorization: token <t>` or
// `Bearer <t>`; a GitHub App's JWT (RS256, `iss` the app id) traded at POST /app/installations/{id}/access_tokens for an
// installation token; issues created, read and listed (`since`, newest first); errors as `{ message,
// documentation_url }`; a spent rate limit as 403 with `x-ratelimit-remaining: 0` and `x-ratelimit-reset` (epoch
// seconds). Served at the root (github.com's api.github.com) and under /api/v3 (a GitHub Enterprise Server).
import { createHmac, randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { importSPKI, jwtVerify } from 'jose';
import { type ReceivedRequest, type Receiver, startReceiver } from '../receiver.js';

export interface FakeGitHubIssue {
  number: number;
  repo: string;
  title: string;
  body: string;
  state: 'open' | 'closed';
  state_reason: string | null;
  html_url: string;
  created_at: string;
  updated_at: string;
}

export const GITHUB_TOKEN = 'github_pat_11TEST0000000000000000_abcdefghijklmnopqrstuvwxyz';
export const GITHUB_REPO = 'acme/app';

export interface FakeGitHub {
  readonly receiver: Receiver;
  readonly origin: string;
  readonly issues: FakeGitHubIssue[];
  readonly calls: Array<{ method: string; path: string; headers: ReceivedRequest['headers']; body: unknown }>;
  /** A GitHub App the fake knows: its id, its public key (PEM), its installation. */
  app(appId: string, publicKeyPem: string, installationId: number): void;
  rateLimit(n: number): void;
  onCreate(hook: ((issue: FakeGitHubIssue, res: ServerResponse) => boolean | undefined) | null): void;
  clock(now: () => number): void;
  close(): Promise<void>;
}

export async function startFakeGitHub(): Promise<FakeGitHub> {
  const issues: FakeGitHubIssue[] = [];
  const calls: FakeGitHub['calls'] = [];
  const tokens = new Set([GITHUB_TOKEN]);
  const apps = new Map<string, { key: string; installationId: number }>();
  let limited = 0;
  let now = () => Date.now();
  let hook: ((issue: FakeGitHubIssue, res: ServerResponse) => boolean | undefined) | null = null;
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'x-github-request-id': randomUUID(),
      ...headers,
    });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) =>
    send(res, status, { message, documentation_url: 'https://docs.github.com/rest', status: String(status) }, headers);
  const shown = (i: FakeGitHubIssue) => ({ ...i, repository_url: `https://api.github.com/repos/${i.repo}` });

  async function appOf(auth: string | undefined): Promise<string | null> {
    const jwt = /^bearer (.+)$/i.exec(auth ?? '')?.[1];
    if (jwt?.split('.').length !== 3) return null;
    for (const [id, app] of apps) {
      try {
        const { payload } = await jwtVerify(jwt, await importSPKI(app.key, 'RS256'), { algorithms: ['RS256'] });
        if (String(payload.iss) === id) return id;
      } catch {}
    }
    return null;
  }

  const receiver = await startReceiver(async (req, res) => {
    const url = new URL(req.path, 'http://x');
    const path = url.pathname.replace(/^\/api\/v3/, '');
    const body = req.body ? (JSON.parse(req.body) as Record<string, unknown>) : {};
    calls.push({ method: req.method, path: url.pathname + url.search, headers: req.headers, body });
    if (req.headers.accept && !String(req.headers.accept).includes('json'))
      return fail(res, 415, 'Unsupported media type');
    if (limited > 0) {
      limited--;
      return fail(res, 403, 'API rate limit exceeded for user.', {
        'x-ratelimit-limit': '5000',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': String(Math.floor(now() / 1000) + 60),
      });
    }
    const installation = /^\/app\/installations\/(\d+)(\/access_tokens)?$/.exec(path);
    if (installation) {
      const appId = await appOf(req.headers.authorization);
      if (!appId) return fail(res, 401, 'A JSON web token could not be decoded');
      if (Number(installation[1]) !== apps.get(appId)!.installationId) return fail(res, 404, 'Not Found');
      if (!installation[2])
        return send(res, 200, { id: Number(installation[1]), account: { login: 'acme', type: 'Organization' } });
      if (req.method !== 'POST') return fail(res, 404, 'Not Found');
      const token = `ghs_${randomUUID().replaceAll('-', '')}`;
      tokens.add(token);
      return send(res, 201, {
        token,
        expires_at: new Date(now() + 3_600_000).toISOString(),
        permissions: { issues: 'write' },
      });
    }
    const token = /^(?:token|bearer) (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !tokens.has(token)) return fail(res, 401, 'Bad credentials');
    if (path === '/user') return send(res, 200, { login: 'octo-admin', id: 1 });
    if (path === '/user/repos' || path === '/installation/repositories') {
      const repos = [{ full_name: GITHUB_REPO, owner: { login: 'acme' } }];
      return send(res, 200, path === '/user/repos' ? repos : { total_count: 1, repositories: repos });
    }
    const m = /^\/repos\/([^/]+\/[^/]+)\/issues(?:\/(\d+))?$/.exec(path);
    if (!m || m[1] !== GITHUB_REPO) return fail(res, 404, 'Not Found');
    if (m[2]) {
      const issue = issues.find((i) => i.number === Number(m[2]));
      return issue ? send(res, 200, shown(issue)) : fail(res, 404, 'Not Found');
    }
    if (req.method === 'GET') {
      const since = url.searchParams.get('since');
      const listed = issues.filter((i) => !since || i.updated_at >= since).reverse();
      return send(res, 200, listed.slice(0, Number(url.searchParams.get('per_page') ?? 30)).map(shown));
    }
    if (typeof body.title !== 'string' || !body.title)
      return send(res, 422, {
        message: 'Validation Failed',
        errors: [{ resource: 'Issue', field: 'title', code: 'missing_field' }],
      });
    const at = new Date(now()).toISOString();
    const issue: FakeGitHubIssue = {
      number: issues.length + 1,
      repo: GITHUB_REPO,
      title: body.title,
      body: String(body.body ?? ''),
      state: 'open',
      state_reason: null,
      html_url: `https://github.com/${GITHUB_REPO}/issues/${issues.length + 1}`,
      created_at: at,
      updated_at: at,
    };
    issues.push(issue);
    if (hook?.(issue, res)) return;
    return send(res, 201, shown(issue));
  });
  return {
    receiver,
    origin: receiver.origin,
    issues,
    calls,
    app: (appId, key, installationId) => void apps.set(appId, { key, installationId }),
    rateLimit: (n) => void (limited = n),
    onCreate: (h) => void (hook = h),
    clock: (c) => void (now = c),
    close: () => receiver.close(),
  };
}

/** A GitHub webhook delivery as GitHub signs it: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`. */
export function githubDelivery(secret: string, event: string, payload: Record<string, unknown>) {
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-github-delivery': randomUUID(),
      'x-github-hook-id': '1',
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
      'user-agent': 'GitHub-Hookshot/abc',
    },
  };
}
