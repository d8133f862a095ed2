// What an operation of the contract is: its fields, the resources they group in, and how a path is filled. The table
// itself is operations.ts.
import type { z } from 'zod';
import type { Scope } from '../schemas/common.js';
import type * as schemas from '../schemas/index.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The name of a `feedback-service/schemas` export that is a zod schema: how a row names its shapes. */
export type SchemaName = {
  [N in keyof typeof schemas]: (typeof schemas)[N] extends z.ZodType ? N : never;
}[keyof typeof schemas];
/** A `SchemaName` whose schema is an object: what query parameters are. */
export type ObjectSchemaName = {
  [N in SchemaName]: (typeof schemas)[N] extends z.ZodObject ? N : never;
}[SchemaName];

/**
 * What the API is made of, a group of operations each: the OpenAPI tag and its description, in the order a reader
 * meets them. A row names its resource.
 */
export const RESOURCES = {
  contacts: {
    tag: 'Contacts',
    description: 'End-users of your product: identified by your own user id, with plan, revenue and metadata.',
  },
  companies: {
    tag: 'Companies',
    description:
      'The paying accounts your contacts belong to: identified by your own account id, with plan, revenue and metadata. Impact counts each company once.',
  },
  boards: { tag: 'Boards', description: 'Where posts are filed; public ones are on the portal.' },
  posts: { tag: 'Posts', description: 'Feedback filed on a board: its status, votes and comments.' },
  votes: {
    tag: 'Votes',
    description:
      "Who asked for a post: a post's voters with their revenue, and votes cast or taken back for a contact.",
  },
  tags: { tag: 'Tags', description: "The workspace's tags, and the tags a post carries (at most three)." },
  changelog: {
    tag: 'Changelog',
    description: 'What shipped: drafts on a board, linked to the posts they ship, published once with their mail.',
  },
  comments: {
    tag: 'Comments',
    description:
      "A post's discussion: comments of end-users and the team's official ones, and the team's internal notes.",
  },
  webhooks: { tag: 'Webhooks', description: 'Receivers of signed event deliveries, their delivery log and replays.' },
  keys: { tag: 'Keys', description: 'The API key in use and its rate-limit budget.' },
  integrations: {
    tag: 'Integrations',
    description: 'Connections to Linear, GitHub and Slack: listed, and removed (the console connects them).',
  },
} as const;

/**
 * What an operation answers on success: a page of a list (`{ data, nextCursor }`, the named schema is the whole page),
 * or `{ data }` of one resource, with 200 unless `statuses` says otherwise (201 when it creates; identify answers
 * either).
 */
export type Answers = { page: SchemaName } | { data: SchemaName; statuses?: readonly (200 | 201)[] };

/**
 * One REST operation. Its shapes are named, not imported (`body: 'createContactBodySchema'`), so that the client can
 * load this table without zod; contract/schemas.ts resolves them. The h3 routes, the OpenAPI document, the agent
 * tools and the client's methods are all derived from it.
 */
export interface OperationDefinition {
  method: Method;
  /** With `:name` path parameters, as h3 routes them. */
  path: string;
  /** The scope the key needs: `read` allows every GET, `read:write` everything. */
  scope: Scope;
  /** Its group: the OpenAPI tag. */
  resource: keyof typeof RESOURCES;
  /** The JSON body it takes (POST and PATCH that take one). */
  body?: SchemaName;
  /** Its query parameters, an object schema (GET). */
  query?: ObjectSchemaName;
  answers: Answers;
  /**
   * How a retried POST is made safe: `key`, an Idempotency-Key (the client makes one per call); `natural`, the
   * operation is idempotent by the spec (identify). GET, PATCH and DELETE are idempotent by their method.
   */
  idempotency?: 'key' | 'natural';
  /** Error statuses beyond those every operation can answer (401, 403, 429, 500; 404 with a path id; 400, 413, 422 with a body or query). */
  errors?: readonly number[];
  /** The agent (MCP) tool's name; its arguments are the path ids and the body or query, in snake_case. */
  tool: string;
  /**
   * The client's method: `group.name` (`contacts.identify`), or a name alone for one on the client itself (`whoami`).
   * Its arguments are the path ids in order, then the body (required) or the query (optional), then request options.
   */
  client: string;
  /**
   * The operation reads while its request's rate-limit count is on its way, where the count is a statement of its own
   * (PostgreSQL): it writes only once the count allows the request. For the hot path (identify), whose read and count
   * then take one round trip's time instead of two.
   */
  readsWhileCounting?: true;
}

/**
 * What people and agents read of an operation, kept beside its row (rows/, `*_DOCS`) and out of the client's bundle:
 * the OpenAPI summary and description, and the agent tool's title and description (field and operation names in
 * snake_case there: `externalUserId` is `external_user_id`, `identifyContact` is the tool `identify_contact`).
 */
export interface OperationDoc {
  summary: string;
  description: string;
  /** The agent tool's title. */
  title: string;
}
/** The docs of a table of rows: one per row, no more. */
export type OperationDocs<Rows> = { [K in keyof Rows]: OperationDoc };

/** The `:name` parameters of a path, in order. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]!);
}

/** The path with each `:name` replaced by its value, URL-encoded. */
export function fillPath(path: string, values: readonly string[]): string {
  let i = 0;
  return path.replace(/:[A-Za-z]+/g, () => encodeURIComponent(values[i++] ?? ''));
}

/** Whether an operation writes (any method but GET): refused in read-only billing state. */
export const writes = (operation: OperationDefinition): boolean => operation.method !== 'GET';
