import type { FeedbackClient } from '../client/index.js';
import { answersPage, type OperationId, takesBody } from '../contract/index.js';
import { type Caller, type Engine, runOperation } from '../engine/index.js';

/**
 * The operations behind the agent tools, with REST's camelCase inputs and outputs: a list answers its page, anything
 * else the `data` of its answer. The engine satisfies it in-process (one workspace) and the client remotely; the tool
 * layer does not know which.
 */
export interface FeedbackOperations {
  call(id: OperationId, params: Record<string, string>, input: Record<string, unknown>): Promise<unknown>;
}

/**
 * The operations of one workspace, in-process: the engine's own validation and errors. `caller` answers `whoami`;
 * without one (an operator on the database, `feedback-service mcp --db`) it reports full scope under the
 * workspace's budget.
 */
export function engineOperations(engine: Engine, organizationId: string, caller?: Caller): FeedbackOperations {
  const operator: Caller = caller ?? {
    organizationId,
    async whoami() {
      const org = await engine.organizations.get(organizationId);
      const limit = org?.rateLimit ?? 0;
      const resetAt = new Date(engine.clock().getTime() + 60_000).toISOString();
      return {
        keyId: 'in-process',
        organizationId,
        scope: 'read:write',
        rateLimit: { limit, remaining: limit, resetAt },
      };
    },
  };
  return {
    call: async (id, params, input) =>
      (await runOperation(engine, operator, id, { params, ...(takesBody(id) ? { body: input } : { query: input }) }))
        .value,
  };
}

/** The operations of a remote server, through the client: the server's validation and errors. */
export function clientOperations(client: FeedbackClient): FeedbackOperations {
  return {
    async call(id, params, input) {
      const body = (await client.operation(id, { params, input })) as { data: unknown; nextCursor?: string | null };
      return answersPage(id) ? { data: body.data, nextCursor: body.nextCursor } : body.data;
    },
  };
}
