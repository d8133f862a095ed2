// The jobs of a Linear connection: check it, create or link an issue from a post, act on Linear's webhooks.
import { randomUUID } from 'node:crypto';
import { statusMappingOf } from '../../schemas/integrations.js';
import type { PostStatus } from '../../schemas/posts.js';
import { integrations } from '../store/index.js';
import { sealCredentials } from './context.js';
import { linkIssue, moveLinkedPosts, replyOnLinkedPosts } from './effects.js';
import { CallFailure } from './http.js';
import { type LinearDelivery, type LinearIssue, linearApi, linearIdentifierOf } from './linear.js';
import { refreshLinearToken } from './oauth.js';
import type { JobContext, JobHandler } from './runner.js';

/**
 * Linear as the connection's credentials reach it: an OAuth token Linear refuses is renewed once with its refresh token
 * (the new pair sealed in place of the old, where no other process renewed it first), and the call made again.
 */
async function withLinear<T>(c: JobContext, run: (linear: ReturnType<typeof linearApi>) => Promise<T>): Promise<T> {
  try {
    return await run(linearApi(c.parts, c.credentials, c.clock));
  } catch (err) {
    const refresh = c.credentials.refreshToken;
    if (!(err instanceof CallFailure) || !err.credentials || !refresh) throw err;
    const credentials = { ...c.credentials, ...(await refreshLinearToken(c.parts, refresh)) };
    const sealed = sealCredentials(c.parts.secrets, c.integration.id, credentials);
    await integrations.replaceCredentials(c.db, c.integration.id, c.integration.credentials, sealed);
    return run(linearApi(c.parts, credentials, c.clock));
  }
}

const asLink = (issue: LinearIssue) => ({
  externalId: issue.id,
  key: issue.identifier,
  url: issue.url,
  title: issue.title,
  state: issue.state?.name ?? null,
});

/** What a post asks of Linear: an issue in a team, under the id chosen when it was asked (Linear's idempotency). */
export interface CreateLinearIssue {
  postId: string;
  issueId: string;
  teamId: string;
  title: string;
  description: string;
}
export const newLinearIssueId = () => randomUUID();

const tracker = (c: JobContext) => ({ id: c.integration.id, service: 'linear' as const });

export const LINEAR_JOBS: Record<string, JobHandler> = {
  async 'linear.verify'(c) {
    const who = await withLinear(c, (linear) => linear.verify());
    const teams = who.teams.nodes.map((t) => ({ id: t.id, key: t.key, name: t.name }));
    await c.complete((_ctx, tx) => integrations.noteAccount(tx, c.integration.id, who.organization.name, { teams }));
  },
  async 'linear.create_issue'(c) {
    const ask = c.job.payload as CreateLinearIssue;
    const issue = await withLinear(c, (linear) =>
      linear.createIssue({ id: ask.issueId, teamId: ask.teamId, title: ask.title, description: ask.description }),
    );
    await c.complete((ctx) => linkIssue(ctx, tracker(c), ask.postId, asLink(issue), 'created'));
  },
  async 'linear.link_issue'(c) {
    const ask = c.job.payload as { postId: string; reference: string };
    const identifier = linearIdentifierOf(ask.reference);
    if (!identifier) throw new CallFailure(`“${ask.reference}” is not a Linear issue’s identifier or URL.`, false);
    const issue = await withLinear(c, (linear) => linear.issue(identifier));
    if (!issue) throw new CallFailure(`Linear has no issue ${identifier} these credentials can read.`, false);
    await c.complete((ctx) => linkIssue(ctx, tracker(c), ask.postId, asLink(issue), 'linked'));
  },
  async 'linear.webhook'(c) {
    const d = c.job.payload as LinearDelivery;
    const settings = c.integration.settings;
    if (d.type === 'Issue' && (d.action === 'update' || d.action === 'create')) {
      const state = d.data.state as { name?: string; type?: string } | undefined;
      // An update moves posts only when the state itself changed (Linear names the old one in `updatedFrom`).
      const stateChanged = d.action === 'create' || (d.updatedFrom !== undefined && 'stateId' in d.updatedFrom);
      const status: PostStatus | null =
        stateChanged && state?.type ? (statusMappingOf('linear', settings)[state.type] ?? null) : null;
      const issue = {
        externalId: String(d.data.id),
        state: state?.name ?? null,
        title: typeof d.data.title === 'string' ? d.data.title : null,
      };
      await c.complete((ctx, tx) => moveLinkedPosts(ctx, tx, c.integration, issue, status));
      return;
    }
    if (d.type === 'Comment' && d.action === 'create' && settings.replyComments === true) {
      const issueId = String(d.data.issueId ?? (d.data.issue as { id?: string } | undefined)?.id ?? '');
      const text = String(d.data.body ?? '').trim();
      const author = (d.data.user as { name?: string } | undefined)?.name ?? null;
      await c.complete(async (ctx, tx) => {
        if (issueId && text) await replyOnLinkedPosts(ctx, tx, c.integration, issueId, { author, text });
      });
      return;
    }
    await c.complete();
  },
};
