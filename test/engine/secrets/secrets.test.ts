import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_ACTOR, createEngine, type Engine, generateSecretKey, secretKeyFileOf } from '../../../src/engine/index.js';
import { verifyWebhook } from '../../../src/verify/node.js';
import { createTestDatabase, postgresReachable, type TestDatabase } from '../../helpers/databases.js';
import { describeMatrix } from '../../helpers/harness.js';
import { type Receiver, startReceiver } from '../../helpers/receiver.js';

const POSTGRES = await postgresReachable();

/** Every stored column of the tables that could hold a secret, as one text: what a database dump shows. */
async function dump(engine: Engine): Promise<string> {
  const webhooks = await engine.db.all('SELECT * FROM webhook');
  const answers = await engine.db.all('SELECT * FROM idempotency_key');
  return JSON.stringify([webhooks, answers]);
}

describeMatrix(
  'webhook secrets at rest',
  (h) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());

    it('are sealed in the webhook table and in a kept registration answer, which still replays the secret', async () => {
      const ws = await h.seed({ plan: 'paid' });
      const body = { url: `${receiver.origin}/sealed`, events: ['contact.created'] };
      const first = await h.request('POST', '/v1/webhooks', {
        key: ws.key,
        body,
        headers: { 'idempotency-key': 'lost-answer' },
      });
      expect(first.status).toBe(201);
      const secret: string = first.body.data.secret;
      // The client lost the first answer: the repeat within 24 h returns the secret again.
      const again = await h.request('POST', '/v1/webhooks', {
        key: ws.key,
        body,
        headers: { 'idempotency-key': 'lost-answer' },
      });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(again.body.data.secret).toBe(secret);

      const stored = await dump(h.engine);
      expect(stored).not.toContain(secret);
      expect(stored).not.toContain(secret.slice('whsec_'.length, 20));
      const row = (await h.engine.db.one<{ secret: string }>('SELECT secret FROM webhook WHERE id = ?', [
        first.body.data.id,
      ]))!;
      expect(row.secret).toMatch(new RegExp(`^fs1:${h.engine.secretKeyId}:[A-Za-z0-9_-]+$`));

      // Deliveries are signed with the secret itself.
      await h.request('POST', '/v1/contacts', { key: ws.key, body: { externalUserId: 'sealed-1' } });
      await h.engine.scheduler.runDue();
      const delivered = receiver.requests.find((r) => r.path === '/sealed')!;
      const verified = await verifyWebhook(delivered.body, delivered.headers as Record<string, string>, { secret });
      expect(verified.eventKind).toBe('contact.created');
    });
  },
  { engine: { webhooks: { allowPrivateNetworks: true } }, transports: ['fetch'] },
);

for (const dialect of ['sqlite', 'postgresql'] as const) {
  describe.skipIf(dialect === 'postgresql' && !POSTGRES)(`key rotation [${dialect}]`, () => {
    let db: TestDatabase;
    let receiver: Receiver;
    const engines: Engine[] = [];
    const open = async (current: string, fallbacks: string[] = []) => {
      const engine = await createEngine({
        database: db.url,
        log: () => {},
        secretKeys: { current, fallbacks },
        webhooks: { allowPrivateNetworks: true },
      });
      engines.push(engine);
      await engine.migrate();
      return engine;
    };
    beforeAll(async () => {
      db = await createTestDatabase(dialect);
      receiver = await startReceiver();
    });
    afterAll(async () => {
      for (const e of engines) await e.close();
      await receiver.close();
      await db.drop();
    });

    it('an old key as fallback still signs; rotate reseals under the new key; the old key alone then cannot', async () => {
      const oldKey = generateSecretKey();
      const newKey = generateSecretKey();
      const a = await open(oldKey);
      const org = await a.organizations.create({ name: 'rotating', plan: 'paid' });
      const created = await a
        .workspace(org.id)
        .webhooks.create({ url: `${receiver.origin}/rotate`, events: ['contact.created'] });
      await a.idempotency.begin(org.id, 'kept', 'f'.repeat(64));
      await a.idempotency.complete(org.id, 'kept', 201, JSON.stringify({ data: created }));
      // The portal's token secret, mid-rotation: the current one and the previous one in its grace period.
      const { secret: oldPortalSecret } = await a.workspace(org.id).participation.secret.create();
      const { secret: portalSecret } = await a.workspace(org.id).participation.secret.rotate(3600);

      // Step 2 of docs/security.md: the new key is current, the old one a fallback.
      const b = await open(newKey, [oldKey]);
      const deliver = async (engine: Engine, externalUserId: string) => {
        const before = receiver.requests.length;
        await engine.workspace(org.id).contacts.create({ externalUserId });
        await engine.scheduler.runDue();
        return receiver.requests.slice(before);
      };
      const [signed] = await deliver(b, 'during-rotation');
      expect(
        (await verifyWebhook(signed!.body, signed!.headers as Record<string, string>, { secret: created.secret }))
          .eventKind,
      ).toBe('contact.created');

      // An invitation's mail not sent yet, sealed under the old key: the reseal takes it too.
      await a
        .workspace(org.id)
        .team.add(CLI_ACTOR, { email: 'invitee@example.com', role: 'viewer' }, { invite: true, workspace: 'rotating' });
      const report = await b.rotateSecrets();
      expect(report).toEqual({
        webhookSecrets: 1,
        idempotentAnswers: 1,
        portalSecrets: 1,
        ssoSecrets: 0,
        accountMail: 1,
        integrationCredentials: 0,
        unopenable: 0,
      });
      expect(await b.rotateSecrets()).toEqual({
        webhookSecrets: 0,
        idempotentAnswers: 0,
        portalSecrets: 0,
        ssoSecrets: 0,
        accountMail: 0,
        integrationCredentials: 0,
        unopenable: 0,
      });
      const kept = await b.idempotency.begin(org.id, 'kept', 'f'.repeat(64));
      expect(kept.kind === 'replay' && JSON.parse(kept.body).data.secret).toBe(created.secret);

      // Step 4: the old key is dropped; the new one alone signs.
      const c = await open(newKey);
      const [after] = await deliver(c, 'after-rotation');
      // The new key alone opened the invitation's mail: it went.
      expect(
        await c.db.one("SELECT status FROM mail WHERE kind = 'team_invitation' AND email = ?", ['invitee@example.com']),
      ).toEqual({ status: 'sent' });
      expect(
        (await verifyWebhook(after!.body, after!.headers as Record<string, string>, { secret: created.secret }))
          .deliveryId,
      ).toBeTruthy();
      for (const [i, secret] of [oldPortalSecret, portalSecret].entries()) {
        const token = await new SignJWT({ email: `p${i}@example.com` })
          .setProtectedHeader({ alg: 'HS256' })
          .setSubject(`p${i}`)
          .setAudience(org.id)
          .setExpirationTime('5m')
          .sign(new TextEncoder().encode(secret));
        expect((await c.workspace(org.id).participation.signIn(token)).identity.externalUserId).toBe(`p${i}`);
      }

      // A server left with only the old key sends nothing, and says why in the deliveries log.
      const d = await open(oldKey);
      expect(await deliver(d, 'wrong-key')).toEqual([]);
      const deliveries = (await d.workspace(org.id).webhooks.listDeliveries(created.id, { limit: 1 })).data;
      expect(deliveries[0]!.attempts[0]!.error).toMatch(
        /not sent: .*sealed with key [0-9a-f]{8}, which is not configured/,
      );
      expect(deliveries[0]!.attempts[0]!.error).not.toContain(newKey);
      expect(await d.rotateSecrets()).toEqual({
        webhookSecrets: 0,
        idempotentAnswers: 0,
        portalSecrets: 0,
        ssoSecrets: 0,
        accountMail: 0,
        integrationCredentials: 0,
        unopenable: 3,
      });
    });

    it('a sealed secret moved to another webhook row does not open there', async () => {
      const key = generateSecretKey();
      const e = await open(key);
      const org = await e.organizations.create({ name: 'moved', plan: 'paid' });
      const one = await e
        .workspace(org.id)
        .webhooks.create({ url: `${receiver.origin}/one`, events: ['contact.deleted'] });
      const two = await e
        .workspace(org.id)
        .webhooks.create({ url: `${receiver.origin}/two`, events: ['contact.deleted'] });
      const sealed = (await e.db.one<{ secret: string }>('SELECT secret FROM webhook WHERE id = ?', [one.id]))!.secret;
      await e.db.run('UPDATE webhook SET secret = ? WHERE id = ?', [sealed, two.id]);
      const contact = await e.workspace(org.id).contacts.create({ externalUserId: 'moved' });
      await e.workspace(org.id).contacts.delete(contact.id);
      await e.scheduler.runDue();
      const attempt = (await e.workspace(org.id).webhooks.listDeliveries(two.id, { limit: 1 })).data[0]!.attempts[0]!;
      expect(attempt.error).toMatch(/does not open .*altered or moved/);
    });
  });
}

describe('the key of the embedded default', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-keyfile-'));
  const saved = process.env.FEEDBACK_SECRET_KEY;
  beforeAll(() => {
    delete process.env.FEEDBACK_SECRET_KEY;
  });
  afterAll(() => {
    process.env.FEEDBACK_SECRET_KEY = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it('is a key file beside the database, created on first start with mode 0600, and kept', async () => {
    const database = join(dir, 'feedback.db');
    const lines: string[] = [];
    const first = await createEngine({ database, log: (m) => lines.push(m), webhooks: { allowPrivateNetworks: true } });
    await first.migrate();
    const file = secretKeyFileOf(database);
    expect(file).toBe(join(dir, 'feedback.db.key'));
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readFileSync(file, 'utf8').trim();
    expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(lines.join('\n')).toContain('feedback.db.key');
    expect(lines.join('\n')).not.toContain(key);
    const org = await first.organizations.create({ name: 'file', plan: 'paid' });
    await first.workspace(org.id).webhooks.create({ url: 'http://127.0.0.1:9/hook', events: ['contact.created'] });
    await first.close();

    const second = await createEngine({ database, log: (m) => lines.push(m) });
    expect(second.secretKeyId).toBe(first.secretKeyId);
    expect(readFileSync(file, 'utf8').trim()).toBe(key);
    // The secret sealed by the first start opens under the kept key: nothing to reseal, nothing unopenable.
    expect(await second.rotateSecrets()).toEqual({
      webhookSecrets: 0,
      idempotentAnswers: 0,
      portalSecrets: 0,
      ssoSecrets: 0,
      accountMail: 0,
      integrationCredentials: 0,
      unopenable: 0,
    });
    await second.close();
  });

  it.skipIf(!POSTGRES)('PostgreSQL without FEEDBACK_SECRET_KEY refuses to start, saying what to set', async () => {
    const pgdb = await createTestDatabase('postgresql');
    try {
      await expect(createEngine({ database: pgdb.url })).rejects.toThrow(
        /PostgreSQL needs FEEDBACK_SECRET_KEY.*secrets generate-key/,
      );
    } finally {
      await pgdb.drop();
    }
  });

  it('a malformed key is refused with a message that says how to make one', async () => {
    await expect(createEngine({ database: ':memory:', secretKeys: { current: 'hunter2' } })).rejects.toThrow(
      /FEEDBACK_SECRET_KEY must be 32 random bytes.*generate-key/,
    );
  });
});
