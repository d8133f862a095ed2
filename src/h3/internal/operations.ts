import { getRouterParams, type H3, type H3Event } from 'h3';
import {
  answersPage,
  OPERATION_IDS,
  OPERATION_SCHEMAS,
  OPERATIONS,
  type OperationDefinition,
  type OperationId,
  type OperationSchemas,
} from '../../contract/index.js';
import {
  type AuthenticatedKey,
  type Caller,
  type Engine,
  operationRefusal,
  type RateLimitState,
  requestFingerprint,
  runOperation,
} from '../../engine/index.js';
import type { Metrics } from '../metrics.js';
import { type Admitted, admission, authenticate, callerOf } from './admit.js';
import { readJsonObject, readQuery } from './body.js';
import { idempotent } from './idempotent.js';
import { ROUTE_MIDDLEWARE } from './observe.js';
import { errorResponse, json } from './respond.js';
import { type RequestScope, scopeOf } from './scope.js';

/** Key (401) and rate limit (429), noting who the request is for (the access log's keyId and organizationId). */
export async function admitted(engine: Engine, request: Request, scope: RequestScope): Promise<Admitted | Response> {
  const key = await authenticated(engine, request, scope);
  if (key instanceof Response) return key;
  const counted = engine.limits.consume(key.keyId, key.rateLimit);
  return admission(engine, key, counted instanceof Promise ? await counted : counted, scope.headers);
}

/** The request's key, or its 401, noting who the request is for (the access log's keyId and organizationId). */
async function authenticated(
  engine: Engine,
  request: Request,
  scope: RequestScope,
): Promise<AuthenticatedKey | Response> {
  const key = await authenticate(engine, request, scope.headers);
  if (!(key instanceof Response)) {
    scope.keyId = key.keyId;
    scope.organizationId = key.organizationId;
  }
  return key;
}

/** The operation's body: read for an operation that takes one, and for any but a GET that sends one (to refuse its fields). */
function bodyOf(request: Request, schemas: OperationSchemas): Promise<Record<string, unknown> | undefined> {
  if (schemas.body) return readJsonObject(request);
  return request.method === 'GET' ? Promise.resolve(undefined) : readJsonObject(request, { optional: true });
}

/** The engine's run of an operation, as the status and body of its answer. */
async function operate(
  engine: Engine,
  id: OperationId,
  event: H3Event,
  caller: Caller,
  body: Record<string, unknown> | undefined,
) {
  const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
  const params = getRouterParams(event, { decode: true }) as Record<string, string>;
  const { value, created } = await runOperation(engine, caller, id, { params, query: readQuery(event.url), body });
  const statuses = Object.keys(schemas.responses).map(Number);
  const status = created === undefined ? statuses[0]! : created ? 201 : 200;
  return { status, body: answersPage(id) ? value : { data: value } };
}

/** One operation: key, rate limit, scope and billing, the body, then the engine (idempotently with a key). */
async function handle(engine: Engine, id: OperationId, event: H3Event): Promise<Response> {
  const scope = scopeOf(event);
  const { headers } = scope;
  const request = event.req as Request;
  const key = await authenticated(engine, request, scope);
  if (key instanceof Response) return key;
  const refusal = operationRefusal(key, id);
  const idempotencyKey = OPERATIONS[id].method === 'POST' ? request.headers.get('idempotency-key') : null;
  const counting = engine.limits.consume(key.keyId, key.rateLimit);
  const operation: OperationDefinition = OPERATIONS[id];
  if (counting instanceof Promise && refusal === null && idempotencyKey === null && operation.readsWhileCounting)
    return whileCounting(engine, id, event, key, counting);
  const admitted = admission(engine, key, counting instanceof Promise ? await counting : counting, headers);
  if (admitted instanceof Response) return admitted;
  if (refusal) return errorResponse(refusal.code, refusal.message, refusal.details, headers);
  const body = await bodyOf(request, OPERATION_SCHEMAS[id]);
  const run = () => operate(engine, id, event, admitted.caller, body);
  if (idempotencyKey === null) {
    const result = await run();
    return json(result.status, result.body, headers);
  }
  return idempotent(
    engine,
    key.organizationId,
    idempotencyKey,
    requestFingerprint(id, event.url.pathname, body ?? {}),
    run,
    headers,
  );
}

/**
 * An operation that reads while its request's count is on its way (identify on PostgreSQL: the count and the read take
 * one round trip's time instead of two). The engine writes nothing before the count allows the request, and the answer
 * waits for the count, so a request over its budget is answered 429 whatever else it would have been (a refused
 * body, a missing contact), as when the count comes first.
 */
async function whileCounting(
  engine: Engine,
  id: OperationId,
  event: H3Event,
  key: AuthenticatedKey,
  counting: Promise<RateLimitState>,
): Promise<Response> {
  counting.catch(() => {}); // awaited below, once the operation is done: its failure must not go unhandled meanwhile
  const { headers } = scopeOf(event);
  const caller: Caller = {
    organizationId: key.organizationId,
    whoami: async () => callerOf(key, await counting).whoami(),
    counting,
  };
  let result: Awaited<ReturnType<typeof operate>> | undefined;
  let failure: { error: unknown } | undefined;
  try {
    result = await operate(engine, id, event, caller, await bodyOf(event.req as Request, OPERATION_SCHEMAS[id]));
  } catch (error) {
    failure = { error };
  }
  const admitted = admission(engine, key, await counting, headers);
  if (admitted instanceof Response) return admitted;
  if (failure) throw failure.error;
  return json(result!.status, result!.body, headers);
}

/** The contract's operations as routes, each under its own path, with its own middleware (`ROUTE_MIDDLEWARE`) when there are metrics. */
export function mountOperations(app: H3, engine: Engine, metrics: Metrics | undefined): void {
  for (const id of OPERATION_IDS) {
    const { method, path } = OPERATIONS[id];
    const own = ROUTE_MIDDLEWARE[id];
    const middleware = own && metrics ? [own(metrics)] : [];
    app.on(method, path, (event) => handle(engine, id, event), { middleware });
  }
}
