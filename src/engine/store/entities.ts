import { EntitySchema } from '@mikro-orm/core';
import * as tables from './tables/index.js';

// Every table's entity, found in the table modules (tables/index.ts lists them): the model MikroORM's migrations and
// schema comparison work from (orm.ts), and what `feedback-service/engine` exports as `entities`. A new table module
// brings its entity here by being listed there.

type Tables = typeof tables;
/** The entities a table module exports, by their export name. */
type EntitiesOf<Module> = {
  [K in keyof Module as Module[K] extends EntitySchema ? K : never]: Module[K];
};
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
/** Every entity of every table module, by its export name (`Contact`, `ChangelogEntryPost`). */
export type Entities = UnionToIntersection<{ [T in keyof Tables]: EntitiesOf<Tables[T]> }[keyof Tables]>;

/** Every table's entity by its export name, in name order. */
export const entities = Object.fromEntries(
  Object.values(tables)
    .flatMap((module) => Object.entries(module))
    .filter(([, value]) => value instanceof EntitySchema)
    .sort(([a], [b]) => a.localeCompare(b)),
) as Entities;
