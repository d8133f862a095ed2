import { isIP } from 'node:net';
import { Agent, type Dispatcher } from 'undici';
import { WEBHOOK_LIMITS } from '../../schemas/webhooks.js';
import { BlockedAddressError, guardedLookup, nonPublicReason, urlHost } from '../shared/index.js';

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

/** Receiver URLs repeat: each is parsed, and its host checked, once. */
interface Target {
  origin: string;
  path: string;
  /** Why an IP-literal host is refused, or null. */
  refused: string | null;
}

/**
 * One attempt's response as it arrives through undici's dispatch callbacks: the status, a redirect's location, the
 * first KiB of the body; `result` is the attempt's outcome once the response ended, broke, or ran past the deadline.
 */
class Exchange {
  readonly #started = performance.now();
  readonly #deadline: number;
  readonly #timeoutMessage: string;
  #statusCode = 0;
  #location: string | undefined;
  readonly #kept: Buffer[] = [];
  #keptBytes = 0;
  #total = 0;
  #settled = false;
  readonly result: Promise<AttemptOutcome>;
  #resolve!: (outcome: AttemptOutcome) => void;

  constructor(timeoutMs: number) {
    // undici's own timers bound the wait for headers and for each body chunk; the deadline bounds the whole.
    this.#deadline = this.#started + timeoutMs;
    this.#timeoutMessage = `timeout: no complete response within ${timeoutMs} ms`;
    this.result = new Promise((resolve) => (this.#resolve = resolve));
  }

  failed(error: string, statusCode: number | null = null, responseBody: string | null = null): AttemptOutcome {
    return { ok: false, statusCode, error, durationMs: Math.round(performance.now() - this.#started), responseBody };
  }

  finish(outcome: AttemptOutcome): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#resolve(outcome);
  }

  #outcome(): AttemptOutcome {
    const statusCode = this.#statusCode;
    if (performance.now() > this.#deadline) return this.failed(this.#timeoutMessage, statusCode);
    const responseBody =
      this.#keptBytes === 0
        ? null
        : decoder.decode(this.#kept.length === 1 ? this.#kept[0] : Buffer.concat(this.#kept));
    if (statusCode >= 200 && statusCode < 300)
      return {
        ok: true,
        statusCode,
        error: null,
        durationMs: Math.round(performance.now() - this.#started),
        responseBody,
      };
    if (statusCode >= 300 && statusCode < 400)
      return this.failed(
        `redirect${this.#location ? ` to ${this.#location}` : ''} not followed`,
        statusCode,
        responseBody,
      );
    return this.failed(`receiver answered ${statusCode}`, statusCode, responseBody);
  }

  /** undici 7's controller-style handler (`onRequestStart` marks it as one). */
  readonly handler: Dispatcher.DispatchHandler = {
    onRequestStart: () => {},
    onResponseStart: (_controller, status, responseHeaders) => {
      if (status < 200) return; // informational: the final response follows
      this.#statusCode = status;
      const value = responseHeaders.location;
      this.#location = Array.isArray(value) ? value[0] : value;
    },
    onResponseData: (controller, chunk) => {
      if (this.#keptBytes < WEBHOOK_LIMITS.responseBodyBytes) {
        // A copy: the chunk is a view of the socket's read buffer.
        const part = Buffer.from(chunk.subarray(0, WEBHOOK_LIMITS.responseBodyBytes - this.#keptBytes));
        this.#kept.push(part);
        this.#keptBytes += part.length;
      }
      this.#total += chunk.length;
      // Past the kept part only so much is read; a response still arriving at the deadline has timed out.
      if (this.#total > DRAIN_LIMIT || performance.now() > this.#deadline) {
        this.finish(this.#outcome());
        controller.abort(new Error('response not read further'));
      }
    },
    onResponseEnd: () => this.finish(this.#outcome()),
    onResponseError: (_controller, err) => {
      const code = (err as { code?: string }).code;
      this.finish(
        this.failed(
          code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT' ? this.#timeoutMessage : describe(err),
        ),
      );
    },
  };
}

/**
 * Sends signed POSTs over one keep-alive undici Agent through its `dispatch` API: the response arrives as
 * callbacks, with no stream or promise per chunk, which costs about half the CPU of `undici.request`
 * (docs/benchmarks.md). Redirects are never followed: dispatch has no redirect handling. The SSRF guard sits
 * in the Agent's connect `lookup`, so the address checked is the address connected to; IP-literal hosts
 * (which skip lookup) are checked before the request.
 */
export class Sender {
  readonly #options: SenderOptions;
  readonly #agent: Agent;
  readonly #targets = new Map<string, Target | null>();

  constructor(options: SenderOptions) {
    this.#options = options;
    this.#agent = new Agent({
      keepAliveTimeout: 30_000,
      connect: options.allowPrivateNetworks ? {} : { lookup: guardedLookup as never },
    });
  }

  #targetOf(url: string): Target | null {
    let target = this.#targets.get(url);
    if (target === undefined) {
      try {
        const parsed = new URL(url);
        const host = urlHost(parsed);
        const reason = !this.#options.allowPrivateNetworks && isIP(host) ? nonPublicReason(host) : null;
        target = {
          origin: parsed.origin,
          path: `${parsed.pathname}${parsed.search}`,
          refused: reason && `${host} is a ${reason} address`,
        };
      } catch {
        target = null;
      }
      if (this.#targets.size > 10_000) this.#targets.clear();
      this.#targets.set(url, target);
    }
    return target;
  }

  /** POST `body` with `headers` to `url`: the attempt's outcome, never a rejection. */
  send(url: string, headers: Record<string, string>, body: string): Promise<AttemptOutcome> {
    const exchange = new Exchange(this.#options.timeoutMs);
    const target = this.#targetOf(url);
    if (target === null) return Promise.resolve(exchange.failed(`invalid url ${url}`));
    if (target.refused) return Promise.resolve(exchange.failed(target.refused));
    const timeoutMs = this.#options.timeoutMs;
    try {
      this.#agent.dispatch(
        {
          origin: target.origin,
          path: target.path,
          method: 'POST',
          headers,
          body,
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        exchange.handler,
      );
    } catch (err) {
      exchange.finish(exchange.failed(describe(err)));
    }
    return exchange.result;
  }

  close(): Promise<void> {
    return this.#agent.close();
  }
}

export function createSender(options: SenderOptions): Sender {
  return new Sender(options);
}
