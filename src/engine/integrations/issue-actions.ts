// From a post in the console: ask Linear or GitHub for an issue made from it, link one that exists, unlink one. Each
// writes a job of the outbox (the call is made after the commit) and its audit entry, in the action's transaction.
import { auditOf } from '../members/index.js';
import { requireLivePost } from '../posts/index.js';
import { FeedbackError } from '../shared/index.js';
import { issueLinks, type Sql } from '../store/index.js';
import { type IntegrationsContext, invalid, trimmed } from './context.js';
import { githubIssueOf, repoOf } from './github.js';
import { linearIdentifierOf } from './linear.js';
import { newLinearIssueId } from './linear-jobs.js';
import { impactLine, postAddresses } from './links.js';
import { enqueue } from './runner.js';
import { requireIntegration } from './service.js';

type Tracker = 'linear' | 'github';
const postAudit = auditOf('post');

/** What an issue made from a post says: the post's text, its impact, and links back to it. */
async function issueBody(
  ctx: IntegrationsContext,
  tx: Sql,
  post: Parameters<typeof impactLine>[1] & Parameters<typeof postAddresses>[2] & { bodyText: string },
) {
  const where = await postAddresses(tx, ctx.organizationId, post, ctx.integrations.publicUrl());
  const links = [
    where.console && `[Open in the console](${where.console})`,
    where.portal && `[View on the portal](${where.portal})`,
  ].filter(Boolean);
  return [post.bodyText, `**Impact:** ${await impactLine(tx, post)}`, links.join(' · ')].filter(Boolean).join('\n\n');
}

export async function requestIssue(
  ctx: IntegrationsContext,
  tx: Sql,
  now: Date,
  ask: { postId: string; service: Tracker; target: string; title?: string | undefined },
) {
  const { postId, service, target } = ask;
  const row = await requireIntegration(tx, ctx.organizationId, { service });
  const post = await requireLivePost(tx, ctx.organizationId, postId, true);
  if (service === 'github' && !repoOf(target)) throw invalid('Choose a repository (owner/name).');
  if (service === 'linear' && !trimmed(target)) throw invalid('Choose a Linear team.');
  const body = await issueBody(ctx, tx, post);
  const title = trimmed(ask.title) || post.title;
  const payload =
    service === 'linear'
      ? { postId, issueId: newLinearIssueId(), teamId: trimmed(target), title, description: body }
      : { postId, repo: trimmed(target), title, body };
  const kind = `${service}.create_issue`;
  await enqueue(tx, now, { organizationId: ctx.organizationId, integrationId: row.id, kind, postId, payload });
  return { result: { queued: true }, audit: postAudit('post.issue_requested', postId, { service, target }) };
}

export async function requestLink(
  ctx: IntegrationsContext,
  tx: Sql,
  now: Date,
  ask: { postId: string; service: Tracker; reference: string },
) {
  const { postId, service, reference } = ask;
  const row = await requireIntegration(tx, ctx.organizationId, { service });
  await requireLivePost(tx, ctx.organizationId, postId, true);
  if (!(service === 'linear' ? linearIdentifierOf(reference) : githubIssueOf(reference)))
    throw invalid(
      service === 'linear'
        ? 'Give the issue’s URL or identifier (ENG-123).'
        : 'Give the issue’s URL or owner/repo#number.',
    );
  const payload = { postId, reference: trimmed(reference) };
  const kind = `${service}.link_issue`;
  await enqueue(tx, now, { organizationId: ctx.organizationId, integrationId: row.id, kind, postId, payload });
  return { result: { queued: true }, audit: postAudit('post.issue_link_requested', postId, { service, reference }) };
}

export async function unlink(ctx: IntegrationsContext, tx: Sql, linkId: string) {
  const link = await issueLinks.remove(tx, ctx.organizationId, linkId);
  if (!link) throw new FeedbackError('ERR_NOT_FOUND', 'No such linked issue.');
  return { result: link, audit: postAudit('post.issue_unlinked', link.postId, { issue: link.key }) };
}
