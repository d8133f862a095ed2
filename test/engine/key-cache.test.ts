import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { KEY_CACHE_MS } from '../../src/engine/services/keys.js';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../helpers/databases.js';

const POSTGRES = await postgresReachable();

for (const kind of ['sqlite', 'postgresql'] as const) {
  describe.skipIf(kind === 'postgresql' && !POSTGRES)(`authenticated keys kept in process [${kind}]`, () => {
    let db: TestDatabase;
    let server: Engine;
    let admin: Engine;
    let offset = 0;
    beforeAll(async () => {
      db = await createTestDatabase(kind);
      // Two engines on one database: a server, and another process (a CLI command, another instance).
      server = await createEngine({ database: db.url, clock: () => new Date(Date.now() + offset), log: () => {} });
      await server.migrate();
      admin = await createEngine({ database: db.url, log: () => {} });
    });
    afterAll(async () => {
      await admin.close();
      await server.close();
      await db.drop();
    });

    it('a key revoked by this engine is refused at once; revoked by another process, within KEY_CACHE_MS', async () => {
      const org = await server.organizations.create({ name: 'keys', plan: 'paid' });
      const [a, b] = [await server.keys.create(org.id, 'read'), await server.keys.create(org.id, 'read')];
      expect(await server.keys.authenticate(a.key)).toMatchObject({ keyId: a.id });
      await server.keys.revoke(a.id);
      expect(await server.keys.authenticate(a.key)).toBeNull();

      expect(await server.keys.authenticate(b.key)).toMatchObject({ keyId: b.id });
      await admin.keys.revoke(b.id);
      expect(await server.keys.authenticate(b.key)).toMatchObject({ keyId: b.id });
      offset += KEY_CACHE_MS + 1;
      expect(await server.keys.authenticate(b.key)).toBeNull();
    });

    it("a workspace's billing state changed by this engine applies to its keys at once; by another process, within KEY_CACHE_MS", async () => {
      const org = await server.organizations.create({ name: 'billing', plan: 'paid' });
      const key = await server.keys.create(org.id, 'read:write');
      expect(await server.keys.authenticate(key.key)).toMatchObject({ billingState: 'active' });
      await server.organizations.update(org.id, { billingState: 'read_only' });
      expect(await server.keys.authenticate(key.key)).toMatchObject({ billingState: 'read_only' });
      await admin.organizations.update(org.id, { billingState: 'active', rateLimit: 7 });
      expect(await server.keys.authenticate(key.key)).toMatchObject({ billingState: 'read_only' });
      offset += KEY_CACHE_MS + 1;
      expect(await server.keys.authenticate(key.key)).toMatchObject({ billingState: 'active', rateLimit: 7 });
    });

    it('an unknown key is not remembered: a key created by another process works at once', async () => {
      const org = await server.organizations.create({ name: 'new key', plan: 'paid' });
      expect(await server.keys.authenticate('fsk_notyetcreated')).toBeNull();
      const key = await admin.keys.create(org.id, 'read');
      expect(await server.keys.authenticate(key.key)).toMatchObject({ keyId: key.id });
    });
  });
}
