import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, hashEmail, type Workspace } from '../../../src/engine/index.js';
import {
  createTestDatabase,
  POSTGRES_REQUIRED,
  postgresReachable,
  type TestDatabase,
} from '../../helpers/databases.js';
import { countsSince, portalWorkspace } from '../../helpers/notifications.js';
import { startSchedulerProcess } from '../../helpers/processes.js';
import { type SmtpSink, startSmtpSink } from '../../helpers/smtp.js';
import { until } from '../../helpers/wait.js';

const LEASE_MS = 2000;

/** Run `fn` for each item, `width` at a time. */
async function inBatches<T>(items: T[], width: number, fn: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(fn));
}

/**
 * 1,000 voters on one post, in every way one can come to vote: 650 may be emailed about it, 350 may not. Returns the
 * addresses of each kind.
 */
async function thousandVoters(ws: Workspace, postId: string) {
  const make = (kind: string, n: number) => Array.from({ length: n }, (_, i) => `${kind}${i}@voters.example.com`);
  const kinds = {
    identified: make('identified', 350),
    optedIn: make('optedin', 300),
    silent: make('silent', 100),
    legacy: make('legacy', 100),
    adminCreated: make('admin', 50),
    unsubscribed: make('unsub', 50),
    noPostUpdates: make('noposts', 50),
  };
  await inBatches(kinds.identified, 25, async (email) => {
    const userId = `u-${email}`;
    await ws.contacts.identify({ externalUserId: userId, email });
    await ws.participation.vote({ postId, email, userId, vouched: true, notifyMe: false });
  });
  await inBatches(kinds.optedIn, 25, (email) => ws.participation.vote({ postId, email, notifyMe: true }));
  await inBatches(kinds.silent, 25, (email) => ws.participation.vote({ postId, email, notifyMe: false }));
  await ws.contacts.backfill(
    kinds.legacy.map((email) => ({
      email,
      firstSeenAt: '2024-01-01T00:00:00.000Z',
      lastSeenAt: '2024-06-01T00:00:00.000Z',
    })),
  );
  await inBatches(kinds.legacy, 25, (email) => ws.participation.vote({ postId, email, notifyMe: true }));
  await inBatches(kinds.adminCreated, 25, async (email) => {
    await ws.contacts.create({ email });
    await ws.participation.vote({ postId, email, notifyMe: true });
  });
  await inBatches(kinds.unsubscribed, 25, async (email) => {
    const vote = await ws.participation.vote({ postId, email, notifyMe: true });
    await ws.notifications.unsubscribe(
      { organizationId: ws.organizationId, contactId: vote.contactId!, emailHash: hashEmail(email)! },
      'one_click',
    );
  });
  await inBatches(kinds.noPostUpdates, 25, async (email) => {
    const userId = `u-${email}`;
    const { contact } = await ws.contacts.identify({ externalUserId: userId, email });
    await ws.participation.vote({ postId, email, userId, vouched: true, notifyMe: false });
    await ws.notifications.updatePreferences(
      { organizationId: ws.organizationId, contactId: contact.id, emailHash: hashEmail(email)! },
      { posts: false },
    );
  });
  return { kinds, consenting: [...kinds.identified, ...kinds.optedIn] };
}

const POSTGRES = await postgresReachable();
if (!POSTGRES && POSTGRES_REQUIRED) throw new Error('PostgreSQL is required here');

for (const kind of ['sqlite', 'postgresql'] as const) {
  describe.skipIf(kind === 'postgresql' && !POSTGRES)(`1,000 voters and a worker killed mid-batch [${kind}]`, () => {
    let db: TestDatabase;
    let engine: Engine;
    let smtp: SmtpSink;
    beforeAll(async () => {
      db = await createTestDatabase(kind);
      engine = await createEngine({ database: db.url, log: () => {} });
      await engine.migrate();
      smtp = await startSmtpSink();
    }, 120_000);
    afterAll(async () => {
      await smtp?.close();
      await engine?.close();
      await db?.drop();
    });

    it('a status change sends each consenting voter exactly one email and none to the others, also when the worker is killed mid-batch and restarted', async () => {
      const { ws, post } = await portalWorkspace(engine);
      const { kinds, consenting } = await thousandVoters(ws, post.id);
      expect(consenting).toHaveLength(650);
      expect((await ws.posts.retrieve(post.id)).voteCount).toBe(1000);

      await ws.posts.update(post.id, { status: 'shipped' });
      const env = { DATABASE_URL: db.url, SMTP_URL: smtp.url, LEASE_MS: String(LEASE_MS) };
      // The worst moment for a sender: messages arrived in full, their acceptance not yet sent. From the 250th on,
      // the server keeps what arrives and answers nothing; once every connection waits on it, the worker dies.
      const held = smtp.holdFrom(250);
      const first = await startSchedulerProcess(env);
      await held;
      await new Promise((r) => setTimeout(r, 300));
      await first.kill();
      const atKill = smtp.mails.length;
      const sentAtKill = Number(
        (await engine.db.one<{ n: unknown }>("SELECT count(*) AS n FROM mail WHERE status = 'sent'"))!.n,
      );
      // Every message the server holds in full was recorded as handed over before its last line, and nothing else.
      expect(sentAtKill).toBe(atKill);
      expect(atKill).toBeGreaterThanOrEqual(250);
      expect(atKill).toBeLessThan(650);

      smtp.release();
      const second = await startSchedulerProcess(env);
      try {
        await until('every consenting voter to have a message', async () => smtp.mails.length >= 650);
        // Nothing more comes: leases of the dead worker have lapsed and every row is settled.
        await until(
          'the outbox to be settled',
          async () =>
            Number(
              (await engine.db.one<{ n: unknown }>("SELECT count(*) AS n FROM mail WHERE status <> 'sent'"))!.n,
            ) === 0,
        );
        await new Promise((r) => setTimeout(r, LEASE_MS));
      } finally {
        await second.stop();
      }

      const counts = countsSince(smtp, 0);
      expect(smtp.mails).toHaveLength(650);
      for (const email of consenting) expect(counts.get(email), email).toBe(1);
      for (const email of [
        ...kinds.silent,
        ...kinds.legacy,
        ...kinds.adminCreated,
        ...kinds.unsubscribed,
        ...kinds.noPostUpdates,
      ])
        expect(counts.get(email), email).toBeUndefined();
      expect(
        Number((await engine.db.one<{ n: unknown }>("SELECT count(*) AS n FROM mail WHERE status = 'sent'"))!.n),
      ).toBe(650);
    }, 180_000);
  });
}
