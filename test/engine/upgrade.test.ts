import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../../src/engine/index.js';
import { MIGRATIONS } from '../../src/engine/migrations/index.js';
import { createSecretBox } from '../../src/engine/secrets/keys.js';

// test/fixtures/sqlite-0.1.0.db was written by release 0.1.0 on node-sqlite3 (make-sqlite-0.1.0.ts), and
// sqlite-0.1.0.reads.json is what that release read back from it.
const fixtures = join(import.meta.dirname, '../fixtures');
const ids = JSON.parse(readFileSync(join(fixtures, 'sqlite-0.1.0.json'), 'utf8'));
const before = JSON.parse(readFileSync(join(fixtures, 'sqlite-0.1.0.reads.json'), 'utf8'));
const RELEASE_0_1_0_MIGRATIONS = 5;
const byId = <T extends { id: string }>(rows: T[]) => [...rows].sort((a, b) => (a.id < b.id ? -1 : 1));

describe('a SQLite database made by release 0.1.0 (node-sqlite3)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-upgrade-'));
  let engine: Engine;
  let applied: string[];
  let clearSecrets: { id: string; secret: string }[];
  beforeAll(async () => {
    copyFileSync(join(fixtures, 'sqlite-0.1.0.db'), join(dir, 'old.db'));
    engine = await createEngine({ database: join(dir, 'old.db'), log: () => {} });
    clearSecrets = await engine.db.all('SELECT id, secret FROM webhook ORDER BY id');
    applied = await engine.migrate();
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('migrates with only the migrations added since 0.1.0', () => {
    expect(applied).toEqual(MIGRATIONS.sqlite.slice(RELEASE_0_1_0_MIGRATIONS).map((m) => m.name));
  });

  it('seals the webhook secrets 0.1.0 kept in clear, each still opening to the same secret', async () => {
    expect(clearSecrets.length).toBeGreaterThan(0);
    const box = createSecretBox({ current: process.env.FEEDBACK_SECRET_KEY! });
    for (const { id, secret } of clearSecrets) {
      expect(secret).toMatch(/^whsec_/);
      const now = (await engine.db.one<{ secret: string }>('SELECT secret FROM webhook WHERE id = ?', [id]))!.secret;
      expect(now).toMatch(/^fs1:/);
      expect(now).not.toContain(secret.slice(6));
      expect(box.open(now, `webhook:${id}`)).toBe(secret);
    }
  });

  it('reads back every row as release 0.1.0 read it', async () => {
    const ws = engine.workspace(ids.organizationId);
    expect((await ws.contacts.list({ limit: 100 })).data).toMatchObject(before.contacts);
    expect((await ws.contacts.list({ sort: 'mrr', limit: 100 })).data.map((c) => c.id)).toEqual(before.contactsByMrr);
    expect(await ws.contacts.retrieve(ids.contactId)).toMatchObject(before.contact);
    expect((await ws.posts.listForContact(ids.contactId)).data).toMatchObject(before.contactPosts);
    expect((await ws.boards.list()).data).toMatchObject(before.boards);
    expect(await ws.tags.list()).toMatchObject(before.tags);
    expect(await ws.changelog.list(ids.boardId)).toMatchObject(before.changelog);
    expect((await ws.webhooks.list()).data).toMatchObject(before.webhooks);
    // The same deliveries; within one millisecond they now list in the order their events were emitted (0.1.0 left
    // that to their ids' random tails).
    for (const [webhookId, old] of [
      [ids.okWebhookId, before.okDeliveries],
      [ids.failWebhookId, before.failDeliveries],
    ]) {
      const now = (await ws.webhooks.listDeliveries(webhookId, { limit: 100 })).data;
      expect(byId(now)).toMatchObject(byId(old));
      const key = (d: { createdAt: string; eventId: string; id: string }) => [d.createdAt, d.eventId, d.id].join(' ');
      expect(now.map(key)).toEqual(now.map(key).sort().reverse());
    }
    expect(await ws.events.list()).toMatchObject(before.events);
    expect(await engine.organizations.get(ids.organizationId)).toMatchObject(before.organization);
    expect(await engine.organizations.get(ids.freeOrganizationId)).toMatchObject(before.freeOrganization);
    expect(await engine.keys.authenticate(ids.key)).toMatchObject(before.key);
    expect(await engine.keys.authenticate(ids.revokedKey)).toBeNull();
  });

  it('takes writes on the old rows: an identify that changes a trait, and a new contact past the old ones', async () => {
    const ws = engine.workspace(ids.organizationId);
    const { contact, created } = await ws.contacts.identify({ externalUserId: 'u_ada', plan: 'team' });
    expect(created).toBe(false);
    expect(contact).toMatchObject({ id: ids.contactId, plan: 'team', metadata: before.contact.metadata });
    const fresh = await ws.contacts.identify({ externalUserId: 'after-upgrade' });
    expect(fresh.created).toBe(true);
    const events = await ws.events.list();
    expect(events.slice(-2).map((e) => e.type)).toEqual(['contact.updated', 'contact.created']);
    // The old fan-out trigger still writes deliveries for the subscribed webhooks.
    const deliveries = (await ws.webhooks.listDeliveries(ids.okWebhookId, { limit: 100 })).data;
    expect(deliveries.length).toBe(before.okDeliveries.length + 2);
  });
});
