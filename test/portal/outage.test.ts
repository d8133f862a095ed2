import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine, hashEmail } from '../../src/engine/index.js';
import { createApp } from '../../src/h3/index.js';
import { createPortal } from '../../src/portal/index.js';
import { portalWorkspace } from '../helpers/notifications.js';

describe('the portal while SQLite is held by another process [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-outage-'));
  const file = join(dir, 'test.db');
  let engine: Engine;
  beforeAll(async () => {
    engine = await createEngine({ database: file, log: () => {} });
    await engine.migrate();
  });
  afterAll(async () => {
    await engine?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a write that cannot get the lock within the busy timeout answers 503 with Retry-After and a page, not 500', async () => {
    const { org, ws, post } = await portalWorkspace(engine);
    const vote = await ws.participation.vote({ postId: post.id, email: 'held@example.com', notifyMe: true });
    const token = await engine.mailLinks.sign({
      organizationId: org.id,
      contactId: vote.contactId!,
      emailHash: hashEmail('held@example.com')!,
    });
    const app = createApp({ engine, logError: () => {}, sites: [createPortal({ engine })] });
    // Another process (a CLI command, a backup) holds the write lock past the 5 s busy timeout.
    const other = new Database(file);
    other.exec('BEGIN IMMEDIATE');
    let res: Response;
    try {
      res = await app.fetch(
        new Request(`http://x/portal/mail/unsubscribe?t=${encodeURIComponent(token)}`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: 'List-Unsubscribe=One-Click',
        }),
      );
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    const html = await res.text();
    expect(html).toContain('it was not saved');
    // Once the lock is free, the same request works.
    const again = await app.fetch(
      new Request(`http://x/portal/mail/unsubscribe?t=${encodeURIComponent(token)}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      }),
    );
    expect(again.status).toBe(200);
  });
});
