import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, toIso, ts } from '../sql.js';
import { Contact } from './contacts.js';
import { Organization } from './organizations.js';

/**
 * A topic a contact asked to hear about: `changelog`, or `post:<postId>` (ticking notify-me on a post subscribes to
 * it). `via` says who made it: `opt_in` (the notify-me box), `portal` (the preferences page), `workspace` (the engine).
 */
export const MailSubscription = defineEntity({
  name: 'MailSubscription',
  tableName: 'mail_subscription',
  indexes: [{ name: 'mail_subscription_topic_idx', properties: ['organization', 'topic'] }],
  properties: {
    contact: () => p.manyToOne(Contact).primary().deleteRule('cascade'),
    topic: p.string().primary().length(60),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    via: p.string().length(20),
    createdAt: p.datetime().length(3),
  },
});

/** Who made a subscription: the notify-me box, the person on the preferences page, or the workspace's code. */
export type SubscriptionVia = 'opt_in' | 'portal' | 'workspace';

export interface SubscriptionRow {
  topic: string;
  via: SubscriptionVia;
  createdAt: string;
}

/**
 * Subscribe a contact to a topic. A subscription made again keeps its first time, unless the person makes it again
 * themselves (`opt_in`, `portal`): then it is renewed, which is what lets a fresh opt-in win over an earlier unsubscribe.
 */
export async function subscribe(
  sql: Sql,
  row: { organizationId: string; contactId: string; topic: string; via: SubscriptionVia; createdAt: Date },
): Promise<void> {
  const own = row.via !== 'workspace';
  await sql.run(
    `INSERT INTO mail_subscription (contact_id, topic, organization_id, via, created_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (contact_id, topic) DO ${own ? 'UPDATE SET via = excluded.via, created_at = excluded.created_at' : 'NOTHING'}`,
    [row.contactId, row.topic, row.organizationId, row.via, ts(sql, row.createdAt)],
  );
}

/** A contact's subscriptions, oldest first. */
export async function listFor(sql: Sql, contactId: string): Promise<SubscriptionRow[]> {
  const rows = await sql.all<{ topic: string; via: SubscriptionVia; created_at: unknown }>(
    'SELECT topic, via, created_at FROM mail_subscription WHERE contact_id = ? ORDER BY created_at, topic',
    [contactId],
  );
  return rows.map((r) => ({ topic: r.topic, via: r.via, createdAt: toIso(r.created_at) }));
}

/** Move a topic's subscribers to another topic (a merged post's to its target); who had both keeps the target's. */
export async function moveTopic(sql: Sql, organizationId: string, from: string, to: string): Promise<void> {
  await sql.run(
    `INSERT INTO mail_subscription (contact_id, topic, organization_id, via, created_at)
     SELECT contact_id, ?, organization_id, via, created_at FROM mail_subscription WHERE organization_id = ? AND topic = ?
     ON CONFLICT (contact_id, topic) DO NOTHING`,
    [to, organizationId, from],
  );
  await sql.run('DELETE FROM mail_subscription WHERE organization_id = ? AND topic = ?', [organizationId, from]);
}
