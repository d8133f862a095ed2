import { OPERATION_SCHEMAS, OPERATIONS, type OperationId, type OperationSchemas, writes } from '../contract/index.js';
import { textFault } from '../schemas/input.js';
import type { Whoami } from '../schemas/whoami.js';
import { type AuthenticatedKey, accessRefusal, type RateLimitState, rateLimited } from './access/index.js';
import type { Engine } from './engine.js';
import {
  type Binding,
  type Bindings,
  FeedbackError,
  type OperationResult,
  unknownKey,
  validationError,
} from './shared/index.js';
import { CONCEPTS, type WorkspaceServices } from './workspace.js';

export type { OperationResult };

/** Who runs an operation: their workspace, and what `whoami` answers them. */
export interface Caller {
  organizationId: string;
  whoami(): Whoami | Promise<Whoami>;
  /**
   * The request's rate-limit count, still on its way (an operation the contract marks `readsWhileCounting`): the
   * operation may read meanwhile, and writes only once the count allows the request (else it is refused with
   * `rateLimited`).
   */
  counting?: Promise<RateLimitState>;
}

/**
 * An operation's input: its path ids by name, its query parameters and its body. What the operation does not take (a
 * query on an operation without one, any body field or query parameter beyond its schema) is ERR_VALIDATION, here,
 * for REST and the agent tools alike.
 */
export interface OperationRequest {
  params: Record<string, string>;
  query?: Record<string, unknown>;
  body?: Record<string, unknown>;
}

/** A gate on an operation's writes: open once the request's count allows it, else the 429 (`rateLimited`). */
const writeGate = (counting: Promise<RateLimitState>) => async () => {
  const state = await counting;
  if (!state.allowed) throw rateLimited(state);
};

type Concepts = typeof CONCEPTS;
/** The operations some concept binds. */
type Bound = { [C in keyof Concepts]: keyof Concepts[C]['operations'] }[keyof Concepts];
/** Every operation of the contract is some concept's: else `true` does not fit, and the type error names the one that is not. */
true satisfies [Exclude<OperationId, Bound>] extends [never] ? true : Exclude<OperationId, Bound>;

/** Each operation of the contract: the concept that does it (its workspace service, if it has one) and how. */
const BINDINGS = new Map<string, { concept: string; hasService: boolean; bind: Binding<unknown> }>();
for (const [concept, { operations, ...rest }] of Object.entries(CONCEPTS)) {
  for (const [id, bind] of Object.entries(operations as Bindings<unknown>)) {
    if (BINDINGS.has(id)) throw new Error(`${id} is bound by both ${BINDINGS.get(id)!.concept} and ${concept}`);
    BINDINGS.set(id, { concept, hasService: 'service' in rest, bind: bind! });
  }
}

/**
 * Run one operation of the contract for a caller, in their workspace: what REST and the in-process agent tools
 * both do once the caller is known and allowed. Refusals are FeedbackErrors (validation, 404, 409, 402).
 */
export async function runOperation(
  engine: Engine,
  caller: Caller,
  id: OperationId,
  request: OperationRequest,
): Promise<OperationResult> {
  // A path id that breaks the input rule cannot name anything stored (and PostgreSQL could not even compare it).
  const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
  const strays = [
    ...(schemas.query ? [] : Object.keys(request.query ?? {})),
    ...(schemas.body ? [] : Object.keys(request.body ?? {})),
  ];
  if (strays.length > 0) throw validationError(strays.map(unknownKey));
  for (const [param, value] of Object.entries(request.params)) {
    if (textFault(value) !== null)
      throw new FeedbackError('ERR_NOT_FOUND', `No ${param.replace(/Id$/, '')} with id ${value}.`);
  }
  const input = (schemas.body ? request.body : request.query) ?? {};
  const { concept, hasService, bind } = BINDINGS.get(id)!;
  const service = hasService ? engine.workspace(caller.organizationId)[concept as keyof WorkspaceServices] : undefined;
  const mayWrite = caller.counting && writeGate(caller.counting);
  return bind(service, { params: request.params, input, ...(mayWrite && { mayWrite }), caller });
}

/** Whether a key may run an operation: its scope, then its workspace's billing state on writes. Null when it may. */
export function operationRefusal(
  key: Pick<AuthenticatedKey, 'scope' | 'billingState'>,
  id: OperationId,
): FeedbackError | null {
  const operation = OPERATIONS[id];
  return accessRefusal(key, operation.scope, writes(operation));
}
