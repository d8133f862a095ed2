export { createApp, ROUTES, type AppOptions } from './app.js';
export { serveNode, type NodeServer, type ServeNodeOptions } from './node.js';
export type { RouteDefinition, RouteContext, RouteResult, Method } from './internal/route.js';
