// The person a data-subject request (an export, an erasure) concerns, as the store's statements find their rows.
import { placeholders } from './sql.js';

/**
 * Who a data-subject request concerns: their contacts (every contact of the workspace with their address), their
 * address's hash, and their user ids in the workspace's app.
 */
export interface Subject {
  contactIds: readonly string[];
  emailHash: string | null;
  userIds: readonly string[];
}

/** How a row was found to be the person's. */
export type LinkedBy = Array<'contact_id' | 'email_hash' | 'user_id'>;
export function linkedBy(row: { contact_id: unknown; email_hash: unknown; user_id: unknown }, who: Subject): LinkedBy {
  const by: LinkedBy = [];
  if (who.contactIds.includes(row.contact_id as string)) by.push('contact_id');
  if (who.emailHash !== null && row.email_hash === who.emailHash) by.push('email_hash');
  if (who.userIds.includes(row.user_id as string)) by.push('user_id');
  return by;
}

/** `column IN (...)`, or a condition that holds for nothing when the list is empty. */
export const inList = (column: string, values: readonly unknown[]) =>
  values.length ? `${column} IN (${placeholders(values)})` : '1 = 0';
