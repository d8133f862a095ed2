import { expect, it } from 'vitest';
import { insertContact } from '../../src/engine/contacts/write.js';
import { createApp } from '../../src/h3/index.js';
import { describeEngine } from '../helpers/harness.js';

describeEngine('a change and its event commit together', (h) => {
  it('a transaction that fails after writing a contact and its event leaves neither', async () => {
    const org = await h.engine.organizations.create({ name: 'T', plan: 'paid' });
    await expect(
      h.engine.db.transaction(async (tx) => {
        const record = await insertContact(
          tx,
          org.id,
          {
            externalUserId: 'x',
            email: null,
            name: null,
            plan: null,
            mrrCents: null,
            currency: null,
            metadata: {},
            locale: null,
            source: 'admin',
            consentBasis: 'admin_created',
          },
          new Date(),
          null,
        );
        expect(record).not.toBeNull();
        // Inside the transaction both rows are visible...
        expect(await tx.all('SELECT id FROM event WHERE organization_id = ?', [org.id])).toHaveLength(1);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    // ...and after the rollback neither is.
    const ws = h.engine.workspace(org.id);
    expect(await ws.events.list()).toEqual([]);
    expect((await ws.contacts.list()).data).toEqual([]);
  });

  it('a refused identify (over the cap) writes no contact and no event', async () => {
    const org = await h.engine.organizations.create({ name: 'T', plan: 'free', contactCap: 0 });
    const ws = h.engine.workspace(org.id);
    await expect(ws.contacts.identify({ externalUserId: 'a' })).rejects.toMatchObject({
      code: 'ERR_PLAN_LIMIT',
      details: { limit: 0, current: 0, resource: 'contact' },
    });
    expect(await ws.events.list()).toEqual([]);
  });

  it('workspace() refuses to run without a workspace id', () => {
    expect(() => h.engine.workspace('')).toThrow(TypeError);
  });

  it('an unexpected failure answers 500 ERR_INTERNAL with the request id and no stack trace', async () => {
    const org = await h.engine.organizations.create({ name: 'T', plan: 'paid' });
    const key = await h.engine.keys.create(org.id, 'read:write');
    const logged: unknown[] = [];
    const app = createApp({ engine: h.engine, logError: (_m, e) => logged.push(e) });
    await h.engine.db.all('ALTER TABLE contact RENAME TO contact_moved');
    try {
      const res = await app.fetch(
        new Request('http://x/v1/contacts', { headers: { authorization: `Bearer ${key.key}` } }),
      );
      const body = await res.json();
      expect(res.status).toBe(500);
      expect(body.error.code).toBe('ERR_INTERNAL');
      expect(body.error.details.requestId).toBe(res.headers.get('x-request-id'));
      expect(JSON.stringify(body)).not.toMatch(/contact_moved|at .*\.ts|stack/i);
      expect(logged).toHaveLength(1);
    } finally {
      await h.engine.db.all('ALTER TABLE contact_moved RENAME TO contact');
    }
  });
});
