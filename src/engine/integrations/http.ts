import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { BlockedAddressError, guardedLookup, nonPublicReason, urlHost } from '../shared/index.js';
import type { IntegrationsConfig } from './options.js';

/**
 * Why an outbound call did not do what it asked: `retry` (the service is down, slow or rate-limited: the job is tried
 * again, not before `retryAfterMs` when the service said), or not (`retry` false: the request itself is wrong, and
 * sending it again would be refused again).
 */
export class CallFailure extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly retryAfterMs: number | null = null,
    /** The credentials were refused: the connection is failing until the team connects again. */
    readonly credentials = false,
  ) {
    super(message);
  }
}

/**
 * The failure inside what an SDK threw (octokit's `cause`, Slack's `original`): our own refusal, or the SSRF guard's at
 * connect time, neither of which another attempt would change. Null when it is neither.
 */
export function innerFailure(err: unknown): CallFailure | null {
  for (let e = err as { cause?: unknown; original?: unknown } | undefined, depth = 0; e && depth < 5; depth++) {
    if (e instanceof CallFailure) return e;
    if (e instanceof BlockedAddressError) return new CallFailure(e.message, false);
    e = (e.cause ?? e.original) as typeof e;
  }
  return null;
}

/** How long a `Retry-After` header (seconds or an HTTP date) says to wait, or null. */
export function retryAfterOf(headers: Headers, now: Date): number | null {
  const value = headers.get('retry-after');
  if (!value) return null;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now.getTime());
}

/** The HTTP every integration calls with: one transport (the services' SDKs are handed its `fetch` or dispatcher). */
export interface IntegrationHttp {
  /** `fetch` with the SSRF guard and the time-out. */
  fetch: typeof globalThis.fetch;
  /** The undici dispatcher for `url` (an SDK that takes a `RequestInit`, Linear's), after the same checks. */
  dispatcherFor(url: string): Agent;
  close(): Promise<void>;
}

/**
 * The SSRF guard for the integrations: the operator's configured service addresses (a GitHub Enterprise Server or a
 * Slack on the office network included) are trusted; any other address a workspace gave (its own GitHub Enterprise
 * URL) must resolve to public addresses only, checked at connect time like a webhook receiver's.
 */
export function createIntegrationHttp(config: IntegrationsConfig, allowPrivateNetworks: boolean): IntegrationHttp {
  const trusted = new Set(
    [
      config.linear.apiUrl,
      config.linear.oauth?.tokenUrl,
      config.github.apiUrl,
      config.slack.apiUrl,
      config.slack.hooksUrl,
    ]
      .filter((u): u is string => Boolean(u))
      .map((u) => new URL(u).origin),
  );
  const open = new Agent({ keepAliveTimeout: 10_000 });
  const guarded = allowPrivateNetworks
    ? open
    : new Agent({ keepAliveTimeout: 10_000, connect: { lookup: guardedLookup as never } });
  const dispatcherFor = (url: string): Agent => {
    const target = new URL(url);
    if (trusted.has(target.origin) || allowPrivateNetworks) return open;
    const host = urlHost(target);
    const reason = isIP(host) ? nonPublicReason(host) : null;
    if (reason) throw new CallFailure(new BlockedAddressError(host, host, reason).message, false);
    return guarded;
  };
  return {
    dispatcherFor,
    fetch: (async (input: string | URL | Request, init?: RequestInit) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      const dispatcher = dispatcherFor(url);
      return undiciFetch(
        input as never,
        {
          ...(init as object),
          dispatcher,
          signal: init?.signal ?? AbortSignal.timeout(config.timeoutMs),
        } as never,
      );
    }) as unknown as typeof globalThis.fetch,
    async close() {
      await open.close();
      if (guarded !== open) await guarded.close();
    },
  };
}
