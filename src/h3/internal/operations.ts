import { getRouterParams, type H3, type H3Event } from 'h3';
import { OPERATIONS, OPERATION_IDS, OPERATION_SCHEMAS, answersPage, type OperationId, type OperationSchemas } from '../../contract/index.js';
import { operationRefusal, requestFingerprint, runOperation, type Engine } from '../../engine/index.js';
import type { Metrics } from '../metrics.js';
import { admit, type Admitted } from './admit.js';
import { readJsonObject, readQuery } from './body.js';
import { idempotent } from './idempotent.js';
import { identifyOutcomes } from './observe.js';
import { errorResponse, json } from './respond.js';
import { scopeOf, type RequestScope } from './scope.js';

/** Key (401) and rate limit (429), noting who the request is for (the access log's keyId and organizationId). */
export async function admitted(engine: Engine, request: Request, scope: RequestScope): Promise<Admitted | Response> {
  const result = await admit(engine, request, scope.headers);
  if (!(result instanceof Response)) {
    scope.keyId = result.key.keyId;
    scope.organizationId = result.key.organizationId;
  }
  return result;
}

/** The operation's body: read for an operation that takes one, and for any but a GET that sends one (to refuse its fields). */
function bodyOf(request: Request, schemas: OperationSchemas): Promise<Record<string, unknown> | undefined> {
  if (schemas.body) return readJsonObject(request);
  return request.method === 'GET' ? Promise.resolve(undefined) : readJsonObject(request, { optional: true });
}

/** One operation: key, rate limit, scope and billing, the body, then the engine (idempotently with a key). */
async function handle(engine: Engine, id: OperationId, event: H3Event): Promise<Response> {
  const scope = scopeOf(event);
  const { headers } = scope;
  const request = event.req as Request;
  const admission = await admitted(engine, request, scope);
  if (admission instanceof Response) return admission;
  const refusal = operationRefusal(admission.key, id);
  if (refusal) return errorResponse(refusal.code, refusal.message, refusal.details, headers);
  const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
  const body = await bodyOf(request, schemas);
  const params = getRouterParams(event, { decode: true }) as Record<string, string>;
  const run = async () => {
    const { value, created } = await runOperation(engine, admission.caller, id, { params, query: readQuery(event.url), body });
    const statuses = Object.keys(schemas.responses).map(Number);
    const status = created === undefined ? statuses[0]! : created ? 201 : 200;
    return { status, body: answersPage(id) ? value : { data: value } };
  };
  const idempotencyKey = OPERATIONS[id].method === 'POST' ? request.headers.get('idempotency-key') : null;
  if (idempotencyKey === null) {
    const result = await run();
    return json(result.status, result.body, headers);
  }
  return idempotent(engine, admission.key.organizationId, idempotencyKey, requestFingerprint(id, event.url.pathname, body ?? {}), run, headers);
}

/** The contract's operations as routes, each under its own path; identify's outcomes are counted when there are metrics. */
export function mountOperations(app: H3, engine: Engine, metrics: Metrics | undefined): void {
  for (const id of OPERATION_IDS) {
    const { method, path } = OPERATIONS[id];
    const middleware = id === 'identifyContact' && metrics ? [identifyOutcomes(metrics)] : [];
    app.on(method, path, (event) => handle(engine, id, event), { middleware });
  }
}
