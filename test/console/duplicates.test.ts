import { afterAll, beforeAll, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { CLI_ACTOR, type TeamRole } from '../../src/engine/index.js';
import { createApp } from '../../src/h3/index.js';
import { describeEngine } from '../helpers/harness.js';
import { startSmtpSink } from '../helpers/smtp.js';
import { consoleMember } from '../portal/visitor.js';

// Possible duplicates in the console (issue 52): on a post's page and as a queue of merge suggestions; a member merges
// or dismisses (remembered: never suggested again), a viewer reads and every forged form of theirs changes nothing.

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

describeEngine(
  'possible duplicates in the console',
  (h) => {
    let app: ReturnType<typeof createApp>;
    beforeAll(() => {
      app = createApp({ engine: h.engine, sites: [createConsole({ engine: h.engine })], logError: () => {} });
    });
    async function workspace() {
      const org = await h.engine.organizations.create({ name: 'Dupes', plan: 'paid' });
      const w = h.engine.workspace(org.id);
      const board = await w.boards.create({ name: 'Ideas' });
      const kept = await w.posts.create(board.id, { title: 'Dark mode for dashboard' });
      await w.posts.create(board.id, { title: 'Export to CSV' });
      await w.posts.create(board.id, { title: 'Slack notifications' });
      const copy = await w.posts.create(board.id, { title: 'Dark mode dashboard export' });
      return { org, w, kept, copy };
    }
    const signedIn = (orgId: string, role: TeamRole) => consoleMember(app, h.engine, orgId, role);

    it('a post\'s page lists its possible duplicates; "Not a duplicate" is remembered, on the page and in the queue', async () => {
      const { org, w, kept, copy } = await workspace();
      const v = await signedIn(org.id, 'member');
      const base = `/console/${org.id}`;
      const before = (await v.get(`${base}/posts/${copy.id}`)).text;
      expect(before).toContain('Possible duplicates');
      expect(before).toContain(`<a href="${base}/posts/${kept.id}">Dark mode for dashboard</a>`);
      const queue = (await v.get(`${base}/duplicates`)).text;
      expect(queue).toContain('Dark mode dashboard export');
      const dismissed = await v.post(`${base}/posts/${copy.id}/not-duplicate`, { other: kept.id });
      expect(dismissed.location).toBe(`${base}/posts/${copy.id}?done=dismissed`);
      expect((await v.get(`${base}/posts/${copy.id}`)).text).not.toContain(`>Dark mode for dashboard</a>`);
      expect((await v.get(`${base}/duplicates`)).text).not.toContain('Dark mode dashboard export');
      expect((await w.triage.duplicates(kept.id)).map((d) => d.post.id)).not.toContain(copy.id);
      const audit = (await w.team.auditLog(CLI_ACTOR)).data.map((e) => e.action);
      expect(audit).toContain('post.duplicate_dismissed');
      const admin = await signedIn(org.id, 'admin');
      expect((await admin.get(`${base}/audit`)).text).toContain('are not duplicates');
    });

    it('the queue merges a pair: the one with fewer votes into the other, and the pair leaves the queue', async () => {
      const { org, w, kept, copy } = await workspace();
      await w.participation.vote({ postId: kept.id, email: 'fan@example.com', notifyMe: false });
      const [suggestion] = await w.triage.mergeSuggestions();
      expect([suggestion!.merge.id, suggestion!.into.id]).toEqual([copy.id, kept.id]);
      const v = await signedIn(org.id, 'admin');
      const base = `/console/${org.id}`;
      const merged = await v.post(`${base}/duplicates/merge`, { merge: copy.id, into: kept.id });
      expect(merged.location).toBe(`${base}/duplicates?done=merged`);
      expect((await w.posts.retrieve(copy.id)).mergedIntoId).toBe(kept.id);
      expect(await w.triage.mergeSuggestions()).toEqual([]);
    });

    it("a viewer reads the queue and the post's duplicates without forms; their forged merge and dismissal change nothing", async () => {
      const { org, w, kept, copy } = await workspace();
      const v = await signedIn(org.id, 'viewer');
      const base = `/console/${org.id}`;
      const queue = (await v.get(`${base}/duplicates`)).text;
      expect(queue).toContain('Dark mode dashboard export');
      expect(queue).not.toContain('/duplicates/merge');
      expect(queue).not.toContain('/duplicates/dismiss');
      expect((await v.get(`${base}/posts/${copy.id}`)).text).not.toContain('not-duplicate');
      for (const [path, fields] of [
        [`${base}/duplicates/merge`, { merge: copy.id, into: kept.id }],
        [`${base}/duplicates/dismiss`, { a: copy.id, b: kept.id }],
        [`${base}/posts/${copy.id}/not-duplicate`, { other: kept.id }],
      ] as const)
        expect((await v.post(path, fields)).status).toBe(403);
      expect((await w.posts.retrieve(copy.id)).mergedIntoId).toBeNull();
      expect((await w.triage.duplicates(copy.id)).map((d) => d.post.id)).toContain(kept.id);
    });

    it("another workspace's posts are neither suggested nor dismissable", async () => {
      const a = await workspace();
      const b = await workspace();
      expect((await a.w.triage.duplicates(a.copy.id)).map((d) => d.post.id)).not.toContain(b.kept.id);
      const v = await signedIn(a.org.id, 'admin');
      const refused = await v.post(`/console/${a.org.id}/posts/${a.copy.id}/not-duplicate`, { other: b.kept.id });
      expect(refused.status).toBe(404);
    });
  },
  { engine: { mail: { smtpUrl: smtp.url, publicUrl: 'http://console.test' } } },
);
