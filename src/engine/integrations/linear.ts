// Linear: GraphQL through `@linear/sdk`'s client (its transport is ours: the SSRF guard and the time-out), its
// webhooks verified by their `Linear-Signature` (HMAC-SHA256 of the raw body) and their signed `webhookTimestamp`.
import { LinearClient, LinearError, LinearErrorType } from '@linear/sdk';
import type { Credentials, IntegrationsParts } from './context.js';
import { CallFailure, innerFailure } from './http.js';

/** An issue as our links keep it. */
export interface LinearIssue {
  id: string;
  identifier: string;
  url: string;
  title: string;
  state: { name: string; type: string } | null;
}

const ISSUE_FIELDS = 'id identifier url title state { name type }';
const VERIFY = 'query { viewer { id name } organization { name urlKey } teams(first: 100) { nodes { id key name } } }';
const ISSUE = `query Issue($id: String!) { issue(id: $id) { ${ISSUE_FIELDS} } }`;
const CREATE = `mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { ${ISSUE_FIELDS} } } }`;

/** A Linear error as the lane sees it: rate limits and outages are tried again, a refused request is not. */
function failureOf(err: unknown, now: Date): CallFailure {
  const inner = innerFailure(err);
  if (inner) return inner;
  if (!(err instanceof LinearError)) return new CallFailure(`Linear: ${(err as Error).message}`, true);
  const message = `Linear: ${err.message}`;
  switch (err.type) {
    case LinearErrorType.Ratelimited: {
      const r = err as LinearError & { retryAfter?: number; requestsResetAt?: number };
      const wait =
        r.retryAfter !== undefined ? r.retryAfter * 1000 : r.requestsResetAt ? r.requestsResetAt - now.getTime() : null;
      return new CallFailure(message, true, wait === null ? null : Math.max(0, wait));
    }
    case LinearErrorType.AuthenticationError:
    case LinearErrorType.Forbidden:
      return new CallFailure(message, true, null, true);
    case LinearErrorType.InvalidInput:
    case LinearErrorType.FeatureNotAccessible:
    case LinearErrorType.UserError:
    case LinearErrorType.GraphqlError:
    case LinearErrorType.UsageLimitExceeded:
      return new CallFailure(message, false);
    default:
      return new CallFailure(message, true);
  }
}

/** Linear as one connection sees it. */
export function linearApi(parts: IntegrationsParts, credentials: Credentials, now: () => Date) {
  const apiUrl = parts.config.linear.apiUrl;
  const client = new LinearClient({
    ...(credentials.accessToken ? { accessToken: credentials.accessToken } : { apiKey: credentials.apiKey ?? '' }),
    apiUrl,
    dispatcher: parts.http.dispatcherFor(apiUrl),
  } as unknown as ConstructorParameters<typeof LinearClient>[0]);
  const request = async <T>(query: string, variables?: Record<string, unknown>): Promise<T> => {
    try {
      const answer = await client.client.rawRequest<T, Record<string, unknown>>(query, variables);
      return answer.data as T;
    } catch (err) {
      throw failureOf(err, now());
    }
  };
  return {
    /** Who the credentials are and the teams they reach (the console's team picker). */
    verify: () =>
      request<{
        viewer: { id: string; name: string };
        organization: { name: string; urlKey: string };
        teams: { nodes: Array<{ id: string; key: string; name: string }> };
      }>(VERIFY),
    /** An issue by its id or identifier (`ENG-123`); null when Linear has none. */
    async issue(id: string): Promise<LinearIssue | null> {
      try {
        return (await request<{ issue: LinearIssue | null }>(ISSUE, { id })).issue;
      } catch (err) {
        if (err instanceof CallFailure && !err.retry && /not found/i.test(err.message)) return null;
        throw err;
      }
    },
    /**
     * Create an issue under the id we chose: Linear refuses a second issue with the same id, so a call repeated after
     * a crash cannot make two (and the issue is then read by that id).
     */
    async createIssue(input: { id: string; teamId: string; title: string; description: string }): Promise<LinearIssue> {
      try {
        const made = await request<{ issueCreate: { success: boolean; issue: LinearIssue | null } }>(CREATE, { input });
        if (made.issueCreate.issue) return made.issueCreate.issue;
      } catch (err) {
        if (!(err instanceof CallFailure) || err.retry) throw err;
        const had = await this.issue(input.id);
        if (had) return had;
        throw err;
      }
      const had = await this.issue(input.id);
      if (!had) throw new CallFailure('Linear: the issue was not created', true);
      return had;
    },
  };
}

/** `ENG-123` from an identifier or an issue's URL (`https://linear.app/acme/issue/ENG-123/title`); null otherwise. */
export function linearIdentifierOf(reference: string): string | null {
  const text = reference.trim();
  const inUrl = /^https?:\/\/[^/]+\/[^/]+\/issue\/([A-Za-z][A-Za-z0-9_]*-\d+)(?:[/?#]|$)/.exec(text);
  if (inUrl) return inUrl[1]!.toUpperCase();
  return /^[A-Za-z][A-Za-z0-9_]*-\d+$/.test(text) ? text.toUpperCase() : null;
}

/** What a Linear webhook says, as far as we act on it. */
export interface LinearDelivery {
  type: string;
  action: string;
  webhookTimestamp: number;
  data: Record<string, unknown>;
  updatedFrom?: Record<string, unknown>;
}
