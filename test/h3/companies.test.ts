import { expect, it } from 'vitest';
import { OPERATIONS } from '../../src/contract/index.js';
import { type ApiResponse, describeMatrix, eventPayloads } from '../helpers/harness.js';

describeMatrix('companies', (h) => {
  it('upsert creates (201) then updates (200) by externalCompanyId; omitted fields stay, null clears, metadata merges', async () => {
    const { org, key } = await h.seed();
    const first = await h.request('POST', '/v1/companies', {
      key,
      body: {
        externalCompanyId: 'acct_1',
        name: 'Acme',
        domain: 'ACME.com',
        plan: 'enterprise',
        mrrCents: 200_000,
        currency: 'USD',
        metadata: { region: 'eu', tier: 1 },
      },
    });
    expect(first.status).toBe(201);
    const company = first.body.data;
    expect(company).toMatchObject({
      organizationId: org.id,
      externalCompanyId: 'acct_1',
      name: 'Acme',
      domain: 'acme.com',
      plan: 'enterprise',
      mrrCents: 200_000,
      currency: 'USD',
      metadata: { region: 'eu', tier: 1 },
      memberCount: 0,
    });
    expect(company.id).toMatch(/^com_/);

    const again = await h.request('POST', '/v1/companies', {
      key,
      body: { externalCompanyId: 'acct_1', plan: null, metadata: { tier: null, size: 'large' } },
    });
    expect(again.status).toBe(200);
    expect(again.body.data).toMatchObject({
      id: company.id,
      name: 'Acme',
      plan: null,
      mrrCents: 200_000,
      metadata: { region: 'eu', size: 'large' },
    });

    // The same body once more changes nothing and emits nothing.
    await h.request('POST', '/v1/companies', { key, body: { externalCompanyId: 'acct_1', name: 'Acme' } });
    const events = (await eventPayloads(h, org.id)).filter((e) => e.event.startsWith('company.'));
    expect(events.map((e) => e.event)).toEqual(['company.created', 'company.updated']);
    expect(events[0].company).not.toHaveProperty('organizationId');
    expect(events[0].company).not.toHaveProperty('memberCount');
    expect(events[1].changes).toEqual({
      plan: { from: 'enterprise', to: null },
      metadata: { from: { region: 'eu', tier: 1 }, to: { region: 'eu', size: 'large' } },
    });
  });

  it('refuses bad input in the documented envelope', async () => {
    const { key, readKey } = await h.seed();
    const cases: Array<[unknown, string]> = [
      [{}, 'externalCompanyId'],
      [{ externalCompanyId: '' }, 'externalCompanyId'],
      [{ externalCompanyId: 'x'.repeat(256) }, 'externalCompanyId'],
      [{ externalCompanyId: 'a', mrrCents: 100 }, 'currency'],
      [{ externalCompanyId: 'a', domain: 'not a domain' }, 'domain'],
      [
        { externalCompanyId: 'a', metadata: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) },
        'metadata',
      ],
      [{ externalCompanyId: 'a', employees: 5 }, 'employees'],
    ];
    for (const [body, path] of cases) {
      const res = await h.request('POST', '/v1/companies', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.code).toBe('ERR_VALIDATION');
      expect(res.body.error.details.issues[0].path).toBe(path);
    }
    const readOnly = await h.request('POST', '/v1/companies', { key: readKey, body: { externalCompanyId: 'a' } });
    expect(readOnly.status).toBe(403);
  });

  it('retrieve, patch (a taken externalCompanyId is 409), delete (its people stay, without it), each in its workspace only', async () => {
    const { org, key } = await h.seed();
    const other = await h.seed();
    const a = (await h.request('POST', '/v1/companies', { key, body: { externalCompanyId: 'a', name: 'A' } })).body
      .data;
    await h.request('POST', '/v1/companies', { key, body: { externalCompanyId: 'b' } });
    const ada = await h.request('POST', '/v1/contacts/identify', {
      key,
      body: { externalUserId: 'ada', companies: [{ externalCompanyId: 'a' }] },
    });
    expect(ada.status).toBe(201);

    expect((await h.request('GET', `/v1/companies/${a.id}`, { key })).body.data).toMatchObject({
      name: 'A',
      memberCount: 1,
    });
    expect((await h.request('GET', `/v1/companies/${a.id}`, { key: other.key })).status).toBe(404);
    expect((await h.request('PATCH', `/v1/companies/${a.id}`, { key: other.key, body: { name: 'X' } })).status).toBe(
      404,
    );
    expect((await h.request('DELETE', `/v1/companies/${a.id}`, { key: other.key })).status).toBe(404);

    const taken = await h.request('PATCH', `/v1/companies/${a.id}`, { key, body: { externalCompanyId: 'b' } });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe('ERR_CONFLICT');
    const renamed = await h.request('PATCH', `/v1/companies/${a.id}`, {
      key,
      body: { name: 'A Corp', mrrCents: 5000, currency: 'EUR' },
    });
    expect(renamed.body.data).toMatchObject({ name: 'A Corp', mrrCents: 5000, currency: 'EUR', memberCount: 1 });

    const deleted = await h.request('DELETE', `/v1/companies/${a.id}`, { key });
    expect(deleted.body.data).toEqual({ id: a.id, deleted: true });
    expect((await h.request('GET', `/v1/companies/${a.id}`, { key })).status).toBe(404);
    const person = await h.request('GET', `/v1/contacts/${ada.body.data.id}`, { key });
    expect(person.status).toBe(200);
    expect(person.body.data.companies).toEqual([]);
    const events = (await eventPayloads(h, org.id)).filter((e) => e.event === 'company.deleted');
    expect(events).toEqual([
      { event: 'company.deleted', organizationId: org.id, company: { id: a.id, externalCompanyId: 'a' } },
    ]);
  });

  it("identify's companies: upserted, the contact's exactly; [] takes them away; an absent key leaves them", async () => {
    const { org, key } = await h.seed();
    const identify = (body: Record<string, unknown>) =>
      h.request('POST', '/v1/contacts/identify', { key, body: { externalUserId: 'u1', ...body } });
    const created = await identify({
      email: 'ada@example.com',
      companies: [
        { externalCompanyId: 'beta', name: 'Beta', mrrCents: 1000, currency: 'USD' },
        { externalCompanyId: 'acme', name: 'Acme' },
      ],
    });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    const read = async () => (await h.request('GET', `/v1/contacts/${id}`, { key })).body.data.companies;
    expect((await read()).map((c: { externalCompanyId: string }) => c.externalCompanyId)).toEqual(['acme', 'beta']);
    expect((await read())[0]).toEqual({ id: expect.stringMatching(/^com_/), externalCompanyId: 'acme', name: 'Acme' });

    // No key: memberships stay, and no event names them. The same companies as they are: only the contact changes.
    await identify({ name: 'Ada' });
    expect(await read()).toHaveLength(2);
    await identify({
      name: 'Ada L.',
      companies: [{ externalCompanyId: 'acme', name: 'Acme' }, { externalCompanyId: 'beta' }],
    });
    // Exactly this list: beta stays (its revenue updated), acme goes, gamma comes.
    await identify({
      companies: [{ externalCompanyId: 'beta', mrrCents: 2000, currency: 'USD' }, { externalCompanyId: 'gamma' }],
    });
    expect((await read()).map((c: { externalCompanyId: string }) => c.externalCompanyId)).toEqual(['beta', 'gamma']);
    await identify({ companies: [] });
    expect(await read()).toEqual([]);

    const events = (await eventPayloads(h, org.id)).filter((e) => e.event !== 'contact.created');
    expect(events.map((e) => [e.event, Object.keys(e.changes ?? {})])).toEqual([
      ['company.created', []],
      ['company.created', []],
      ['contact.updated', ['name']],
      ['contact.updated', ['name']],
      ['company.updated', ['mrrCents']],
      ['company.created', []],
      ['contact.updated', ['companies']],
      ['contact.updated', ['companies']],
    ]);
    const swap = events[6].changes.companies;
    expect(swap.from.map((c: { externalCompanyId: string }) => c.externalCompanyId)).toEqual(['acme', 'beta']);
    expect(swap.to.map((c: { externalCompanyId: string }) => c.externalCompanyId)).toEqual(['beta', 'gamma']);
    // The same list again changes nothing.
    await identify({ companies: [] });
    expect((await eventPayloads(h, org.id)).length).toBe(events.length + 1);
  });

  it('identify compares only the company fields it names, metadata by its keys, and writes only what differs', async () => {
    const { org, key } = await h.seed();
    const identify = (company: Record<string, unknown>) =>
      h.request('POST', '/v1/contacts/identify', {
        key,
        body: { externalUserId: 'u1', companies: [{ externalCompanyId: 'acme', ...company }] },
      });
    expect(
      (await identify({ name: 'Acme', domain: 'acme.com', plan: 'pro', metadata: { tier: 'gold', seats: 5 } })).status,
    ).toBe(201);
    const before = (await eventPayloads(h, org.id)).length;
    // Named as they are (some fields, one metadata key as it is): nothing is written about the company.
    expect((await identify({ name: 'Acme' })).status).toBe(200);
    expect((await identify({ metadata: { tier: 'gold' } })).status).toBe(200);
    expect((await identify({ plan: 'pro', domain: 'ACME.com' })).status).toBe(200);
    expect((await eventPayloads(h, org.id)).length).toBe(before);
    // A named field that differs, the others unnamed: that field alone changes.
    await identify({ name: 'Acme', metadata: { tier: 'silver' } });
    await identify({ domain: 'acme.io' });
    const changes = (await eventPayloads(h, org.id)).slice(before).map((e) => [e.event, e.changes]);
    expect(changes).toEqual([
      ['company.updated', { metadata: { from: { tier: 'gold', seats: 5 }, to: { tier: 'silver', seats: 5 } } }],
      ['company.updated', { domain: { from: 'acme.com', to: 'acme.io' } }],
    ]);
  });

  it('identify refuses more than 10 companies, one listed twice, or a bad one, and writes nothing', async () => {
    const { org, key } = await h.seed();
    const many = Array.from({ length: 11 }, (_, i) => ({ externalCompanyId: `c${i}` }));
    const cases: Array<[unknown[], string]> = [
      [many, 'companies'],
      [[{ externalCompanyId: 'a' }, { externalCompanyId: 'a' }], 'companies.1.externalCompanyId'],
      [[{ externalCompanyId: 'a' }, { externalCompanyId: 'b', mrrCents: 5 }], 'companies.1.currency'],
    ];
    for (const [companies, path] of cases) {
      const res = await h.request('POST', '/v1/contacts/identify', { key, body: { externalUserId: 'u', companies } });
      expect(res.status).toBe(422);
      expect(res.body.error.details.issues[0].path).toBe(path);
    }
    expect(await eventPayloads(h, org.id)).toEqual([]);
    // A refusal inside the transaction (the workspace's contact cap) leaves no company behind.
    await h.engine.organizations.update(org.id, { contactCap: 0 });
    const capped = await h.request('POST', '/v1/contacts/identify', {
      key,
      body: { externalUserId: 'u', companies: [{ externalCompanyId: 'a', name: 'A' }] },
    });
    expect(capped.status).toBe(402);
    expect((await h.request('GET', '/v1/companies', { key })).body.data).toEqual([]);
    expect(await eventPayloads(h, org.id)).toEqual([]);
  });

  it("lists companies newest first or by revenue, searched by name or domain; a company's contacts page by page", async () => {
    const { key } = await h.seed();
    for (const [id, name, domain, mrr] of [
      ['a', 'Acme', 'acme.com', 300],
      ['b', 'Beta', 'beta.io', null],
      ['c', 'Cobalt', 'cobalt.dev', 900],
      ['d', 'Delta', 'acme-delta.com', 100],
    ] as const) {
      h.advance(1000);
      await h.request('POST', '/v1/companies', {
        key,
        body: { externalCompanyId: id, name, domain, ...(mrr === null ? {} : { mrrCents: mrr, currency: 'USD' }) },
      });
    }
    const ids = async (query: string) => {
      const out: string[] = [];
      let cursor: string | null = null;
      do {
        const res: ApiResponse = await h.request(
          'GET',
          `/v1/companies?limit=2&${query}${cursor ? `&cursor=${cursor}` : ''}`,
          { key },
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        out.push(...res.body.data.map((c: { externalCompanyId: string }) => c.externalCompanyId));
        cursor = res.body.nextCursor;
      } while (cursor);
      return out;
    };
    expect(await ids('')).toEqual(['d', 'c', 'b', 'a']);
    expect(await ids('sort=mrr')).toEqual(['c', 'a', 'd', 'b']);
    expect(await ids('q=%22')).toEqual([]);
    expect(await ids('q=ACME')).toEqual(['d', 'a']);
    expect(await ids('q=be')).toEqual(['b']);
    // A new name is found, the old one no longer; a deleted company is found no more.
    const cobalt = (await h.request('GET', '/v1/companies?q=cobalt', { key })).body.data[0];
    await h.request('PATCH', `/v1/companies/${cobalt.id}`, { key, body: { name: 'Zeta Systems', domain: 'zeta.dev' } });
    expect(await ids('q=zeta%20sys')).toEqual(['c']);
    expect(await ids('q=cobalt')).toEqual([]);
    const beta = (await h.request('GET', '/v1/companies?q=beta.io', { key })).body.data[0];
    await h.request('DELETE', `/v1/companies/${beta.id}`, { key });
    expect(await ids('q=beta')).toEqual([]);
    await h.request('POST', '/v1/companies', {
      key,
      body: { externalCompanyId: 'b', name: 'Beta', domain: 'beta.io' },
    });
    expect(await ids('q=beta')).toEqual(['b']);
    expect((await h.request('GET', '/v1/companies?sort=revenue', { key })).status).toBe(422);

    for (const u of ['u1', 'u2', 'u3']) {
      h.advance(1000);
      await h.request('POST', '/v1/contacts/identify', {
        key,
        body: { externalUserId: u, companies: [{ externalCompanyId: 'a' }] },
      });
    }
    const acme = (await h.request('GET', '/v1/companies?q=acme.com', { key })).body.data.find(
      (c: { externalCompanyId: string }) => c.externalCompanyId === 'a',
    );
    expect(acme.memberCount).toBe(3);
    const page1 = await h.request('GET', `/v1/companies/${acme.id}/contacts?limit=2`, { key });
    expect(page1.status, JSON.stringify(page1.body)).toBe(200);
    expect(page1.body.data.map((c: { externalUserId: string }) => c.externalUserId)).toEqual(['u3', 'u2']);
    expect(page1.body.data[0].companies).toEqual([{ id: acme.id, externalCompanyId: 'a', name: 'Acme' }]);
    const page2 = await h.request('GET', `/v1/companies/${acme.id}/contacts?limit=2&cursor=${page1.body.nextCursor}`, {
      key,
    });
    expect(page2.body.data.map((c: { externalUserId: string }) => c.externalUserId)).toEqual(['u1']);
    expect(page2.body.nextCursor).toBeNull();
    expect((await h.request('GET', '/v1/companies/com_nope/contacts', { key })).status).toBe(404);
    const list = await h.request('GET', '/v1/contacts?limit=1', { key });
    expect(list.body.data[0].companies).toEqual([{ id: acme.id, externalCompanyId: 'a', name: 'Acme' }]);
  });

  it('is in the contract: six operations, each with its agent tool and client method', () => {
    const rows = Object.entries(OPERATIONS).filter(([, op]) => op.resource === 'companies');
    expect(rows.map(([id, op]) => [id, op.tool, op.client])).toEqual([
      ['listCompanies', 'list_companies', 'companies.list'],
      ['upsertCompany', 'upsert_company', 'companies.upsert'],
      ['retrieveCompany', 'get_company', 'companies.retrieve'],
      ['updateCompany', 'update_company', 'companies.update'],
      ['deleteCompany', 'delete_company', 'companies.delete'],
      ['listCompanyContacts', 'list_company_contacts', 'companies.listContacts'],
    ]);
  });
});
