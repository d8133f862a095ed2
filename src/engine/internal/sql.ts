import type { Knex } from '@mikro-orm/knex';

export type Dialect = 'sqlite' | 'postgresql';

/**
 * The explicit-SQL path the hot operations take: statements on the ORM's own connection,
 * without the unit of work. Placeholders are `?`; rows come back as plain objects.
 */
export interface Sql {
  readonly dialect: Dialect;
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  one<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
}

export interface Database extends Sql {
  /** Run `fn` in one transaction: everything it writes commits together or not at all. */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
}

function wrap(dialect: Dialect, runner: Knex | Knex.Transaction): Sql {
  const all = async <T>(sql: string, params: readonly unknown[] = []): Promise<T[]> => {
    const res = await runner.raw(sql, params as never);
    return (dialect === 'postgresql' ? res.rows : res) as T[];
  };
  return {
    dialect,
    all,
    one: async <T>(sql: string, params?: readonly unknown[]) => (await all<T>(sql, params))[0],
  };
}

export function createDatabase(dialect: Dialect, knex: Knex): Database {
  const base = wrap(dialect, knex);
  return {
    ...base,
    transaction: (fn) => knex.transaction((trx) => fn(wrap(dialect, trx))),
  };
}

/** `FOR UPDATE` where the database has row locks; SQLite serializes writers anyway. */
export function forUpdate(sql: Sql): string {
  return sql.dialect === 'postgresql' ? ' FOR UPDATE' : '';
}

/** Values as the drivers return them, normalized. */
export function toDate(v: unknown): Date {
  if (v instanceof Date) return v;
  if (typeof v === 'number') return new Date(v);
  if (typeof v === 'string') return /^\d+(\.\d+)?$/.test(v) ? new Date(Number(v)) : new Date(v);
  throw new TypeError(`not a timestamp: ${String(v)}`);
}
export function toIso(v: unknown): string {
  return toDate(v).toISOString();
}
export function toIsoOrNull(v: unknown): string | null {
  return v === null || v === undefined ? null : toIso(v);
}
export function toJson<T>(v: unknown): T {
  return (typeof v === 'string' ? JSON.parse(v) : v) as T;
}
export function toBool(v: unknown): boolean {
  return v === true || v === 1 || v === '1' || v === 't';
}
export function toInt(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}
export function toIntOrNull(v: unknown): number | null {
  return v === null || v === undefined ? null : toInt(v);
}
/** A value bound for a timestamp column: a Date for PostgreSQL, epoch milliseconds for SQLite. */
export function ts(sql: Sql, d: Date): Date | number {
  return sql.dialect === 'postgresql' ? d : d.getTime();
}
/** JSON bound for a json/jsonb column. */
export function json(v: unknown): string {
  return JSON.stringify(v);
}
