import type { OperationDefinition } from './definition.js';
import { BOARDS } from './rows/boards.js';
import { CHANGELOG } from './rows/changelog.js';
import { COMMENTS } from './rows/comments.js';
import { COMPANIES } from './rows/companies.js';
import { CONTACTS } from './rows/contacts.js';
import { INTEGRATIONS } from './rows/integrations.js';
import { KEYS } from './rows/keys.js';
import { POSTS } from './rows/posts.js';
import { TAGS } from './rows/tags.js';
import { VOTES } from './rows/votes.js';
import { WEBHOOKS } from './rows/webhooks.js';

export {
  type Answers,
  fillPath,
  type Method,
  type ObjectSchemaName,
  type OperationDefinition,
  type OperationDoc,
  type OperationDocs,
  pathParams,
  RESOURCES,
  type SchemaName,
  writes,
} from './definition.js';

/** Every REST operation, keyed by its OpenAPI operationId, in the order a reader meets them (rows/, one file per resource). */
export const OPERATIONS = {
  ...CONTACTS,
  ...COMPANIES,
  ...BOARDS,
  ...POSTS,
  ...VOTES,
  ...COMMENTS,
  ...TAGS,
  ...CHANGELOG,
  ...KEYS,
  ...WEBHOOKS,
  ...INTEGRATIONS,
} as const satisfies Record<string, OperationDefinition>;

export type OperationId = keyof typeof OPERATIONS;
export type Operation<K extends OperationId = OperationId> = (typeof OPERATIONS)[K];

/** The operation ids, in table order. */
export const OPERATION_IDS = Object.keys(OPERATIONS) as OperationId[];
