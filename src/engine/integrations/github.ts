// GitHub: REST through `@octokit/core` (a fine-grained token, or a GitHub App's installation through
// `@octokit/auth-app`, which signs the app's JWT and trades it for installation tokens), on our transport; a GitHub
// Enterprise Server by its own API address.
import { createAppAuth } from '@octokit/auth-app';
import { Octokit } from '@octokit/core';
import type { Credentials, IntegrationsParts } from './context.js';
import { CallFailure, innerFailure, retryAfterOf } from './http.js';

/** An issue as our links keep it. */
export interface GitHubIssue {
  number: number;
  html_url: string;
  title: string;
  state: string;
  state_reason?: string | null;
  body?: string | null;
}

/** A GitHub error as the lane sees it: rate limits (403 or 429 with the limit spent) and outages are tried again. */
export function githubFailure(err: unknown, now: Date): CallFailure {
  const inner = innerFailure(err);
  if (inner) return inner;
  const e = err as { status?: number; message?: string; response?: { headers?: Record<string, string> } };
  const status = e.status ?? 0;
  const message = `GitHub: ${status ? `${status} ` : ''}${e.message ?? String(err)}`;
  const headers = new Headers(e.response?.headers ?? {});
  const spent = headers.get('x-ratelimit-remaining') === '0';
  if (status === 429 || (status === 403 && (spent || headers.has('retry-after')))) {
    const reset = Number(headers.get('x-ratelimit-reset'));
    const wait =
      retryAfterOf(headers, now) ?? (Number.isFinite(reset) && reset > 0 ? reset * 1000 - now.getTime() : null);
    return new CallFailure(message, true, wait === null ? null : Math.max(0, wait));
  }
  if (status === 401) return new CallFailure(message, true, null, true);
  if (status === 0 || status >= 500) return new CallFailure(message, true);
  return new CallFailure(message, false, null, status === 403);
}

/** `{ owner, repo }` of `owner/repo`, or null. */
export function repoOf(fullName: string): { owner: string; repo: string } | null {
  const m = /^([A-Za-z0-9][A-Za-z0-9-]*)\/([A-Za-z0-9._-]+)$/.exec(fullName.trim());
  return m ? { owner: m[1]!, repo: m[2]! } : null;
}

/** `owner/repo` and the number of an issue's URL (github.com's or a GitHub Enterprise Server's) or `owner/repo#12`. */
export function githubIssueOf(reference: string): { owner: string; repo: string; number: number } | null {
  const text = reference.trim();
  const m =
    /^https?:\/\/[^/]+\/([^/]+)\/([^/]+)\/issues\/(\d+)(?:[/?#]|$)/.exec(text) ??
    /^([A-Za-z0-9][A-Za-z0-9-]*)\/([A-Za-z0-9._-]+)#(\d+)$/.exec(text);
  return m ? { owner: m[1]!, repo: m[2]!, number: Number(m[3]) } : null;
}

/** The API address of a connection: its own GitHub Enterprise Server's, else the server's (github.com's). */
export const githubApiUrl = (parts: IntegrationsParts, settings: Record<string, unknown>): string =>
  typeof settings.apiUrl === 'string' && settings.apiUrl
    ? settings.apiUrl.replace(/\/+$/, '')
    : parts.config.github.apiUrl;

/** GitHub as one connection sees it. */
export function githubApi(parts: IntegrationsParts, credentials: Credentials, apiUrl: string, now: () => Date) {
  const base = { baseUrl: apiUrl, request: { fetch: parts.http.fetch } };
  const octokit = credentials.token
    ? new Octokit({ ...base, auth: credentials.token })
    : new Octokit({
        ...base,
        authStrategy: createAppAuth,
        auth: {
          appId: credentials.appId,
          privateKey: credentials.privateKey,
          installationId: Number(credentials.installationId),
        },
      });
  const call = async <T>(route: string, params: Record<string, unknown> = {}): Promise<T> => {
    try {
      return (await octokit.request(route, params)).data as T;
    } catch (err) {
      throw githubFailure(err, now());
    }
  };
  return {
    /** Who the connection is and the repositories it reaches (the console's repository picker). */
    async verify(): Promise<{ account: string; repos: string[] }> {
      if (credentials.token) {
        const user = await call<{ login: string }>('GET /user');
        const repos = await call<Array<{ full_name: string }>>('GET /user/repos', { per_page: 100, sort: 'updated' });
        return { account: user.login, repos: repos.map((r) => r.full_name) };
      }
      const installation = await call<{ account: { login: string } | null }>(
        'GET /app/installations/{installation_id}',
        { installation_id: Number(credentials.installationId) },
      );
      const reach = await call<{ repositories: Array<{ full_name: string }> }>('GET /installation/repositories', {
        per_page: 100,
      });
      return {
        account: installation.account?.login ?? `app ${credentials.appId}`,
        repos: reach.repositories.map((r) => r.full_name),
      };
    },
    issue: (owner: string, repo: string, number: number) =>
      call<GitHubIssue>('GET /repos/{owner}/{repo}/issues/{issue_number}', { owner, repo, issue_number: number }),
    /** Issues of the repository touched since `since`, newest first: where a repeated call looks for its own. */
    recentIssues: (owner: string, repo: string, since: Date) =>
      call<GitHubIssue[]>('GET /repos/{owner}/{repo}/issues', {
        owner,
        repo,
        state: 'all',
        since: since.toISOString(),
        sort: 'created',
        direction: 'desc',
        per_page: 100,
      }),
    createIssue: (owner: string, repo: string, title: string, body: string) =>
      call<GitHubIssue>('POST /repos/{owner}/{repo}/issues', { owner, repo, title, body }),
  };
}
