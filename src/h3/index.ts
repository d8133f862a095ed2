export { createApp, HEALTH_PATH, READY_PATH, type AppEndpoint, type AppOptions, type AppSite } from './app.js';
export type { Admitted } from './internal/admit.js';
export { MAX_BODY_BYTES, readBodyText, readJson } from './internal/body.js';
export { errorResponse, json, jsonText, type ResponseHeaders } from './internal/respond.js';
export { serveNode, type NodeServer, type ServeNodeOptions } from './node.js';
export { createOpenApiDocument, errorResponseDoc, OPENAPI_PATH, type DocumentedEndpoint } from './openapi.js';
export { createMetrics, METRICS_PATH, type Metrics } from './metrics.js';
export { DOCS_PATH } from './docs.js';
