import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { createEngine } from '../../../src/engine/index.js';

const dir = mkdtempSync(join(tmpdir(), 'feedback-checkpoint-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it('a SQLite file is checkpointed in the background: writes reach the database file long before the writing connection would checkpoint, and a reopened file has every write', async () => {
  const file = join(dir, 'bg.db');
  const engine = await createEngine({ database: file, log: () => {} });
  await engine.migrate();
  const org = await engine.organizations.create({ name: 'checkpoint', plan: 'paid' });
  const ws = engine.workspace(org.id);
  const sizeBefore = statSync(file).size;
  // About 1,500 WAL pages: the writing connection checkpoints by itself only at SAFETY_NET_PAGES (50,000).
  for (let i = 0; i < 300; i++)
    await ws.contacts.identify({
      externalUserId: `c${i}`,
      email: `c${i}@example.com`,
      metadata: { i, pad: 'x'.repeat(200) },
    });
  const deadline = Date.now() + 5000;
  while (statSync(file).size <= sizeBefore && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  expect(statSync(file).size).toBeGreaterThan(sizeBefore);
  expect((await ws.contacts.list({ limit: 100 })).data).toHaveLength(100);
  await engine.close();
  const reopened = await createEngine({ database: file, log: () => {} });
  expect(
    (
      await reopened
        .workspace(org.id)
        .contacts.retrieve((await reopened.workspace(org.id).contacts.identify({ externalUserId: 'c299' })).contact.id)
    ).metadata,
  ).toMatchObject({ i: 299 });
  expect((await reopened.workspace(org.id).contacts.list({ limit: 100, sort: 'created' })).nextCursor).not.toBeNull();
  await reopened.close();
});
