// Metadata as contacts and companies carry it: a flat object a write merges into, key by key.
import { MAX_METADATA_KEYS } from '../../schemas/contacts.js';
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
