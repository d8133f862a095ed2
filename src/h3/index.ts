export { html, markdown, SafeHtml } from '../engine/index.js';
export { type AppEndpoint, type AppOptions, type AppSite, createApp, HEALTH_PATH, READY_PATH } from './app.js';
export {
  brandStylesheet,
  DARK,
  DESIGN_CSS,
  fitAccent,
  initials,
  LIGHT,
  type Palette,
  type StatusTone,
  THEME_SCRIPT,
} from './design.js';
export { DOCS_PATH } from './docs.js';
export {
  CSRF_COOKIE,
  cookie,
  csrfOf,
  FORM_MAX_BYTES,
  factsOf,
  field,
  fieldFault,
  forgeryReason,
  forgeryRefusal,
  type RequestFacts,
  readCookie,
  readForm,
  readFormText,
  sessionCookie,
  spentBudget,
} from './forms.js';
export type { Admitted } from './internal/admit.js';
export { MAX_BODY_BYTES, readBodyText, readJson } from './internal/body.js';
export { errorResponse, json, jsonText, type ResponseHeaders } from './internal/respond.js';
export { createMetrics, METRICS_PATH, type Metrics } from './metrics.js';
export { type NodeServer, type ServeNodeOptions, serveNode } from './node.js';
export { createOpenApiDocument, type DocumentedEndpoint, errorResponseDoc, OPENAPI_PATH } from './openapi.js';
export { packagedFile, readPackagedFile } from './packaged.js';
export {
  type Asset,
  asset,
  assetResponse,
  createSiteRouter,
  cspFor,
  htmlResponse,
  jsonResponse,
  respond,
  type SitePages,
  seeOther,
} from './pages.js';
export { SiteBase, type SiteVisit } from './site.js';
