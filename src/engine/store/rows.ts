import { type Sql, ts } from './sql.js';

/** How one column reads back from either driver (sql.ts's `toBool`, `toIso`, ... or `asIs`). */
export type Read<T> = (value: unknown) => T;

/** A field's column: its reader (the column is the field's name in snake_case), or the column named, then its reader. */
export type ColumnOf<T> = Read<T> | readonly [column: string, read: Read<T>];

/** The value as the driver returns it, typed as the field is (text columns, enums). */
export const asIs = <T>(value: unknown): T => value as T;

/** A table's rows as one record type: the select list and the mapper, both from one field-to-column table. */
export interface Rows<T> {
  readonly table: string;
  readonly alias: string;
  /** The select list, qualified with the alias: `p.id, p.organization_id, ...`. */
  readonly columns: string;
  /** The same columns unqualified, in the same order, for an INSERT. */
  readonly names: string;
  read(row: Record<string, unknown>): T;
  /** A field's column, unqualified (for an UPDATE's SET). */
  column(field: keyof T & string): string;
  /** The same table's rows as a view of some of its fields: the same columns and readers, fewer of them. */
  pick<K extends keyof T & string>(...fields: K[]): Rows<Pick<T, K>>;
  /** The view of every field but these. */
  omit<K extends keyof T & string>(...fields: K[]): Rows<Omit<T, K>>;
}

const snakeCase = (field: string) => field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * Declare how a table's columns read into a record, once: every field of `T` must have its column, and the reader's
 * type must be the field's.
 * @example
 * const BOARDS = defineRows<Board>('board', 'b', { id: asIs, name: asIs, isPublic: toBool, createdAt: toIso, ... });
 * sql.one(`SELECT ${BOARDS.columns} FROM board b WHERE b.id = ?`, [id]).then((row) => row && BOARDS.read(row));
 */
export function defineRows<T>(table: string, alias: string, spec: { [K in keyof T]-?: ColumnOf<T[K]> }): Rows<T> {
  const fields = Object.entries(spec as Record<string, ColumnOf<unknown>>).map(([field, column]) =>
    typeof column === 'function'
      ? { field, column: snakeCase(field), read: column }
      : { field, column: column[0], read: column[1] },
  );
  return rowsOf<T>(table, alias, fields);
}

interface Field {
  field: string;
  column: string;
  read: Read<unknown>;
}

function rowsOf<T>(table: string, alias: string, fields: readonly Field[]): Rows<T> {
  const view = <V>(keep: (f: Field) => boolean) => rowsOf<V>(table, alias, fields.filter(keep));
  return {
    table,
    alias,
    columns: fields.map((f) => `${alias}.${f.column}`).join(', '),
    names: fields.map((f) => f.column).join(', '),
    column(field) {
      return fields.find((f) => f.field === field)!.column;
    },
    read(row) {
      const out: Record<string, unknown> = {};
      for (const f of fields) out[f.field] = f.read(row[f.column]);
      return out as T;
    },
    pick: (...names) => view((f) => (names as string[]).includes(f.field)),
    omit: (...names) => view((f) => !(names as string[]).includes(f.field)),
  };
}

/** A keyset position: the row's (created_at, id), as cursors carry it. */
export interface After {
  at: number;
  id: string;
}

/**
 * Up to `limit` rows matching `where` in (created_at, id) order, oldest first, or newest first with `newestFirst`,
 * after `after` in that order: a keyset page, an index seek on (..., created_at, id) however deep it goes.
 */
export async function pageOf<T>(
  sql: Sql,
  rows: Rows<T>,
  filter: { where: string; params: readonly unknown[] },
  limit: number,
  after?: After,
  newestFirst = false,
): Promise<T[]> {
  const a = rows.alias;
  const seek = after ? ` AND (${a}.created_at, ${a}.id) ${newestFirst ? '<' : '>'} (?, ?)` : '';
  const order = newestFirst ? `${a}.created_at DESC, ${a}.id DESC` : `${a}.created_at, ${a}.id`;
  const found = await sql.all(
    `SELECT ${rows.columns} FROM ${rows.table} ${a} WHERE ${filter.where}${seek} ORDER BY ${order} LIMIT ?`,
    [...filter.params, ...(after ? [ts(sql, new Date(after.at)), after.id] : []), limit],
  );
  return found.map((row) => rows.read(row));
}
