// The email domains of a workspace's single sign-on, and the proof that the workspace owns each (docs/security.md):
// a DNS TXT record with a token the console shows, or the operator's word on the command line. A domain is verified
// for one workspace at a time; only then does the shared sign-in page send the domain's addresses to that workspace's
// provider, and only then may the workspace require single sign-on for them.
import { randomBytes } from 'node:crypto';
import { FeedbackError, isUniqueViolation } from '../shared/index.js';
import { ssoDomains, type WorkspaceContext, workspaceSso } from '../store/index.js';
import { actAs, roleOf } from './acting.js';
import { type Actor, CLI_ACTOR, record } from './audit.js';
import { allows } from './roles.js';
import type { TeamContext } from './sign-in.js';

/** Where the TXT record goes, under the domain. */
export const DOMAIN_RECORD_LABEL = '_feedback-service';
/** What the TXT record holds before the token. */
const RECORD_PREFIX = 'feedback-service-verification=';

/** A TXT lookup (node:dns's `resolveTxt`): each record as its strings. Injectable for tests. */
export type ResolveTxt = (name: string) => Promise<string[][]>;
/** What single sign-on runs with: the team's context and the DNS lookup that verifies domains. */
export type SsoContext = TeamContext & { resolveTxt: ResolveTxt };

/** A domain of a workspace's single sign-on, and how to prove it is the workspace's. */
export interface SsoDomainState {
  domain: string;
  verified: boolean;
  /** `dns` (the TXT record was found), or `operator` (the command line's `--verified`). */
  verifiedBy: string | null;
  verifiedAt: string | null;
  /** The TXT record that proves it: its name and the value it must hold. */
  record: { name: string; value: string };
}

export function domainStates(rows: readonly ssoDomains.SsoDomainRow[]): SsoDomainState[] {
  return rows.map((r) => ({
    domain: r.domain,
    verified: r.verifiedAt !== null,
    verifiedBy: r.verifiedBy,
    verifiedAt: r.verifiedAt?.toISOString() ?? null,
    record: { name: `${DOMAIN_RECORD_LABEL}.${r.domain}`, value: `${RECORD_PREFIX}${r.token}` },
  }));
}

/** A new domain's token: 128 random bits, in hex. */
export const newDomainToken = () => randomBytes(16).toString('hex');

/** Domains as typed: trimmed, lower-cased, without a leading `@`, at least one, each a domain. */
export function normalDomains(list: readonly string[]): string[] {
  const out = [...new Set(list.map((d) => d.trim().toLowerCase().replace(/^@/, '')).filter(Boolean))];
  if (out.length === 0)
    throw new FeedbackError('ERR_VALIDATION', 'Name at least one email domain whose people sign in this way.');
  for (const d of out)
    if (!/^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d) || d.length > 253)
      throw new FeedbackError('ERR_VALIDATION', `${d} is not an email domain.`);
  return out;
}

const takenElsewhere = (domain: string) =>
  new FeedbackError(
    'ERR_CONFLICT',
    `${domain} is verified for another workspace's single sign-on. A domain belongs to one workspace at a time; whoever runs this server can move it (feedback-service team sso --domains ${domain} --verified).`,
  );

/** The workspace's own domain row, or 404. */
async function ownDomain(ctx: WorkspaceContext, domain: string): Promise<ssoDomains.SsoDomainRow> {
  const row = (await ssoDomains.of(ctx.db, ctx.organizationId)).find((d) => d.domain === domain.trim().toLowerCase());
  if (!row)
    throw new FeedbackError('ERR_NOT_FOUND', `${domain} is not one of this workspace's single sign-on domains.`);
  return row;
}

/**
 * Check a domain's TXT record (`_feedback-service.<domain>`, the value the console shows) and, when it holds the
 * workspace's token, mark the domain verified for it (owners and admins; audited). The lookup happens before the
 * change's transaction, which checks that the token is still the one looked for.
 */
export async function verifyDomain(
  ctx: WorkspaceContext & SsoContext,
  actor: Actor,
  domain: string,
): Promise<SsoDomainState> {
  // The role first, for every answer: a member learns nothing of the domains by asking.
  const role = await roleOf(ctx.db, ctx.organizationId, actor);
  if (role !== 'cli' && !allows(role, 'manage'))
    throw new FeedbackError('ERR_FORBIDDEN', 'Only owners and admins may do this.');
  const row = await ownDomain(ctx, domain);
  if (row.verifiedAt) return domainStates([row])[0]!;
  const name = `${DOMAIN_RECORD_LABEL}.${row.domain}`;
  let records: string[][];
  try {
    records = await ctx.resolveTxt(name);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code !== 'ENOTFOUND' && code !== 'ENODATA')
      throw new FeedbackError(
        'ERR_UNAVAILABLE',
        `The DNS lookup of ${name} failed (${code ?? (err as Error).message}); try again in a moment.`,
      );
    records = [];
  }
  const expected = `${RECORD_PREFIX}${row.token}`;
  if (!records.some((chunks) => chunks.join('').trim() === expected))
    throw new FeedbackError(
      'ERR_VALIDATION',
      `No TXT record at ${name} holds ${expected} yet. Add it at your DNS provider; a new record may take some minutes to be seen.`,
    );
  return actAs(ctx, actor, 'manage', async (_inner, tx) => {
    const now = await ssoDomains.of(tx, ctx.organizationId);
    if (now.find((d) => d.domain === row.domain)?.token !== row.token)
      throw new FeedbackError('ERR_CONFLICT', `${row.domain} changed meanwhile; check it again.`);
    const holder = await ssoDomains.verifiedFor(tx, row.domain);
    if (holder && holder.organizationId !== ctx.organizationId) throw takenElsewhere(row.domain);
    await ssoDomains.markVerified(tx, ctx.organizationId, row.domain, 'dns', ctx.clock()).catch((err: unknown) => {
      throw isUniqueViolation(err) ? takenElsewhere(row.domain) : err;
    });
    const verified = (await ssoDomains.of(tx, ctx.organizationId)).find((d) => d.domain === row.domain)!;
    return {
      result: domainStates([verified])[0]!,
      audit: {
        action: 'team.sso_domain_verified',
        resourceType: 'workspace',
        resourceId: ctx.organizationId,
        detail: { domain: row.domain, by: 'dns' },
      },
    };
  });
}

/**
 * The operator's word that domains are this workspace's (the command line's `team sso --verified`): each is marked
 * verified for it, and taken from a workspace that held it, whose audit log says so.
 */
export async function attestDomains(
  ctx: WorkspaceContext & SsoContext,
  actor: Actor,
  domains: readonly string[],
): Promise<SsoDomainState[]> {
  // Not a role's to give: an owner vouching for any domain is the hole the verification closes.
  if (actor.email !== CLI_ACTOR.email || actor.vouched)
    throw new FeedbackError(
      'ERR_FORBIDDEN',
      'Only whoever runs this server vouches for a domain (feedback-service team sso --verified).',
    );
  const wanted = normalDomains(domains);
  return actAs(ctx, actor, 'own', async (_inner, tx) => {
    if (!(await workspaceSso.find(tx, ctx.organizationId)))
      throw new FeedbackError('ERR_CONFLICT', 'Set up single sign-on first.');
    const own = new Set((await ssoDomains.of(tx, ctx.organizationId)).map((d) => d.domain));
    for (const domain of wanted)
      if (!own.has(domain))
        throw new FeedbackError('ERR_NOT_FOUND', `${domain} is not one of this workspace's single sign-on domains.`);
    const audit = [];
    for (const domain of wanted) {
      const from = await ssoDomains.release(tx, domain);
      if (from && from !== ctx.organizationId) {
        await record(tx, { organizationId: from, clock: ctx.clock }, actor, {
          action: 'team.sso_domain_released',
          resourceType: 'workspace',
          resourceId: from,
          detail: { domain, to: ctx.organizationId },
        });
      }
      await ssoDomains.markVerified(tx, ctx.organizationId, domain, 'operator', ctx.clock());
      audit.push({
        action: 'team.sso_domain_verified',
        resourceType: 'workspace',
        resourceId: ctx.organizationId,
        detail: { domain, by: 'operator' },
      });
    }
    return { result: domainStates(await ssoDomains.of(tx, ctx.organizationId)), audit };
  });
}
