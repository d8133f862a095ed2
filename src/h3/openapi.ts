import type { z } from 'zod';
import { OPERATION_EXAMPLES } from '../contract/examples.js';
import {
  OPERATION_DOCS,
  OPERATION_IDS,
  OPERATION_SCHEMAS,
  OPERATIONS,
  type OperationSchemas,
  PACKAGE_HOMEPAGE,
  pathParams,
  RESOURCES,
} from '../contract/index.js';
import { ERROR_CODES, errorEnvelopeSchema } from '../schemas/errors.js';
import { toJsonSchema as jsonSchema } from '../schemas/json-schema.js';

/** Where the document is served; it needs no key. */
export const OPENAPI_PATH = '/v1/openapi.json';

/** The error codes that answer with a status, for the response description. */
function codesOf(status: number): string {
  return Object.entries(ERROR_CODES)
    .filter(([, v]) => v.status === status)
    .map(([code]) => code)
    .join(', ');
}

/** A response with the error envelope, described by the codes of its status. */
export function errorResponseDoc(status: number): Record<string, unknown> {
  return {
    description: codesOf(status),
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
  };
}

/** The document's groups of operations, in the order a reader meets them: the contract's resources, then the rest. */
export const OPENAPI_TAGS = [
  ...Object.values(RESOURCES).map(({ tag, description }) => ({ name: tag, description })),
  { name: 'Reference', description: 'This document, and the agent tools served beside the REST API.' },
  {
    name: 'Operations',
    description: 'Liveness, readiness, metrics and the reference page: for load balancers, probes and people.',
  },
];

/**
 * What any operation can answer whatever it is: 400 (a malformed URL), 401 (the key), 403 (scope or billing), 405 (a
 * known path with another method), 422 (a query parameter it does not take), 429 (the key's rate limit), 500, and 503
 * (the database unavailable, with Retry-After).
 */
const EVERY_OPERATION_ERRORS = [400, 401, 403, 405, 422, 429, 500, 503] as const;

/** An endpoint served beside the operations (the agent tools at /mcp), with its own OpenAPI operation object. */
export interface DocumentedEndpoint {
  method: string;
  path: string;
  openapi: Record<string, unknown>;
}

/** The OpenAPI operation object of one operation of the contract. */
function operationDoc(id: keyof typeof OPERATIONS): Record<string, unknown> {
  const operation = OPERATIONS[id];
  const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
  const ids = pathParams(operation.path);
  const example = OPERATION_EXAMPLES[id];
  const exampleInput = (example.input ?? {}) as Record<string, unknown>;
  const parameters: unknown[] = ids.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: `The ${name.replace(/Id$/, '')}'s id.`,
    schema: { type: 'string' },
    ...(example.params?.[name] !== undefined && { example: example.params[name] }),
  }));
  if (schemas.query) {
    for (const [name, schema] of Object.entries(schemas.query.shape as Record<string, z.ZodType>)) {
      const json = jsonSchema(schema, 'input') as { description?: string };
      parameters.push({
        name,
        in: 'query',
        required: !schema.safeParse(undefined).success,
        description: json.description,
        schema: json,
        ...(!schemas.body && exampleInput[name] !== undefined && { example: exampleInput[name] }),
      });
    }
  }
  if (operation.method === 'POST') {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description: 'Kept per workspace for 24 hours: a repeat of the same request replays the first response.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
  }
  const responses: Record<string, unknown> = {};
  for (const [status, schema] of Object.entries(schemas.responses)) {
    responses[status] = {
      description: `${OPERATION_DOCS[id].summary}: success`,
      content: {
        'application/json': {
          schema: jsonSchema(schema, 'output'),
          ...(String(example.status) === status && { example: example.response }),
        },
      },
    };
  }
  const errors = new Set<number>([...EVERY_OPERATION_ERRORS, ...('errors' in operation ? operation.errors : [])]);
  if (ids.length > 0) errors.add(404);
  if (schemas.body) for (const s of [400, 413, 422]) errors.add(s);
  if (operation.method === 'POST') for (const s of [400, 409]) errors.add(s); // Idempotency-Key
  for (const status of [...errors].sort()) responses[String(status)] = errorResponseDoc(status);
  return {
    operationId: id,
    summary: OPERATION_DOCS[id].summary,
    description: OPERATION_DOCS[id].description,
    tags: [RESOURCES[operation.resource].tag],
    security: [{ bearerAuth: [] }],
    'x-scope': operation.scope,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(schemas.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: jsonSchema(schemas.body, 'input'), example: example.input ?? {} },
            },
          },
        }
      : {}),
    responses,
  };
}

/**
 * The OpenAPI 3.1 document of the REST API, generated from the contract and the `schemas` zod shapes (zod's own JSON
 * Schema output): every operation, path parameter, query parameter, body, response and error, and the endpoints
 * served beside them.
 */
export function createOpenApiDocument(
  info: { version: string },
  endpoints: readonly DocumentedEndpoint[] = [],
): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (method: string, path: string, doc: Record<string, unknown>) => {
    (paths[path.replace(/:([A-Za-z]+)/g, '{$1}')] ??= {})[method.toLowerCase()] = doc;
  };
  for (const id of OPERATION_IDS) add(OPERATIONS[id].method, OPERATIONS[id].path, operationDoc(id));
  add('GET', OPENAPI_PATH, {
    operationId: 'getOpenApiDocument',
    summary: 'This document',
    description:
      'The OpenAPI 3.1 document of this API, generated from the operation table and its schemas. It needs no key.',
    tags: ['Reference'],
    security: [],
    responses: {
      '200': {
        description: 'The OpenAPI 3.1 document',
        content: { 'application/json': { schema: { type: 'object' } } },
      },
      '400': errorResponseDoc(400),
      '405': errorResponseDoc(405),
    },
  });
  for (const endpoint of endpoints) add(endpoint.method, endpoint.path, endpoint.openapi);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Feedback Service API',
      version: info.version,
      description:
        'Contacts and companies, boards, posts, votes, comments, tags, the changelog, and signed webhooks. Errors use one envelope: { error: { code, message, details? } }.',
      license: { name: 'MIT', url: 'https://opensource.org/license/mit' },
      contact: { name: 'feedback-service', ...(PACKAGE_HOMEPAGE ? { url: PACKAGE_HOMEPAGE } : {}) },
    },
    tags: OPENAPI_TAGS,
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (fsk_...)' } },
      schemas: { ErrorEnvelope: jsonSchema(errorEnvelopeSchema, 'output') },
    },
  };
}
