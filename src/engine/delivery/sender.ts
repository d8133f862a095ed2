import { BlockedAddressError, guardedLookup, nonPublicReason, urlHost } from '../shared/index.js';
import { isIP } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { WEBHOOK_LIMITS } from '../../schemas/webhooks.js';

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
 * Sends signed POSTs over one keep-alive undici Agent through its `dispatch` API: the response arrives as
 * callbacks, with no stream or promise per chunk, which costs about half the CPU of `undici.request`
 * (docs/benchmarks.md). Redirects are never followed: dispatch has no redirect handling. The SSRF guard sits
 * in the Agent's connect `lookup`, so the address checked is the address connected to; IP-literal hosts
 * (which skip lookup) are checked before the request.
 */
export function createSender(options: SenderOptions) {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    connect: options.allowPrivateNetworks ? {} : { lookup: guardedLookup as never },
  });

  const timeoutMessage = `timeout: no complete response within ${options.timeoutMs} ms`;
  /** Receiver URLs repeat: each is parsed, and its host checked, once. */
  interface Target {
    origin: string;
    path: string;
    /** Why an IP-literal host is refused, or null. */
    refused: string | null;
  }
  const targets = new Map<string, Target | null>();
  const targetOf = (url: string): Target | null => {
    let target = targets.get(url);
    if (target === undefined) {
      try {
        const parsed = new URL(url);
        const host = urlHost(parsed);
        const reason = !options.allowPrivateNetworks && isIP(host) ? nonPublicReason(host) : null;
        target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}`, refused: reason && `${host} is a ${reason} address` };
      } catch {
        target = null;
      }
      if (targets.size > 10_000) targets.clear();
      targets.set(url, target);
    }
    return target;
  };

  return {
    send(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const failed = (error: string, statusCode: number | null = null, responseBody: string | null = null): AttemptOutcome => ({
        ok: false,
        statusCode,
        error,
        durationMs: elapsed(),
        responseBody,
      });
      const target = targetOf(url);
      if (target === null) return Promise.resolve(failed(`invalid url ${url}`));
      if (target.refused) return Promise.resolve(failed(target.refused));
      // undici's own timers bound the wait for headers and for each body chunk; the deadline bounds the whole.
      const deadline = started + options.timeoutMs;
      return new Promise((resolve) => {
        let settled = false;
        let statusCode = 0;
        let location: string | undefined;
        const kept: Buffer[] = [];
        let keptBytes = 0;
        let total = 0;
        const finish = (outcome: AttemptOutcome) => {
          if (settled) return;
          settled = true;
          resolve(outcome);
        };
        const outcome = (): AttemptOutcome => {
          if (performance.now() > deadline) return failed(timeoutMessage, statusCode);
          const responseBody = keptBytes === 0 ? null : decoder.decode(kept.length === 1 ? kept[0] : Buffer.concat(kept));
          if (statusCode >= 200 && statusCode < 300) return { ok: true, statusCode, error: null, durationMs: elapsed(), responseBody };
          if (statusCode >= 300 && statusCode < 400)
            return failed(`redirect${location ? ` to ${location}` : ''} not followed`, statusCode, responseBody);
          return failed(`receiver answered ${statusCode}`, statusCode, responseBody);
        };
        const handler: Dispatcher.DispatchHandler = {
          // Its presence marks the handler as undici 7's controller-style one.
          onRequestStart() {},
          onResponseStart(_controller, status, responseHeaders) {
            if (status < 200) return; // informational: the final response follows
            statusCode = status;
            const value = responseHeaders.location;
            location = Array.isArray(value) ? value[0] : value;
          },
          onResponseData(controller, chunk) {
            if (keptBytes < WEBHOOK_LIMITS.responseBodyBytes) {
              // A copy: the chunk is a view of the socket's read buffer.
              const part = Buffer.from(chunk.subarray(0, WEBHOOK_LIMITS.responseBodyBytes - keptBytes));
              kept.push(part);
              keptBytes += part.length;
            }
            total += chunk.length;
            // Past the kept part only so much is read; a response still arriving at the deadline has timed out.
            if (total > DRAIN_LIMIT || performance.now() > deadline) {
              finish(outcome());
              controller.abort(new Error('response not read further'));
            }
          },
          onResponseEnd() {
            finish(outcome());
          },
          onResponseError(_controller, err) {
            const code = (err as { code?: string }).code;
            finish(failed(code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? timeoutMessage : describe(err)));
          },
        };
        try {
          agent.dispatch(
            {
              origin: target.origin,
              path: target.path,
              method: 'POST',
              headers,
              body,
              headersTimeout: options.timeoutMs,
              bodyTimeout: options.timeoutMs,
            },
            handler,
          );
        } catch (err) {
          finish(failed(describe(err)));
        }
      });
    },
    close: () => agent.close(),
  };
}
export type Sender = ReturnType<typeof createSender>;
