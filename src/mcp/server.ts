import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { PACKAGE_VERSION } from '../contract/index.js';
import { logErrorLine, newId, operationRefusal } from '../engine/index.js';
import type { Scope } from '../schemas/common.js';
import { toJsonSchema } from '../schemas/json-schema.js';
import { convertKeys, type JsonSchema, snakeText, toSnake } from './case.js';
import type { FeedbackOperations } from './operations.js';
import { TOOLS, type ToolDefinition, toolInputSchema, toolOutputSchema } from './tools.js';

interface PreparedTool {
  tool: ToolDefinition;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  /** The camelCase schemas that guide the key conversions. */
  restInput: JsonSchema | undefined;
  restOutput: JsonSchema;
}

let prepared: Map<string, PreparedTool> | undefined;
function preparedTools(): Map<string, PreparedTool> {
  prepared ??= new Map(
    TOOLS.map((tool) => [
      tool.name,
      {
        tool,
        inputSchema: toolInputSchema(tool),
        outputSchema: toolOutputSchema(tool),
        restInput: tool.input ? toJsonSchema(tool.input, 'input') : undefined,
        restOutput: toJsonSchema(tool.output, 'output'),
      },
    ]),
  );
  return prepared;
}

export interface ToolServerOptions {
  /** The caller's scope: a `read` caller sees and calls the read tools only. */
  scope?: Scope;
  /** A workspace in read-only billing state: write tools are refused (`ERR_FORBIDDEN`), as REST writes are. */
  billingState?: 'active' | 'read_only';
  /** Reported to clients in `initialize` (default: this package's version). */
  version?: string;
  /**
   * Where an unexpected tool failure is reported, one line each with its request id (default: stderr, which the
   * stdio transport leaves free). Never receives keys or secrets.
   */
  logError?: (message: string, error: unknown) => void;
  /** The request id of a failure (over HTTP, the request's `X-Request-Id`); a new `req_` id per failure otherwise. */
  requestId?: () => string;
}

/**
 * A tool error with the REST envelope's `code`, `message` and `details`, its field names in snake_case; `asSent`
 * keeps the text as written, for an error that names a key as the caller sent it.
 */
function toolError(code: string, message: string, details?: Record<string, unknown>, asSent = false): CallToolResult {
  const text = asSent ? (t: string) => t : snakeText;
  const issues = details?.issues as Array<{ path: string; code: string; message: string }> | undefined;
  const snakeDetails = details && {
    ...details,
    ...(issues ? { issues: issues.map((i) => ({ ...i, path: text(i.path), message: text(i.message) })) } : {}),
  };
  const named = snakeDetails && Object.fromEntries(Object.entries(snakeDetails).map(([k, v]) => [toSnake(k), v]));
  const error = { code, message: text(message), ...(named ? { details: named } : {}) };
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ error }) }] };
}

/** Run one tool call: snake_case in, the operation, snake_case out; a refusal is a tool error, never an exception. */
export async function callTool(
  ops: FeedbackOperations,
  name: string,
  args: Record<string, unknown> = {},
  options: Pick<ToolServerOptions, 'scope' | 'billingState' | 'logError' | 'requestId'> = {},
): Promise<CallToolResult> {
  const scope = options.scope ?? 'read:write';
  const entry = preparedTools().get(name);
  if (!entry) return toolError('ERR_NOT_FOUND', `No tool named ${name}.`);
  const { tool } = entry;
  // The same rule as REST, from the tool's operation.
  const refusal = operationRefusal({ scope, billingState: options.billingState ?? 'active' }, tool.operationId);
  if (refusal) return toolError(refusal.code, refusal.message, refusal.details);
  const params: Record<string, string> = {};
  for (const idArgument of tool.ids) {
    const value = args[idArgument.name];
    if (typeof value !== 'string' || value.length === 0)
      return toolError('ERR_VALIDATION', `${idArgument.name}: ${idArgument.name} is required`, {
        issues: [{ path: idArgument.name, code: 'invalid_type', message: `${idArgument.name} is required` }],
      });
    params[idArgument.param] = value;
  }
  const rest = Object.fromEntries(Object.entries(args).filter(([k]) => !tool.ids.some((i) => i.name === k)));
  const misnamed: string[] = [];
  const input = convertKeys(rest, entry.restInput, 'in', misnamed) as Record<string, unknown>;
  if (misnamed.length > 0)
    return toolError(
      'ERR_VALIDATION',
      `${misnamed[0]}: the tools take snake_case names; send ${toSnake(misnamed[0]!)}`,
      {
        issues: misnamed.map((path) => ({
          path,
          code: 'unrecognized_keys',
          message: `${path} is not a field this tool takes; send ${toSnake(path)}`,
        })),
      },
      true,
    );
  try {
    const result = await ops.call(tool.operationId, params, input);
    const output = convertKeys(result, entry.restOutput, 'out') as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(output) }], structuredContent: output };
  } catch (err) {
    const e = err as { code?: unknown; message?: unknown; details?: unknown };
    if (typeof e?.code === 'string' && e.code.startsWith('ERR_'))
      return toolError(e.code, String(e.message), (e.details as Record<string, unknown> | undefined) ?? undefined);
    // As REST answers ERR_INTERNAL: one log line and the answer share a request id, and no stack reaches the caller.
    const requestId = (options.requestId ?? (() => newId('req')))();
    (options.logError ?? logErrorLine)(`[feedback-service] ${requestId} unexpected error in tool ${name}`, err);
    return toolError('ERR_INTERNAL', 'An unexpected error occurred.', { requestId });
  }
}

/** The MCP server of the agent tools over `ops`; connect it to any transport. */
export function createToolServer(ops: FeedbackOperations, options: ToolServerOptions = {}): Server {
  const scope = options.scope ?? 'read:write';
  const server = new Server(
    { name: 'feedback-service', version: options.version ?? PACKAGE_VERSION },
    { capabilities: { tools: {} } },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: [...preparedTools().values()]
      .filter(({ tool }) => scope === 'read:write' || tool.scope === 'read')
      .map(({ tool, inputSchema, outputSchema }) => ({
        name: tool.name,
        title: tool.title,
        description: `${tool.description} (REST: ${tool.rest})`,
        inputSchema: inputSchema as { type: 'object' },
        outputSchema: outputSchema as { type: 'object' },
        annotations: { title: tool.title, ...tool.annotations },
      })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request) =>
    callTool(ops, request.params.name, (request.params.arguments ?? {}) as Record<string, unknown>, {
      ...options,
      scope,
    }),
  );
  return server;
}
