import type { z } from 'zod';
import { dataSchema } from '../schemas/common.js';
import {
  contactDetailSchema,
  contactPageSchema,
  contactSchema,
  createContactBodySchema,
  deletedContactSchema,
  identifyContactBodySchema,
  listContactsQuerySchema,
  updateContactBodySchema,
} from '../schemas/contacts.js';
import {
  boardPageSchema,
  createPostBodySchema,
  pageQuerySchema,
  postPageSchema,
  postSchema,
  updatePostBodySchema,
} from '../schemas/posts.js';
import {
  createdWebhookSchema,
  createWebhookBodySchema,
  deletedWebhookSchema,
  deliveryPageSchema,
  deliverySchema,
  updateWebhookBodySchema,
  webhookPageSchema,
  webhookSchema,
} from '../schemas/webhooks.js';
import { whoamiSchema } from '../schemas/whoami.js';
import type { OperationId } from './operations.js';

/** What an operation reads and answers, as `schemas` shapes. */
export interface OperationSchemas {
  /** The JSON body (POST and PATCH that take one). */
  body?: z.ZodType;
  /** The query parameters, an object schema. */
  query?: z.ZodObject;
  /** Success responses by status; a list answers a page (`{ data, nextCursor }`), anything else `{ data }`. */
  responses: Partial<Record<200 | 201, z.ZodType>>;
}

/** The schemas of every operation in operations.ts, by the same key. */
export const OPERATION_SCHEMAS = {
  listContacts: { query: listContactsQuerySchema, responses: { 200: contactPageSchema } },
  createContact: { body: createContactBodySchema, responses: { 201: dataSchema(contactSchema) } },
  identifyContact: {
    body: identifyContactBodySchema,
    responses: { 200: dataSchema(contactSchema), 201: dataSchema(contactSchema) },
  },
  retrieveContact: { responses: { 200: dataSchema(contactDetailSchema) } },
  updateContact: { body: updateContactBodySchema, responses: { 200: dataSchema(contactSchema) } },
  deleteContact: { responses: { 200: dataSchema(deletedContactSchema) } },
  listContactPosts: { query: pageQuerySchema, responses: { 200: postPageSchema } },
  listBoards: { query: pageQuerySchema, responses: { 200: boardPageSchema } },
  createPost: { body: createPostBodySchema, responses: { 201: dataSchema(postSchema) } },
  updatePost: { body: updatePostBodySchema, responses: { 200: dataSchema(postSchema) } },
  whoami: { responses: { 200: dataSchema(whoamiSchema) } },
  createWebhook: { body: createWebhookBodySchema, responses: { 201: dataSchema(createdWebhookSchema) } },
  listWebhooks: { query: pageQuerySchema, responses: { 200: webhookPageSchema } },
  retrieveWebhook: { responses: { 200: dataSchema(webhookSchema) } },
  updateWebhook: { body: updateWebhookBodySchema, responses: { 200: dataSchema(webhookSchema) } },
  deleteWebhook: { responses: { 200: dataSchema(deletedWebhookSchema) } },
  listWebhookDeliveries: { query: pageQuerySchema, responses: { 200: deliveryPageSchema } },
  replayWebhookDelivery: { responses: { 201: dataSchema(deliverySchema) } },
} as const satisfies Record<OperationId, OperationSchemas>;

type Schemas = typeof OPERATION_SCHEMAS;
type SuccessSchema<K extends OperationId> = Schemas[K]['responses'][keyof Schemas[K]['responses']];

/** The body an operation takes, as a caller writes it. */
export type BodyOf<K extends OperationId> = Schemas[K] extends { body: infer B extends z.ZodType } ? z.input<B> : never;
/** The query an operation takes, as a caller writes it. */
export type QueryOf<K extends OperationId> = Schemas[K] extends { query: infer Q extends z.ZodType }
  ? z.input<Q>
  : never;
/** What an operation answers on success. */
export type ResponseOf<K extends OperationId> = SuccessSchema<K> extends z.ZodType ? z.output<SuccessSchema<K>> : never;
/** The `data` of a single-resource answer. */
export type DataOf<K extends OperationId> = ResponseOf<K> extends { data: infer D } ? D : never;
/** One item of a list's page. */
export type ItemOf<K extends OperationId> =
  ResponseOf<K> extends { data: Array<infer I>; nextCursor: string | null } ? I : never;

/** The success response schema of an operation (the first status). */
export function successSchema(id: OperationId): z.ZodObject {
  return Object.values(OPERATION_SCHEMAS[id].responses)[0] as z.ZodObject;
}

/** Whether an operation answers a page (`{ data, nextCursor }`) rather than `{ data }`. */
export function answersPage(id: OperationId): boolean {
  return 'nextCursor' in successSchema(id).shape;
}

/** Whether an operation takes a JSON body (else what a caller sends besides the path ids is its query). */
export function takesBody(id: OperationId): boolean {
  return (OPERATION_SCHEMAS[id] as OperationSchemas).body !== undefined;
}

/** The body or query schema: what a caller sends besides the path ids. */
export function inputSchema(id: OperationId): z.ZodType | undefined {
  const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
  return schemas.body ?? schemas.query;
}
