import type { Engine } from '../../src/engine/index.js';

type Database = Engine['db'];
type Sql = Parameters<Parameters<Database['transaction']>[0]>[0];

/**
 * Record the text of every statement an engine's database runs, in transactions too (the parameters are left out:
 * two paths are the same path when they run the same statements in the same order). `take()` returns what was run
 * since the last take; `stop()` puts the database back.
 */
export function traceStatements(db: Database): { take(): string[]; stop(): void } {
  let seen: string[] = [];
  const text = (sql: unknown) =>
    (typeof sql === 'string' ? sql : (sql as { text: string }).text).replace(/\s+/g, ' ').trim();
  const wrap = (target: Sql): Sql => ({
    ...target,
    dialect: target.dialect,
    wroteDeliveries: (kind) => target.wroteDeliveries(kind),
    all: (sql, params) => {
      seen.push(text(sql));
      return target.all(sql, params);
    },
    one: (sql, params) => {
      seen.push(text(sql));
      return target.one(sql, params);
    },
    run: (sql, params) => {
      seen.push(text(sql));
      return target.run(sql, params);
    },
  });
  const original = { all: db.all, one: db.one, run: db.run, transaction: db.transaction };
  const mutable = db as { -readonly [K in keyof Database]: Database[K] };
  const plain = wrap({
    dialect: db.dialect,
    all: original.all.bind(db),
    one: original.one.bind(db),
    run: original.run.bind(db),
    wroteDeliveries: db.wroteDeliveries.bind(db),
  });
  mutable.all = plain.all;
  mutable.one = plain.one;
  mutable.run = plain.run;
  mutable.transaction = <T>(fn: (tx: Sql) => Promise<T>) =>
    original.transaction.call(db, (tx: Sql) => fn(wrap(tx))) as Promise<T>;
  return {
    take() {
      const out = seen;
      seen = [];
      return out;
    },
    stop() {
      Object.assign(mutable, original);
    },
  };
}
