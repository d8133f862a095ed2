import { hashEmail } from '../shared/index.js';
import { contacts, type Sql, votes } from '../store/index.js';

/**
 * Who votes, as one person whichever way they proved it (docs/identity.md): the key a new vote of theirs is stored by
 * (their user id when the workspace vouched for them, else their address), and every key and the contact an earlier
 * vote of theirs may carry: the contact with their user id, else the oldest with their address, and that contact's
 * own user id and address.
 */
export async function voterPerson(
  sql: Sql,
  organizationId: string,
  who: { userId?: string | null | undefined; email: string },
): Promise<{ voterKey: string; person: votes.VoterPerson }> {
  const emailHash = hashEmail(who.email)!;
  const voterKey = votes.voterKey(who.userId, emailHash);
  const contact = await contacts.personOf(sql, organizationId, { externalUserId: who.userId ?? null, emailHash });
  const keys = new Set([voterKey, votes.voterKey(null, emailHash)]);
  if (contact?.externalUserId) keys.add(votes.voterKey(contact.externalUserId, ''));
  if (contact?.emailHash) keys.add(votes.voterKey(null, contact.emailHash));
  return { voterKey, person: { keys: [...keys], contactId: contact?.id ?? null } };
}
