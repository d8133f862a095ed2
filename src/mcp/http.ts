import { OPERATION_IDS } from '../contract/index.js';
import type { Engine } from '../engine/index.js';
import { type AppEndpoint, errorResponseDoc, readJson } from '../h3/index.js';

/** Where the server answers the agent tools over MCP Streamable HTTP (JSON-RPC), with the same bearer keys. */
export const MCP_PATH = '/mcp';

/**
 * The agent tools over MCP Streamable HTTP (stateless: one server per request), for `createApp({ endpoints })`: the
 * same keys, rate limits, scopes and billing state as REST. The MCP SDK and the tool server are
 * loaded on the first request, so serving REST never needs them.
 * @example
 * const app = createApp({ engine, endpoints: [mcpEndpoint(engine)] });
 */
export function mcpEndpoint(engine: Engine): AppEndpoint {
  return {
    method: 'POST',
    path: MCP_PATH,
    openapi: {
      operationId: 'mcp',
      summary: 'The agent tools over MCP Streamable HTTP (JSON-RPC 2.0), one per operation; see docs/mcp.md',
      description: `The ${OPERATION_IDS.length} agent tools, one per REST operation, with the same keys, scopes and rules; their names and fields in snake_case.`,
      tags: ['Reference'],
      security: [{ bearerAuth: [] }],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: {
        '200': { description: 'A JSON-RPC response', content: { 'application/json': { schema: { type: 'object' } } } },
        '400': errorResponseDoc(400),
        '401': errorResponseDoc(401),
        '413': errorResponseDoc(413),
        '429': errorResponseDoc(429),
        '500': errorResponseDoc(500),
        '503': errorResponseDoc(503),
      },
    },
    async handle(request, { key, caller }, headers, logError) {
      // The body under the same 1 MiB limit and in the same envelope as REST (413, 400), read before the SDK would
      // read it under its own.
      const parsedBody = await readJson(request);
      const [{ createToolServer }, { engineOperations }, { WebStandardStreamableHTTPServerTransport }] =
        await Promise.all([
          import('./server.js'),
          import('./operations.js'),
          import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
        ]);
      const server = createToolServer(engineOperations(engine, key.organizationId, caller), {
        scope: key.scope,
        billingState: key.billingState,
        logError,
        requestId: () => headers['x-request-id']!,
      });
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      const response = await transport.handleRequest(request, { parsedBody });
      for (const [name, value] of Object.entries(headers)) response.headers.set(name, value);
      return response;
    },
  };
}
