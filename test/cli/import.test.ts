import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCanny } from '../../src/cli/import/canny.js';
import { readFider } from '../../src/cli/import/fider.js';
import { folder } from '../../src/cli/import/files.js';
import { createEngine } from '../../src/engine/index.js';
import { command, succeeds } from '../helpers/cli.js';
import { describeEngine } from '../helpers/harness.js';

const FIXTURES = join(import.meta.dirname, '../fixtures/import');

describeEngine('importing an export', (e) => {
  it('Canny: boards, posts with their statuses, authors, dates and tags, votes, comments and replies, changelog, people', async () => {
    const org = await e.engine.organizations.create({ name: 'Acme', plan: 'paid' });
    const w = e.engine.workspace(org.id);
    const bundle = await readCanny(folder(join(FIXTURES, 'canny')), { currency: 'USD' });
    const first = await w.imports.run(bundle);
    expect(first.created).toEqual({
      company: 3,
      person: 3,
      board: 2,
      tag: 2,
      post: 3,
      vote: 3,
      comment: 2,
      changelog: 2,
    });

    const boards = (await w.boards.list()).data;
    expect(boards.map((b) => [b.name, b.isPublic, b.createdAt])).toEqual([
      ['Feature Requests', true, '2024-01-10T09:00:00.000Z'],
      ['Internal', false, '2024-01-11T09:00:00.000Z'],
    ]);
    const posts = (await w.triage.list({ sort: 'newest' })).data;
    expect(posts.map((p) => [p.title, p.status, p.voteCount, p.commentCount, p.createdAt])).toEqual([
      ['Faster exports', 'declined', 0, 0, '2024-02-03T10:00:00.000Z'],
      ['Export to CSV', 'under_review', 1, 0, '2024-02-02T10:00:00.000Z'],
      ['Dark mode', 'shipped', 2, 2, '2024-02-01T10:00:00.000Z'],
    ]);
    const dark = posts[2]!;
    expect(dark.tags.map((t) => t.name)).toEqual(['Mobile']);
    const people = (await w.contacts.list({ limit: 10 })).data;
    expect(people.map((c) => [c.email, c.consentBasis]).sort()).toEqual([
      ['ada@example.com', 'legacy_inferred'],
      ['grace@example.com', 'legacy_inferred'],
      ['sam@acme.example', 'legacy_inferred'],
    ]);
    expect(dark.contactId).toBe(people.find((c) => c.email === 'ada@example.com')!.id);
    // Canny's companies, those its users name too, with their spend; what our rules cannot hold (a domain that is not
    // one) stays out. Its people belong to them, and their votes make the post's impact.
    const companies = (await w.companies.list({ limit: 10 })).data;
    expect(
      companies
        .map((c) => [c.externalCompanyId, c.name, c.domain, c.mrrCents, c.currency, c.metadata, c.memberCount])
        .sort(),
    ).toEqual([
      ['acme', 'Acme Inc', 'acme.example', 49950, 'USD', { tier: 'gold' }, 1],
      ['globex', 'Globex', null, 9900, 'USD', {}, 0],
      ['initech', 'Initech', null, 2000, 'USD', {}, 1],
    ]);
    expect(dark.impact).toEqual([{ currency: 'USD', mrrCents: 51950, companies: 2, people: 0 }]);
    // The team's reply is official and answers Grace's comment; the internal note stays out.
    const thread = (await w.posts.listComments(dark.id)).data;
    expect(thread.map((c) => [c.bodyText, c.official, c.authorName, c.parentId === thread[0]!.id])).toEqual([
      ['Yes, my eyes!', false, 'Grace Hopper', false],
      ['Shipped today.', true, 'Sam (Acme)', true],
    ]);
    const entries = (await w.changelog.page({})).data;
    expect(entries.map((x) => [x.title, x.status, x.publishedAt, x.postIds])).toEqual([
      ['Exports, faster', 'draft', null, []],
      ['Dark mode is here', 'published', '2024-03-01T12:00:00.000Z', [dark.id]],
    ]);
    // History, not news: no event for posts, votes, comments or entries; a contact's or company's insert is announced
    // by any path.
    expect([...new Set((await w.events.list()).map((ev) => ev.type))].sort()).toEqual([
      'company.created',
      'contact.created',
    ]);

    // A rerun adds nothing and changes nothing.
    const again = await w.imports.run(bundle);
    expect(again.created).toEqual({
      company: 0,
      person: 0,
      board: 0,
      tag: 0,
      post: 0,
      vote: 0,
      comment: 0,
      changelog: 0,
    });
    expect(again.skipped).toEqual({
      company: 3,
      person: 3,
      board: 2,
      tag: 2,
      post: 3,
      vote: 3,
      comment: 2,
      changelog: 2,
    });
    expect((await w.triage.list({})).data).toHaveLength(3);
  });

  it("Canny's posts CSV export: boards, tags, statuses, authors and dates by column name; what boards.json has is that board", async () => {
    const org = await e.engine.organizations.create({ name: 'Acme', plan: 'paid' });
    const w = e.engine.workspace(org.id);
    const bundle = await readCanny(folder(join(FIXTURES, 'canny-csv')), { currency: 'USD' });
    const first = await w.imports.run(bundle);
    expect(first.created).toMatchObject({ board: 2, tag: 3, post: 3, person: 2, vote: 0, comment: 0 });
    const boards = (await w.boards.list()).data;
    expect(boards.map((b) => b.name).sort()).toEqual(['Bugs', 'Feature Requests']);
    expect(boards.find((b) => b.name === 'Feature Requests')!.createdAt).toBe('2024-01-10T09:00:00.000Z');
    const posts = (await w.triage.list({ sort: 'newest' })).data;
    expect(posts.map((p) => [p.title, p.status, p.bodyText, p.tags.map((t) => t.name).sort(), p.createdAt])).toEqual([
      ['Faster exports', 'declined', 'Takes minutes today.', [], '2024-02-03T10:00:00.000Z'],
      ['Export to "CSV"', 'under_review', '', ['Billing'], '2024-02-02T10:00:00.000Z'],
      [
        'Dark mode',
        'shipped',
        'Please add a dark theme,\nfor the night.',
        ['Mobile', 'Theme'],
        '2024-02-01T10:00:00.000Z',
      ],
    ]);
    const people = (await w.contacts.list({ limit: 10 })).data;
    expect(people.map((c) => [c.email, c.name, c.consentBasis]).sort()).toEqual([
      ['ada@example.com', 'Ada Lovelace', 'legacy_inferred'],
      ['grace@example.com', 'Grace Hopper', 'legacy_inferred'],
    ]);
    expect(posts[2]!.contactId).toBe(people.find((c) => c.email === 'ada@example.com')!.id);
    expect(posts[0]!.contactId).toBeNull();
    // A rerun of the same file: its rows are known by their address.
    expect((await w.imports.run(bundle)).created).toMatchObject({ board: 0, tag: 0, post: 0, person: 0 });
  });

  it('a posts CSV without a title column, or that is not CSV, is a clear error naming it', async () => {
    const files = (csv: string) => ({
      json: async (_: string, missing: unknown) => missing,
      text: async (name: string) => (name === 'posts.csv' ? csv : null),
    });
    await expect(readCanny(files('Name,Board\nDark mode,Ideas\n'), { currency: 'USD' })).rejects.toThrow(
      'posts.csv has no title column',
    );
    await expect(readCanny(files('Title,Board\n"Dark mode,Ideas\n'), { currency: 'USD' })).rejects.toThrow(
      /^posts\.csv is not CSV: /,
    );
    await expect(
      readCanny(files('Title,Board,Created\nDark mode,Ideas,yesterday\n'), { currency: 'USD' }),
    ).rejects.toThrow('posts.csv line 2: "yesterday" is not a date');
  });

  it('Fider: one board, statuses mapped, the team response as an official comment, deleted posts left out; a dry run writes nothing', async () => {
    const org = await e.engine.organizations.create({ name: 'Acme', plan: 'paid' });
    const w = e.engine.workspace(org.id);
    const bundle = await readFider(folder(join(FIXTURES, 'fider')), 'Ideas');
    const dry = await w.imports.run(bundle, { dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, created: { board: 1, post: 2, vote: 3, comment: 2, person: 2 } });
    expect((await w.boards.list()).data).toEqual([]);
    expect((await w.contacts.list()).data).toEqual([]);

    const done = await w.imports.run(bundle);
    expect(done.created).toEqual({
      company: 0,
      person: 2,
      board: 1,
      tag: 1,
      post: 2,
      vote: 3,
      comment: 2,
      changelog: 0,
    });
    const posts = (await w.triage.list({ sort: 'votes' })).data;
    expect(posts.map((p) => [p.title, p.status, p.voteCount, p.tags.map((t) => t.name)])).toEqual([
      ['Calendar sync', 'in_progress', 2, ['Integrations']],
      ['Offline mode', 'open', 1, []],
    ]);
    const thread = (await w.posts.listComments(posts[0]!.id)).data;
    expect(thread.map((c) => [c.bodyText, c.official, c.authorName])).toEqual([
      ['Outlook too, please.', false, 'Kim'],
      ['We are on it.', true, 'Ops Team'],
    ]);
  });
});

describe('feedback-service import', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-cli-import-'));
  const db = join(dir, 'cli.db');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('imports a Canny folder with its progress and a summary; a rerun imports nothing new; a bad file is a clear error', async () => {
    const engine = await createEngine({ database: db, log: () => {} });
    await engine.migrate();
    const org = await engine.organizations.create({ name: 'Acme', plan: 'paid' });
    await engine.close();
    const run = (...args: string[]) => command('import', ...args, '--org', org.id, '--db', db);
    const dry = await run('canny', join(FIXTURES, 'canny'), '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('Dry run: nothing was written.');
    expect(dry.stdout).toContain('posts: 3 to import, 0 there already');
    const first = await run('canny', join(FIXTURES, 'canny'));
    expect(first.stderr).toContain('posts: 3 of 3');
    expect(first.stdout).toContain('votes: 3 imported, 0 there already');
    expect(first.stdout).toContain('companies: 3 imported, 0 there already');
    const again = JSON.parse(
      await succeeds('import', 'canny', join(FIXTURES, 'canny'), '--org', org.id, '--db', db, '--json'),
    );
    expect(again.created.post).toBe(0);
    expect(again.skipped.post).toBe(3);
    const broken = await run('fider', join(FIXTURES, 'canny'));
    expect(broken.code).not.toBe(0);
    expect(broken.stderr).toBe("tags.json is not Fider's GET /api/v1/tags (expected a JSON array)\n");
    const money = await run('canny', join(FIXTURES, 'canny'), '--currency', 'dollars');
    expect(money.code).not.toBe(0);
    expect(money.stderr).toContain('--currency must be a currency code such as USD, not "dollars"');
  });
});
