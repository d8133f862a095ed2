// Pure helpers every concept may use: no statement, no service, nothing of the engine above them.
export * from './addresses.js';
export * from './bindings.js';
export * from './email.js';
export * from './equality.js';
export * from './errors.js';
export * from './faults.js';
export { html, SafeHtml } from './html.js';
export * from './ids.js';
export * from './log.js';
export { markdown } from './markdown.js';
export * from './one-time.js';
export * from './pages.js';
export { applyPatch, type FieldChange, mergeMetadata, patchOf } from './patch.js';
export * from './plain-body.js';
export * from './plans.js';
export * from './portal-paths.js';
export * from './slugs.js';
export * from './time.js';
