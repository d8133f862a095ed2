import { type Sql, toBool, toDate, toInt, toStringOrNull, ts } from '../sql.js';
import { inList } from '../subjects.js';

/**
 * A contact a change might mail, with what the consent rule needs to know: how the contact came to be, whether it
 * takes part in the post, its subscription to the topic (own or the workspace's), the newest unsubscribe of its
 * address that covers the topic, its digest preference and how much mail its address had in the last hour.
 */
export interface Candidate {
  contactId: string;
  email: string;
  emailHash: string;
  source: string;
  consentBasis: string;
  participant: boolean;
  subscribedAt: Date | null;
  subscribedVia: string | null;
  optedOutAt: Date | null;
  digest: string | null;
  recent: number;
}

/** Who a change may concern: a post's participants and subscribers, given contacts, or a topic's subscribers. */
export type Concerned =
  /** A post's participants (its author, voters and commenters, by contact id) and the topic's subscribers. */
  | { participantsOf: string; topic: string }
  /** These contacts only (a reply's addressees), with their subscription to the topic. */
  | { contacts: readonly string[]; topic: string }
  /** The topic's subscribers. */
  | { subscribersOf: string };

/** Contacts read per statement (by primary key, through a JSON list of ids). */
const CHUNK = 1000;

/**
 * The candidates of one change: the linked contacts' ids (the post's, its votes', its comments', by their post
 * indexes) and the topic's subscriptions, merged here; then the contacts by primary key, a thousand per statement,
 * each with its facts as index lookups. (One statement with the ids as CTEs was planned, on a freshly loaded table,
 * as nested loops over them: 1.5 s for 10,000 voters.) `optOutTopics`: the unsubscribe topics that cover this message.
 */
export async function candidates(
  sql: Sql,
  organizationId: string,
  concerned: Concerned,
  optOutTopics: readonly string[],
  hourAgo: Date,
): Promise<Candidate[]> {
  const topic = 'subscribersOf' in concerned ? concerned.subscribersOf : concerned.topic;
  let linked: string[] = [];
  if ('participantsOf' in concerned) {
    const p = concerned.participantsOf;
    const rows = await sql.all<{ contact_id: string }>(
      `SELECT contact_id FROM post WHERE id = ? AND contact_id IS NOT NULL
       UNION SELECT contact_id FROM vote WHERE post_id = ? AND contact_id IS NOT NULL
       UNION SELECT contact_id FROM comment WHERE post_id = ? AND contact_id IS NOT NULL`,
      [p, p, p],
    );
    linked = rows.map((r) => r.contact_id);
  } else if ('contacts' in concerned) linked = [...concerned.contacts];
  const participants = new Set(linked);
  const subscribed = new Map(
    (
      await sql.all<{ contact_id: string; via: string; created_at: unknown }>(
        'SELECT contact_id, via, created_at FROM mail_subscription WHERE organization_id = ? AND topic = ?',
        [organizationId, topic],
      )
    ).map((r) => [r.contact_id, { via: r.via, at: toDate(r.created_at) }]),
  );
  const ids = 'contacts' in concerned ? [...participants] : [...new Set([...participants, ...subscribed.keys()])];
  const optOut = optOutTopics.map(() => '?').join(', ');
  const found: Candidate[] = [];
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await sql.all<Record<string, unknown>>(
      `SELECT c.id, c.email, c.email_hash, c.source, c.consent_basis,
         (SELECT max(u.created_at) FROM mail_unsubscribe u WHERE u.organization_id = c.organization_id AND u.email_hash = c.email_hash
            AND u.undone_at IS NULL AND u.topic IN (${optOut})) AS opted_out_at,
         (SELECT p.digest FROM mail_preference p WHERE p.organization_id = c.organization_id AND p.email_hash = c.email_hash) AS digest,
         (SELECT count(*) FROM mail m WHERE m.organization_id = c.organization_id AND m.email_hash = c.email_hash AND m.created_at > ?) AS recent
       FROM ${sql.dialect.rowsOfIds('contact', 'c')} WHERE c.organization_id = ? AND c.email IS NOT NULL`,
      [...optOutTopics, ts(sql, hourAgo), JSON.stringify(ids.slice(i, i + CHUNK)), organizationId],
    );
    for (const r of rows) {
      const id = r.id as string;
      const subscription = subscribed.get(id);
      found.push({
        contactId: id,
        email: r.email as string,
        emailHash: r.email_hash as string,
        source: r.source as string,
        consentBasis: r.consent_basis as string,
        participant: participants.has(id),
        subscribedAt: subscription?.at ?? null,
        subscribedVia: subscription?.via ?? null,
        optedOutAt: r.opted_out_at == null ? null : toDate(r.opted_out_at),
        digest: toStringOrNull(r.digest),
        recent: toInt(r.recent),
      });
    }
  }
  // Oldest contact first: where several share an address, the first one the rule lets through carries the message.
  return found.sort((a, b) => (a.contactId < b.contactId ? -1 : a.contactId > b.contactId ? 1 : 0));
}

/** What the rule needs of the workspace: whether it mails admin-created contacts, and its suppression salt. */
export async function workspaceFacts(
  sql: Sql,
  organizationId: string,
): Promise<{ adminCreatedMail: boolean; salt: string | null }> {
  const row = await sql.one<{ notify_admin_created: unknown; privacy_salt: unknown }>(
    'SELECT notify_admin_created, privacy_salt FROM organization WHERE id = ?',
    [organizationId],
  );
  return { adminCreatedMail: toBool(row?.notify_admin_created), salt: toStringOrNull(row?.privacy_salt) };
}

/**
 * Which of these posts (of the workspace) mail about may reach an address: those one of its contacts follows, or
 * filed, and those it voted or commented on (by contact or by address). What a person may switch on and off.
 */
export async function postsConcerning(
  sql: Sql,
  organizationId: string,
  who: { contactIds: readonly string[]; emailHash: string },
  postIds: readonly string[],
): Promise<Set<string>> {
  if (postIds.length === 0) return new Set();
  const c = who.contactIds;
  const rows = await sql.all<{ id: string }>(
    `SELECT p.id FROM ${sql.dialect.rowsOfIds('post', 'p')} WHERE p.organization_id = ? AND (
       ${inList('p.contact_id', c)}
       OR EXISTS (SELECT 1 FROM mail_subscription s WHERE s.topic = 'post:' || p.id AND ${inList('s.contact_id', c)})
       OR EXISTS (SELECT 1 FROM vote v WHERE v.post_id = p.id AND (v.email_hash = ? OR ${inList('v.contact_id', c)}))
       OR EXISTS (SELECT 1 FROM comment m WHERE m.post_id = p.id AND (m.email_hash = ? OR ${inList('m.contact_id', c)})))`,
    [JSON.stringify(postIds), organizationId, ...c, ...c, who.emailHash, ...c, who.emailHash, ...c],
  );
  return new Set(rows.map((r) => r.id));
}
