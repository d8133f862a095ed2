// The store's door for the concepts: one namespace per table (its entity, record type, row mapping and statements,
// each defined once in store/<table>.ts), and the statement layer they run on.

export { inTransaction, type WorkspaceContext } from './context.js';
export { createDatabase } from './database.js';
/** For the engine's root: the model MikroORM works from, and the database on its connections. */
export { type Entities, entities } from './entities.js';
export { modelFor } from './model.js';
export * as companyLists from './queries/company-lists.js';
export * as consoleCounts from './queries/console-counts.js';
export * as contactLists from './queries/contact-lists.js';
export * as deliveryClaims from './queries/delivery-claims.js';
export * as deliveryOutcomes from './queries/delivery-outcomes.js';
export * as leases from './queries/leases.js';
export * as mailClaims from './queries/mail-claims.js';
export * as mailRecipients from './queries/mail-recipients.js';
export * as peopleMerge from './queries/people-merge.js';
export * as portalPages from './queries/portal-pages.js';
export * as postVotes from './queries/post-votes.js';
export * as triage from './queries/triage.js';
export * from './rows.js';
export * from './sql.js';
export * from './subjects.js';
export type { ApiKeyInfo } from './tables/api-keys.js';
/** A change and its events commit together: the mechanism every change goes through (events.ts). */
export { emit, writeWithEvent } from './tables/events.js';
export * from './tables/index.js';
export type { PostMatch, PostQuery, PostSearchScope, SearchGroup, SearchTerm } from './tables/search.js';
