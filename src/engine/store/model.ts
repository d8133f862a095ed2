import type { EntityMetadata } from '@mikro-orm/core';
import { ReferenceKind } from '@mikro-orm/core';

type DialectName = 'sqlite' | 'postgresql';

/** Indexes (by name) and tables (by entity name) that one database alone has. */
const ONLY = new Map<string, DialectName>();

/**
 * An index one database alone has (PostgreSQL's GIN trigram indexes, a partial index only its planner needs),
 * declared with its table: kept in that database's model, left out of the other's.
 */
export function onlyOn<const T extends { name: string }>(dialect: DialectName, index: T): T {
  ONLY.set(index.name, dialect);
  return index;
}

/**
 * A partial or otherwise non-plain index, as the migrations create it: MikroORM compares such an index by name, so the
 * text is what the schema printer shows and the migrations are checked against it (test/engine/schema.test.ts).
 * The same text serves both databases (SQLite takes double-quoted names too).
 */
export const expressionIndex = (name: string, definition: string) => ({
  name,
  expression: `create index "${name}" ${definition}`,
});

/**
 * MikroORM's discovery hook for one database: the model is exactly what the tables declare. Indexes of the other
 * database are dropped, and no index is added by convention (MikroORM indexes every foreign key on SQLite and none
 * on PostgreSQL; our tables declare the indexes their reads need, most of which lead with the foreign key).
 */
export function modelFor(dialect: DialectName) {
  return (meta: EntityMetadata): void => {
    meta.indexes = meta.indexes.filter((index) => (ONLY.get(index.name ?? '') ?? dialect) === dialect);
    for (const prop of Object.values(meta.properties))
      if (prop.kind === ReferenceKind.MANY_TO_ONE) prop.index ??= false;
  };
}
