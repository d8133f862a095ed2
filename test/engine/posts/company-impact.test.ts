import { expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import { IMPACT_RECOUNT } from '../../../src/engine/migrations/Migration20261209000000CompanyImpact.js';
import { describeEngine } from '../../helpers/harness.js';

type Row = Record<string, unknown>;
const IMPACT_COLUMNS = 'post_id, currency, mrr_cents, paying_voters, paying_companies, paying_people';
const PAYER_COLUMNS = 'post_id, payer_id, is_company, mrr_cents, currency, voters';

const TEXT_COLUMNS = new Set(['post_id', 'payer_id', 'currency']);
/** Rows with their counts and amounts as numbers (PostgreSQL's bigint arrives as text). */
const plain = (rows: Row[]) =>
  rows.map((r) =>
    Object.fromEntries(Object.entries(r).map(([k, v]) => [k, TEXT_COLUMNS.has(k) || v === null ? v : Number(v)])),
  );

/** The kept figures, and the same figures recounted from the votes, memberships and revenue there are. */
async function keptAndRecounted(engine: Engine): Promise<{ kept: Row[][]; recounted: Row[][] }> {
  const dialect = engine.dialect === 'postgresql' ? 'postgresql' : 'sqlite';
  const q = (s: string) => (dialect === 'postgresql' ? s.replaceAll('`', '"') : s);
  const read = async (impact: string, payer: string) => [
    plain(await engine.db.all(`SELECT ${IMPACT_COLUMNS} FROM ${impact} ORDER BY post_id, currency`)),
    plain(await engine.db.all(`SELECT ${PAYER_COLUMNS} FROM ${payer} ORDER BY post_id, payer_id`)),
  ];
  const kept = await read('post_impact', 'post_payer');
  await engine.db.run('CREATE TABLE recount_payer AS SELECT * FROM post_payer WHERE 1 = 0');
  await engine.db.run('CREATE TABLE recount_impact AS SELECT * FROM post_impact WHERE 1 = 0');
  try {
    const into = (sql: string) =>
      sql.replaceAll(q('`post_payer`'), q('`recount_payer`')).replaceAll(q('`post_impact`'), q('`recount_impact`'));
    await engine.db.run(into(IMPACT_RECOUNT[dialect].payers));
    await engine.db.run(into(IMPACT_RECOUNT[dialect].impact));
    return { kept, recounted: await read('recount_impact', 'recount_payer') };
  } finally {
    await engine.db.run('DROP TABLE recount_payer');
    await engine.db.run('DROP TABLE recount_impact');
  }
}

describeEngine('impact per paying account', (h) => {
  /** After each kind of change, what the triggers kept equals a recount from scratch. */
  async function same() {
    const { kept, recounted } = await keptAndRecounted(h.engine);
    expect(kept).toEqual(recounted);
  }

  it('a company counts once however many of its people voted; a person in no company counts themselves; kept figures equal a recount after every kind of change', async () => {
    const org = await h.engine.organizations.create({ name: 'Impact', plan: 'paid' });
    const w = h.engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    const post = await w.posts.create(board.id, { title: 'SSO' });
    const other = await w.posts.create(board.id, { title: 'Audit log' });
    const acme = { externalCompanyId: 'acme', name: 'Acme', mrrCents: 200_000, currency: 'USD' };
    const person = (n: number, extra: Record<string, unknown> = {}) =>
      w.contacts.identify({ externalUserId: `u${n}`, email: `u${n}@example.com`, ...extra });
    const vote = (n: number, postId = post.id) =>
      w.participation.vote({ postId, email: `u${n}@example.com`, userId: `u${n}`, vouched: true, notifyMe: false });
    const impact = async (postId = post.id) =>
      (
        await h.engine.db.all(`SELECT ${IMPACT_COLUMNS} FROM post_impact WHERE post_id = ? ORDER BY currency`, [postId])
      ).map((r) => [
        r.currency,
        Number(r.mrr_cents),
        Number(r.paying_companies),
        Number(r.paying_people),
        Number(r.paying_voters),
      ]);

    // Five people of Acme ($2,000 a month) each paying $100 themselves, and two people in no company.
    for (let n = 1; n <= 5; n++) await person(n, { mrrCents: 10_000, currency: 'USD', companies: [acme] });
    await person(6, { mrrCents: 5_000, currency: 'USD' });
    await person(7, { mrrCents: 3_000, currency: 'EUR' });
    for (let n = 1; n <= 7; n++) await vote(n);
    // $2,000 from Acme once and $50 from the sixth person; their own revenue is not added for Acme's people.
    expect(await impact()).toEqual([
      ['EUR', 3_000, 0, 1, 1],
      ['USD', 205_000, 1, 1, 6],
    ]);
    await same();

    // A person in two companies brings both.
    await person(8, { companies: [acme, { externalCompanyId: 'beta', mrrCents: 70_000, currency: 'USD' }] });
    await vote(8);
    await vote(8, other.id);
    expect((await impact()).find((r) => r[0] === 'USD')).toEqual(['USD', 275_000, 2, 1, 6]);
    await same();

    // Memberships: the sixth person joins Acme (their own $50 leaves impact, Acme already counts), then leaves it.
    await person(6, { companies: [acme] });
    expect((await impact()).find((r) => r[0] === 'USD')).toEqual(['USD', 270_000, 2, 0, 6]);
    await same();
    await person(6, { companies: [] });
    expect((await impact()).find((r) => r[0] === 'USD')).toEqual(['USD', 275_000, 2, 1, 6]);
    await same();

    // A person who keeps one company and leaves the other, then joins it again: never counted as themselves between.
    await person(8, { companies: [{ externalCompanyId: 'beta' }] });
    expect((await impact()).find((r) => r[0] === 'USD')).toEqual(['USD', 275_000, 2, 1, 6]);
    await same();
    await person(8, { companies: [acme, { externalCompanyId: 'beta' }] });
    await same();

    // Company revenue: Acme's grows, Beta's moves to EUR.
    const [acmeId, betaId] = (await w.companies.list({ sort: 'mrr' })).data.map((c) => c.id);
    await w.companies.update(acmeId!, { mrrCents: 300_000, currency: 'USD' });
    await w.companies.update(betaId!, { mrrCents: 70_000, currency: 'EUR' });
    expect(await impact()).toEqual([
      ['EUR', 73_000, 1, 1, 1],
      ['USD', 305_000, 1, 1, 6],
    ]);
    await same();

    // A contact's own revenue: counts for a person in no company, not for Acme's people (their voters' count moves).
    await person(6, { mrrCents: 9_000, currency: 'USD' });
    await person(1, { mrrCents: null, currency: null });
    expect((await impact()).find((r) => r[0] === 'USD')).toEqual(['USD', 309_000, 1, 1, 5]);
    await same();

    // A merge moves the votes: the person in two companies voted on both posts and counts once on the target.
    await w.posts.merge(other.id, post.id);
    await same();

    // A company deleted: its revenue leaves impact; its people count for themselves again.
    await w.companies.delete(acmeId!);
    await same();
    // Acme's first person pays nothing now; the other four $100 each, the sixth $90.
    expect((await impact()).find((r) => r[0] === 'USD')).toEqual(['USD', 49_000, 0, 5, 5]);

    // A person erased (their votes unlinked, their contacts deleted), and a contact deleted.
    await w.privacy.erase((await person(8)).contact.id);
    await same();
    await w.contacts.delete((await person(6)).contact.id);
    await same();
    expect((await h.engine.db.all('SELECT * FROM post_payer WHERE voters <= 0')).length).toBe(0);
  });
});
