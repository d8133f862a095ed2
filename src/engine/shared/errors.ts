import type { z } from 'zod';
import { ERROR_CODES, type ErrorCode, type ValidationIssue } from '../../schemas/errors.js';
import { textIssues } from '../../schemas/input.js';

/**
 * The one error type the engine throws for a refused operation. `code` is a key of
 * ERROR_CODES; the server answers with its status and the error envelope.
 */
export class FeedbackError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>) {
    super(message ?? ERROR_CODES[code].message);
    this.name = 'FeedbackError';
    this.code = code;
    this.details = details;
  }

  get status(): number {
    return ERROR_CODES[this.code].status;
  }

  toJSON(): { code: ErrorCode; message: string; details?: Record<string, unknown> } {
    return this.details === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, details: this.details };
  }
}

/** `ERR_VALIDATION` with the given issues as `details.issues`. */
export function validationError(issues: ValidationIssue[]): FeedbackError {
  const first = issues[0];
  const message = first
    ? first.path
      ? `${first.path}: ${first.message}`
      : first.message
    : 'The request failed validation.';
  return new FeedbackError('ERR_VALIDATION', message, { issues });
}

/**
 * Parse with a zod schema, turning its issues into ERR_VALIDATION. Every input of every operation comes through
 * here, so the input rule both databases can keep is checked here first: no string or key anywhere in the input
 * holds U+0000 or an unpaired surrogate.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown): z.infer<S> {
  const textFaults = textIssues(input);
  if (textFaults.length > 0) throw validationError(textFaults);
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw validationError(
    result.error.issues.flatMap((issue) => {
      const path = issue.path.map(String).join('.');
      // A strict schema's unknown keys: one issue each, at the key's own path (`bogus`, not the object's).
      if (issue.code === 'unrecognized_keys') return issue.keys.map((key) => unknownKey(path ? `${path}.${key}` : key));
      return [
        {
          path,
          code: issue.code === 'custom' && typeof issue.params?.code === 'string' ? issue.params.code : issue.code,
          message: issue.message,
        },
      ];
    }),
  );
}

/** The issue of a field or parameter that the operation does not take. */
export function unknownKey(path: string): ValidationIssue {
  return { path, code: 'unrecognized_keys', message: `${path} is not a field or parameter this operation takes` };
}
