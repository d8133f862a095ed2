import { erase } from './erase.js';
import { exportPerson } from './export.js';
import type { PrivacyContext } from './person.js';

/**
 * Data-subject requests: everything held about a person in one JSON document (`export`), and their erasure (`erase`).
 * A person is a contact and every other contact of the workspace with the same address. docs/privacy.md says what is
 * found, what an erasure removes and what it keeps. Built once per workspace.
 */
export function createPrivacyService(ctx: PrivacyContext) {
  return {
    export: (contactId: string) => exportPerson(ctx, contactId),
    erase: (contactId: string) => erase(ctx, contactId),
  };
}
export type PrivacyService = ReturnType<typeof createPrivacyService>;
