import { z } from 'zod';
import { jsonValueFault } from './input.js';

/** ISO 8601 UTC timestamp with milliseconds, as every response carries them. */
export const timestampSchema = z.iso.datetime({ offset: false, precision: 3 });

export const ID_PREFIXES = Object.freeze({
  organization: 'org',
  apiKey: 'key',
  contact: 'ctc',
  company: 'com',
  board: 'brd',
  post: 'post',
  tag: 'tag',
  vote: 'vote',
  comment: 'cmt',
  changelog: 'chg',
  webhook: 'wh',
  delivery: 'dlv',
  event: 'evt',
} as const);

export const scopeSchema = z.enum(['read', 'read:write']);
export type Scope = z.infer<typeof scopeSchema>;

/** A path id: any non-empty string; ids of other workspaces or of the wrong kind are simply not found. */
export const pathIdSchema = z.string().min(1).max(255);

/** `limit` query parameter: integer 1 to 100, default 25. */
export const pageLimitSchema = z.coerce
  .number({ error: 'limit must be an integer from 1 to 100' })
  .int('limit must be an integer from 1 to 100')
  .min(1, 'limit must be an integer from 1 to 100')
  .max(100, 'limit must be an integer from 1 to 100')
  .default(25)
  .describe('How many items a page holds: 1 to 100 (default 25).');

export const cursorSchema = z
  .string()
  .min(1)
  .max(1000)
  .describe("Where the page starts: the previous page's nextCursor (opaque).");

/** A cursor page: `{ data, nextCursor }`; `nextCursor` is null on the last page. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), nextCursor: z.string().nullable() });
}
export type Page<T> = { data: T[]; nextCursor: string | null };

/** What a DELETE answers: the id of what is gone. */
export const deletedSchema = z.object({ id: z.string(), deleted: z.literal(true) });
export type Deleted = z.infer<typeof deletedSchema>;

/** `{ data: T }`, the success envelope of every single-resource response. */
export function dataSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: item });
}

/** Refines free-form JSON (`metadata`, `body.json`): at most 32 levels deep, numbers that JSON carries exactly. */
export function jsonSchemaRefinement(value: unknown, ctx: z.RefinementCtx): void {
  const fault = jsonValueFault(value);
  if (fault) ctx.addIssue({ code: 'custom', path: fault.path, message: fault.message, params: { code: fault.code } });
}
