// Patches as contacts and companies take them: the fields a body carries (null clears one), metadata merged key by
// key, and what a patch really changes.
import { MAX_METADATA_KEYS } from '../../schemas/contacts.js';
import { jsonEqual } from './equality.js';
import { validationError } from './errors.js';

/** Shallow merge where a key set to null is removed; the cap applies to the result. */
export function mergeMetadata(
  current: Record<string, unknown>,
  patch: Record<string, unknown>,
): Record<string, unknown> {
  const next: Record<string, unknown> = { ...current };
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete next[k];
    else next[k] = v;
  }
  if (Object.keys(next).length > MAX_METADATA_KEYS) {
    throw validationError([
      {
        path: 'metadata',
        code: 'too_big',
        message: `metadata may have at most ${MAX_METADATA_KEYS} keys after merging`,
      },
    ]);
  }
  return next;
}

/** The patch a validated body carries: only the keys of `fields` that are present. */
export function patchOf<Patch>(body: Record<string, unknown>, fields: readonly string[]): Patch {
  const patch: Record<string, unknown> = {};
  for (const field of fields) if (field in body) patch[field] = body[field];
  return patch as Patch;
}

/** A change of one field, as events' `changes` carry it. */
export type FieldChange = { from: unknown; to: unknown };

/** `current` with the patch applied (metadata merged), and what really changed: `{ from, to }` per field. */
export function applyPatch<R extends { metadata: Record<string, unknown> }>(
  current: R,
  patch: Partial<Record<string, unknown>>,
  fields: readonly (keyof R & string)[],
): { next: R; changes: Record<string, FieldChange> } {
  const next: R = { ...current };
  const changes: Record<string, FieldChange> = {};
  for (const field of fields) {
    if (!(field in patch)) continue;
    const value =
      field === 'metadata'
        ? mergeMetadata(current.metadata, (patch.metadata as Record<string, unknown> | undefined) ?? {})
        : patch[field];
    if (!jsonEqual(current[field], value)) {
      changes[field] = { from: current[field], to: value };
      (next as Record<string, unknown>)[field] = value;
    }
  }
  return { next, changes };
}
