export { createToolServer, callTool, type ToolServerOptions } from './server.js';
export { engineOperations, clientOperations, type FeedbackOperations } from './operations.js';
export { TOOLS, toolInputSchema, toolOutputSchema, type ToolDefinition } from './tools.js';
export { convertKeys, snakeSchema, snakeText, toCamel, toSnake, type JsonSchema } from './case.js';
export { mcpEndpoint, MCP_PATH } from './http.js';
