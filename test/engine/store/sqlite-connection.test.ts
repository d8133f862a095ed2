import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../../src/engine/store/sqlite/connection.js';

const Database = createRequire(import.meta.url)('libsql') as new (
  path: string,
) => {
  prepare(sql: string): unknown;
  exec(sql: string): void;
};

/** The SQLite layer on a real in-memory libsql connection, counting the statements it prepares. */
function open() {
  const conn = new Database(':memory:');
  conn.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v)');
  const prepared: string[] = [];
  const counting = new Proxy(conn, {
    get(target, name) {
      if (name === 'prepare')
        return (sql: string) => {
          prepared.push(sql);
          return target.prepare(sql);
        };
      const value = Reflect.get(target, name);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  let notified = 0;
  const db = createSqliteDatabase(
    { acquireConnection: async () => counting, releaseConnection: async () => undefined },
    { notify: () => notified++, add: () => () => {} },
    { file: ':memory:', log: () => {} },
  );
  return { db, prepared, notifications: () => notified };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('SQLite statements (libsql)', () => {
  it('binds booleans as 1 and 0, dates as epoch milliseconds, undefined as null, and refuses other objects with a TypeError', async () => {
    const { db } = open();
    await db.all('INSERT INTO t (id, v) VALUES (?, ?), (?, ?), (?, ?)', [
      1,
      true,
      2,
      false,
      3,
      new Date(1_700_000_000_000),
    ]);
    await db.all('INSERT INTO t (id, v) VALUES (?, ?)', [4, undefined]);
    expect(await db.all('SELECT id, v FROM t ORDER BY id')).toEqual([
      { id: 1, v: 1 },
      { id: 2, v: 0 },
      { id: 3, v: 1_700_000_000_000 },
      { id: 4, v: null },
    ]);
    // libsql itself aborts the process on these; the layer refuses them before they reach it.
    await expect(db.all('INSERT INTO t (id, v) VALUES (?, ?)', [5, { a: 1 }])).rejects.toThrow(TypeError);
    await expect(db.all('INSERT INTO t (id, v) VALUES (?, ?)', [5, Buffer.from('ab')])).rejects.toThrow(TypeError);
  });

  it('prepares each statement text once per connection and reuses it, inside and outside transactions', async () => {
    const { db, prepared } = open();
    for (let i = 0; i < 50; i++) await db.all('INSERT INTO t (v) VALUES (?)', [i]);
    for (let i = 0; i < 50; i++)
      await db.transaction(async (tx) => tx.one('SELECT count(*) AS n FROM t WHERE v >= ?', [i]));
    for (let i = 0; i < 50; i++)
      expect(await db.one<{ v: number }>('SELECT v FROM t WHERE v = ?', [i])).toEqual({ v: i });
    expect(prepared.filter((s) => s === 'INSERT INTO t (v) VALUES (?)')).toHaveLength(1);
    expect(prepared.filter((s) => s.startsWith('SELECT count(*)'))).toHaveLength(1);
    expect(prepared.filter((s) => s === 'BEGIN IMMEDIATE')).toHaveLength(1);
    expect(prepared.filter((s) => s === 'SELECT v FROM t WHERE v = ?')).toHaveLength(1);
  });

  it('a statement issued while a transaction holds the connection runs after its COMMIT, outside it', async () => {
    const { db } = open();
    const order: string[] = [];
    const tx = db.transaction(async (t) => {
      await t.all('INSERT INTO t (id, v) VALUES (1, 1)');
      order.push('tx wrote');
      await sleep(20);
      order.push('tx done');
    });
    const outside = db.one<{ n: number }>('SELECT count(*) AS n FROM t').then((row) => {
      order.push('outside read');
      return row;
    });
    await tx;
    expect(await outside).toEqual({ n: 1 });
    expect(order).toEqual(['tx wrote', 'tx done', 'outside read']);
  });

  it('a failed transaction is rolled back whole and does not take the statements waiting for it along', async () => {
    const { db, notifications } = open();
    const failing = db.transaction(async (t) => {
      await t.all('INSERT INTO t (id, v) VALUES (1, 1)');
      t.wroteDeliveries();
      await sleep(10);
      throw new Error('boom');
    });
    const waiting = db.all('INSERT INTO t (id, v) VALUES (2, 2)');
    const next = db.transaction(async (t) => {
      await t.all('INSERT INTO t (id, v) VALUES (3, 3)');
      t.wroteDeliveries();
    });
    await expect(failing).rejects.toThrow('boom');
    await waiting;
    await next;
    expect((await db.all<{ id: number }>('SELECT id FROM t ORDER BY id')).map((r) => r.id)).toEqual([2, 3]);
    // Only the committed transaction that wrote deliveries wakes the scheduler.
    expect(notifications()).toBe(1);
  });
});
