import { afterAll, expect, it } from 'vitest';
import { type Actor, CLI_ACTOR } from '../../../src/engine/index.js';
import { describeEngine, refusal } from '../../helpers/harness.js';
import { addresses, countsSince, portalWorkspace } from '../../helpers/notifications.js';
import { startSmtpSink } from '../../helpers/smtp.js';

// What the team does from the console beyond the posts page (docs/console.md), in the engine: the roadmap's order,
// the changelog, keys, webhooks, contacts made by hand, settings; each refused to a role that may not, and audited.

const smtp = await startSmtpSink();
afterAll(() => smtp.close());

describeEngine(
  'administration',
  (h) => {
    async function adminWorkspace() {
      const w = await portalWorkspace(h.engine);
      const a = addresses('owner', 'admin', 'member', 'viewer');
      for (const role of ['owner', 'admin', 'member', 'viewer'] as const)
        await w.ws.team.add(CLI_ACTOR, { email: a[role]!, role }, { invite: false, workspace: w.org.name });
      const as = (email: string): Actor => ({ email, ip: '203.0.113.9' });
      return { ...w, a, as };
    }
    const lastAudit = async (w: Awaited<ReturnType<typeof adminWorkspace>>) =>
      (await w.ws.team.auditLog(CLI_ACTOR, { limit: 1 })).data[0];

    it('orders a roadmap column: the portal shows that order; a viewer, and a post of another column, are refused', async () => {
      const w = await adminWorkspace();
      const second = await w.ws.posts.create(w.board.id, { title: 'Export to CSV' });
      const third = await w.ws.posts.create(w.board.id, { title: 'SSO' });
      const other = await w.ws.posts.create(w.board.id, { title: 'Not planned' });
      for (const p of [w.post, second, third]) await w.ws.posts.update(p.id, { status: 'planned' });
      await w.ws.participation.vote({ postId: w.post.id, email: 'v@example.com', notifyMe: false });
      const column = async () =>
        (await w.ws.portal.roadmap()).find((c) => c.status === 'planned')!.posts.map((p) => p.title);
      expect(await column()).toEqual(['Dark mode', 'SSO', 'Export to CSV']);

      await w.ws.as(w.as(w.a.member)).posts.reorder('planned', [third.id, second.id, w.post.id]);
      expect(await column()).toEqual(['SSO', 'Export to CSV', 'Dark mode']);
      expect(
        (await w.ws.triage.roadmap()).find((c) => c.status === 'planned')!.posts.map((p) => p.roadmapOrder),
      ).toEqual([1, 2, 3]);
      expect(await lastAudit(w)).toMatchObject({
        actor: w.a.member,
        action: 'roadmap.ordered',
        resourceId: 'planned',
        detail: { posts: [third.id, second.id, w.post.id] },
      });

      expect(await refusal(w.ws.as(w.as(w.a.viewer)).posts.reorder('planned', [w.post.id]))).toMatchObject({
        code: 'ERR_FORBIDDEN',
      });
      expect(await refusal(w.ws.as(w.as(w.a.member)).posts.reorder('planned', [other.id, w.post.id]))).toMatchObject({
        code: 'ERR_CONFLICT',
      });
      expect(await column()).toEqual(['SSO', 'Export to CSV', 'Dark mode']);
    });

    it('publishes a changelog entry that ships posts: their status moves to shipped, one mail to each person who may be mailed, once per address', async () => {
      const w = await adminWorkspace();
      const second = await w.ws.posts.create(w.board.id, { title: 'Export to CSV' });
      const v = addresses('follower', 'both', 'quiet', 'subscriber', 'gone');
      await w.ws.participation.vote({ postId: w.post.id, email: v.follower, notifyMe: true });
      // A follower who then unsubscribed from everything: not mailed.
      await w.ws.participation.vote({ postId: w.post.id, email: v.gone, notifyMe: true });
      await w.ws.notifications.unsubscribe((await w.ws.notifications.recipientFor(v.gone!))!, 'one_click');
      await w.ws.participation.vote({ postId: w.post.id, email: v.both, notifyMe: true });
      await w.ws.participation.vote({ postId: second.id, email: v.both, notifyMe: true });
      await w.ws.participation.vote({ postId: w.post.id, email: v.quiet, notifyMe: false });
      const { contact: subscriber } = await w.ws.contacts.identify({
        externalUserId: `u-${v.subscriber}`,
        email: v.subscriber,
      });
      await w.ws.notifications.subscribe(subscriber.id, 'changelog');

      const admin = w.ws.as(w.as(w.a.member));
      const draft = await admin.changelog.create({ boardId: w.board.id, title: 'Autumn release', body: 'Draft' });
      await admin.changelog.edit(draft.id, { body: 'Dark mode and **CSV export**.', postIds: [w.post.id, second.id] });
      expect(
        await refusal(admin.changelog.edit(draft.id, { body: 'Not saved', postIds: ['post_nope'] })),
      ).toMatchObject({ code: 'ERR_NOT_FOUND' });
      expect((await w.ws.changelog.retrieve(draft.id)).body).toBe('Dark mode and **CSV export**.');
      const from = smtp.mails.length;
      const published = await admin.changelog.publish(draft.id, { ship: true });
      expect(published).toMatchObject({ status: 'published', body: 'Dark mode and **CSV export**.' });

      const events = (await w.ws.events.list()).map((e) => e.payload as Record<string, any>);
      expect(events.filter((e) => e.event === 'changelog.published')).toHaveLength(1);
      expect(
        events
          .filter((e) => e.event === 'post.status_changed')
          .map((e) => [e.post.id, e.previousStatus, e.post.status]),
      ).toEqual([
        [w.post.id, 'open', 'shipped'],
        [second.id, 'open', 'shipped'],
      ]);
      await h.engine.scheduler.runDue();
      expect(Object.fromEntries(countsSince(smtp, from))).toEqual({ [v.follower]: 1, [v.both]: 1, [v.subscriber]: 1 });
      const mails = (await smtp.parsed()).slice(from);
      const subjectTo = (email: string) => mails.find((m) => JSON.stringify(m.to).includes(email))?.subject;
      expect(subjectTo(v.follower!)).toBe('“Dark mode” shipped: Autumn release');
      expect(subjectTo(v.subscriber!)).toBe(`New in ${w.org.name}: Autumn release`);

      expect(await refusal(admin.changelog.edit(draft.id, { title: 'Changed after' }))).toMatchObject({
        code: 'ERR_CONFLICT',
      });
      expect(
        await refusal(w.ws.as(w.as(w.a.viewer)).changelog.create({ boardId: w.board.id, title: 'No' })),
      ).toMatchObject({ code: 'ERR_FORBIDDEN' });
      expect(await lastAudit(w)).toMatchObject({
        action: 'changelog.published',
        resourceId: draft.id,
        detail: { ship: true },
      });
    });

    it('rotates an API key with a grace period: both work until it ends, then only the new one; another workspace’s key is not found', async () => {
      const w = await adminWorkspace();
      const admin = w.ws.as(w.as(w.a.admin));
      const old = await admin.keys.create('read:write');
      expect(await h.engine.keys.authenticate(old.key)).toMatchObject({ organizationId: w.org.id });
      const rotated = await admin.keys.rotate(old.id, 3600);
      expect(rotated.scope).toBe('read:write');
      expect(await h.engine.keys.authenticate(old.key)).not.toBeNull();
      expect(await h.engine.keys.authenticate(rotated.key)).not.toBeNull();
      const listed = await h.engine.keys.list(w.org.id);
      expect(listed.find((k) => k.id === old.id)!.revokedAt).toBe(rotated.previousValidUntil);

      const now = await admin.keys.rotate(rotated.id, 0);
      expect(await h.engine.keys.authenticate(rotated.key)).toBeNull();
      expect(await h.engine.keys.authenticate(now.key)).not.toBeNull();

      const elsewhere = await portalWorkspace(h.engine, 'Other');
      const theirs = await h.engine.keys.create(elsewhere.org.id, 'read');
      expect(await refusal(admin.keys.revoke(theirs.id))).toMatchObject({ code: 'ERR_NOT_FOUND' });
      expect(await h.engine.keys.authenticate(theirs.key)).not.toBeNull();
      expect(await refusal(w.ws.as(w.as(w.a.member)).keys.create('read'))).toMatchObject({ code: 'ERR_FORBIDDEN' });
      expect(await lastAudit(w)).toMatchObject({ actor: w.a.admin, action: 'api_key.rotated', resourceId: rotated.id });
    });

    it('a contact made by hand needs an attestation, which the audit log keeps; erasure is audited by id alone', async () => {
      const w = await adminWorkspace();
      const admin = w.ws.as(w.as(w.a.admin));
      expect(await refusal(admin.contacts.create({ email: 'kim@example.com' }, ' '))).toMatchObject({
        code: 'ERR_VALIDATION',
      });
      expect((await w.ws.contacts.list()).data).toHaveLength(0);
      const contact = await admin.contacts.create(
        { email: 'kim@example.com', name: 'Kim' },
        'Customer since 2024; agreed to updates on the call.',
      );
      expect(contact).toMatchObject({ source: 'admin', consentBasis: 'admin_created' });
      expect((await w.ws.events.list()).map((e) => (e.payload as any).event)).toContain('contact.created');
      expect(await lastAudit(w)).toMatchObject({
        action: 'contact.created',
        resourceId: contact.id,
        detail: { attestation: 'Customer since 2024; agreed to updates on the call.' },
      });

      expect(await refusal(w.ws.as(w.as(w.a.member)).contacts.erase(contact.id))).toMatchObject({
        code: 'ERR_FORBIDDEN',
      });
      await admin.contacts.erase(contact.id);
      expect(await refusal(w.ws.contacts.retrieve(contact.id))).toMatchObject({ code: 'ERR_NOT_FOUND' });
      const entry = await lastAudit(w);
      expect(entry).toMatchObject({ action: 'contact.erased', resourceId: contact.id, detail: {} });
      expect(JSON.stringify(entry)).not.toContain('kim@example.com');
    });

    it('settings: branding is checked; a host-vouched role acts without a team row; a vouched viewer is refused', async () => {
      const w = await adminWorkspace();
      const host: Actor = { email: 'pat@host.example', vouched: { role: 'admin', name: 'Pat' } };
      const org = await w.ws.as(host).updateSettings({
        portalAccent: '#0F766E',
        portalLogoUrl: 'https://cdn.example.com/logo.png',
        name: 'Acme Inc',
      });
      expect(org).toMatchObject({
        portalAccent: '#0f766e',
        portalLogoUrl: 'https://cdn.example.com/logo.png',
        name: 'Acme Inc',
      });
      expect(await refusal(w.ws.as(host).updateSettings({ portalAccent: 'red' }))).toMatchObject({
        code: 'ERR_VALIDATION',
      });
      expect(await refusal(w.ws.as(host).updateSettings({ portalLogoUrl: 'javascript:alert(1)' }))).toMatchObject({
        code: 'ERR_VALIDATION',
      });
      expect(await lastAudit(w)).toMatchObject({
        actor: 'pat@host.example',
        action: 'workspace.settings_changed',
        detail: { fields: ['name', 'portalLogoUrl', 'portalAccent'] },
      });
      const viewer: Actor = { email: 'val@host.example', vouched: { role: 'viewer' } };
      expect(await refusal(w.ws.as(viewer).updateSettings({ name: 'Nope' }))).toMatchObject({ code: 'ERR_FORBIDDEN' });
    });
  },
  {
    engine: {
      webhooks: { allowPrivateNetworks: true },
      mail: { smtpUrl: smtp.url, publicUrl: 'https://feedback.test' },
    },
  },
);
