import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { WEBHOOK_LIMITS } from '../../schemas/webhooks.js';
import { BlockedAddressError, guardedLookup, nonPublicReason, urlHost } from './addresses.js';

/** What one attempt produced, as the attempt log keeps it. */
export interface AttemptOutcome {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
}

export interface SenderOptions {
  /** Skip the SSRF guard (tests and local development only). */
  allowPrivateNetworks: boolean;
  /** Per-attempt time-out; 10 s by default. */
  timeoutMs: number;
}

/** Response bytes read past the kept 1 KiB before the connection is dropped instead of drained. */
const DRAIN_LIMIT = 64 * 1024;
const decoder = new TextDecoder();

function describe(err: unknown): string {
  const e = err as { code?: string; message?: string; cause?: { code?: string; message?: string } };
  const inner = e.cause?.message ? e.cause : e;
  if (inner instanceof BlockedAddressError) return inner.message;
  const text = inner.message ?? String(err);
  return inner.code && !text.includes(inner.code) ? `${inner.code}: ${text}` : text;
}

/**
 * Sends signed POSTs with `undici.request` over one keep-alive Agent (the fastest sender measured here,
 * perf-notes). Redirects are never followed: undici's request has no redirect handling unless asked.
 * The SSRF guard sits in the Agent's connect `lookup`, so the address checked is the address connected
 * to; IP-literal hosts (which skip lookup) are checked before the request.
 */
export function createSender(options: SenderOptions) {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    connect: options.allowPrivateNetworks ? {} : { lookup: guardedLookup as never },
  });

  const timeoutMessage = `timeout: no complete response within ${options.timeoutMs} ms`;
  // Receiver URLs repeat: parse each once.
  const urls = new Map<string, URL | null>();
  const parseUrl = (url: string): URL | null => {
    let parsed = urls.get(url);
    if (parsed === undefined) {
      try {
        parsed = new URL(url);
      } catch {
        parsed = null;
      }
      if (urls.size > 10_000) urls.clear();
      urls.set(url, parsed);
    }
    return parsed;
  };

  return {
    async send(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const failed = (error: string, statusCode: number | null = null, responseBody: string | null = null): AttemptOutcome => ({
        ok: false,
        statusCode,
        error,
        durationMs: elapsed(),
        responseBody,
      });
      const parsed = parseUrl(url);
      if (parsed === null) return failed(`invalid url ${url}`);
      if (!options.allowPrivateNetworks) {
        const host = urlHost(parsed);
        const reason = isIP(host) ? nonPublicReason(host) : null;
        if (reason) return failed(`${host} is a ${reason} address`);
      }
      // undici's own timers bound the wait for headers and for each body chunk; the deadline bounds the whole.
      const deadline = started + options.timeoutMs;
      try {
        const res = await request(parsed, {
          method: 'POST',
          headers,
          body,
          dispatcher: agent,
          headersTimeout: options.timeoutMs,
          bodyTimeout: options.timeoutMs,
        });
        const kept: Uint8Array[] = [];
        let keptBytes = 0;
        let total = 0;
        for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
          if (keptBytes < WEBHOOK_LIMITS.responseBodyBytes) {
            const part = chunk.subarray(0, WEBHOOK_LIMITS.responseBodyBytes - keptBytes);
            kept.push(part);
            keptBytes += part.length;
          }
          total += chunk.length;
          if (total > DRAIN_LIMIT || performance.now() > deadline) {
            res.body.destroy();
            if (performance.now() > deadline) return failed(timeoutMessage, res.statusCode);
            break;
          }
        }
        if (performance.now() > deadline) return failed(timeoutMessage, res.statusCode);
        const responseBody = keptBytes === 0 ? null : decoder.decode(kept.length === 1 ? kept[0] : Buffer.concat(kept));
        const statusCode = res.statusCode;
        if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode, error: null, durationMs: elapsed(), responseBody };
        if (statusCode >= 300 && statusCode < 400) {
          const location = res.headers.location;
          return failed(`redirect${location ? ` to ${String(location)}` : ''} not followed`, statusCode, responseBody);
        }
        return failed(`receiver answered ${statusCode}`, statusCode, responseBody);
      } catch (err) {
        const code = (err as { code?: string }).code;
        if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') return failed(timeoutMessage);
        return failed(describe(err));
      }
    },
    close: () => agent.close(),
  };
}
export type Sender = ReturnType<typeof createSender>;
