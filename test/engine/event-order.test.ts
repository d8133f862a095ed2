import { expect, it } from 'vitest';
import { describeEngine } from '../helpers/harness.js';

// A clock that steps back 5 ms at every reading: what a change sees when the instance that writes it has a clock behind
// the one that wrote the change before (several instances on one database), or when a request read the clock before
// a concurrent change committed. Events of one thing must still be in time order as they are in version order.
let now = Date.parse('2026-11-25T12:00:00.000Z');
const steppingBack = () => new Date((now -= 5));

describeEngine(
  'the events of one thing are ordered by time as by version',
  (h) => {
    it('identify, PATCH and DELETE of one contact: each event later than the one before, and each from the previous to', async () => {
      const org = await h.engine.organizations.create({ name: 'Order', plan: 'paid' });
      const ws = h.engine.workspace(org.id);
      const { contact } = await ws.contacts.identify({ externalUserId: 'u', name: 'n0' });
      for (let i = 1; i <= 4; i++) await ws.contacts.identify({ externalUserId: 'u', name: `n${i}` });
      await ws.contacts.update(contact.id, { plan: 'pro' });
      await ws.contacts.delete(contact.id);
      const events = await ws.events.list();
      expect(events.map((e) => e.type)).toEqual([
        'contact.created',
        ...Array(5).fill('contact.updated'),
        'contact.deleted',
      ]);
      const times = events.map((e) => Date.parse(e.createdAt));
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]!);
      // Listed in (time, id) order, the chain of changes reads n0 -> n1 -> ... -> n4.
      const names = events
        .filter((e) => e.type === 'contact.updated' && 'changes' in e.payload && e.payload.changes.name)
        .map((e) => (e.payload as any).changes.name);
      expect(names).toEqual([1, 2, 3, 4].map((i) => ({ from: `n${i - 1}`, to: `n${i}` })));
      // The contact's own times agree with its events.
      const updated = events
        .filter((e) => e.type === 'contact.updated')
        .map((e) => (e.payload as any).contact.updatedAt);
      expect(updated).toEqual(events.filter((e) => e.type === 'contact.updated').map((e) => e.createdAt));
    });

    it('status changes of one post: each post.status_changed later than the one before', async () => {
      const org = await h.engine.organizations.create({ name: 'Posts', plan: 'paid' });
      const ws = h.engine.workspace(org.id);
      const board = await ws.boards.create({ name: 'Ideas' });
      const post = await ws.posts.create(board.id, { title: 'Dark mode' });
      for (const status of ['under_review', 'planned', 'in_progress', 'shipped'] as const)
        await ws.posts.update(post.id, { status });
      const changes = (await ws.events.list({ type: 'post.status_changed' })).map((e) => e.payload as any);
      expect(changes.map((c) => [c.previousStatus, c.post.status])).toEqual([
        ['open', 'under_review'],
        ['under_review', 'planned'],
        ['planned', 'in_progress'],
        ['in_progress', 'shipped'],
      ]);
    });

    it('an erasure after changes: contact.deleted later than the last contact.updated', async () => {
      const org = await h.engine.organizations.create({ name: 'Erase', plan: 'paid' });
      const ws = h.engine.workspace(org.id);
      const { contact } = await ws.contacts.identify({ externalUserId: 'e', email: 'e@example.com', name: 'a' });
      await ws.contacts.identify({ externalUserId: 'e', name: 'b' });
      await ws.privacy.erase(contact.id);
      const events = await ws.events.list();
      expect(events.map((e) => e.type)).toEqual(['contact.created', 'contact.updated', 'contact.deleted']);
    });
  },
  { clock: steppingBack },
);
