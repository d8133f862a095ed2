import { expect, it } from 'vitest';
import { describeEngine } from '../../helpers/harness.js';

// A frozen clock: every event and delivery has the same created_at.
const now = new Date('2026-11-23T12:00:00.000Z');

describeEngine(
  'delivery order within one millisecond',
  (h) => {
    it('GET deliveries is newest first by the order the events were emitted, in every page, when they share a millisecond', async () => {
      const org = await h.engine.organizations.create({ name: 'order', plan: 'paid' });
      const ws = h.engine.workspace(org.id);
      const hooks = [
        await ws.webhooks.create({ url: 'http://127.0.0.1:9/a', events: ['contact.created'] }),
        await ws.webhooks.create({ url: 'http://127.0.0.1:9/b', events: ['contact.created'] }),
      ];
      for (let i = 0; i < 12; i++) await ws.contacts.create({ externalUserId: `same-ms-${i}` });
      const expected = Array.from({ length: 12 }, (_, i) => `same-ms-${11 - i}`);
      for (const hook of hooks) {
        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await ws.webhooks.listDeliveries(hook.id, { limit: 5, ...(cursor ? { cursor } : {}) });
          seen.push(
            ...page.data.map((d) => (d.payload as { contact: { externalUserId: string } }).contact.externalUserId),
          );
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        expect(seen).toEqual(expected);
      }
    });
  },
  { clock: () => now, engine: { webhooks: { allowPrivateNetworks: true } } },
);
