import { expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import { newId } from '../../../src/engine/shared/ids.js';
import { ts } from '../../../src/engine/store/index.js';
import { describeEngine } from '../../helpers/harness.js';

// The impact of a post (docs/console.md): the monthly revenue of its distinct paying voters, per currency, kept by
// triggers in the transaction of every write that moves it. After each kind of write, the kept table must equal a
// count from scratch; and the console's impact sort reads it in keyset pages.

/** post_impact as kept, and as counted from the votes and contacts there are now: the two must be equal. */
async function keptAndCounted(engine: Engine, organizationId: string) {
  const norm = (rows: Array<Record<string, unknown>>) =>
    rows
      .map((r) => `${r.post_id as string} ${r.currency as string} ${Number(r.mrr_cents)} ${Number(r.paying_voters)}`)
      .sort();
  const kept = await engine.db.all(
    'SELECT post_id, currency, mrr_cents, paying_voters FROM post_impact WHERE organization_id = ?',
    [organizationId],
  );
  const counted = await engine.db.all(
    `SELECT d.post_id, d.currency, SUM(d.mrr_cents) AS mrr_cents, COUNT(*) AS paying_voters FROM (
       SELECT DISTINCT v.post_id, c.id, c.currency, c.mrr_cents FROM vote v JOIN contact c ON c.id = v.contact_id
       WHERE v.organization_id = ? AND c.mrr_cents > 0 AND c.currency IS NOT NULL) d GROUP BY d.post_id, d.currency`,
    [organizationId],
  );
  return { kept: norm(kept), counted: norm(counted) };
}

describeEngine('post impact', (h) => {
  it('stays equal to a count from scratch through votes, revenue and currency changes, merges, erasure and deletion', async () => {
    const org = await h.engine.organizations.create({ name: 'Impact', plan: 'paid' });
    const ws = h.engine.workspace(org.id);
    const board = await ws.boards.create({ name: 'Ideas' });
    const [a, b, c] = [
      await ws.posts.create(board.id, { title: 'A' }),
      await ws.posts.create(board.id, { title: 'B' }),
      await ws.posts.create(board.id, { title: 'C' }),
    ];
    const check = async (step: string) => {
      const { kept, counted } = await keptAndCounted(h.engine, org.id);
      expect(kept, step).toEqual(counted);
      return kept;
    };
    const person = (id: string, mrrCents: number | null, currency: string | null) =>
      ws.contacts.identify({
        externalUserId: id,
        email: `${id}@impact.example`,
        ...(mrrCents === null ? { mrrCents: null, currency: null } : { mrrCents, currency: currency! }),
      });
    const vote = (postId: string, id: string) =>
      ws.participation.vote({ postId, email: `${id}@impact.example`, userId: id, vouched: true, notifyMe: false });

    await person('p1', 10_000, 'USD');
    await person('p2', 2_500, 'USD');
    await person('p3', 9_900, 'EUR');
    await person('free', 0, 'USD');
    await person('none', null, null);
    for (const id of ['p1', 'p2', 'p3', 'free', 'none']) await vote(a.id, id);
    await vote(b.id, 'p1');
    await vote(b.id, 'p3');
    await vote(c.id, 'p2');
    expect(await check('votes')).toEqual(
      [
        `${a.id} EUR 9900 1`,
        `${a.id} USD 12500 2`,
        `${b.id} EUR 9900 1`,
        `${b.id} USD 10000 1`,
        `${c.id} USD 2500 1`,
      ].sort(),
    );

    // One person voting again on a post (as their user, then by address alone): refused, one vote (docs/identity.md).
    await expect(ws.participation.vote({ postId: c.id, email: 'p2@impact.example', notifyMe: false })).rejects.toThrow(
      'This voter has already voted on this post.',
    );
    expect(
      Number((await h.engine.db.one<{ n: number }>('SELECT COUNT(*) AS n FROM vote WHERE post_id = ?', [c.id]))!.n),
    ).toBe(1);
    await check('a second vote of one contact');

    // Revenue up, down to zero, back; currency switched; an unpaying contact starts paying.
    await person('p1', 20_000, 'USD');
    await check('revenue up');
    await person('p2', 0, 'USD');
    await check('revenue to zero');
    await person('p2', 3_000, 'GBP');
    await check('currency switched');
    await person('free', 500, 'USD');
    await check('starts paying');
    await person('none', 700, 'EUR');
    await check('gets a plan');
    // A trait change that does not touch revenue leaves it alone.
    await ws.contacts.identify({ externalUserId: 'p1', email: 'p1@impact.example', name: 'Renamed' });
    await check('name only');

    // Merge A into B: the votes that move carry their revenue; p1 and p3 voted on both and count once.
    await ws.posts.merge(a.id, b.id);
    const afterMerge = await check('merge');
    expect(afterMerge.filter((r) => r.startsWith(b.id))).toEqual(
      [`${b.id} EUR 10600 2`, `${b.id} GBP 3000 1`, `${b.id} USD 20500 2`].sort(),
    );

    // Erasure unlinks the person's votes; deleting a contact too.
    const p3 = (await ws.contacts.list({ limit: 100 })).data.find((x) => x.email === 'p3@impact.example')!;
    await ws.privacy.erase(p3.id);
    await check('erasure');
    const p2 = (await ws.contacts.list({ limit: 100 })).data.find((x) => x.email === 'p2@impact.example')!;
    await ws.contacts.delete(p2.id);
    await check('contact deleted');
  });

  it("impact's currency is the workspace's most common one by default (not USD because it is USD), for every sort", async () => {
    const org = await h.engine.organizations.create({ name: 'Euro', plan: 'paid' });
    const ws = h.engine.workspace(org.id);
    const board = await ws.boards.create({ name: 'Ideas' });
    const payers = [
      ['EUR', 5_000],
      ['EUR', 3_000],
      ['USD', 90_000],
    ] as const;
    for (const [i, [currency, mrrCents]] of payers.entries()) {
      const post = await ws.posts.create(board.id, { title: `Idea ${i}` });
      await ws.contacts.identify({ externalUserId: `e${i}`, email: `e${i}@euro.example`, mrrCents, currency });
      await ws.participation.vote({
        postId: post.id,
        email: `e${i}@euro.example`,
        userId: `e${i}`,
        vouched: true,
        notifyMe: false,
      });
    }
    expect(await ws.triage.currencies()).toEqual({ currencies: ['EUR', 'USD'], mostCommon: 'EUR' });
    const byImpact = await ws.triage.posts({ sort: 'impact' });
    expect([byImpact.currency, byImpact.data.map((p) => p.title)]).toEqual(['EUR', ['Idea 0', 'Idea 1']]);
    // The page's currency choice shows the same one whatever the sort.
    expect((await ws.triage.posts({ sort: 'votes' })).currency).toBe('EUR');
    expect((await ws.triage.posts({ sort: 'impact', currency: 'USD' })).data.map((p) => p.title)).toEqual(['Idea 2']);
  });

  it('the impact sort lists the posts with paying voters in a currency, most revenue first, in stable pages', async () => {
    const org = await h.engine.organizations.create({ name: 'Sort', plan: 'paid' });
    const ws = h.engine.workspace(org.id);
    const board = await ws.boards.create({ name: 'Ideas' });
    const posts = [];
    for (let i = 0; i < 7; i++) posts.push(await ws.posts.create(board.id, { title: `Idea ${i}` }));
    for (let i = 0; i < 7; i++) {
      await ws.contacts.identify({
        externalUserId: `u${i}`,
        email: `u${i}@sort.example`,
        mrrCents: (i + 1) * 1000,
        currency: i === 6 ? 'EUR' : 'USD',
      });
      await ws.participation.vote({
        postId: posts[i]!.id,
        email: `u${i}@sort.example`,
        userId: `u${i}`,
        vouched: true,
        notifyMe: false,
      });
    }
    await ws.participation.vote({
      postId: posts[0]!.id,
      email: 'u5@sort.example',
      userId: 'u5',
      vouched: true,
      notifyMe: false,
    });
    expect(await ws.triage.currencies()).toEqual({ currencies: ['EUR', 'USD'], mostCommon: 'USD' });
    const first = await ws.triage.posts({ sort: 'impact', limit: 3 });
    expect(first.currency).toBe('USD');
    expect(first.data.map((p) => p.title)).toEqual(['Idea 0', 'Idea 5', 'Idea 4']);
    expect(first.data[0]!.impact).toEqual([
      { currency: 'USD', mrrCents: 7000, payingVoters: 2, payingCompanies: 0, payingPeople: 2 },
    ]);
    const second = await ws.triage.posts({ sort: 'impact', limit: 3, cursor: first.nextCursor! });
    expect(second.data.map((p) => p.title)).toEqual(['Idea 3', 'Idea 2', 'Idea 1']);
    expect(second.nextCursor).toBeNull();
    expect((await ws.triage.posts({ sort: 'impact', currency: 'EUR' })).data.map((p) => p.title)).toEqual(['Idea 6']);
    // A currency the workspace does not have falls back to its default; a cursor of another currency starts over.
    expect((await ws.triage.posts({ sort: 'impact', currency: 'JPY', limit: 1 })).currency).toBe('USD');
    await expect(ws.triage.posts({ sort: 'impact', currency: 'EUR', cursor: first.nextCursor! })).rejects.toMatchObject(
      { code: 'ERR_VALIDATION' },
    );
    // Trending: the votes of the last 7 days (all of these are recent; an old vote does not count).
    const old = await ws.posts.create(board.id, { title: 'Old favourite' });
    await h.engine.db.run(
      `INSERT INTO vote (id, organization_id, post_id, user_id, email_hash, voter_key, contact_id, created_at) VALUES (?, ?, ?, NULL, NULL, ?, NULL, ?)`,
      [newId('vote'), org.id, old.id, 'u:old', ts(h.engine.db, new Date(Date.now() - 8 * 86_400_000))],
    );
    await h.engine.db.run('UPDATE post SET vote_count = 1 WHERE id = ?', [old.id]);
    const trending = await ws.triage.posts({ sort: 'trending', limit: 2 });
    expect(trending.data.map((p) => p.title)).toEqual(['Idea 0', 'Idea 6']);
    const rest = await ws.triage.posts({ sort: 'trending', limit: 10, cursor: trending.nextCursor! });
    expect(rest.data.map((p) => p.title)).toEqual(['Idea 5', 'Idea 4', 'Idea 3', 'Idea 2', 'Idea 1']);
    // The voters' plan filter: the posts someone on that plan voted for.
    await ws.contacts.identify({ externalUserId: 'u3', email: 'u3@sort.example', plan: 'enterprise' });
    expect((await ws.triage.posts({ voterPlan: 'enterprise' })).data.map((p) => p.title)).toEqual(['Idea 3']);
    expect((await ws.triage.posts({ sort: 'impact', voterPlan: 'enterprise' })).data.map((p) => p.title)).toEqual([
      'Idea 3',
    ]);
    // Other sorts carry the impact too.
    expect((await ws.triage.posts({ sort: 'newest', limit: 2 })).data.map((p) => [p.title, p.impact])).toEqual([
      ['Old favourite', []],
      ['Idea 6', [{ currency: 'EUR', mrrCents: 7000, payingVoters: 1, payingCompanies: 0, payingPeople: 1 }]],
    ]);
  });

  it('a post with thousands of votes lists its top paying voters from the paying contacts down, as a small post would', async () => {
    const org = await h.engine.organizations.create({ name: 'Popular', plan: 'paid' });
    const ws = h.engine.workspace(org.id);
    const board = await ws.boards.create({ name: 'Ideas' });
    const big = await ws.posts.create(board.id, { title: 'Everyone wants this' });
    const now = new Date();
    const n = 2_100;
    await h.engine.db.transaction(async (tx) => {
      for (let i = 0; i < n; i++) {
        const id = newId('ctc');
        const mrr = i % 4 === 0 ? 100 + ((i * 7919) % 100_000) : 0;
        await tx.run(
          `INSERT INTO contact (id, organization_id, external_user_id, email, name, plan, mrr_cents, currency, metadata, source, consent_basis, first_seen_at, last_seen_at, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{}', 'identify', 'sdk_identify', ?, ?, ?, ?)`,
          [
            id,
            org.id,
            `u${i}`,
            `u${i}@popular.example`,
            `U ${i}`,
            mrr ? 'pro' : 'free',
            mrr,
            'USD',
            ...Array(4).fill(ts(tx, now)),
          ],
        );
        await tx.run(
          'INSERT INTO vote (id, organization_id, post_id, user_id, email_hash, voter_key, contact_id, created_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?)',
          [newId('vote'), org.id, big.id, `u${i}`, `u:u${i}`, id, ts(tx, now)],
        );
      }
      await tx.run('UPDATE post SET vote_count = ? WHERE id = ?', [n, big.id]);
    });
    const detail = (await ws.triage.post(big.id))!;
    const expected = (
      await h.engine.db.all<{ id: string }>(
        `SELECT id FROM contact WHERE organization_id = ? AND mrr_cents > 0 ORDER BY mrr_cents DESC, id DESC`,
        [org.id],
      )
    ).map((r) => r.id);
    // Every paying voter, a page of 25 at a time, in the order of their revenue, each once.
    const walked = [...detail.voters.data];
    for (let cursor = detail.voters.nextCursor; cursor; ) {
      const next = (await ws.triage.post(big.id, { group: 'USD', cursor }))!.voters;
      expect(next.data.length).toBeLessThanOrEqual(25);
      walked.push(...next.data);
      cursor = next.nextCursor;
    }
    expect(detail.voters.group).toBe('USD');
    expect(detail.voters.data).toHaveLength(25);
    expect(walked.map((v) => v.contactId)).toEqual(expected);
    expect(walked.every((v) => v.votedAt === now.toISOString())).toBe(true);
    expect(detail.impact).toEqual([
      {
        currency: 'USD',
        mrrCents: Number(
          (await h.engine.db.one<{ s: number }>('SELECT SUM(mrr_cents) AS s FROM contact WHERE organization_id = ?', [
            org.id,
          ]))!.s,
        ),
        payingVoters: n / 4,
        payingCompanies: 0,
        payingPeople: n / 4,
      },
    ]);
  });
});
