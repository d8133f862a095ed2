// What an integration changes in the workspace: it acts as the team would, through the posts' own actions (the same
// events, webhooks and mail as the console's, one mail per person through the consent rule), audited as done by
// `integration:<service>`.
import type { IntegrationService, IssueLink, PostStatus } from '../../schemas/index.js';
import { actAs } from '../members/index.js';
import { createPostActions } from '../posts/index.js';
import { FeedbackError, newId } from '../shared/index.js';
import { issueLinks, type Sql, type WorkspaceContext } from '../store/index.js';
import { integrationActor } from './context.js';

/** The issue's new state on its links, and its linked posts moved to `status` (those still there). */
export async function moveLinkedPosts(
  ctx: WorkspaceContext,
  tx: Sql,
  integration: { id: string; service: IntegrationService },
  issue: { externalId: string; state: string | null; title: string | null },
  status: PostStatus | null,
): Promise<void> {
  const links = await issueLinks.forIssue(tx, integration.id, issue.externalId);
  await issueLinks.noteState(tx, integration.id, issue.externalId, issue);
  if (status === null) return;
  const actions = createPostActions(ctx, integrationActor(integration.service));
  for (const link of links) {
    try {
      await actions.setStatus(link.postId, status);
    } catch (err) {
      // A post deleted or merged since it was linked: nothing to move.
      if (!(err instanceof FeedbackError) || err.code !== 'ERR_NOT_FOUND') throw err;
    }
  }
}

/** A comment made in the tracker, posted on each linked post as the team's official reply, signed with its author. */
export async function replyOnLinkedPosts(
  ctx: WorkspaceContext,
  tx: Sql,
  integration: { id: string; service: IntegrationService },
  externalId: string,
  comment: { author: string | null; text: string },
): Promise<void> {
  const links = await issueLinks.forIssue(tx, integration.id, externalId);
  const actions = createPostActions(ctx, integrationActor(integration.service, comment.author));
  for (const link of links) {
    try {
      await actions.reply(link.postId, comment.text);
    } catch (err) {
      if (!(err instanceof FeedbackError) || (err.code !== 'ERR_NOT_FOUND' && err.code !== 'ERR_VALIDATION')) throw err;
    }
  }
}

/** An issue linked to a post (made from it, or named by the team), audited as the integration's doing. */
export async function linkIssue(
  ctx: WorkspaceContext,
  integration: { id: string; service: IssueLink['service'] },
  postId: string,
  issue: { externalId: string; key: string; url: string; title: string | null; state: string | null },
  how: 'created' | 'linked',
): Promise<void> {
  await actAs(ctx, integrationActor(integration.service), 'triage', async (_inner, tx) => {
    const now = ctx.clock();
    const fresh = await issueLinks.insert(tx, ctx.organizationId, {
      id: newId('link', now.getTime()),
      postId,
      integrationId: integration.id,
      service: integration.service,
      ...issue,
      createdAt: now.toISOString(),
    });
    const detail = { service: integration.service, issue: issue.key, url: issue.url };
    return {
      result: fresh,
      audit: fresh ? { action: `post.issue_${how}`, resourceType: 'post', resourceId: postId, detail } : null,
    };
  });
}
