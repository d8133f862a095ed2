import { toBool, toDate, toInt, toStringOrNull, ts, type Sql } from './sql.js';

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

/**
 * The candidates of one change, in one statement: every per-person fact is an index lookup on the contact's row.
 * `optOutTopics`: the unsubscribe topics that cover this message (`all`, and the message's own).
 */
export async function candidates(sql: Sql, organizationId: string, concerned: Concerned, optOutTopics: readonly string[], hourAgo: Date): Promise<Candidate[]> {
  const topic = 'subscribersOf' in concerned ? concerned.subscribersOf : concerned.topic;
  let linked: string;
  let linkedParams: unknown[];
  if ('participantsOf' in concerned) {
    const p = concerned.participantsOf;
    linked = `SELECT contact_id FROM post WHERE id = ? AND contact_id IS NOT NULL
      UNION SELECT contact_id FROM vote WHERE post_id = ? AND contact_id IS NOT NULL
      UNION SELECT contact_id FROM comment WHERE post_id = ? AND contact_id IS NOT NULL`;
    linkedParams = [p, p, p];
  } else if ('contacts' in concerned) {
    linked = `SELECT value AS contact_id FROM ${sql.dialect.jsonStrings}`;
    linkedParams = [JSON.stringify(concerned.contacts)];
  } else {
    linked = 'SELECT NULL AS contact_id WHERE false';
    linkedParams = [];
  }
  const optOut = optOutTopics.map(() => '?').join(', ');
  const withSubscribers = !('contacts' in concerned);
  const rows = await sql.all<Record<string, unknown>>(
    `WITH linked (contact_id) AS (${linked}),
     subscribed AS (SELECT contact_id, via, created_at FROM mail_subscription WHERE organization_id = ? AND topic = ?)
     SELECT c.id, c.email, c.email_hash, c.source, c.consent_basis,
       CASE WHEN c.id IN (SELECT contact_id FROM linked) THEN 1 ELSE 0 END AS participant,
       s.created_at AS subscribed_at, s.via AS subscribed_via,
       (SELECT max(u.created_at) FROM mail_unsubscribe u WHERE u.organization_id = c.organization_id AND u.email_hash = c.email_hash
          AND u.undone_at IS NULL AND u.topic IN (${optOut})) AS opted_out_at,
       (SELECT p.digest FROM mail_preference p WHERE p.organization_id = c.organization_id AND p.email_hash = c.email_hash) AS digest,
       (SELECT count(*) FROM mail m WHERE m.organization_id = c.organization_id AND m.email_hash = c.email_hash AND m.created_at > ?) AS recent
     FROM contact c LEFT JOIN subscribed s ON s.contact_id = c.id
     WHERE c.organization_id = ? AND c.email IS NOT NULL AND (c.id IN (SELECT contact_id FROM linked)${withSubscribers ? ' OR s.contact_id IS NOT NULL' : ''})
     ORDER BY c.created_at, c.id`,
    [...linkedParams, organizationId, topic, ...optOutTopics, ts(sql, hourAgo), organizationId],
  );
  return rows.map((r) => ({
    contactId: r.id as string,
    email: r.email as string,
    emailHash: r.email_hash as string,
    source: r.source as string,
    consentBasis: r.consent_basis as string,
    participant: toBool(r.participant),
    subscribedAt: r.subscribed_at == null ? null : toDate(r.subscribed_at),
    subscribedVia: toStringOrNull(r.subscribed_via),
    optedOutAt: r.opted_out_at == null ? null : toDate(r.opted_out_at),
    digest: toStringOrNull(r.digest),
    recent: toInt(r.recent),
  }));
}

/** What the rule needs of the workspace: whether it mails admin-created contacts, and its suppression salt. */
export async function workspaceFacts(sql: Sql, organizationId: string): Promise<{ adminCreatedMail: boolean; salt: string | null }> {
  const row = await sql.one<{ notify_admin_created: unknown; privacy_salt: unknown }>('SELECT notify_admin_created, privacy_salt FROM organization WHERE id = ?', [organizationId]);
  return { adminCreatedMail: toBool(row?.notify_admin_created), salt: toStringOrNull(row?.privacy_salt) };
}
