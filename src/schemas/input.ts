import type { ValidationIssue } from './error-codes.js';

/**
 * The input rule both databases can keep: what every request (body, query, metadata keys and values, REST and the
 * agent tools alike) must satisfy before anything stores, hashes or serializes it. Nothing here recurses, so a value
 * nested a million levels deep is walked as safely as a flat one.
 */

/** How deep JSON in `metadata` and a post's `body.json` may nest: the container itself is level 1. */
export const MAX_JSON_DEPTH = 32;
/** The largest magnitude a number in free-form JSON may have: beyond it JSON parsers (ours too) round integers. */
export const MAX_JSON_NUMBER = Number.MAX_SAFE_INTEGER;
/** At most this many issues are listed for one request. */
const MAX_ISSUES = 20;

/**
 * Why a string cannot be stored as it is, or null when it can. PostgreSQL refuses U+0000, and an unpaired UTF-16
 * surrogate has no UTF-8 form (SQLite would store U+FFFD instead, so the value read back would differ).
 */
export function textFault(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain U+0000 (NUL)';
  if (!(text as string & { isWellFormed(): boolean }).isWellFormed())
    return 'must not contain an unpaired UTF-16 surrogate';
  return null;
}

const join = (path: string, key: string | number): string => (path === '' ? String(key) : `${path}.${key}`);

/**
 * Every string and object key of a request that breaks the text rule, as validation issues (at most 20): one walk
 * with an explicit stack.
 */
export function textIssues(input: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const stack: Array<[unknown, string]> = [[input, '']];
  while (stack.length > 0 && issues.length < MAX_ISSUES) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      const fault = textFault(value);
      if (fault) issues.push({ path, code: 'invalid_text', message: fault });
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push([value[i], join(path, i)]);
    } else if (value !== null && typeof value === 'object') {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i]!;
        const fault = textFault(key);
        if (fault) issues.push({ path: join(path, key), code: 'invalid_text', message: `key ${fault}` });
        else stack.push([(value as Record<string, unknown>)[key], join(path, key)]);
      }
    }
  }
  return issues;
}

/**
 * Why a free-form JSON value (`metadata`, `body.json`) cannot be kept exactly, or null: deeper than 32 levels, or a
 * number JSON does not carry exactly (not finite, or beyond ±(2^53 − 1), where parsers round it). Walked with an
 * explicit stack; containers count from 1 at `value` itself.
 */
export function jsonValueFault(value: unknown): { path: (string | number)[]; message: string; code: string } | null {
  const stack: Array<[unknown, number, (string | number)[]]> = [[value, 1, []]];
  while (stack.length > 0) {
    const [v, depth, path] = stack.pop()!;
    if (typeof v === 'number') {
      if (!Number.isFinite(v) || Math.abs(v) > MAX_JSON_NUMBER) {
        return {
          path,
          code: 'unsafe_number',
          message: `numbers must be finite and at most ${MAX_JSON_NUMBER} in magnitude (send larger ones as strings)`,
        };
      }
    } else if (v !== null && typeof v === 'object') {
      if (depth > MAX_JSON_DEPTH)
        return { path, code: 'too_deep', message: `JSON may nest at most ${MAX_JSON_DEPTH} levels` };
      if (Array.isArray(v)) for (const [i, item] of v.entries()) stack.push([item, depth + 1, [...path, i]]);
      else for (const [k, item] of Object.entries(v)) stack.push([item, depth + 1, [...path, k]]);
    } else if (v !== null && v !== undefined && typeof v !== 'string' && typeof v !== 'boolean') {
      return {
        path,
        code: 'invalid_type',
        message: 'must be JSON: objects, arrays, strings, numbers, booleans and null',
      };
    }
  }
  return null;
}
