import type { z } from 'zod';
import * as schemas from '../schemas/index.js';
import {
  OPERATION_IDS,
  OPERATIONS,
  type Operation,
  type OperationDefinition,
  type OperationId,
  type SchemaName,
} from './operations.js';

/** What an operation reads and answers, as `schemas` shapes: its row's names, resolved. */
export interface OperationSchemas {
  /** The JSON body (POST and PATCH that take one). */
  body?: z.ZodType;
  /** The query parameters, an object schema. */
  query?: z.ZodObject;
  /** Success responses by status; a list answers a page (`{ data, nextCursor }`), anything else `{ data }`. */
  responses: Partial<Record<200 | 201, z.ZodType>>;
}

/** The `schemas` exports by name: what a row's names resolve to. */
const SCHEMAS = new Map(Object.entries(schemas)) as Map<SchemaName, z.ZodType>;
const named = (name: SchemaName): z.ZodType => SCHEMAS.get(name)!;

/** One row's schemas: the shapes it names, a single resource's answer wrapped in `{ data }`. */
function schemasOf(operation: OperationDefinition): OperationSchemas {
  const { answers } = operation;
  let responses: OperationSchemas['responses'];
  if ('page' in answers) responses = { 200: named(answers.page) };
  else {
    const success = schemas.dataSchema(named(answers.data));
    responses = Object.fromEntries((answers.statuses ?? [200]).map((status) => [status, success]));
  }
  return {
    ...(operation.body && { body: named(operation.body) }),
    ...(operation.query && { query: named(operation.query) as z.ZodObject }),
    responses,
  };
}

/** The schemas of every operation of the table, by the same key. */
export const OPERATION_SCHEMAS = Object.fromEntries(
  OPERATION_IDS.map((id) => [id, schemasOf(OPERATIONS[id])]),
) as Record<OperationId, OperationSchemas>;

type Schema<N> = N extends SchemaName ? (typeof schemas)[N] : never;
type Answer<K extends OperationId> = Operation<K>['answers'];

/** The body an operation takes, as a caller writes it. */
export type BodyOf<K extends OperationId> = Operation<K> extends { body: infer N } ? z.input<Schema<N>> : never;
/** The query an operation takes, as a caller writes it. */
export type QueryOf<K extends OperationId> = Operation<K> extends { query: infer N } ? z.input<Schema<N>> : never;
/** What an operation answers on success. */
export type ResponseOf<K extends OperationId> =
  Answer<K> extends { page: infer N }
    ? z.output<Schema<N>>
    : Answer<K> extends { data: infer N }
      ? { data: z.output<Schema<N>> }
      : never;
/** The `data` of a single-resource answer. */
export type DataOf<K extends OperationId> = ResponseOf<K> extends { data: infer D } ? D : never;
/** One item of a list's page. */
export type ItemOf<K extends OperationId> =
  ResponseOf<K> extends { data: Array<infer I>; nextCursor: string | null } ? I : never;

/** The success response schema of an operation (the first status). */
export function successSchema(id: OperationId): z.ZodObject {
  return Object.values(OPERATION_SCHEMAS[id].responses)[0] as z.ZodObject;
}

/** Whether an operation answers a page (`{ data, nextCursor }`) rather than `{ data }`. */
export function answersPage(id: OperationId): boolean {
  return 'page' in OPERATIONS[id].answers;
}

/** Whether an operation takes a JSON body (else what a caller sends besides the path ids is its query). */
export function takesBody(id: OperationId): boolean {
  return 'body' in OPERATIONS[id];
}

/** The body or query schema: what a caller sends besides the path ids. */
export function inputSchema(id: OperationId): z.ZodType | undefined {
  const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
  return schemas.body ?? schemas.query;
}
