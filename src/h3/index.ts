export { createApp, ROUTES, type AppOptions } from './app.js';
export { serveNode, type NodeServer, type ServeNodeOptions } from './node.js';
export type { RouteDefinition, RouteContext, RouteResult, Method } from './internal/route.js';
export { createOpenApiDocument, OPENAPI_PATH } from './openapi.js';
export type { RouteDoc } from './internal/route.js';
