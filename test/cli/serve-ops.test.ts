import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/index.js';
import { CLI_ARGS } from '../helpers/cli.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';
import { until } from '../helpers/wait.js';

// A real `serve` process, watched from outside as an operator would: its log lines on stderr, /metrics, and SIGTERM.

const METRICS_TOKEN = 'metrics-token-for-tests';

describe('serve, operated', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-ops-'));
  let child: ChildProcessWithoutNullStreams;
  let stderr = '';
  let info: { url: string; bootstrap: { apiKey: string; organizationId: string } };
  let receiver: Receiver;
  let slow = false;
  const call = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
    fetch(`${info.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${info.bootstrap.apiKey}`, 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  const lines = () =>
    stderr
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>);

  beforeAll(async () => {
    receiver = await startReceiver(async (_req, res) => {
      if (slow) await new Promise((r) => setTimeout(r, 1500));
      res.end('ok');
    });
    child = spawn(
      process.execPath,
      [
        ...CLI_ARGS,
        'serve',
        '--port',
        '0',
        '--json',
        '--allow-private-networks',
        '--metrics',
        '--db',
        join(dir, 'ops.db'),
      ],
      {
        cwd: dir,
        env: { ...process.env, FEEDBACK_METRICS_TOKEN: METRICS_TOKEN, LOG_LEVEL: 'info' },
      },
    );
    child.stderr.on('data', (d) => (stderr += d));
    info = await new Promise((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]!));
      });
      child.once('exit', (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
    });
  });
  afterAll(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('logs one JSON line per request and per delivery attempt, with ids and durations and never a key, secret or email', async () => {
    const hook = await (
      await call('POST', '/v1/webhooks', { url: `${receiver.origin}/ops`, events: ['contact.created'] })
    ).json();
    const secret: string = hook.data.secret;
    expect(
      (await call('POST', '/v1/contacts/identify', { externalUserId: 'ops-1', email: 'ada.lovelace@example.com' }))
        .status,
    ).toBe(201);
    await receiver.waitFor(1);
    await until(
      "the attempt's line, which follows its recording",
      () => lines().some((l) => /delivery attempt/.test(l.msg)),
      10_000,
    );
    const access = lines().find((l) => l.msg === 'request' && l.route === '/v1/contacts/identify');
    expect(access).toMatchObject({
      level: 30,
      method: 'POST',
      status: 201,
      keyId: expect.stringMatching(/^key_/),
      organizationId: info.bootstrap.organizationId,
      reqId: expect.stringMatching(/^req_/),
      durationMs: expect.any(Number),
      service: 'feedback-service',
    });
    expect(lines().find((l) => l.route === '/v1/webhooks' && l.method === 'POST')?.status).toBe(201);
    const attempt = lines().find((l) => /delivery attempt/.test(l.msg));
    expect(attempt).toMatchObject({
      webhookId: hook.data.id,
      deliveryId: expect.stringMatching(/^dlv_/),
      attempt: 1,
      status: 200,
      ok: true,
      durationMs: expect.any(Number),
    });
    for (const leak of [info.bootstrap.apiKey, secret, 'ada.lovelace@example.com']) expect(stderr).not.toContain(leak);
  });

  it('serves Prometheus metrics behind their own token', async () => {
    // A status change that mails one voter (the contact identified above, so no new contact and no delivery): this
    // server has no SMTP, so the message is a log line, address masked.
    const engine = await createEngine({ database: join(dir, 'ops.db'), log: () => {} });
    const w = engine.workspace(info.bootstrap.organizationId);
    const board = await w.boards.create({ name: 'Ideas' });
    const post = await w.posts.create(board.id, { title: 'Dark mode' });
    await w.participation.vote({ postId: post.id, email: 'ada.lovelace@example.com', notifyMe: true });
    await engine.close();
    expect((await call('PATCH', `/v1/posts/${post.id}`, { status: 'planned' })).status).toBe(200);
    await until("the mail's log line", () => stderr.includes('mail not sent (no SMTP server configured)'));
    const mailLine = lines().find((l) =>
      /^mail not sent \(no SMTP server configured\): post_status to a\*\*\*@example\.com/.test(l.msg),
    );
    expect(mailLine).toBeDefined();
    // No live link (the unsubscribe token) and no address in the log.
    expect(stderr).not.toContain('?t=');
    expect(stderr).not.toContain('ada.lovelace@example.com');

    expect((await fetch(`${info.url}/metrics`)).status).toBe(401);
    expect(
      (await fetch(`${info.url}/metrics`, { headers: { authorization: `Bearer ${info.bootstrap.apiKey}` } })).status,
    ).toBe(401);
    const res = await fetch(`${info.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(text).toMatch(
      /feedback_http_requests_total\{route="\/v1\/contacts\/identify",method="POST",status="201"\} 1\b/,
    );
    expect(text).toMatch(
      /feedback_http_request_duration_seconds_bucket\{le="[^"]+",route="\/v1\/contacts\/identify",method="POST"\} 1\b/,
    );
    expect(text).toMatch(/feedback_identify_total\{outcome="created"\} 1\b/);
    expect(text).toMatch(/feedback_delivery_attempts_total\{outcome="succeeded"\} 1\b/);
    expect(text).toMatch(/feedback_deliveries_due \d+/);
    expect(text).toMatch(/feedback_deliveries_oldest_due_age_seconds [\d.]+/);
    expect(text).toMatch(/feedback_webhooks_disabled 0/);
    expect(text).toMatch(/feedback_mail_total\{outcome="sent"\} 1\b/);
    expect(text).toMatch(/feedback_mail_due 0\b/);
    expect(text).toMatch(/feedback_process_cpu_seconds_total/);
    // Raw paths (ids) never become labels.
    expect(text).not.toMatch(/route="\/v1\/contacts\/ctc_/);
  });

  it('on SIGTERM answers what is in flight, commits every acknowledged write, and leaves no delivery waiting on a lease', async () => {
    slow = true;
    const answered: string[] = [];
    const load = Array.from({ length: 60 }, (_, i) =>
      call('POST', '/v1/contacts/identify', { externalUserId: `term-${i}` })
        .then((res) => {
          if (res.status === 201) answered.push(`term-${i}`);
          return res.status;
        })
        .catch(() => 'refused'),
    );
    // Deliveries to a slow receiver are in flight (and more are claimed behind them) when the signal comes.
    await receiver.waitFor(3);
    child.kill('SIGTERM');
    const outcomes = await Promise.all(load);
    const code = await new Promise<number | null>((resolve) =>
      child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', resolve),
    );
    expect(code).toBe(0);
    expect(outcomes.every((o) => o === 201 || o === 'refused')).toBe(true);
    expect(answered.length).toBeGreaterThan(0);

    const engine = await createEngine({ database: join(dir, 'ops.db'), log: () => {} });
    try {
      const stored = new Set(
        (await engine.workspace(info.bootstrap.organizationId).contacts.list({ limit: 100 })).data.map(
          (c) => c.externalUserId,
        ),
      );
      for (const id of answered) expect(stored.has(id), id).toBe(true);
      const held = await engine.db.one<{ n: number }>(
        "SELECT count(*) AS n FROM delivery WHERE status = 'pending' AND lease_token IS NOT NULL",
      );
      expect(Number(held!.n)).toBe(0);
    } finally {
      await engine.close();
    }
    expect(lines().some((l) => l.msg === 'stopped')).toBe(true);
  });
});
