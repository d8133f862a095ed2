import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncSql } from '../../../src/engine/store/sql.js';
import { createSqliteDatabase } from '../../../src/engine/store/sqlite/connection.js';
import { MAX_GROUP } from '../../../src/engine/store/sqlite/group-commit.js';

const Database = createRequire(import.meta.url)('libsql') as new (
  path: string,
) => {
  prepare(sql: string): { all(params: unknown[]): Record<string, unknown>[] };
  exec(sql: string): void;
  close(): void;
};

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/**
 * The SQLite layer on a real database file, and a second connection to the same file that sees only what was
 * committed. Every commit that says it wrote deliveries is counted (the scheduler's wake-up): a write below says so,
 * so the count is the number of commits.
 */
function open() {
  const dir = mkdtempSync(join(tmpdir(), 'group-commit-'));
  dirs.push(dir);
  const file = join(dir, 'db.sqlite');
  const conn = new Database(file);
  conn.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (id INTEGER PRIMARY KEY, v UNIQUE)');
  let commits = 0;
  const database = createSqliteDatabase(
    { acquireConnection: async () => conn, releaseConnection: async () => undefined },
    { notify: () => commits++, add: () => () => {} },
    { file: ':memory:', log: () => {} },
  );
  // SQLite's database always has batch (the interface leaves it optional for PostgreSQL).
  const db = Object.assign(database, { batch: database.batch!.bind(database) });
  const other = new Database(file);
  const committed = () =>
    other
      .prepare('SELECT v FROM t ORDER BY id')
      .all([])
      .map((r) => r.v);
  return { db, committed, commits: () => commits };
}

/** The event loop's next turn: a turn without writes ends the grouping. */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/** A small write: one row, and a say that it wrote deliveries (so that its commit is counted). */
const insert = (v: unknown) => (tx: SyncSql) => {
  tx.run('INSERT INTO t (v) VALUES (?)', [v]);
  tx.wroteDeliveries();
  return v;
};

describe('SQLite group commit (Database.batch)', () => {
  it('a lone write commits at once, before its caller is answered, in a transaction of its own', async () => {
    const { db, committed, commits } = open();
    await db.batch(insert('warm'));
    await nextTurn();
    const pending = db.batch(insert('a'));
    // Already committed: another connection sees it before the promise settles.
    expect(committed()).toEqual(['warm', 'a']);
    expect(await pending).toBe('a');
    expect(commits()).toBe(2);
  });

  it('writes of one turn after the first share one commit; each caller hears only after it', async () => {
    const { db, committed, commits } = open();
    await db.batch(insert('warm'));
    await nextTurn();
    // What another connection sees at the moment each caller hears back.
    const seenWhenAnswered: Record<string, unknown[]> = {};
    const writes = ['a', 'b', 'c', 'd', 'e'].map((v) =>
      db.batch(insert(v)).then(() => (seenWhenAnswered[v] = committed())),
    );
    // The first committed at once; the others wait for the end of the turn.
    expect(committed()).toEqual(['warm', 'a']);
    await Promise.all(writes);
    expect(seenWhenAnswered.a).toEqual(['warm', 'a']);
    for (const v of ['b', 'c', 'd', 'e']) expect(seenWhenAnswered[v]).toEqual(['warm', 'a', 'b', 'c', 'd', 'e']);
    expect(commits()).toBe(3);
  });

  it('a write that fails inside a group undoes only its own change; its neighbours commit', async () => {
    const { db, committed } = open();
    await db.batch(insert('warm'));
    const failing = (tx: SyncSql) => {
      tx.run('INSERT INTO t (v) VALUES (?)', ['half']);
      tx.run('INSERT INTO t (v) VALUES (?)', ['b']); // taken by the neighbour before it: a constraint error
      return 'never';
    };
    const results = await Promise.allSettled([
      db.batch(insert('a')),
      db.batch(insert('b')),
      db.batch(failing),
      db.batch(insert('c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
    // Its first row went with it: nothing of the failed write is kept.
    expect(committed()).toEqual(['warm', 'a', 'b', 'c']);
  });

  it('a write whose error ends the whole transaction fails alone: the others in its group run again and commit', async () => {
    const { db, committed } = open();
    await db.batch(insert('warm'));
    // What an I/O error does to SQLite: the transaction is gone (rolled back whole), not just the statement.
    const ending = (tx: SyncSql) => {
      tx.run('INSERT INTO t (v) VALUES (?)', ['lost']);
      tx.run('ROLLBACK');
      throw new Error('disk I/O error');
    };
    const results = await Promise.allSettled([
      db.batch(insert('a')),
      db.batch(insert('b')),
      db.batch(ending),
      db.batch(insert('c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(committed()).toEqual(['warm', 'a', 'b', 'c']);
  });

  it('keeps arrival order across groups, and waits for a transaction that holds the connection', async () => {
    const { db, committed } = open();
    let release!: () => void;
    const held = db.transaction(async (tx) => {
      await tx.run('INSERT INTO t (v) VALUES (?)', ['tx']);
      await new Promise<void>((resolve) => (release = resolve));
    });
    const values = Array.from({ length: MAX_GROUP * 2 + 5 }, (_, i) => `w${i}`);
    const writes = Promise.all(values.map((v) => db.batch(insert(v))));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(committed()).toEqual([]); // everything waits for the transaction's COMMIT
    release();
    await held;
    expect(await writes).toEqual(values);
    expect(committed()).toEqual(['tx', ...values]);
  });

  it('a COMMIT that fails for one write of a group fails that write alone: the others run again, each alone, and commit', async () => {
    const { db, committed } = open();
    await db.batch(insert('warm'));
    // A deferred foreign key check fails at COMMIT, for the whole transaction.
    await db.run(
      'CREATE TABLE child (id INTEGER PRIMARY KEY, parent INTEGER REFERENCES t (id) DEFERRABLE INITIALLY DEFERRED)',
    );
    await db.run('PRAGMA foreign_keys = ON');
    const orphan = (tx: SyncSql) => tx.run('INSERT INTO child (parent) VALUES (999)');
    const results = await Promise.allSettled([
      db.batch(insert('a')),
      db.batch(insert('b')),
      db.batch(orphan),
      db.batch(insert('c')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(String((results[2] as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
    expect(committed()).toEqual(['warm', 'a', 'b', 'c']);
  });
});
