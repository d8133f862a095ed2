import { afterAll, beforeAll, expect, it } from 'vitest';
import { createEngine, type Engine, KEY_CACHE_MS } from '../../../src/engine/index.js';
import { describeEngine } from '../../helpers/harness.js';

describeEngine('authenticated keys kept in process', (h) => {
  // A second engine on the same database: another process (a CLI command, another instance), as far as the first can tell.
  let other: Engine;
  beforeAll(async () => {
    other = await createEngine({ database: h.url, log: () => {} });
  });
  afterAll(() => other.close());

  it('a key revoked by this engine is refused at once; revoked by another process, within KEY_CACHE_MS', async () => {
    const { keys, organizations } = h.engine;
    const org = await organizations.create({ name: 'keys', plan: 'paid' });
    const [a, b] = [await keys.create(org.id, 'read'), await keys.create(org.id, 'read')];
    expect(await keys.authenticate(a.key)).toMatchObject({ keyId: a.id });
    await keys.revoke(a.id);
    expect(await keys.authenticate(a.key)).toBeNull();

    expect(await keys.authenticate(b.key)).toMatchObject({ keyId: b.id });
    await other.keys.revoke(b.id);
    expect(await keys.authenticate(b.key)).toMatchObject({ keyId: b.id });
    h.advance(KEY_CACHE_MS + 1);
    expect(await keys.authenticate(b.key)).toBeNull();
  });

  it("a workspace's billing state changed by this engine applies to its keys at once; by another process, within KEY_CACHE_MS", async () => {
    const { keys, organizations } = h.engine;
    const org = await organizations.create({ name: 'billing', plan: 'paid' });
    const key = await keys.create(org.id, 'read:write');
    expect(await keys.authenticate(key.key)).toMatchObject({ billingState: 'active' });
    await organizations.update(org.id, { billingState: 'read_only' });
    expect(await keys.authenticate(key.key)).toMatchObject({ billingState: 'read_only' });
    await other.organizations.update(org.id, { billingState: 'active', rateLimit: 7 });
    expect(await keys.authenticate(key.key)).toMatchObject({ billingState: 'read_only' });
    h.advance(KEY_CACHE_MS + 1);
    expect(await keys.authenticate(key.key)).toMatchObject({ billingState: 'active', rateLimit: 7 });
  });

  it('an unknown key is not remembered: a key created by another process works at once', async () => {
    const org = await h.engine.organizations.create({ name: 'new key', plan: 'paid' });
    expect(await h.engine.keys.authenticate('fsk_notyetcreated')).toBeNull();
    const key = await other.keys.create(org.id, 'read');
    expect(await h.engine.keys.authenticate(key.key)).toMatchObject({ keyId: key.id });
  });
});
