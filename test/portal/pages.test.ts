import type { H3 } from 'h3';
import { beforeAll, expect, it } from 'vitest';
import { CLI_ACTOR, FeedbackError } from '../../src/engine/index.js';
import { newId } from '../../src/engine/shared/ids.js';
import * as postsStore from '../../src/engine/store/tables/posts.js';
import { createApp } from '../../src/h3/index.js';
import { createPortal } from '../../src/portal/index.js';
import { describeEngine } from '../helpers/harness.js';
import { walkIds } from '../helpers/pages.js';

/** The page's HTML, or its status. */
async function get(app: H3, path: string, headers: Record<string, string> = {}) {
  const res = await app.fetch(new Request(`http://portal.test${path}`, { headers }));
  return { status: res.status, headers: res.headers, text: await res.text() };
}

/** The titles of a board page's posts, in order. */
const titles = (html: string) =>
  [...html.matchAll(/class="post-title"(?: dir="auto")? href="[^"]+">([^<]*)</g)].map((m) => m[1]);

describeEngine('the public portal pages', (e) => {
  let app: H3;
  let n = 0;
  /** A workspace with its portal on at a fresh handle, a public and a private board. */
  async function workspace() {
    const handle = `acme-${++n}`;
    const org = await e.engine.organizations.create({ name: 'Acme & Co', plan: 'paid' });
    await e.engine.organizations.update(org.id, { handle, portalEnabled: true });
    const w = e.engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Feature requests' });
    const hidden = await w.boards.create({ name: 'Internal', isPublic: false });
    return { org, w, board, hidden, handle, base: `/portal/${handle}` };
  }
  beforeAll(() => {
    app = createApp({ engine: e.engine, sites: [createPortal({ engine: e.engine })], logError: () => {} });
  });

  it('a portal answers only at a handle whose portal is on; handles are validated and unique', async () => {
    const { org, base, handle } = await workspace();
    expect((await get(app, `${base}/`)).status).toBe(200);
    expect((await get(app, base)).headers.get('location')).toBe(`${base}/`);
    await e.engine.organizations.update(org.id, { portalEnabled: false });
    expect((await get(app, `${base}/`)).status).toBe(404);
    expect((await get(app, '/portal/nobody-here/')).status).toBe(404);
    const other = await e.engine.organizations.create({ name: 'Other' });
    await expect(e.engine.organizations.update(other.id, { handle })).rejects.toMatchObject({ code: 'ERR_CONFLICT' });
    for (const bad of ['A', 'x', '-acme', 'acme-', 'ac--me', 'acme_co', 'a'.repeat(41)]) {
      await expect(e.engine.organizations.update(other.id, { handle: bad }), bad).rejects.toBeInstanceOf(FeedbackError);
    }
  });

  it('the boards page shows each board as a card: its name, its description (escaped, in its own direction) and its count', async () => {
    const { w, board, base } = await workspace();
    await w.posts.create(board.id, { title: 'Public idea' });
    const described = await w.boards.create({
      name: 'Integrations',
      description: '  Tools we should talk to: <Slack> & friends.  ',
    });
    expect(described.description).toBe('Tools we should talk to: <Slack> & friends.');
    expect((await w.boards.create({ name: 'Blank', description: '   ' })).description).toBeNull();
    await expect(w.boards.create({ name: 'Long', description: 'x'.repeat(501) })).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
      details: { issues: [{ path: 'description', message: 'description must be at most 500 characters' }] },
    });
    const cards = [...(await get(app, `${base}/`)).text.matchAll(/<a class="card"[^>]*>([\s\S]*?)<\/a>/g)].map(
      (m) => m[1],
    );
    expect(cards).toEqual([
      '<span class="board-name" dir="auto">Feature requests</span><span class="counts">1 post</span>',
      '<span class="board-name" dir="auto">Integrations</span><span class="board-description" dir="auto">Tools we should talk to: &lt;Slack&gt; &amp; friends.</span><span class="counts">0 posts</span>',
      '<span class="board-name" dir="auto">Blank</span><span class="counts">0 posts</span>',
    ]);
  });

  it('private boards never appear: not in the list, not by address, not on the roadmap', async () => {
    const { w, board, hidden, base } = await workspace();
    const secret = await w.posts.create(hidden.id, { title: 'Secret plan' });
    await w.posts.update(secret.id, { status: 'planned' });
    await w.posts.create(board.id, { title: 'Public idea' });
    const home = await get(app, `${base}/`);
    expect(home.text).toContain('Feature requests');
    expect(home.text).not.toContain('Internal');
    expect((await get(app, `${base}/b/${hidden.slug}`)).status).toBe(404);
    expect((await get(app, `${base}/b/${hidden.slug}/p/${secret.slug}`)).status).toBe(404);
    expect((await get(app, `${base}/roadmap`)).text).not.toContain('Secret plan');
  });

  it('a board sorts Top by votes, New by date, Trending by votes weighed by age; searches words; filters by status', async () => {
    const { w, board, base } = await workspace();
    const old = await w.posts.create(board.id, { title: 'Old favourite' });
    e.advance(48 * 3600_000);
    const fresh = await w.posts.create(board.id, { title: 'Fresh 100% idea' });
    const quiet = await w.posts.create(board.id, { title: 'Quiet one' });
    for (let i = 0; i < 5; i++)
      await w.participation.vote({ postId: old.id, email: `o${i}@example.com`, notifyMe: false });
    for (let i = 0; i < 3; i++)
      await w.participation.vote({ postId: fresh.id, email: `f${i}@example.com`, notifyMe: false });
    await w.posts.update(quiet.id, { status: 'planned' });
    const path = `${base}/b/${board.slug}`;
    expect(titles((await get(app, path)).text)).toEqual(['Old favourite', 'Fresh 100% idea', 'Quiet one']);
    expect(titles((await get(app, `${path}?sort=new`)).text)).toEqual([
      'Quiet one',
      'Fresh 100% idea',
      'Old favourite',
    ]);
    expect(titles((await get(app, `${path}?sort=trending`)).text)).toEqual([
      'Fresh 100% idea',
      'Quiet one',
      'Old favourite',
    ]);
    expect(titles((await get(app, `${path}?q=FRESH`)).text)).toEqual(['Fresh 100% idea']);
    expect(titles((await get(app, `${path}?q=${encodeURIComponent('100%')}`)).text)).toEqual(['Fresh 100% idea']); // % is literal
    expect(titles((await get(app, `${path}?q=${encodeURIComponent('idea fre')}`)).text)).toEqual(['Fresh 100% idea']); // words, the last as a prefix
    expect(titles((await get(app, `${path}?q=${encodeURIComponent('idea old')}`)).text)).toEqual([]); // every word
    expect(titles((await get(app, `${path}?q=${encodeURIComponent('_')}`)).text)).toEqual([]); // _ is literal
    expect(titles((await get(app, `${path}?status=planned`)).text)).toEqual(['Quiet one']);
    expect((await get(app, `${path}?q=%00`)).status).toBe(400);
  });

  it('keyset pages walk every post once in every sort, also while posts and votes arrive', async () => {
    const { org, w, board } = await workspace();
    const ids: string[] = [];
    for (let i = 0; i < 9; i++) {
      const p = await w.posts.create(board.id, { title: `Post ${i}` });
      ids.push(p.id);
      for (let v = 0; v < i % 4; v++)
        await w.participation.vote({ postId: p.id, email: `v${v}@example.com`, notifyMe: false });
      e.advance(3600_000);
    }
    const reader = e.engine.workspace(org.id).portal;
    for (const sort of ['top', 'new', 'trending'] as const) {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await reader.posts(board.id, { sort, limit: 2, ...(cursor ? { cursor } : {}) });
        seen.push(...page.data.map((p) => p.id));
        cursor = page.nextCursor ?? undefined;
        if (seen.length === 4) await w.posts.create(board.id, { title: 'Arrived during the walk' }); // newest: before the cursor in New
      } while (cursor);
      expect(new Set(seen).size, sort).toBe(seen.length);
      expect(
        ids.every((id) => seen.includes(id)),
        sort,
      ).toBe(true);
    }
    await expect(reader.posts(board.id, { sort: 'new', cursor: 'bm9wZQ' })).rejects.toMatchObject({
      code: 'ERR_VALIDATION',
    });
  });

  it('a board page links to the next page, and a cursor that is not ours shows the first page', async () => {
    const { w, board, base } = await workspace();
    for (let i = 0; i < 51; i++) await w.posts.create(board.id, { title: `Idea ${i}` });
    const first = await get(app, `${base}/b/${board.slug}?sort=new`);
    expect(titles(first.text)).toHaveLength(50);
    const next = /href="([^"]+)" rel="next"/.exec(first.text)![1]!.replaceAll('&amp;', '&');
    expect(titles((await get(app, next)).text)).toEqual(['Idea 0']);
    expect(titles((await get(app, `${base}/b/${board.slug}?sort=new&cursor=garbage`)).text)).toHaveLength(50);
  });

  it('a post shows its body, author, votes and threaded comments; a merged post sends to its target, which lists it', async () => {
    const { w, board, base } = await workspace();
    const post = await w.participation.post({
      boardId: board.id,
      email: 'ann@example.com',
      name: 'Ann',
      title: 'Offline mode',
      body: { json: {}, text: 'Works on a plane' },
      notifyMe: false,
    });
    const top = await w.participation.comment({
      postId: post.id,
      email: 'bo@example.com',
      name: 'Bo',
      bodyText: 'Yes please',
      notifyMe: false,
    });
    await w.participation.comment({
      postId: post.id,
      email: 'cy@example.com',
      name: 'Cy',
      parentId: top.id,
      bodyText: 'Agreed',
      notifyMe: false,
    });
    await w.participation.vote({ postId: post.id, email: 'dee@example.com', notifyMe: false });
    const page = await get(app, `${base}/b/${board.slug}/p/${post.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Works on a plane');
    expect(page.text).toContain('Ann');
    expect(page.text).toContain('1 vote');
    expect(page.text).toContain('2 comments');
    // The reply sits inside its parent's list item.
    expect(page.text).toMatch(
      new RegExp(
        `<li class="comment" id="${top.id}">.*Yes please.*<ul><li class="comment" id="cmt_[^"]+">.*Cy.*Agreed.*</li></ul></li>`,
        's',
      ),
    );

    const dupe = await w.posts.create(board.id, { title: 'Work without internet' });
    await w.posts.merge(dupe.id, post.id);
    const merged = await get(app, `${base}/b/${board.slug}/p/${dupe.slug}`);
    expect(merged.status).toBe(301);
    expect(merged.headers.get('location')).toBe(`${base}/b/${board.slug}/p/${post.slug}`);
    // Where the target is not shown (here: deleted), the merged post's page says so instead.
    const gone = await w.posts.create(board.id, { title: 'Gone soon' });
    const dupe2 = await w.posts.create(board.id, { title: 'Duplicate of a gone post' });
    await w.posts.merge(dupe2.id, gone.id);
    await w.posts.delete(gone.id);
    const orphan = await get(app, `${base}/b/${board.slug}/p/${dupe2.slug}`);
    expect(orphan.status).toBe(200);
    expect(orphan.text).toContain('was merged into another post');
    expect((await get(app, `${base}/b/${board.slug}/p/${post.slug}`)).text).toContain('Work without internet');
    expect(titles((await get(app, `${base}/b/${board.slug}`)).text)).toEqual(['Offline mode']);
    await expect(w.posts.merge(post.id, post.id)).rejects.toMatchObject({ code: 'ERR_VALIDATION' });

    // A post moved to another board: its old address sends to the new one.
    const other = await w.boards.create({ name: 'Elsewhere', isPublic: true });
    await w.posts.move(post.id, other.id);
    const old = await get(app, `${base}/b/${board.slug}/p/${post.slug}`);
    expect([old.status, old.headers.get('location')]).toEqual([301, `${base}/b/${other.slug}/p/${post.slug}`]);
    expect((await get(app, `${base}/b/${other.slug}/p/${post.slug}`)).text).toContain('Works on a plane');
  });

  it('the roadmap shows planned, in progress and shipped, in roadmap order, without posts hidden from it', async () => {
    const { w, board, base } = await workspace();
    const make = async (
      title: string,
      status: 'planned' | 'in_progress' | 'shipped' | 'open',
      extra: { hideFromRoadmap?: boolean } = {},
    ) => {
      const p = await w.posts.create(board.id, { title });
      await w.posts.update(p.id, { status, ...extra });
      return p;
    };
    const second = await make('Second planned', 'planned');
    const first = await make('First planned', 'planned');
    await make('Hidden planned', 'planned', { hideFromRoadmap: true });
    await make('Building now', 'in_progress');
    await make('Done', 'shipped');
    await make('Just an idea', 'open');
    // A post left out of the order follows the ordered ones, however many votes it has.
    const popular = await make('Popular planned', 'planned');
    await w.participation.vote({ postId: popular.id, email: 'fan@example.com', notifyMe: false });
    // The console's roadmap page sets the order (docs/console.md).
    await w.as(CLI_ACTOR).posts.reorder('planned', [first.id, second.id]);
    const html = (await get(app, `${base}/roadmap`)).text;
    const column = (id: string) =>
      html
        .split('<section')
        .find((s) => s.includes(`id="col-${id}"`))!
        .split('</section>')[0]!;
    expect(column('planned').indexOf('First planned')).toBeLessThan(column('planned').indexOf('Second planned'));
    expect(column('planned').indexOf('Second planned')).toBeLessThan(column('planned').indexOf('Popular planned'));
    expect(column('planned')).not.toContain('Hidden planned');
    expect(column('in_progress')).toContain('Building now');
    expect(column('shipped')).toContain('Done');
    expect(html).not.toContain('Just an idea');
  });

  it('the changelog shows published entries of public boards, newest first', async () => {
    const { w, board, hidden, base } = await workspace();
    const a = await w.changelog.create({ boardId: board.id, title: 'Offline mode shipped', body: 'Fly with it' });
    await w.changelog.publish(a.id);
    e.advance(1000);
    const b = await w.changelog.create({ boardId: board.id, title: 'Dark mode shipped' });
    await w.changelog.publish(b.id);
    await w.changelog.create({ boardId: board.id, title: 'Draft entry' });
    const h = await w.changelog.create({ boardId: hidden.id, title: 'Internal entry' });
    await w.changelog.publish(h.id);
    const html = (await get(app, `${base}/changelog`)).text;
    expect(html.indexOf('Dark mode shipped')).toBeLessThan(html.indexOf('Offline mode shipped'));
    expect(html).toContain('Fly with it');
    expect(html).not.toContain('Draft entry');
    expect(html).not.toContain('Internal entry');
  });

  it('user text is escaped by the template; pages carry a CSP without inline scripts and refuse framing', async () => {
    const { w, board, base } = await workspace();
    const post = await w.participation.post({
      boardId: board.id,
      email: 'x@example.com',
      name: '"><script>alert(2)</script>',
      title: '<img src=x onerror=alert(1)>',
      notifyMe: false,
    });
    await w.participation.comment({
      postId: post.id,
      email: 'y@example.com',
      bodyText: '</li><script>alert(3)</script>',
      notifyMe: false,
    });
    const list = await get(app, `${base}/b/${board.slug}`);
    expect(list.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(list.text).not.toContain('<img src=x');
    const page = await get(app, `${base}/b/${board.slug}/p/${post.slug}`);
    expect(page.text).not.toMatch(/<script>alert/);
    expect(page.text).toContain('&lt;/li&gt;&lt;script&gt;alert(3)&lt;/script&gt;');
    expect(page.text).toContain('&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(page.text).not.toMatch(/<script(?! src)/); // no inline script at all
    expect(page.text).not.toMatch(/ style=/);
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('the stylesheet has a hashed name, a year of cache, and comes compressed', async () => {
    const { base } = await workspace();
    const href = /<link rel="stylesheet" href="([^"]+)">/.exec((await get(app, `${base}/`)).text)![1]!;
    expect(href).toMatch(/^\/portal\/assets\/portal\.[A-Za-z0-9_-]{10}\.css$/);
    const br = await get(app, href, { 'accept-encoding': 'gzip, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get(app, href, { 'accept-encoding': 'gzip' })).headers.get('content-encoding')).toBe('gzip');
    expect((await get(app, '/portal/assets/portal.0000000000.css')).status).toBe(404);
  });

  it('Trending read in time windows walks the same order as scoring every post (old favourites, fresh ones, ties)', async () => {
    const { w, board } = await workspace();
    const now = e.engine.clock().getTime();
    // 400 posts over two years: votes that make old posts compete with new ones, and equal scores.
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    await e.engine.db.transaction(async (tx) => {
      for (let i = 0; i < 400; i++) {
        const at = new Date(now - Math.floor(random() * 2 * 365 * 24) * 3_600_000).toISOString();
        const votes = i % 10 === 0 ? 5000 + Math.floor(random() * 5000) : Math.floor(random() * 50);
        await postsStore.insert(tx, {
          id: newId('post', Date.parse(at)),
          organizationId: w.organizationId,
          boardId: board.id,
          contactId: null,
          authorUserId: null,
          title: `Post ${i}`,
          slug: `post-${i}`,
          body: '',
          bodyText: '',
          status: 'open',
          moderationStatus: 'approved',
          hideFromRoadmap: false,
          roadmapOrder: null,
          mergedIntoId: null,
          commentCount: 0,
          voteCount: votes,
          createdAt: at,
          updatedAt: at,
          deletedAt: null,
        });
      }
    });
    const rows = await e.engine.db.all<{ id: string; vote_count: unknown; created_at: unknown }>(
      'SELECT id, vote_count, created_at FROM post WHERE board_id = ?',
      [board.id],
    );
    const at = (v: unknown) => (typeof v === 'number' ? v : new Date(v as string).getTime());
    const score = (r: (typeof rows)[number]) =>
      (Number(r.vote_count) + 1) / ((now - at(r.created_at)) / 3_600_000 + 2) ** 2;
    const expected = [...rows].sort((a, b) => score(b) - score(a) || (a.id < b.id ? 1 : -1)).map((r) => r.id);
    expect(await walkIds((cursor) => w.portal.posts(board.id, { sort: 'trending', limit: 37, cursor }))).toEqual(
      expected,
    );
  });
});
