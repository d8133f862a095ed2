// The jobs of a GitHub connection: check it, create or link an issue from a post, act on `issues` webhooks.
import { statusMappingOf } from '../../schemas/integrations.js';
import type { PostStatus } from '../../schemas/posts.js';
import { integrations } from '../store/index.js';
import { linkIssue, moveLinkedPosts } from './effects.js';
import { type GitHubIssue, githubApi, githubApiUrl, githubIssueOf, repoOf } from './github.js';
import { CallFailure } from './http.js';
import { type JobContext, type JobHandler, triedBefore, writtenSince } from './runner.js';

const api = (c: JobContext) =>
  githubApi(c.parts, c.credentials, githubApiUrl(c.parts, c.integration.settings), c.clock);

/** What a post asks of GitHub: an issue in a repository. The body ends with the job's mark (an HTML comment). */
export interface CreateGitHubIssue {
  postId: string;
  repo: string;
  title: string;
  body: string;
}

/**
 * GitHub has no idempotency key for creating an issue. The body carries a mark naming the job; an attempt after one
 * that may have reached GitHub (a crash, a time-out) first looks for an issue with that mark among the repository's
 * issues since the job was written, and links it instead of creating another.
 */
export const githubMark = (jobId: string) => `<!-- feedback-service:${jobId} -->`;

const asLink = (repo: string, issue: GitHubIssue) => ({
  externalId: `${repo}#${issue.number}`,
  key: `${repo}#${issue.number}`,
  url: issue.html_url,
  title: issue.title,
  state: issue.state,
});

const tracker = (c: JobContext) => ({ id: c.integration.id, service: 'github' as const });

/** Which mapping key an `issues` event is: closed as completed or as not planned, reopened; else none. */
function stateKey(action: string, reason: string | null | undefined): string | null {
  if (action === 'reopened') return 'reopened';
  if (action !== 'closed') return null;
  return reason === 'not_planned' ? 'closed_not_planned' : 'closed_completed';
}

export const GITHUB_JOBS: Record<string, JobHandler> = {
  async 'github.verify'(c) {
    const who = await api(c).verify();
    await c.complete((_ctx, tx) => integrations.noteAccount(tx, c.integration.id, who.account, { repos: who.repos }));
  },
  async 'github.create_issue'(c) {
    const ask = c.job.payload as CreateGitHubIssue;
    const target = repoOf(ask.repo);
    if (!target) throw new CallFailure(`“${ask.repo}” is not a repository (owner/name).`, false);
    const github = api(c);
    const mark = githubMark(c.job.id);
    let issue: GitHubIssue | undefined;
    if (triedBefore(c.job))
      issue = (await github.recentIssues(target.owner, target.repo, writtenSince(c.job))).find((i) =>
        i.body?.includes(mark),
      );
    issue ??= await github.createIssue(target.owner, target.repo, ask.title, `${ask.body}\n\n${mark}`);
    const made = issue;
    await c.complete((ctx) => linkIssue(ctx, tracker(c), ask.postId, asLink(ask.repo, made), 'created'));
  },
  async 'github.link_issue'(c) {
    const ask = c.job.payload as { postId: string; reference: string };
    const ref = githubIssueOf(ask.reference);
    if (!ref) throw new CallFailure(`“${ask.reference}” is not a GitHub issue’s URL or owner/repo#number.`, false);
    const issue = await api(c).issue(ref.owner, ref.repo, ref.number);
    const repo = `${ref.owner}/${ref.repo}`;
    await c.complete((ctx) => linkIssue(ctx, tracker(c), ask.postId, asLink(repo, issue), 'linked'));
  },
  async 'github.webhook'(c) {
    const d = c.job.payload as {
      action?: string;
      issue?: GitHubIssue;
      repository?: { full_name?: string };
    };
    if (!d.issue || !d.repository?.full_name) return void (await c.complete());
    const key = stateKey(String(d.action ?? ''), d.issue.state_reason);
    const status: PostStatus | null = key ? (statusMappingOf('github', c.integration.settings)[key] ?? null) : null;
    const issue = {
      externalId: `${d.repository.full_name}#${d.issue.number}`,
      state: d.issue.state,
      title: d.issue.title,
    };
    await c.complete((ctx, tx) => moveLinkedPosts(ctx, tx, c.integration, issue, status));
  },
};
