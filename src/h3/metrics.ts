import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AttemptReport, Engine } from '../engine/index.js';

/** Where the server answers Prometheus scrapes. */
export const METRICS_PATH = '/metrics';

/**
 * The server's Prometheus metrics (prom-client), one registry per server: requests and their latency by route
 * pattern and status, identify outcomes, rate-limit refusals, delivery attempts and their latency, and (read at each
 * scrape) the due-delivery backlog, its oldest age and the disabled webhooks, the mail outbox's due rows and oldest
 * age, and the mail lane's outcomes. Give it to `createApp({ metrics })`
 * and its `onAttempt` to `createEngine({ onAttempt })`.
 */
export function createMetrics(options: { defaultMetrics?: boolean } = {}) {
  const registry = new Registry();
  if (options.defaultMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'feedback_' });
  const requests = new Counter({
    name: 'feedback_http_requests_total',
    help: 'HTTP requests by route pattern, method and status.',
    labelNames: ['route', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'feedback_http_request_duration_seconds',
    help: 'HTTP request latency by route pattern and method.',
    labelNames: ['route', 'method'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const identify = new Counter({
    name: 'feedback_identify_total',
    help: 'Identify calls by outcome: created, updated or refused.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const rateLimited = new Counter({
    name: 'feedback_rate_limited_total',
    help: 'Requests refused by the rate limit (429).',
    registers: [registry],
  });
  const attempts = new Counter({
    name: 'feedback_delivery_attempts_total',
    help: 'Webhook delivery attempts by outcome: succeeded, retrying (failed, another attempt follows) or failed (the last).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  const attemptLatency = new Histogram({
    name: 'feedback_delivery_attempt_duration_seconds',
    help: 'Webhook delivery attempt duration, receiver time included.',
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  let engine: Engine | undefined;
  backlogGauges(registry, () => engine);
  mailCounter(registry, () => engine);
  return {
    registry,
    /** The engine whose backlog the gauges read (the app sets it). */
    watch(e: Engine): void {
      engine = e;
    },
    request(route: string, method: string, status: number, seconds: number): void {
      requests.inc({ route, method, status: String(status) });
      latency.observe({ route, method }, seconds);
      if (status === 429) rateLimited.inc();
    },
    identify(outcome: 'created' | 'updated' | 'refused'): void {
      identify.inc({ outcome });
    },
    onAttempt(a: AttemptReport): void {
      attempts.inc({ outcome: a.ok ? 'succeeded' : a.final ? 'failed' : 'retrying' });
      attemptLatency.observe(a.durationMs / 1000);
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;

/**
 * The gauges read from the engine's backlog at each scrape (one backlog query per scrape, shared by them all):
 * deliveries due and their oldest age, disabled webhooks, mail due and its oldest age.
 */
function backlogGauges(registry: Registry, engine: () => Engine | undefined): void {
  const backlog = () => engine()?.deliveryBacklog();
  let pending: ReturnType<typeof backlog> | undefined;
  const read = () => (pending ??= backlog()?.finally(() => setTimeout(() => (pending = undefined), 0)));
  const gauge = (name: string, help: string, value: (b: NonNullable<Awaited<ReturnType<typeof read>>>) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const b = await read();
        if (b) this.set(value(b));
      },
    });
  gauge(
    'feedback_deliveries_due',
    'Webhook deliveries due now and not yet delivered, across workspaces.',
    (b) => b.due,
  );
  gauge(
    'feedback_deliveries_oldest_due_age_seconds',
    'How long the oldest due delivery has waited (0 when none is due).',
    (b) => b.oldestDueAgeSeconds ?? 0,
  );
  gauge(
    'feedback_webhooks_disabled',
    'Webhooks disabled (after 50 consecutive failures, or by hand).',
    (b) => b.disabledWebhooks,
  );
  gauge('feedback_mail_due', 'Notification mail due now and not yet sent, across workspaces.', (b) => b.mailDue);
  gauge(
    'feedback_mail_oldest_due_age_seconds',
    'How long the oldest due mail has waited (0 when none is due).',
    (b) => b.mailOldestDueAgeSeconds ?? 0,
  );
}

/** What this process's mail lane did, read from its totals at each scrape. */
function mailCounter(registry: Registry, engine: () => Engine | undefined): void {
  const counted = { sent: 0, retried: 0, failed: 0, unconfirmed: 0, cancelled: 0 };
  new Counter({
    name: 'feedback_mail_total',
    help: 'Mail rows (a notification per change and person, a sign-in code, an invitation) by outcome: sent, retried (a later attempt follows), failed (for good), unconfirmed (handed over, no answer; not sent again), cancelled (no longer to be sent: a code that expired first, a console sign-in for an address on no team).',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      const totals = engine()?.scheduler.totals.mail;
      if (!totals) return;
      for (const outcome of ['sent', 'retried', 'failed', 'unconfirmed', 'cancelled'] as const) {
        if (totals[outcome] > counted[outcome]) this.inc({ outcome }, totals[outcome] - counted[outcome]);
        counted[outcome] = totals[outcome];
      }
    },
  });
}
