import { z } from 'zod';
import type { ValidationIssue } from './error-codes.js';

export { ERROR_CODE_LIST, ERROR_CODES, type ErrorCode, getErrorStatus, type ValidationIssue } from './error-codes.js';

export const validationIssueSchema = z.object({
  path: z.string(),
  code: z.string(),
  message: z.string(),
}) satisfies z.ZodType<ValidationIssue>;

export const errorEnvelopeSchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    details: z.record(z.string(), z.unknown()).optional(),
  }),
});
export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

export const validationErrorDetailsSchema = z.object({ issues: z.array(validationIssueSchema) });
export const planLimitDetailsSchema = z.object({
  limit: z.number().int(),
  current: z.number().int(),
  resource: z.string(),
});
export const rateLimitDetailsSchema = z.object({ limit: z.number().int(), resetAt: z.string() });
export const scopeDetailsSchema = z.object({ required: z.string(), granted: z.string() });
