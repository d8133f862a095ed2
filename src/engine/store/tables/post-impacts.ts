import { defineEntity, p } from '@mikro-orm/core';
import { placeholders, type Sql, toInt } from '../sql.js';
import { Organization } from './organizations.js';
import { Post } from './posts.js';

/**
 * A post's impact in one currency: the monthly revenue (`mrrCents`) of the distinct paying accounts its voters bring
 * (each voter's companies, or the voter when they belong to none: a company counts once however many of its people
 * voted), how many companies and people those are, and how many of its voters pay in this currency themselves
 * (`payingVoters`, the console's voters list). Kept by triggers of each database (the impact migrations) in the
 * transaction of every write that moves it: a vote cast, moved (a merge) or unlinked (erasure), a membership made or
 * ended, a company's or contact's revenue changed. So no write path can forget it, and the console sorts by it with an
 * index instead of adding up votes.
 */
export const PostImpact = defineEntity({
  name: 'PostImpact',
  tableName: 'post_impact',
  indexes: [{ name: 'post_impact_org_currency_idx', properties: ['organization', 'currency', 'mrrCents', 'post'] }],
  properties: {
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    currency: p.string().primary().length(3),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    mrrCents: p.bigint('number'),
    payingVoters: p.integer(),
    payingCompanies: p.integer().default(0),
    payingPeople: p.integer().default(0),
  },
});

/**
 * The accounts a post's voters bring, each once: a company, or a voter in no company (`isCompany` 0), with how many
 * voters bring it and its revenue as last written (so its removal needs nothing else to still exist). What
 * `post_impact`'s revenue is added up from, kept by the same triggers.
 */
export const PostPayer = defineEntity({
  name: 'PostPayer',
  tableName: 'post_payer',
  indexes: [{ name: 'post_payer_payer_idx', properties: ['payerId'] }],
  properties: {
    post: () => p.manyToOne(Post).primary().deleteRule('cascade'),
    payerId: p.string().primary().length(40),
    organization: () => p.manyToOne(Organization).deleteRule('cascade'),
    isCompany: p.integer(),
    mrrCents: p.integer().nullable(),
    currency: p.string().length(3).nullable(),
    voters: p.integer(),
  },
});

/** A post's impact in one currency. */
export interface Impact {
  currency: string;
  /** The revenue of the paying accounts the voters bring, each once. */
  mrrCents: number;
  /** Voters who pay in this currency themselves (whether or not they belong to a company). */
  payingVoters: number;
  /** The paying companies among the accounts, and the paying voters in no company. */
  payingCompanies: number;
  payingPeople: number;
}

/** The impact of each of these posts, per currency, largest first. */
export async function forPosts(sql: Sql, postIds: readonly string[]): Promise<Map<string, Impact[]>> {
  const out = new Map<string, Impact[]>();
  if (postIds.length === 0) return out;
  const rows = await sql.all(
    `SELECT post_id, currency, mrr_cents, paying_voters, paying_companies, paying_people FROM post_impact WHERE post_id IN (${placeholders(postIds)}) ORDER BY post_id, mrr_cents DESC, currency`,
    postIds,
  );
  for (const r of rows) {
    const list = out.get(r.post_id as string) ?? [];
    list.push({
      currency: r.currency as string,
      mrrCents: toInt(r.mrr_cents),
      payingVoters: toInt(r.paying_voters),
      payingCompanies: toInt(r.paying_companies),
      payingPeople: toInt(r.paying_people),
    });
    out.set(r.post_id as string, list);
  }
  return out;
}

/**
 * The currencies the workspace's impact is in, alphabetically: one index seek per currency (a loose index scan), so
 * it costs the same at a hundred posts as at a million.
 */
export async function currencies(sql: Sql, organizationId: string): Promise<string[]> {
  const rows = await sql.all<{ c: string | null }>(
    `WITH RECURSIVE cur(c) AS (
       SELECT MIN(currency) FROM post_impact WHERE organization_id = ?
       UNION ALL
       SELECT (SELECT MIN(currency) FROM post_impact WHERE organization_id = ? AND currency > cur.c) FROM cur WHERE cur.c IS NOT NULL
     ) SELECT c FROM cur WHERE c IS NOT NULL`,
    [organizationId, organizationId],
  );
  return rows.map((r) => r.c!);
}

/** How many posts' impact in a currency are counted at most, to say which currency is the most common. */
export const CURRENCY_COUNT_CAP = 10_000;

/**
 * Each of these currencies with how many posts have paying voters in it (up to CURRENCY_COUNT_CAP): a bounded
 * index-only count each. What the workspace's most common currency is read from (kept a minute by the triage reader).
 */
export async function currencyShares(
  sql: Sql,
  organizationId: string,
  known: readonly string[],
): Promise<Array<{ currency: string; posts: number }>> {
  const shares = [];
  for (const currency of known) {
    const row = await sql.one<{ n: unknown }>(
      'SELECT count(*) AS n FROM (SELECT 1 FROM post_impact WHERE organization_id = ? AND currency = ? LIMIT ?) capped',
      [organizationId, currency, CURRENCY_COUNT_CAP],
    );
    shares.push({ currency, posts: Number(row?.n ?? 0) });
  }
  return shares;
}
