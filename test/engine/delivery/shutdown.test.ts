import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEngine } from '../../helpers/harness.js';
import { type Receiver, startReceiver } from '../../helpers/receiver.js';

// A scheduler told to stop sends nothing more: what it is sending finishes and is recorded, and what it had claimed
// but not started is given back at once (no lease left to lapse), for this or another process to send.

let receiver: Receiver;
let release: () => void = () => {};
beforeAll(async () => {
  receiver = await startReceiver(async (_req, res) => {
    await new Promise<void>((r) => (release = r));
    res.end('ok');
  });
});
afterAll(() => receiver.close());

describeEngine(
  'stopping the scheduler',
  (e) => {
    it('gives back the claims it has not started, and records the one in flight', async () => {
      const org = await e.engine.organizations.create({ name: 'stop', plan: 'paid' });
      const w = e.engine.workspace(org.id);
      for (let i = 0; i < 3; i++)
        await w.webhooks.create({ url: `${receiver.origin}/stop-${e.database}-${i}`, events: ['contact.created'] });
      for (let i = 0; i < 2; i++) await w.contacts.create({ externalUserId: `stop-${i}` });
      const total = 6;
      await e.engine.scheduler.start();
      const before = receiver.requests.length;
      await receiver.waitFor(before + 1); // one attempt in flight (concurrency 1), the receiver holding it
      const stopped = e.engine.scheduler.stop();
      await new Promise((r) => setTimeout(r, 200));
      release(); // the one in flight may now finish
      await stopped;
      expect(receiver.requests.length - before).toBe(1);
      const rows = await e.engine.db.all<{ status: string; lease_token: string | null }>(
        'SELECT status, lease_token FROM delivery',
      );
      expect(rows).toHaveLength(total);
      expect(rows.filter((r) => r.status === 'succeeded')).toHaveLength(1);
      const pending = rows.filter((r) => r.status === 'pending');
      expect(pending).toHaveLength(total - 1);
      // None waits for a lease to lapse: every unsent claim was given back.
      expect(pending.filter((r) => r.lease_token !== null)).toEqual([]);
    });
  },
  { engine: { webhooks: { allowPrivateNetworks: true, scheduler: { concurrency: 1, perWebhookConcurrency: 1 } } } },
);
