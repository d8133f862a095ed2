export { convertKeys, type JsonSchema, snakeSchema, snakeText, toCamel, toSnake } from './case.js';
export { MCP_PATH, mcpEndpoint } from './http.js';
export { clientOperations, engineOperations, type FeedbackOperations } from './operations.js';
export { callTool, createToolServer, type ToolServerOptions } from './server.js';
export { TOOLS, type ToolDefinition, toolInputSchema, toolOutputSchema } from './tools.js';
