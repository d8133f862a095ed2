import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, it } from 'vitest';
import { type Engine, FeedbackError, type Workspace } from '../../src/engine/index.js';
import { describeEngine } from '../helpers/harness.js';

// Identify's guarantees while writes are grouped (SQLite commits the small writes of one turn together; see
// engine/store/sqlite/group-commit.ts) and under concurrency on PostgreSQL: each request gets its own outcome, every
// change commits with its event, a contact's events follow its versions, and a killed process loses no answered write.

const TSX = pathToFileURL(join(import.meta.dirname, '../../node_modules/tsx/dist/loader.mjs')).href;
const WRITER = join(import.meta.dirname, '../helpers/identify-process.ts');

interface ContactRow {
  id: string;
  external_user_id: string;
  name: string | null;
  version: number;
}

/**
 * Every contact's events against its row: as many events as versions (a created, then an updated per version), and
 * read in their listed order they form one chain of names, from the created contact's to the row's. Returns the
 * names each contact was given by an event.
 */
async function checkEventsAgainstRows(engine: Engine, ws: Workspace): Promise<Map<string, Set<string>>> {
  const rows = await engine.db.all<ContactRow>(
    'SELECT id, external_user_id, name, version FROM contact WHERE organization_id = ?',
    [ws.organizationId],
  );
  const byContact = new Map<string, Array<{ type: string; payload: any }>>();
  for (const e of await ws.events.list()) {
    const id = (e.payload as any).contact.id as string;
    byContact.set(id, [...(byContact.get(id) ?? []), { type: e.type, payload: e.payload }]);
  }
  const given = new Map<string, Set<string>>();
  for (const row of rows) {
    const events = byContact.get(row.id) ?? [];
    expect(events.length, `events of ${row.external_user_id}`).toBe(Number(row.version));
    expect(events[0]!.type).toBe('contact.created');
    let name = events[0]!.payload.contact.name;
    const names = new Set<string>([name]);
    for (const e of events.slice(1)) {
      expect(e.type).toBe('contact.updated');
      if (!e.payload.changes.name) continue;
      expect(e.payload.changes.name.from, `the chain of ${row.external_user_id}`).toBe(name);
      name = e.payload.changes.name.to;
      names.add(name);
    }
    expect(name).toBe(row.name);
    given.set(row.external_user_id, names);
  }
  return given;
}

describeEngine('identify under concurrency', (h) => {
  it('many identifies at once: each answered with its own change, one event per version, in version order', async () => {
    const org = await h.engine.organizations.create({ name: 'Concurrent', plan: 'paid' });
    const ws = h.engine.workspace(org.id);
    for (let i = 0; i < 20; i++) await ws.contacts.identify({ externalUserId: `u${i}`, name: `start${i}` });
    // 20 existing contacts changed three times each, and 40 new ones, all at once.
    const calls = [
      ...Array.from({ length: 60 }, (_, i) => ({ externalUserId: `u${i % 20}`, name: `change${i}` })),
      ...Array.from({ length: 40 }, (_, i) => ({ externalUserId: `new${i}`, name: `new${i}` })),
    ];
    const answers = await Promise.all(calls.map((body) => ws.contacts.identify(body)));
    answers.forEach((answer, i) => {
      expect(answer.contact.name).toBe(calls[i]!.name);
      expect(answer.created).toBe(i >= 60);
    });
    const given = await checkEventsAgainstRows(h.engine, ws);
    for (let i = 0; i < 20; i++)
      expect(given.get(`u${i}`)).toEqual(new Set([`start${i}`, `change${i}`, `change${i + 20}`, `change${i + 40}`]));
    expect(given.size).toBe(60);
  });

  it('batches of the same shape, again and again (PostgreSQL prepares those), keep each write its own outcome', async () => {
    const org = await h.engine.organizations.create({ name: 'Rounds', plan: 'paid' });
    const ws = h.engine.workspace(org.id);
    for (let i = 0; i < 10; i++) await ws.contacts.identify({ externalUserId: `u${i}`, name: `r0-${i}` });
    // Ten rounds of the same ten changes of name, so the same batch texts come back more often than PostgreSQL plans
    // a prepared statement afresh (five times) before it may keep a generic plan.
    for (let round = 1; round <= 10; round++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => ws.contacts.identify({ externalUserId: `u${i}`, name: `r${round}-${i}` })),
      );
      for (const [i, answer] of answers.entries())
        expect([answer.created, answer.contact.name]).toEqual([false, `r${round}-${i}`]);
    }
    const given = await checkEventsAgainstRows(h.engine, ws);
    for (let i = 0; i < 10; i++) expect(given.get(`u${i}`)!.size).toBe(11);
  });

  it('a write that fails among others does not affect them', async () => {
    const org = await h.engine.organizations.create({ name: 'Neighbours', plan: 'paid' });
    const ws = h.engine.workspace(org.id);
    const a = (await ws.contacts.identify({ externalUserId: 'a', name: 'A' })).contact;
    const b = (await ws.contacts.identify({ externalUserId: 'b', name: 'B' })).contact;
    // Both pass the check that the new externalUserId is free; the second write to reach the database breaks the
    // unique index, in the middle of 40 identifies.
    const results = await Promise.allSettled([
      ...Array.from({ length: 20 }, (_, i) => ws.contacts.identify({ externalUserId: `before${i}`, name: 'x' })),
      ws.contacts.update(a.id, { externalUserId: 'same' }),
      ws.contacts.update(b.id, { externalUserId: 'same' }),
      ...Array.from({ length: 20 }, (_, i) => ws.contacts.identify({ externalUserId: `after${i}`, name: 'y' })),
    ]);
    const moves = results.slice(20, 22);
    expect(moves.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const refused = moves.find((r) => r.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toBeInstanceOf(FeedbackError);
    expect((refused.reason as FeedbackError).code).toBe('ERR_CONFLICT');
    expect([...results.slice(0, 20), ...results.slice(22)].every((r) => r.status === 'fulfilled')).toBe(true);
    const given = await checkEventsAgainstRows(h.engine, ws);
    expect(given.size).toBe(42);
    const rows = await h.engine.db.all<ContactRow>(
      'SELECT external_user_id FROM contact WHERE organization_id = ? AND external_user_id = ?',
      [org.id, 'same'],
    );
    expect(rows).toHaveLength(1);
  });

  it('a process killed while identifying loses no answered write and leaves no change without its event', async () => {
    const org = await h.engine.organizations.create({ name: 'Killed', plan: 'paid' });
    const ws = h.engine.workspace(org.id);
    for (let i = 0; i < 25; i++) await ws.contacts.identify({ externalUserId: `u${i}`, name: `start${i}` });
    const child = spawn(process.execPath, ['--import', TSX, WRITER], {
      env: { ...process.env, DATABASE_URL: h.url, ORG_ID: org.id },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const acks: Array<[string, string]> = [];
    let out = '';
    let early: (code: number | null) => void = () => {};
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const lines = out.split('\n');
        out = lines.pop()!;
        for (const line of lines) if (line.startsWith('ack ')) acks.push(line.slice(4).split(' ') as [string, string]);
        // Killed in full flow: hundreds of writes answered, more in flight.
        if (acks.length >= 600) resolve();
      });
      early = (code) => reject(new Error(`the writer exited with ${code}`));
      child.once('exit', early);
    });
    child.off('exit', early);
    child.kill('SIGKILL');
    await exited;
    const given = await checkEventsAgainstRows(h.engine, ws);
    for (const [externalUserId, name] of acks)
      expect(given.get(externalUserId)?.has(name), `${externalUserId} ${name}`).toBe(true);
  });
});
