import type { z } from 'zod';
import { ERROR_CODES, errorEnvelopeSchema } from '../schemas/errors.js';
import { toJsonSchema as jsonSchema } from '../schemas/json-schema.js';
import type { RouteDefinition } from './internal/route.js';

/** Where the document is served; it needs no key. */
export const OPENAPI_PATH = '/v1/openapi.json';
/** The agent tools over MCP Streamable HTTP (JSON-RPC), with the same bearer keys. */
export const MCP_PATH = '/mcp';

/** The error codes that answer with a status, for the response description. */
function codesOf(status: number): string {
  return Object.entries(ERROR_CODES)
    .filter(([, v]) => v.status === status)
    .map(([code]) => code)
    .join(', ');
}

const errorResponseRef = { $ref: '#/components/schemas/ErrorEnvelope' };

/**
 * The OpenAPI 3.1 document of the REST API, generated from the route table and the `schemas` zod shapes
 * (zod's own JSON Schema output): every route, path parameter, query parameter, body, response and error.
 */
export function createOpenApiDocument(routes: readonly RouteDefinition[], info: { version: string }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
    const path = route.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const parameters: unknown[] = pathParams.map((name) => ({ name, in: 'path', required: true, schema: { type: 'string' } }));
    if (route.doc.query) {
      const shape = route.doc.query.shape as Record<string, z.ZodType>;
      for (const [name, schema] of Object.entries(shape)) {
        parameters.push({ name, in: 'query', required: !schema.safeParse(undefined).success, schema: jsonSchema(schema, 'input') });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const [status, schema] of Object.entries(route.doc.responses)) {
      responses[status] = { description: `${route.doc.summary}: success`, content: { 'application/json': { schema: jsonSchema(schema, 'output') } } };
    }
    const errors = new Set([401, 403, 429, 500, ...(route.doc.errors ?? [])]);
    if (pathParams.length > 0) errors.add(404);
    if (route.body) for (const s of [400, 413, 422]) errors.add(s);
    if (route.doc.query) errors.add(422);
    if (route.method === 'POST') for (const s of [400, 409]) errors.add(s); // Idempotency-Key
    for (const status of [...errors].sort()) {
      responses[String(status)] = { description: codesOf(status), content: { 'application/json': { schema: errorResponseRef } } };
    }
    if (route.method === 'POST') {
      parameters.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: 'Kept per workspace for 24 hours: a repeat of the same request replays the first response.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      });
    }
    const operation: Record<string, unknown> = {
      operationId: route.doc.operationId,
      summary: route.doc.summary,
      security: [{ bearerAuth: [] }],
      'x-scope': route.scope,
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(route.doc.body ? { requestBody: { required: true, content: { 'application/json': { schema: jsonSchema(route.doc.body, 'input') } } } } : {}),
      responses,
    };
    (paths[path] ??= {})[route.method.toLowerCase()] = operation;
  }
  paths[OPENAPI_PATH] = {
    get: {
      operationId: 'getOpenApiDocument',
      summary: 'This document',
      security: [],
      responses: { '200': { description: 'The OpenAPI 3.1 document', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  paths[MCP_PATH] = {
    post: {
      operationId: 'mcp',
      summary: 'The 18 agent tools over MCP Streamable HTTP (JSON-RPC 2.0); see docs/mcp.md',
      security: [{ bearerAuth: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': { description: 'A JSON-RPC response', content: { 'application/json': { schema: { type: 'object' } } } },
        '401': { description: codesOf(401), content: { 'application/json': { schema: errorResponseRef } } },
        '429': { description: codesOf(429), content: { 'application/json': { schema: errorResponseRef } } },
      },
    },
  };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Feedback Service API',
      version: info.version,
      description: 'Contacts, boards, posts and signed webhooks. Errors use one envelope: { error: { code, message, details? } }.',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key (fsk_...)' } },
      schemas: { ErrorEnvelope: jsonSchema(errorEnvelopeSchema, 'output') },
    },
  };
}
