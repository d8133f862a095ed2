import type { z } from 'zod';
import {
  answersPage,
  inputSchema,
  OPERATION_DOCS,
  OPERATION_IDS,
  OPERATIONS,
  type OperationId,
  pathParams,
  successSchema,
  writes,
} from '../contract/index.js';
import type { Scope } from '../schemas/common.js';
import { toJsonSchema } from '../schemas/json-schema.js';
import { type JsonSchema, snakeSchema, snakeText, toSnake } from './case.js';

/** A path id of the operation, as a tool argument. */
interface IdArgument {
  /** The tool argument (snake_case). */
  name: string;
  /** The path parameter (camelCase). */
  param: string;
  description: string;
}

export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  operationId: OperationId;
  /** The REST operation it mirrors, as `METHOD /path`. */
  rest: string;
  scope: Scope;
  /** Whether its operation writes (any method but GET): refused in read-only billing state. */
  writes: boolean;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; idempotentHint: boolean; openWorldHint: false };
  /** The operation's path ids, in snake_case. */
  ids: IdArgument[];
  /** The operation's body or query schema. */
  input?: z.ZodType;
  /** The operation's success payload: the page for lists, the `data` of single-resource answers. */
  output: z.ZodType;
}

/** A tool for each operation of the contract: its name and words from the table, everything else from the operation. */
function toolOf(id: OperationId): ToolDefinition {
  const operation = OPERATIONS[id];
  const success = successSchema(id);
  const idempotent = operation.method !== 'POST' || ('idempotency' in operation && operation.idempotency === 'natural');
  const doc = OPERATION_DOCS[id];
  return {
    name: operation.tool,
    title: doc.title,
    description: snakeText(doc.description),
    operationId: id,
    rest: `${operation.method} ${operation.path.replace(/:([A-Za-z]+)/g, '{$1}')}`,
    scope: operation.scope,
    writes: writes(operation),
    annotations: {
      readOnlyHint: !writes(operation),
      destructiveHint: operation.method === 'DELETE',
      idempotentHint: idempotent,
      openWorldHint: false,
    },
    ids: pathParams(operation.path).map((param) => ({
      name: toSnake(param),
      param,
      description: `The ${toSnake(param).replace(/_id$/, '')} id.`,
    })),
    input: inputSchema(id),
    output: answersPage(id) ? success : (success.shape.data as z.ZodType),
  };
}

/** The agent tools: one per operation of the contract. */
export const TOOLS: readonly ToolDefinition[] = OPERATION_IDS.map(toolOf);

/** The tool's input schema on the snake_case surface: its path ids, then the REST body or query. */
export function toolInputSchema(tool: ToolDefinition): JsonSchema {
  const base = tool.input
    ? snakeSchema(toJsonSchema(tool.input, 'input'))
    : { type: 'object', properties: {}, additionalProperties: false };
  const idProperties = Object.fromEntries(
    tool.ids.map((i) => [i.name, { type: 'string', minLength: 1, description: i.description }]),
  );
  return {
    ...base,
    type: 'object',
    properties: { ...idProperties, ...base.properties },
    required: [...tool.ids.map((i) => i.name), ...(base.required ?? [])],
  };
}

export function toolOutputSchema(tool: ToolDefinition): JsonSchema {
  return snakeSchema(toJsonSchema(tool.output, 'output'));
}
