import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * JSON Schema 2020-12 of a `schemas` shape (zod's own output, without the `$schema` marker): what the OpenAPI
 * document and the agent tools publish. `input` for request bodies and queries, `output` for responses.
 */
export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}
