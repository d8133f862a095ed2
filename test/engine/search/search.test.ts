import { describe, expect, it } from 'vitest';
import { createEngine } from '../../../src/engine/index.js';
import { parseSearch } from '../../../src/engine/search/index.js';
import { search as searchStore } from '../../../src/engine/store/index.js';
import { createTestDatabase, postgresReachable } from '../../helpers/databases.js';
import { describeEngine } from '../../helpers/harness.js';
import { walkIds } from '../../helpers/pages.js';

const POSTGRES_AVAILABLE = await postgresReachable();

// Full-text search on each database's own engine (docs/search.md): the portal's board search, kept in step with every
// write in its transaction, and the REST contact search, which keeps its meaning (a substring of email or name).

describeEngine('full-text search', (h) => {
  async function workspace() {
    const org = await h.engine.organizations.create({ name: 'Search', plan: 'paid' });
    const w = h.engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    return {
      org,
      w,
      board,
      search: async (q: string, limit = 50, cursor?: string) => w.portal.posts(board.id, { q, limit, cursor }),
    };
  }
  const titles = (page: { data: Array<{ title: string }> }) => page.data.map((p) => p.title);

  it('finds every word in the title or the body, the last also as a prefix, phrases word for word, case and accents aside', async () => {
    const { w, board, search } = await workspace();
    await w.posts.create(board.id, { title: 'Dark mode', body: { json: {}, text: 'The editor hurts at night' } });
    await w.posts.create(board.id, {
      title: 'Export to CSV',
      body: { json: {}, text: 'Exports of every board, dark or light' },
    });
    await w.posts.create(board.id, {
      title: 'Mode switch for the editor',
      body: { json: {}, text: 'Dark is not enough' },
    });
    expect(titles(await search('dark'))).toHaveLength(3);
    expect(titles(await search('DARK editor')).sort()).toEqual(['Dark mode', 'Mode switch for the editor']);
    expect(titles(await search('"dark mode"'))).toEqual(['Dark mode']);
    expect(titles(await search('export'))).toEqual(['Export to CSV']); // "exports" in the body as well: one post
    expect(titles(await search('csv exp'))).toEqual(['Export to CSV']);
    expect(titles(await search('nowhere'))).toEqual([]);
    if (h.database === 'sqlite') expect(titles(await search('Éditor NIGHT'))).toEqual(['Dark mode']);
  });

  it('ranks by relevance (a title counts more than a body), ties by votes then newest, in stable keyset pages', async () => {
    const { w, board, search } = await workspace();
    const inBody = await w.posts.create(board.id, {
      title: 'Something else',
      body: { json: {}, text: 'keyboard shortcuts please' },
    });
    const inTitle = await w.posts.create(board.id, {
      title: 'Keyboard shortcuts',
      body: { json: {}, text: 'for everything' },
    });
    expect((await search('keyboard')).data.map((p) => p.id)).toEqual([inTitle.id, inBody.id]);
    // Equal relevance: votes, then the newest.
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await w.posts.create(board.id, { title: `Webhook retries ${i}` })).id);
    for (let i = 0; i < 3; i++)
      await w.participation.vote({ postId: ids[2]!, email: `v${i}@example.com`, notifyMe: false });
    const all = (await search('webhook retries')).data.map((p) => p.id);
    expect(all).toEqual([ids[2], ...ids.filter((id) => id !== ids[2]).reverse()]);
    expect(await walkIds((cursor) => search('webhook retries', 2, cursor))).toEqual(all);
  });

  it('pages stay exact when there are more matches than the index is first asked for: ties, and posts the board does not show', async () => {
    const { w, board, search } = await workspace();
    const made: Array<{ id: string; votes: number; shown: boolean; n: number }> = [];
    for (let n = 0; n < 130; n++) {
      const held = n % 3 === 0;
      const post = held
        ? await w.participation.post(
            { boardId: board.id, email: `held${n}@example.com`, title: 'Bulk import', notifyMe: false },
            { held: true },
          )
        : await w.posts.create(board.id, { title: 'Bulk import' });
      made.push({ id: post.id, votes: 0, shown: !held, n });
    }
    for (const m of made.filter((x) => x.shown && x.n % 7 === 1)) {
      await w.participation.vote({ postId: m.id, email: `voter${m.n}@example.com`, notifyMe: false });
      m.votes = 1;
    }
    // Every match ties on relevance: votes first, then the newest.
    const expected = made
      .filter((m) => m.shown)
      .sort((a, b) => b.votes - a.votes || b.n - a.n)
      .map((m) => m.id);
    expect(await walkIds((cursor) => search('bulk imp', 25, cursor))).toEqual(expected);
  });

  it('a workspace search ranks the posts of every board of the workspace and of no other', async () => {
    const { org, w, board } = await workspace();
    const other = await w.boards.create({ name: 'Bugs' });
    const a = await w.posts.create(board.id, { title: 'Slack integration' });
    const b = await w.posts.create(other.id, { title: 'Slack notifications', body: { json: {}, text: 'slack slack' } });
    const elsewhere = await workspace();
    await elsewhere.w.posts.create(elsewhere.board.id, { title: 'Slack in another workspace' });
    await w.portal.posts(board.id, { q: 'slack' }); // brings SQLite's index up to date
    const matches = await searchStore.rankedPosts(h.engine.db, { organizationId: org.id }, parseSearch('slack'), 10);
    expect(matches.map((m) => m.postId).sort()).toEqual([a.id, b.id].sort());
    expect(matches[0]!.relevance).toBeGreaterThanOrEqual(matches[1]!.relevance);
  });

  it('shows only what the board shows: not other boards or workspaces, not deleted, held or merged posts', async () => {
    const { w, board, search } = await workspace();
    const other = await w.boards.create({ name: 'Other' });
    const shown = await w.posts.create(board.id, { title: 'Offline sync' });
    await w.posts.create(other.id, { title: 'Offline sync elsewhere' });
    const elsewhere = await workspace();
    await elsewhere.w.posts.create(elsewhere.board.id, { title: 'Offline sync in another workspace' });
    const deleted = await w.posts.create(board.id, { title: 'Offline sync deleted' });
    await w.posts.delete(deleted.id);
    const duplicate = await w.posts.create(board.id, { title: 'Offline sync duplicate' });
    await w.posts.merge(duplicate.id, shown.id);
    await w.participation.post(
      { boardId: board.id, email: 'held@example.com', title: 'Offline sync held', notifyMe: false },
      { held: true },
    );
    expect((await search('offline sync')).data.map((p) => p.id)).toEqual([shown.id]);
    expect(titles(await elsewhere.search('offline sync'))).toEqual(['Offline sync in another workspace']);
  });

  it("follows every change in the write's own transaction: a new title, a moved post, a deleted workspace", async () => {
    const { w, board, search } = await workspace();
    const post = await w.posts.create(board.id, { title: 'Calendar view' });
    await w.posts.update(post.id, { title: 'Timeline view' });
    expect(titles(await search('calendar'))).toEqual([]);
    expect(titles(await search('timeline'))).toEqual(['Timeline view']);
    const other = await w.boards.create({ name: 'Roadmap' });
    // Moving a post is not a REST field yet (the console's bulk move will be): the search follows the row whatever moves it.
    await h.engine.db.run('UPDATE post SET board_id = ? WHERE id = ?', [other.id, post.id]);
    expect(titles(await search('timeline'))).toEqual([]);
    expect(titles(await w.portal.posts(other.id, { q: 'timeline' }))).toEqual(['Timeline view']);
    if (h.database === 'sqlite') {
      const before = await h.engine.db.one<{ n: number }>('SELECT count(*) AS n FROM post_search');
      await h.engine.db.run('DELETE FROM organization WHERE id = ?', [post.organizationId]);
      const after = await h.engine.db.one<{ n: number }>('SELECT count(*) AS n FROM post_search');
      expect(Number(after!.n)).toBe(Number(before!.n) - 1); // the cascade took its search row with it
      expect(await h.engine.db.all('SELECT * FROM post_search_key WHERE post_id = ?', [post.id])).toEqual([]);
    }
  });

  it('keeps step with an upsert written by hand (INSERT ... ON CONFLICT DO UPDATE), twice on a row already marked', async () => {
    // SQLite runs a trigger's statements under the conflict policy of the statement that fired it: an upsert's turns
    // a trigger's INSERT OR IGNORE into a plain INSERT, which failed on the second change of a row waiting to be indexed.
    const { org, w, board, search } = await workspace();
    const post = await w.posts.create(board.id, { title: 'Calendar view' });
    const { contact } = await w.contacts.identify({ externalUserId: 'u-upsert', email: 'first@example.com' });
    const t = (d: Date) => (h.database === 'sqlite' ? d.getTime() : d);
    for (const name of ['Second Name', 'Third Name']) {
      const now = t(new Date());
      await h.engine.db.run(
        `INSERT INTO contact (id, organization_id, external_user_id, email, email_hash, name, metadata, source, consent_basis, first_seen_at, last_seen_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, NULL, ?, '{}', 'identify', 'sdk_identify', ?, ?, ?, ?)
         ON CONFLICT (organization_id, external_user_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at`,
        ['ctc_upsert', org.id, 'u-upsert', 'first@example.com', name, now, now, now, now],
      );
      await h.engine.db.run(
        'INSERT INTO post SELECT * FROM post WHERE id = ? ON CONFLICT (id) DO UPDATE SET title = ?',
        [post.id, `Timeline ${name}`],
      );
    }
    expect((await w.contacts.list({ q: 'third name' })).data.map((c) => c.id)).toEqual([contact.id]);
    expect(titles(await search('timeline third'))).toEqual(['Timeline Third Name']);
  });

  it.runIf(h.database === 'sqlite')(
    'SQLite: a new row writes nothing for search, a change marks its row, the next search indexes both first, a delete leaves no trace',
    async () => {
      const { w, board, search } = await workspace();
      const count = async (table: string) =>
        Number((await h.engine.db.one<{ n: unknown }>(`SELECT count(*) AS n FROM ${table}`))!.n);
      await search('anything'); // nothing left pending
      const indexed = await count('post_search');
      const post = await w.posts.create(board.id, { title: 'Quarterly report export' });
      const { contact } = await w.contacts.identify({
        externalUserId: 'u-pending',
        email: 'pending.person@example.com',
        name: 'Pending Person',
      });
      expect(await count('search_pending')).toBe(0); // new rows: above the watermark, found by the next search
      expect(await count('post_search')).toBe(indexed); // the write itself touched no FTS5 table
      expect(titles(await search('quarterly rep'))).toEqual(['Quarterly report export']); // read your writes
      expect((await w.contacts.list({ q: 'pending.person' })).data.map((c) => c.id)).toEqual([contact.id]);
      expect(await count('post_search')).toBe(indexed + 1);
      await w.posts.update(post.id, { title: 'Yearly report export' });
      await w.contacts.identify({ externalUserId: 'u-pending', name: 'Waiting Person' });
      expect(await h.engine.db.all('SELECT kind, id FROM search_pending ORDER BY kind')).toEqual([
        { kind: 'contact', id: contact.id },
        { kind: 'post', id: post.id },
      ]);
      expect(titles(await search('yearly rep'))).toEqual(['Yearly report export']);
      expect(titles(await search('quarterly'))).toEqual([]);
      expect(await count('search_pending')).toBe(0);
      expect((await w.contacts.list({ q: 'waiting person' })).data.map((c) => c.id)).toEqual([contact.id]);
      // A contact erased before it was ever indexed leaves nothing pending and nothing indexed.
      const { contact: brief } = await w.contacts.identify({
        externalUserId: 'u-brief',
        email: 'brief.visit@example.com',
      });
      await w.privacy.erase(brief.id);
      expect(await h.engine.db.all("SELECT * FROM search_pending WHERE kind = 'contact'")).toEqual([]);
      expect((await w.contacts.list({ q: 'brief.visit' })).data).toEqual([]);
      expect(
        await h.engine.db.all('SELECT rowid FROM contact_search WHERE contact_search MATCH \'"brief.visit"\''),
      ).toEqual([]);
      expect((await w.contacts.list({ q: 'pending.person' })).data.map((c) => c.id)).toEqual([contact.id]);
    },
  );

  it.runIf(h.database === 'sqlite')(
    'SQLite: new rows are found after the newest row is deleted and after the rows are numbered again (a restore from a dump)',
    async () => {
      const { w, board, search } = await workspace();
      const names = async (q: string) => (await w.contacts.list({ q })).data.map((c) => c.externalUserId);
      const rowid = async (table: string, id: string) =>
        Number((await h.engine.db.one<{ r: unknown }>(`SELECT rowid AS r FROM ${table} WHERE id = ?`, [id]))!.r);
      const through = async (kind: string) =>
        Number(
          (await h.engine.db.one<{ t: unknown }>('SELECT through AS t FROM search_watermark WHERE kind = ?', [kind]))!
            .t,
        );
      // The newest contact, indexed, then erased: SQLite hands its rowid out again to the next one.
      await w.contacts.identify({ externalUserId: 'u-first', email: 'first.one@example.com' });
      const { contact: newest } = await w.contacts.identify({
        externalUserId: 'u-newest',
        email: 'newest.one@example.com',
      });
      expect(await names('.one@')).toEqual(expect.arrayContaining(['u-first', 'u-newest']));
      const newestRowid = await rowid('contact', newest.id);
      await w.privacy.erase(newest.id);
      const { contact: next } = await w.contacts.identify({ externalUserId: 'u-next', email: 'next.one@example.com' });
      expect(await rowid('contact', next.id)).toBe(newestRowid);
      expect(await names('next.one')).toEqual(['u-next']);
      // A gap in the rowids, a row written after the index last looked, then every row numbered again from 1 in order, as
      // loading a `.dump` does: the unindexed row lands at or below the watermark.
      const gap = await w.posts.create(board.id, { title: 'Gap maker' });
      await w.posts.create(board.id, { title: 'Indexed already' });
      await search('gap');
      await h.engine.db.run('DELETE FROM post WHERE id = ?', [gap.id]); // a row gone for good (a deleted workspace's, say)
      const later = await w.posts.create(board.id, { title: 'Written later than the index' });
      await w.contacts.identify({ externalUserId: 'u-later', email: 'later.one@example.com' });
      for (const table of ['post', 'contact']) {
        await h.engine.db.run(`UPDATE ${table} SET rowid = rowid + 1000000`);
        await h.engine.db.run(
          `UPDATE ${table} SET rowid = (SELECT count(*) FROM ${table} t WHERE t.rowid <= ${table}.rowid)`,
        );
      }
      expect(await rowid('post', later.id)).toBeLessThanOrEqual(await through('post')); // what the watermark alone would miss
      expect(titles(await search('later index'))).toEqual(['Written later than the index']);
      expect(titles(await search('indexed already'))).toEqual(['Indexed already']);
      expect(await names('later.one')).toEqual(['u-later']);
      expect(await through('post')).toBe(await rowid('post', later.id));
    },
  );

  it("PostgreSQL reads a workspace's posts in its search language (simple by default); changing it indexes them again", async () => {
    const { org, search, w, board } = await workspace();
    await w.posts.create(board.id, { title: 'Exported reports' });
    // The index holds words as written (simple); a query's English stem forgives: "exporting" finds "Exported".
    expect(titles(await search('exporting'))).toEqual(['Exported reports']);
    await h.engine.organizations.update(org.id, { searchStems: 'none' });
    expect(titles(await search('exporting'))).toEqual([]); // no stems: words as written
    await expect(h.engine.organizations.update(org.id, { searchLanguage: 'klingon' as never })).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
    });
    expect((await h.engine.organizations.update(org.id, { searchLanguage: 'english' })).searchLanguage).toBe('english');
    // English stems both the posts already written and the query: "exporting" and "exported" are "export".
    expect(titles(await search('exporting'))).toEqual(h.database === 'postgresql' ? ['Exported reports'] : []);
    await w.posts.create(board.id, { title: 'Exporting dashboards' });
    expect(titles(await search('exports')).sort()).toEqual(
      h.database === 'postgresql' ? ['Exported reports', 'Exporting dashboards'] : [],
    );
  });

  it('a word typed is a prefix whatever the workspace holds: words written later or changed, many words to a prefix, words with quotes', async () => {
    // On PostgreSQL a prefix is asked of the index as the workspace's words that start with it (post_search_word):
    // each of these finds nothing if a write left its words out of that list.
    const { w, board, search } = await workspace();
    const first = await w.posts.create(board.id, {
      title: 'Quarterly roadmap',
      body: { json: {}, text: "see http://ex.com/a'b for it" },
    });
    expect(titles(await search('quarter'))).toEqual(['Quarterly roadmap']);
    expect(titles(await search('quart road'))).toEqual(['Quarterly roadmap']);
    expect(titles(await search('ex'))).toEqual(['Quarterly roadmap']);
    expect(titles(await search('quarterlyx'))).toEqual(['Quarterly roadmap']); // one typo away
    expect(titles(await search('quarterlyxy'))).toEqual([]); // two
    await w.posts.update(first.id, { title: 'Yearly roadmap' });
    expect(titles(await search('year'))).toEqual(['Yearly roadmap']);
    expect(titles(await search('yearly quart'))).toEqual([]);
    // More words to one prefix than the index is asked for by name: still every post that holds one.
    const many = Array.from({ length: 70 }, (_, i) => `zq${i.toString(36)}x`).join(' ');
    await w.posts.create(board.id, { title: 'Many words', body: { json: {}, text: many } });
    await w.posts.create(board.id, { title: 'One of them', body: { json: {}, text: 'zq1zx' } });
    expect(titles(await search('zq')).sort()).toEqual(['Many words', 'One of them']);
    expect(titles(await search('zq1z'))).toEqual(['One of them']);
    // Another workspace's words find nothing here.
    const other = await workspace();
    await other.w.posts.create(other.board.id, { title: 'Quarantine' });
    expect(titles(await search('quara'))).toEqual([]);
    expect(titles(await other.search('quar'))).toEqual(['Quarantine']);
  });

  it.runIf(h.database === 'postgresql')(
    "PostgreSQL: a post's write names it for the word list; searches read its words meanwhile; the chore lists them",
    async () => {
      const { org, w, board, search } = await workspace();
      const named = async () =>
        (
          await h.engine.db.all<{ post_id: string }>(
            'SELECT post_id FROM post_search_word_pending WHERE organization_id = ?',
            [org.id],
          )
        ).map((r) => r.post_id);
      const listed = async (prefix: string) =>
        (
          await h.engine.db.all<{ word: string }>(
            'SELECT word FROM post_search_word WHERE organization_id = ? AND word LIKE ? ORDER BY word',
            [org.id, `${prefix}%`],
          )
        ).map((r) => r.word);
      const post = await w.posts.create(board.id, { title: 'Kaleidoscope view' });
      expect(await named()).toEqual([post.id]);
      expect(await listed('kaleid')).toEqual([]); // the write looked up no word
      expect(titles(await search('kaleid'))).toEqual(['Kaleidoscope view']); // read from the named post's document
      await searchStore.searchChore(h.engine.db);
      expect(await named()).toEqual([]);
      expect(await listed('kaleid')).toEqual(['kaleidoscope']);
      expect(titles(await search('kaleid view'))).toEqual(['Kaleidoscope view']);
      // A change names the post again; the name of a post that is gone goes with the next chore.
      await w.posts.update(post.id, { title: 'Kaleidoscopic view' });
      await h.engine.db.run('INSERT INTO post_search_word_pending (organization_id, post_id) VALUES (?, ?)', [
        org.id,
        'post_gone',
      ]);
      expect((await named()).sort()).toEqual([post.id, 'post_gone'].sort());
      expect(titles(await search('kaleidoscopi'))).toEqual(['Kaleidoscopic view']);
      await searchStore.searchChore(h.engine.db);
      expect(await named()).toEqual([]);
      expect(await listed('kaleid')).toEqual(['kaleidoscope', 'kaleidoscopic']);
      // A backlog longer than a search reads (a bulk load): the prefixes are asked as typed, and find the same posts.
      const extra = await w.posts.create(board.id, { title: 'Kaleidoscopes galore' });
      await h.engine.db.run(
        `INSERT INTO post_search_word_pending (organization_id, post_id) SELECT ?, 'post_gone_' || g FROM generate_series(1, ${searchStore.PENDING_WORDS_READ}) g`,
        [org.id],
      );
      expect(titles(await search('kaleidoscopes gal'))).toEqual(['Kaleidoscopes galore']);
      expect(titles(await search('kaleid')).sort()).toEqual(['Kaleidoscopes galore', 'Kaleidoscopic view']);
      await searchStore.searchChore(h.engine.db);
      expect(await named()).toEqual([]);
      expect(await listed('kaleidoscopes')).toEqual(['kaleidoscopes']);
      await w.posts.delete(extra.id);
      // A new language lists the words of every post at once, and leaves none named.
      await h.engine.organizations.update(org.id, { searchLanguage: 'english' });
      expect(await named()).toEqual([]);
      expect(await listed('kaleid')).toEqual(['kaleidoscop', 'kaleidoscope', 'kaleidoscopes', 'kaleidoscopic']); // english's stem, listed at once
      expect(titles(await search('views'))).toEqual(['Kaleidoscopic view']); // english: "views" is "view"
    },
  );

  it.runIf(h.database === 'postgresql')(
    'PostgreSQL: two chores at once (two servers) share the named posts: neither fails, and every word is listed',
    async () => {
      const { org, w, board } = await workspace();
      for (let i = 0; i < 30; i++)
        await w.posts.create(board.id, {
          title: `Shared words ${i}`,
          body: { json: {}, text: `common vocabulary item${i}` },
        });
      const other = await createEngine({ database: h.url, log: () => {} });
      try {
        await Promise.all([
          searchStore.searchChore(h.engine.db),
          searchStore.searchChore(other.db),
          searchStore.searchChore(h.engine.db),
        ]);
      } finally {
        await other.close();
      }
      expect(
        await h.engine.db.all('SELECT post_id FROM post_search_word_pending WHERE organization_id = ?', [org.id]),
      ).toEqual([]);
      const words = (
        await h.engine.db.all<{ word: string }>('SELECT word FROM post_search_word WHERE organization_id = ?', [org.id])
      ).map((r) => r.word);
      expect(words).toEqual(expect.arrayContaining(['shared', 'words', 'common', 'vocabulary', 'item0', 'item29']));
    },
  );

  it('contact search keeps its meaning (a substring of email or name, case aside) and an erased person is not found', async () => {
    const { w } = await workspace();
    const { contact } = await w.contacts.identify({
      externalUserId: 'u-ada',
      email: 'Ada.Lovelace@Example.com',
      name: 'Ada Lovelace',
    });
    await w.contacts.identify({ externalUserId: 'u-grace', email: 'grace@navy.mil', name: 'Grace Hopper' });
    const list = async (q: string) => (await w.contacts.list({ q })).data.map((c) => c.externalUserId);
    expect(await list('lovelace@ex')).toEqual(['u-ada']);
    expect(await list('OVELA')).toEqual(['u-ada']);
    expect(await list('hopp')).toEqual(['u-grace']);
    expect(await list('ad')).toEqual(['u-ada']); // shorter than a trigram: still found
    expect(await list('a%b')).toEqual([]); // % is literal
    await w.privacy.erase(contact.id);
    expect(await list('lovelace')).toEqual([]);
    if (h.database === 'sqlite') {
      // Nothing of the person is left in the search tables.
      expect(
        await h.engine.db.all('SELECT rowid FROM contact_search WHERE contact_search MATCH \'"lovelace"\''),
      ).toEqual([]);
      expect(await h.engine.db.all('SELECT * FROM contact_search_key WHERE contact_id = ?', [contact.id])).toEqual([]);
    }
  });
});

// The search migration indexes what a database already holds, on both databases.
describe.each(['sqlite', 'postgresql'] as const)(
  'the search migration on a database with posts and contacts [%s]',
  (kind) => {
    // From before search existed, and from the first search layout (SQLite's scope tokens, PostgreSQL's expression index).
    it
      .skipIf(kind === 'postgresql' && !POSTGRES_AVAILABLE)
      .each(['Migration20261126000000Notifications', 'Migration20261127000000Search'])(
      'finds what was written before it ran (from %s)',
      async (from) => {
        const db = await createTestDatabase(kind);
        const engine = await createEngine({ database: db.url, log: () => {} });
        try {
          const migrator = engine.orm.getMigrator();
          const lend = (engine.db as unknown as { lendToOrm<T>(fn: () => Promise<T>): Promise<T> }).lendToOrm.bind(
            engine.db,
          );
          await lend(() => migrator.up({ to: from }));
          // Rows as that schema holds them, written as SQL: the engine's code speaks the newest schema.
          const now = kind === 'sqlite' ? '2026-11-20 10:00:00.000' : new Date('2026-11-20T10:00:00Z');
          const ids = {
            org: 'org_01jb0000000000000000000000',
            board: 'brd_01jb0000000000000000000000',
            post: 'post_01jb0000000000000000000000',
          };
          await engine.db.run(
            'INSERT INTO organization (id, name, plan, billing_state, admin_emails, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
            [ids.org, 'Before', 'paid', 'active', '[]', now, now],
          );
          await engine.db.run(
            'INSERT INTO board (id, organization_id, name, slug, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)',
            [ids.board, ids.org, 'Ideas', 'ideas', now, now],
          );
          await engine.db.run(
            `INSERT INTO post (id, organization_id, board_id, title, slug, body, body_text, status, moderation_status, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              ids.post,
              ids.org,
              ids.board,
              'Written before search existed',
              'written-before',
              '{}',
              'an old body',
              'open',
              'approved',
              now,
              now,
            ],
          );
          await engine.db.run(
            `INSERT INTO contact (id, organization_id, external_user_id, email, name, metadata, source, consent_basis, first_seen_at, last_seen_at, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
            [
              'ctc_01jb0000000000000000000000',
              ids.org,
              'u-old',
              'old.timer@example.com',
              'Old Timer',
              '{}',
              'sdk',
              'sdk_identify',
              now,
              now,
              now,
              now,
            ],
          );
          const w = engine.workspace(ids.org);
          const board = { id: ids.board };
          expect(await engine.migrate()).toEqual(
            expect.arrayContaining([
              ...(kind === 'sqlite'
                ? ['Migration20261128000000SearchScopes']
                : ['Migration20261128000000SearchDocuments', 'Migration20261203000000SearchWords']),
            ]),
          );
          expect((await w.portal.posts(board.id, { q: 'existed old' })).data.map((p) => p.title)).toEqual([
            'Written before search existed',
          ]);
          expect((await w.contacts.list({ q: 'old.timer' })).data.map((c) => c.externalUserId)).toEqual(['u-old']);
        } finally {
          await engine.close();
          await db.drop();
        }
      },
    );
  },
);
