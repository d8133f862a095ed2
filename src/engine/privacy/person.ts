import type { ContactRecord } from '../contacts/index.js';
import { type SecretBox, sealedAt } from '../secrets/index.js';
import { hashEmail } from '../shared/index.js';
import {
  contacts,
  idempotencyKeys,
  portalCodes,
  portalSessions,
  type Sql,
  type Subject,
  type WorkspaceContext,
} from '../store/index.js';

/** What data-subject requests run with: the workspace, and the keys that open kept Idempotency-Key answers. */
export interface PrivacyContext extends WorkspaceContext {
  /** Opens kept Idempotency-Key answers, which may hold the contact as it was answered. */
  secrets: SecretBox;
}

/** The spec's words for each consent basis, as an export explains it. */
export const MEANINGS: Record<string, string> = {
  sdk_identify:
    "The workspace's app identified this person; it established consent before calling. Email is permitted.",
  public_interaction_opt_in:
    'The person ticked the notify-me opt-in on a public board. Email is permitted about what they opted in on and what they subscribe to.',
  admin_created:
    'A workspace admin created this contact and attests its lawful basis. Email only where the workspace turned it on.',
  legacy_inferred:
    'Backfilled from activity before the opt-in existed. Suppressed for marketing; emailed only a reply to their own request.',
};

/** The contact asked about and every other contact of the workspace with its address: one person. */
export async function personOf(
  sql: Sql,
  organizationId: string,
  contactId: string,
  lock: boolean,
): Promise<{ contact: ContactRecord; all: ContactRecord[]; subject: Subject } | null> {
  const contact = await contacts.find(sql, organizationId, contactId, lock);
  if (!contact) return null;
  const emailHash = hashEmail(contact.email);
  const all = emailHash ? await contacts.findByEmailHash(sql, organizationId, emailHash) : [contact];
  const userIds = all.map((c) => c.externalUserId).filter((id): id is string => id !== null);
  return { contact, all, subject: { contactIds: all.map((c) => c.id), emailHash, userIds } };
}

/** The kept answers of idempotent requests (24 hours) that hold one of the person's contacts. */
export async function keptAnswersAbout(
  sql: Sql,
  ctx: PrivacyContext,
  contactIds: readonly string[],
): Promise<string[]> {
  const keys: string[] = [];
  for (let after = ''; ; ) {
    const page = await idempotencyKeys.answersOf(sql, ctx.organizationId, after, 500);
    for (const row of page) {
      let body: string;
      try {
        body = ctx.secrets.open(row.body, sealedAt.idempotentAnswer(ctx.organizationId, row.key));
      } catch {
        continue; // sealed under a key this server no longer has: it cannot be read, by us or anyone with the database
      }
      if (contactIds.some((id) => body.includes(`"${id}"`))) keys.push(row.key);
    }
    if (page.length < 500) return keys;
    after = page[page.length - 1]!.key;
  }
}

/** The person's portal sessions and pending codes, found by their address. */
export async function portalAccessOf(sql: Sql, organizationId: string, emailHash: string | null) {
  const theirs = <T extends { email: string }>(rows: T[]) =>
    rows.filter((r) => emailHash !== null && hashEmail(r.email) === emailHash);
  return {
    sessions: theirs(await portalSessions.listForWorkspace(sql, organizationId)),
    codes: theirs(await portalCodes.listForWorkspace(sql, organizationId)),
  };
}
