import { afterAll, expect, it } from 'vitest';
import { type Actor, CLI_ACTOR } from '../../../src/engine/index.js';
import { describeEngine, refusal } from '../../helpers/harness.js';
import { addresses, countsSince, portalWorkspace } from '../../helpers/notifications.js';
import { startSmtpSink } from '../../helpers/smtp.js';

// What the team does to a post from the console (docs/console.md), in the engine: each action is the engine's own
// change (its events and mail as through REST), refused to a role that may only read, and audited in its transaction.

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

describeEngine(
  'triage actions',
  (h) => {
    /** A workspace with a public board and a post, and a member, a viewer (and the owner) on its team. */
    async function triageWorkspace() {
      const w = await portalWorkspace(h.engine);
      const a = addresses('owner', 'member', 'viewer');
      for (const [email, role] of [
        [a.owner, 'owner'],
        [a.member, 'member'],
        [a.viewer, 'viewer'],
      ] as const) {
        await w.ws.team.add(
          CLI_ACTOR,
          { email, role, name: role === 'member' ? 'Mia' : null },
          { invite: false, workspace: w.org.name },
        );
      }
      const as = (email: string): Actor => ({ email, ip: '203.0.113.7' });
      return { ...w, a, as };
    }
    const audit = async (w: Awaited<ReturnType<typeof triageWorkspace>>) =>
      (await w.ws.team.auditLog(CLI_ACTOR, { limit: 50 })).data;

    it('a status change with a public note: the status event, the note as an official reply, one mail with the note to each voter who may be mailed, and an audit entry', async () => {
      const w = await triageWorkspace();
      const v = addresses('voter', 'quiet');
      await w.ws.participation.vote({ postId: w.post.id, email: v.voter, notifyMe: true });
      await w.ws.participation.vote({ postId: w.post.id, email: v.quiet, notifyMe: false });
      const from = smtp.mails.length;

      const post = await w.ws.as(w.as(w.a.member)).posts.setStatus(w.post.id, 'planned', '  We start in March.  ');
      expect(post.status).toBe('planned');
      const events = (await w.ws.events.list()).map((e) => e.payload as Record<string, any>);
      expect(events.filter((e) => e.event === 'post.status_changed')).toHaveLength(1);
      const created = events.filter((e) => e.event === 'comment.created');
      expect(created).toHaveLength(1);
      expect(created[0]!.comment).toMatchObject({
        postId: w.post.id,
        authorUserId: null,
        parentId: null,
        bodyText: 'We start in March.',
      });

      // On the portal, the reply is the team's.
      const shown = await w.ws.portal.post(w.board.id, w.post.slug);
      expect(shown!.comments).toEqual([
        expect.objectContaining({ official: true, authorName: 'Mia', bodyText: 'We start in March.' }),
      ]);

      await h.engine.scheduler.runDue();
      expect(Object.fromEntries(countsSince(smtp, from))).toEqual({ [v.voter]: 1 });
      const [mail] = (await smtp.parsed()).slice(from);
      expect(mail!.subject).toBe('“Dark mode” is now Planned');
      expect(mail!.text).toContain(`The ${w.org.name} team wrote:`);
      expect(mail!.text).toContain('We start in March.');

      expect((await audit(w))[0]).toMatchObject({
        actor: w.a.member,
        action: 'post.status_changed',
        resourceType: 'post',
        resourceId: w.post.id,
        ip: '203.0.113.7',
        detail: { from: 'open', to: 'planned', note: true },
      });
    });

    it('a viewer, and anyone not on the team, may change nothing: 403, and nothing is written', async () => {
      const w = await triageWorkspace();
      const before = { events: (await w.ws.events.list()).length, audit: (await audit(w)).length };
      const viewer = w.ws.as(w.as(w.a.viewer)).posts;
      const viewerRefusal = { code: 'ERR_FORBIDDEN', message: 'Your role (viewer) may read but not change anything.' };
      expect(await refusal(viewer.setStatus(w.post.id, 'planned'))).toEqual(viewerRefusal);
      expect(await refusal(viewer.edit(w.post.id, { title: 'Hacked' }))).toEqual(viewerRefusal);
      expect(await refusal(viewer.reply(w.post.id, 'Hi'))).toEqual(viewerRefusal);
      expect(await refusal(viewer.addNote(w.post.id, 'Hi'))).toEqual(viewerRefusal);
      expect(await refusal(viewer.merge(w.post.id, w.post.id))).toEqual(viewerRefusal);
      expect(await refusal(viewer.moderate(w.post.id, 'approved'))).toEqual(viewerRefusal);
      // A member of another workspace is nobody here, whatever post id they send.
      const other = await triageWorkspace();
      expect(await refusal(w.ws.as(other.as(other.a.owner)).posts.setStatus(w.post.id, 'planned'))).toEqual({
        code: 'ERR_FORBIDDEN',
        message: 'You are not on this workspace’s team.',
      });
      // A team member naming another workspace's post: 404.
      expect(await refusal(w.ws.as(w.as(w.a.member)).posts.setStatus(other.post.id, 'planned'))).toMatchObject({
        code: 'ERR_NOT_FOUND',
      });
      expect((await w.ws.posts.retrieve(w.post.id)).status).toBe('open');
      expect((await other.ws.posts.retrieve(other.post.id)).status).toBe('open');
      expect({ events: (await w.ws.events.list()).length, audit: (await audit(w)).length }).toEqual(before);
    });

    it('an internal note is the team’s alone: on the post page, never on the portal, in an event, a mail or a comment count', async () => {
      const w = await triageWorkspace();
      const v = addresses('author');
      const mine = await w.ws.participation.post({
        boardId: w.board.id,
        email: v.author,
        title: 'Export to CSV',
        body: { json: {}, text: '' },
        notifyMe: true,
      });
      const events = (await w.ws.events.list()).length;
      const from = smtp.mails.length;
      const { id } = await w.ws.as(w.as(w.a.member)).posts.addNote(mine.id, 'Acme Corp asked too; see ticket 4411.');
      const detail = await w.ws.triage.post(mine.id);
      expect(detail!.notes).toEqual([
        expect.objectContaining({ id, authorEmail: w.a.member, bodyText: 'Acme Corp asked too; see ticket 4411.' }),
      ]);
      expect(detail!.post.commentCount).toBe(0);
      expect(detail!.comments).toEqual([]);
      expect((await w.ws.portal.post(w.board.id, mine.slug))!.comments).toEqual([]);
      expect((await w.ws.events.list()).length).toBe(events);
      await h.engine.scheduler.runDue();
      expect(smtp.mails.length).toBe(from);
      expect((await audit(w))[0]).toMatchObject({ action: 'post.note_added', resourceId: mine.id });
      expect(await refusal(w.ws.as(w.as(w.a.member)).posts.addNote(mine.id, '   '))).toEqual({
        code: 'ERR_VALIDATION',
        message: 'Write the note first.',
      });
    });

    it('an official reply is a comment of the team: comment.created, the post’s author hears of it, the portal shows it as the team’s', async () => {
      const w = await triageWorkspace();
      const v = addresses('author');
      const mine = await w.ws.participation.post({
        boardId: w.board.id,
        email: v.author,
        title: 'Dark theme for the editor',
        body: { json: {}, text: '' },
        notifyMe: true,
      });
      const from = smtp.mails.length;
      const { id } = await w.ws.as(w.as(w.a.owner)).posts.reply(mine.id, 'Thanks! We are looking at it.');
      const comment = (await w.ws.events.list({ type: 'comment.created' }))
        .map((e) => (e.payload as any).comment)
        .find((c: any) => c.id === id);
      expect(comment).toMatchObject({ postId: mine.id, authorUserId: null, bodyText: 'Thanks! We are looking at it.' });
      expect((await w.ws.portal.post(w.board.id, mine.slug))!.comments).toEqual([
        expect.objectContaining({ id, official: true, authorName: null }),
      ]);
      await h.engine.scheduler.runDue();
      expect(Object.fromEntries(countsSince(smtp, from))).toEqual({ [v.author]: 1 });
      expect((await audit(w))[0]).toMatchObject({
        actor: w.a.owner,
        action: 'comment.official_reply',
        resourceId: id,
        detail: { postId: mine.id },
      });
    });

    it('a merge moves votes (a voter of both keeps one), subscribers and notes to the target, and is audited', async () => {
      const w = await triageWorkspace();
      const v = addresses('both', 'dupeonly', 'follower');
      const target = await w.ws.posts.create(w.board.id, { title: 'Night theme' });
      await w.ws.participation.vote({ postId: w.post.id, email: v.both, notifyMe: false });
      await w.ws.participation.vote({ postId: target.id, email: v.both, notifyMe: false });
      await w.ws.participation.vote({ postId: w.post.id, email: v.dupeonly, notifyMe: false });
      await w.ws.participation.vote({ postId: w.post.id, email: v.follower, notifyMe: true });
      const actions = w.ws.as(w.as(w.a.member)).posts;
      await actions.addNote(w.post.id, 'Same as Night theme');

      const merged = await actions.merge(w.post.id, target.id);
      expect(merged).toMatchObject({ status: 'duplicate', mergedIntoId: target.id, voteCount: 1 });
      const detail = await w.ws.triage.post(target.id);
      expect(detail!.post.voteCount).toBe(3);
      expect(detail!.notes.map((n) => n.bodyText)).toEqual(['Same as Night theme']);
      expect((await w.ws.triage.post(w.post.id))!.mergedInto).toEqual({ id: target.id, title: 'Night theme' });
      // The follower now hears of the target: its status change mails them (the duplicate's news continue there).
      await h.engine.scheduler.runDue();
      const from = smtp.mails.length;
      await w.ws.posts.update(target.id, { status: 'planned' });
      await h.engine.scheduler.runDue();
      expect(countsSince(smtp, from).get(v.follower)).toBe(1);
      expect((await audit(w)).map((e) => e.action)).toContain('post.merged');
    });

    it('approving a held post announces it (post.created); editing changes title and text; both audited', async () => {
      const w = await triageWorkspace();
      const held = await w.ws.participation.post(
        {
          boardId: w.board.id,
          email: addresses('anon').anon,
          title: 'Sync with calendar',
          body: { json: {}, text: 'Google please' },
          notifyMe: false,
        },
        { held: true },
      );
      expect(held.moderationStatus).toBe('pending');
      const actions = w.ws.as(w.as(w.a.member)).posts;
      await actions.moderate(held.id, 'approved');
      const created = (await w.ws.events.list({ type: 'post.created' })).map((e) => (e.payload as any).post.id);
      expect(created).toContain(held.id);
      const edited = await actions.edit(held.id, {
        title: 'Sync with Google Calendar',
        bodyText: 'Two-way sync\nwith reminders',
      });
      expect(edited).toMatchObject({ title: 'Sync with Google Calendar', bodyText: 'Two-way sync\nwith reminders' });
      expect(JSON.parse(edited.body)).toEqual({
        type: 'doc',
        content: [
          { type: 'paragraph', content: [{ type: 'text', text: 'Two-way sync' }] },
          { type: 'paragraph', content: [{ type: 'text', text: 'with reminders' }] },
        ],
      });
      expect((await audit(w)).slice(0, 2).map((e) => e.action)).toEqual(['post.edited', 'post.approved']);
      expect(await refusal(actions.edit(held.id, { title: '' }))).toMatchObject({ code: 'ERR_VALIDATION' });
    });

    it('the change and its audit entry commit together: when the audit entry cannot be written, the status stays', async () => {
      const w = await triageWorkspace();
      const events = (await w.ws.events.list()).length;
      await h.engine.db.run('ALTER TABLE audit_entry RENAME TO audit_entry_moved');
      try {
        await expect(w.ws.as(w.as(w.a.member)).posts.setStatus(w.post.id, 'planned', 'Soon')).rejects.toThrow();
      } finally {
        await h.engine.db.run('ALTER TABLE audit_entry_moved RENAME TO audit_entry');
      }
      expect((await w.ws.posts.retrieve(w.post.id)).status).toBe('open');
      expect((await w.ws.triage.post(w.post.id))!.comments).toEqual([]);
      expect((await w.ws.events.list()).length).toBe(events);
    });

    it('the post page shows the voters with their plan and revenue, and the impact per currency', async () => {
      const w = await triageWorkspace();
      const v = addresses('big', 'small', 'euro', 'free', 'anon');
      await w.ws.contacts.identify({
        externalUserId: 'big',
        email: v.big,
        plan: 'enterprise',
        mrrCents: 50_000,
        currency: 'USD',
      });
      await w.ws.contacts.identify({
        externalUserId: 'small',
        email: v.small,
        plan: 'starter',
        mrrCents: 2_000,
        currency: 'USD',
      });
      await w.ws.contacts.identify({
        externalUserId: 'euro',
        email: v.euro,
        plan: 'pro',
        mrrCents: 9_900,
        currency: 'EUR',
      });
      await w.ws.contacts.identify({
        externalUserId: 'free',
        email: v.free,
        plan: 'free',
        mrrCents: 0,
        currency: 'USD',
      });
      for (const id of ['big', 'small', 'euro', 'free'])
        await w.ws.participation.vote({ postId: w.post.id, email: v[id]!, userId: id, vouched: true, notifyMe: false });
      await w.ws.participation.vote({ postId: w.post.id, email: v.anon, notifyMe: false });
      const detail = await w.ws.triage.post(w.post.id);
      expect(detail!.impact).toEqual([
        { currency: 'USD', mrrCents: 52_000, payingVoters: 2, payingCompanies: 0, payingPeople: 2 },
        { currency: 'EUR', mrrCents: 9_900, payingVoters: 1, payingCompanies: 0, payingPeople: 1 },
      ]);
      // Voters by revenue within each currency, never across: a group per currency, then those who pay nothing.
      expect(detail!.voters.groups).toEqual([
        { group: 'USD', voters: 2 },
        { group: 'EUR', voters: 1 },
        { group: 'free', voters: 2 },
      ]);
      const group = async (name: string) =>
        (await w.ws.triage.post(w.post.id, { group: name }))!.voters.data.map((x) => [x.email, x.plan, x.mrrCents]);
      expect(await group('USD')).toEqual([
        [v.big, 'enterprise', 50_000],
        [v.small, 'starter', 2_000],
      ]);
      expect(await group('EUR')).toEqual([[v.euro, 'pro', 9_900]]);
      expect(await group('free')).toEqual([
        [v.free, 'free', 0],
        [null, null, null],
      ]);
      // The workspace's currencies tie (one post each): the default group is the first alphabetically.
      expect(detail!.voters.group).toBe('EUR');
      expect(await w.ws.triage.post('post_nope')).toBeUndefined();
    });

    it('a bulk action changes every post chosen as its own action would, or none of them: a refusal names the post', async () => {
      const w = await triageWorkspace();
      const more = [
        await w.ws.posts.create(w.board.id, { title: 'Offline mode' }),
        await w.ws.posts.create(w.board.id, { title: 'Export to CSV' }),
      ];
      const ids = [w.post.id, ...more.map((p) => p.id)];
      const actions = w.ws.as(w.as(w.a.member)).posts;
      const events = (await w.ws.events.list({ type: 'post.status_changed' })).length;
      expect(await actions.bulk(ids, { kind: 'status', status: 'planned' })).toEqual({ changed: 3 });
      expect((await w.ws.events.list({ type: 'post.status_changed' })).length).toBe(events + 3);
      expect((await audit(w)).slice(0, 3).map((e) => [e.action, e.detail])).toEqual(
        ids.map(() => ['post.status_changed', { from: 'open', to: 'planned', bulk: true }]),
      );

      // Approving posts that are not held: the first refusal names its post, and nothing changes (not even the held one).
      const held = await w.ws.participation.post(
        {
          boardId: w.board.id,
          email: addresses('anon').anon,
          title: 'Held one',
          body: { json: {}, text: '' },
          notifyMe: false,
        },
        { held: true },
      );
      expect(await refusal(actions.bulk([held.id, more[0]!.id], { kind: 'approve' }))).toEqual({
        code: 'ERR_CONFLICT',
        message: `“Offline mode”: Post ${more[0]!.id} is not waiting for moderation (it is approved). Nothing was changed.`,
      });
      expect((await w.ws.posts.retrieve(held.id)).moderationStatus).toBe('pending');

      // Tags: added to each, a fourth refused; the tag filter finds them.
      const tags = [];
      for (const name of ['Mobile', 'Billing', 'API', 'Beta']) tags.push(await w.ws.tags.create({ name }));
      await actions.setTags(more[1]!.id, [tags[0]!.id, tags[1]!.id, tags[2]!.id]);
      expect(await actions.bulk(ids, { kind: 'tag', tagId: tags[0]!.id })).toEqual({ changed: 3 });
      expect((await w.ws.triage.posts({ tagId: tags[0]!.id })).data.map((p) => p.title).sort()).toEqual([
        'Dark mode',
        'Export to CSV',
        'Offline mode',
      ]);
      expect((await w.ws.triage.posts({ tagId: tags[1]!.id })).data.map((p) => [p.title, p.tagIds.length])).toEqual([
        ['Export to CSV', 3],
      ]);
      const fourth = await refusal(actions.bulk(ids, { kind: 'tag', tagId: tags[3]!.id }));
      expect(fourth).toEqual({
        code: 'ERR_VALIDATION',
        message: '“Export to CSV”: tagIds: at most 3 tags per post Nothing was changed.',
      });
      expect((await w.ws.triage.posts({ tagId: tags[3]!.id })).data).toEqual([]);
      // Another workspace's post among the chosen: 404, nothing changed.
      const other = await triageWorkspace();
      expect(
        (await refusal(actions.bulk([w.post.id, other.post.id], { kind: 'status', status: 'shipped' }))).code,
      ).toBe('ERR_NOT_FOUND');
      expect((await w.ws.posts.retrieve(w.post.id)).status).toBe('planned');
      expect(
        (await refusal(w.ws.as(w.as(w.a.viewer)).posts.bulk(ids, { kind: 'status', status: 'shipped' }))).code,
      ).toBe('ERR_FORBIDDEN');
      expect((await refusal(actions.bulk([], { kind: 'approve' }))).message).toBe('Choose at least one post.');
    });

    it("a team member's data request: the export holds what names them in every workspace; erasure leaves a pseudonym and their work", async () => {
      const w = await triageWorkspace();
      const other = await triageWorkspace();
      await other.ws.team.add(
        CLI_ACTOR,
        { email: w.a.member, role: 'admin', name: 'Mia' },
        { invite: false, workspace: other.org.name },
      );
      const actions = w.ws.as(w.as(w.a.member)).posts;
      await actions.setStatus(w.post.id, 'planned', 'Soon.');
      const { id: replyId } = await actions.reply(w.post.id, 'Thanks!');
      await actions.addNote(w.post.id, 'Ask the sales team.');

      const exported = await h.engine.team.exportPerson(w.a.member.toUpperCase());
      expect(exported.teams.map((t) => [t.organizationId, t.role])).toEqual(
        expect.arrayContaining([
          [w.org.id, 'member'],
          [other.org.id, 'admin'],
        ]),
      );
      expect(exported.auditEntries.map((e) => e.action)).toEqual([
        'team.member_added',
        'team.member_added',
        'post.status_changed',
        'comment.official_reply',
        'post.note_added',
      ]);
      expect(exported.internalNotes.map((n) => n.bodyText)).toEqual(['Ask the sales team.']);
      expect(exported.officialReplies.map((r) => [r.bodyText, r.authorName])).toEqual([
        ['Soon.', 'Mia'],
        ['Thanks!', 'Mia'],
      ]);
      expect(exported.officialReplies[1]!.id).toBe(replyId);

      // The last owner of a workspace cannot be erased until someone else owns it.
      expect(await refusal(h.engine.team.erasePerson(w.a.owner))).toMatchObject({ code: 'ERR_CONFLICT' });

      const report = await h.engine.team.erasePerson(w.a.member);
      expect(report).toMatchObject({ teams: 2, officialReplies: 2, internalNotes: 1, auditEntries: 5 });
      const again = await h.engine.team.exportPerson(w.a.member);
      expect([again.teams, again.auditEntries, again.internalNotes, again.officialReplies]).toEqual([[], [], [], []]);
      const log = await audit(w);
      expect(log.filter((e) => e.actor === report.alias).map((e) => [e.action, e.ip])).toEqual([
        ['post.note_added', null],
        ['comment.official_reply', null],
        ['post.status_changed', null],
      ]);
      expect(JSON.stringify(log)).not.toContain(w.a.member);
      // Their work stays: the status, the reply (now the team's, unsigned), the note.
      expect((await w.ws.posts.retrieve(w.post.id)).status).toBe('planned');
      expect(
        (await w.ws.portal.post(w.board.id, w.post.slug))!.comments.map((c) => [c.bodyText, c.authorName]),
      ).toEqual([
        ['Soon.', null],
        ['Thanks!', null],
      ]);
      expect((await w.ws.triage.post(w.post.id))!.notes.map((n) => n.authorEmail)).toEqual([report.alias]);
    });

    it('moving a post to another board keeps its votes, frees a taken slug, is found there by search, and its old address is remembered', async () => {
      const w = await triageWorkspace();
      const bugs = await w.ws.boards.create({ name: 'Bugs', isPublic: true });
      await w.ws.posts.create(bugs.id, { title: 'Dark mode' }); // takes the slug dark-mode there
      await w.ws.participation.vote({ postId: w.post.id, email: addresses('v').v, notifyMe: false });
      const events = (await w.ws.events.list()).length;
      const actions = w.ws.as(w.as(w.a.member)).posts;
      const moved = await actions.move(w.post.id, bugs.id);
      expect(moved).toMatchObject({ boardId: bugs.id, slug: 'dark-mode-2', voteCount: 1 });
      expect((await w.ws.events.list()).length).toBe(events);
      expect((await audit(w))[0]).toMatchObject({
        action: 'post.moved',
        resourceId: w.post.id,
        detail: { from: w.board.id, to: bugs.id },
      });
      // Search finds it in its new board and no longer in the old one.
      expect((await w.ws.triage.posts({ q: 'dark', boardId: bugs.id })).data.map((p) => p.slug).sort()).toEqual([
        'dark-mode',
        'dark-mode-2',
      ]);
      expect((await w.ws.triage.posts({ q: 'dark', boardId: w.board.id })).data).toEqual([]);
      // The portal reader knows where it went from its old place.
      expect(await w.ws.portal.movedFrom(w.board.id, 'dark-mode')).toMatchObject({
        id: w.post.id,
        slug: 'dark-mode-2',
      });
      // Another workspace's board: 404, nothing moves; the bulk action moves several (all or none).
      const other = await triageWorkspace();
      expect((await refusal(actions.move(w.post.id, other.board.id))).code).toBe('ERR_NOT_FOUND');
      const more = await w.ws.posts.create(bugs.id, { title: 'Offline mode' });
      expect(await actions.bulk([w.post.id, more.id], { kind: 'move', boardId: w.board.id })).toEqual({ changed: 2 });
      // Back on its first board it keeps the slug it has (free there); its first address still finds it.
      expect(await w.ws.posts.retrieve(w.post.id)).toMatchObject({ boardId: w.board.id, slug: 'dark-mode-2' });
      expect(await w.ws.portal.movedFrom(w.board.id, 'dark-mode')).toMatchObject({
        id: w.post.id,
        slug: 'dark-mode-2',
      });
      expect(await w.ws.portal.movedFrom(bugs.id, 'offline-mode')).toMatchObject({ id: more.id, slug: 'offline-mode' });
    });
  },
  { engine: { mail: { smtpUrl: smtp.url, publicUrl: 'https://feedback.test' } } },
);
