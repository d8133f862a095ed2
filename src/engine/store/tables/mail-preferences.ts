import { defineEntity, p } from '@mikro-orm/core';
import { type Sql, ts } from '../sql.js';
import { Organization } from './organizations.js';

/** How an address wants its mail: `instant` (the default; bundled once it would get many in an hour) or `hourly`. */
export const MailPreference = defineEntity({
  name: 'MailPreference',
  tableName: 'mail_preference',
  properties: {
    organization: () => p.manyToOne(Organization).primary().deleteRule('cascade'),
    emailHash: p.string().primary().length(64),
    digest: p.string().length(20),
    updatedAt: p.datetime().length(3),
  },
});

/** `instant`: as it happens (bundled once a person would get many in an hour); `hourly`: one digest an hour. */
export const DIGESTS = ['instant', 'hourly'] as const;
export type Digest = (typeof DIGESTS)[number];

/** How an address wants its mail; `instant` when it never said. */
export async function digestOf(sql: Sql, organizationId: string, emailHash: string): Promise<Digest> {
  const row = await sql.one<{ digest: Digest }>(
    'SELECT digest FROM mail_preference WHERE organization_id = ? AND email_hash = ?',
    [organizationId, emailHash],
  );
  return row?.digest ?? 'instant';
}

export async function setDigest(
  sql: Sql,
  organizationId: string,
  emailHash: string,
  digest: Digest,
  now: Date,
): Promise<void> {
  await sql.run(
    `INSERT INTO mail_preference (organization_id, email_hash, digest, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (organization_id, email_hash) DO UPDATE SET digest = excluded.digest, updated_at = excluded.updated_at`,
    [organizationId, emailHash, digest, ts(sql, now)],
  );
}

export async function removeFor(sql: Sql, organizationId: string, emailHash: string): Promise<void> {
  await sql.run('DELETE FROM mail_preference WHERE organization_id = ? AND email_hash = ?', [
    organizationId,
    emailHash,
  ]);
}
