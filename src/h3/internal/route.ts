import type { z } from 'zod';
import type { Scope } from '../../schemas/common.js';
import type { Engine, Workspace } from '../../engine/engine.js';
import type { AuthenticatedKey } from '../../engine/services/keys.js';
import type { RateLimitState } from '../../engine/services/limits.js';

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface RouteContext {
  engine: Engine;
  key: AuthenticatedKey;
  workspace: Workspace;
  rateLimit: RateLimitState;
  params: Record<string, string>;
  query: Record<string, string | string[]>;
  /** The parsed JSON object body (POST and PATCH with `body: true`). */
  body: Record<string, unknown>;
}

export interface RouteResult {
  status?: number;
  body: unknown;
}

/** One REST operation: what it needs and what it does. The pipeline does the rest. */
export interface RouteDefinition {
  method: Method;
  path: string;
  /** The scope the key needs: `read` allows every GET, `read:write` everything. */
  scope: Scope;
  /** Whether the route reads a JSON object body. */
  body?: boolean;
  /** What the OpenAPI document says of it; every schema comes from `schemas`. */
  doc: RouteDoc;
  handler(ctx: RouteContext): Promise<RouteResult>;
}

export interface RouteDoc {
  operationId: string;
  summary: string;
  /** The JSON body (for routes with `body: true`). */
  body?: z.ZodType;
  /** The query parameters, an object schema. */
  query?: z.ZodObject;
  /** Success responses by status. */
  responses: Record<number, z.ZodType>;
  /** Error statuses beyond those every route can answer (401, 403, 429, 500; 404 with a path id; 400, 413, 422 with a body). */
  errors?: number[];
}

export function defineRoute(route: RouteDefinition): RouteDefinition {
  return route;
}
