import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { everyOperation } from '../../scripts/every-operation.js';
import { answersPage, OPERATION_IDS, OPERATIONS } from '../../src/contract/index.js';
import { CLI_ACTOR } from '../../src/engine/index.js';
import { createToolServer, engineOperations, toSnake } from '../../src/mcp/index.js';
import type { Scope } from '../../src/schemas/common.js';
import { EVENT_KINDS } from '../../src/schemas/events.js';
import { INVALID_CONTACT_BODIES } from '../helpers/contact-cases.js';
import { describeMatrix, type Harness, type SeededWorkspace } from '../helpers/harness.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

/** One tool per operation of the contract (test/contract/operations.test.ts checks the names against the spec). */
const TOOL_NAMES = OPERATION_IDS.map((id) => OPERATIONS[id].tool);
/** The read operations' tools: what a read key sees. */
const READ_TOOLS = OPERATION_IDS.filter((id) => OPERATIONS[id].scope === 'read');

/** A value's keys in snake_case, except inside free-form maps (`metadata`, `changes`), as the tools return REST shapes. */
function snakeKeys(value: unknown, parent = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => snakeKeys(v, parent));
  if (value === null || typeof value !== 'object' || parent === 'metadata') return value;
  if (parent === 'changes') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, snakeKeys(v)]));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [toSnake(k), snakeKeys(v, k)]));
}

async function connect(h: Harness, ws: SeededWorkspace, scope: Scope = 'read:write') {
  const server = createToolServer(engineOperations(h.engine, ws.org.id), { scope });
  const client = new Client({ name: 'test', version: '1' });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(a), client.connect(b)]);
  // The official client checks every tool's structured output against its output schema once it has listed the tools,
  // as agents (and MCP Inspector) do: a result that breaks its own schema fails the call.
  await client.listTools();
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    return {
      isError: result.isError === true,
      data: result.structuredContent as any,
      error: result.isError ? JSON.parse((result.content as Array<{ text: string }>)[0]!.text).error : undefined,
    };
  };
  return { client, call, close: () => client.close() };
}

describeMatrix(
  'MCP tools in-process',
  (h) => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());

    it('a tool refuses arguments it does not take, camelCase spellings of its own included, as REST refuses unknown fields: ERR_VALIDATION', async () => {
      const ws = await h.seed();
      const { call, close } = await connect(h, ws);
      const bogus = await call('whoami', { bogus: 1 });
      expect(bogus.isError).toBe(true);
      expect(bogus.error.code).toBe('ERR_VALIDATION');
      expect(bogus.error.details.issues.map((i: { path: string }) => i.path)).toContain('bogus');
      let deep: unknown = 1;
      for (let i = 0; i < 100_000; i++) deep = [deep];
      expect((await call('whoami', { bogus: deep })).error.code).toBe('ERR_VALIDATION');
      const camel = await call('create_contact', { externalUserId: 'cc', mrrCents: 5, currency: 'USD' });
      expect(camel.isError).toBe(true);
      expect(camel.error.code).toBe('ERR_VALIDATION');
      expect(camel.error.message).toContain('external_user_id');
      // The key as the caller sent it, and the one to send.
      expect(camel.error.message).toBe('externalUserId: the tools take snake_case names; send external_user_id');
      expect(camel.error.details.issues).toContainEqual({
        path: 'mrrCents',
        code: 'unrecognized_keys',
        message: 'mrrCents is not a field this tool takes; send mrr_cents',
      });
      expect((await call('list_contacts', {})).data.data).toEqual([]);
      const emailOnly = await call('identify_contact', { email: 'ann@example.com' });
      expect(emailOnly.error.code).toBe('ERR_VALIDATION');
      expect(emailOnly.error.details.issues.map((i: { path: string }) => i.path)).toContain('external_user_id');
      const nested = await call('create_post', {
        board_id: 'brd_x',
        title: 't',
        body: { json: {}, text: 'x' },
        tagIds: [],
      });
      expect(nested.error.code).toBe('ERR_VALIDATION');
      await close();
    });

    it('lists exactly one tool per operation, each with input and output schemas, a title and truthful annotations', async () => {
      const ws = await h.seed();
      const { client, close } = await connect(h, ws);
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name).sort()).toEqual([...TOOL_NAMES].sort());
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.title).toBeTruthy();
        expect(tool.description!.length).toBeGreaterThan(30);
        const writes = !tool.name.startsWith('list_') && !tool.name.startsWith('get_') && tool.name !== 'whoami';
        expect(tool.annotations?.readOnlyHint).toBe(!writes);
      }
      // What agents read is what the tool does: identify needs external_user_id (an email alone is refused).
      const identify = tools.find((t) => t.name === 'identify_contact')!;
      expect(identify.description).toContain('external_user_id (required)');
      expect(identify.inputSchema.required).toContain('external_user_id');
      const create = tools.find((t) => t.name === 'create_contact')!;
      const props = create.inputSchema.properties as Record<string, any>;
      expect(Object.keys(props)).toEqual(
        expect.arrayContaining(['external_user_id', 'mrr_cents', 'currency', 'metadata']),
      );
      expect(props.mrr_cents.anyOf?.[0]?.maximum ?? props.mrr_cents.maximum).toBe(100_000_000);
      expect(tools.find((t) => t.name === 'delete_contact')!.annotations).toMatchObject({
        destructiveHint: true,
        idempotentHint: true,
      });
      expect(tools.find((t) => t.name === 'replay_webhook_delivery')!.annotations).toMatchObject({
        idempotentHint: false,
      });
      await close();
    });

    it('each tool returns what its REST route returns, in snake_case', async () => {
      const ws = await h.seed();
      const { call, close } = await connect(h, ws);
      const rest = async (method: string, path: string, body?: unknown) =>
        (await h.request(method, path, { key: ws.key, body })).body;

      const created = await call('create_contact', {
        external_user_id: 'mcp-1',
        email: 'ann@example.com',
        mrr_cents: 4900,
        currency: 'USD',
        metadata: { companySize: 12 },
      });
      expect(created.isError).toBe(false);
      const contactId = created.data.id;
      expect(created.data).toMatchObject({ external_user_id: 'mcp-1', mrr_cents: 4900, metadata: { companySize: 12 } });
      expect((await call('get_contact', { contact_id: contactId })).data).toEqual(
        snakeKeys((await rest('GET', `/v1/contacts/${contactId}`)).data),
      );
      expect((await call('identify_contact', { external_user_id: 'mcp-1', plan: 'pro' })).data.plan).toBe('pro');
      const updated = (await call('update_contact', { contact_id: contactId, name: 'Ann' })).data;
      const {
        postCount: _p,
        voteCount: _v,
        commentCount: _c,
        companies: _companies,
        ...current
      } = (await rest('GET', `/v1/contacts/${contactId}`)).data;
      expect(updated).toEqual(snakeKeys(current));
      expect((await call('list_contacts', { limit: 10 })).data).toEqual(
        snakeKeys(await rest('GET', '/v1/contacts?limit=10')),
      );
      const company = await call('upsert_company', {
        external_company_id: 'acme',
        name: 'Acme',
        mrr_cents: 200_000,
        currency: 'USD',
      });
      expect(company.data).toMatchObject({ external_company_id: 'acme', mrr_cents: 200_000, member_count: 0 });
      await call('identify_contact', { external_user_id: 'mcp-1', companies: [{ external_company_id: 'acme' }] });
      expect((await call('get_company', { company_id: company.data.id })).data).toEqual(
        snakeKeys((await rest('GET', `/v1/companies/${company.data.id}`)).data),
      );
      expect((await call('list_companies', { sort: 'mrr' })).data).toEqual(
        snakeKeys(await rest('GET', '/v1/companies?sort=mrr')),
      );
      const members = await call('list_company_contacts', { company_id: company.data.id });
      expect(members.data).toEqual(snakeKeys(await rest('GET', `/v1/companies/${company.data.id}/contacts`)));
      expect(members.data.data[0].companies).toEqual([
        { id: company.data.id, external_company_id: 'acme', name: 'Acme' },
      ]);
      const board = await h.engine.workspace(ws.org.id).boards.create({ name: 'Ideas' });
      expect((await call('list_boards')).data).toEqual(snakeKeys(await rest('GET', '/v1/boards')));
      const post = (await call('create_post', { board_id: board.id, title: 'Dark mode', contact_id: contactId })).data;
      expect(post).toEqual(snakeKeys((await rest('GET', `/v1/contacts/${contactId}/posts`)).data[0]));
      expect((await call('update_post', { post_id: post.id, status: 'planned' })).data.status).toBe('planned');
      expect((await call('list_contact_posts', { contact_id: contactId })).data).toEqual(
        snakeKeys(await rest('GET', `/v1/contacts/${contactId}/posts`)),
      );
      expect((await call('whoami')).data).toMatchObject({ organization_id: ws.org.id, scope: 'read:write' });

      const webhook = (await call('create_webhook', { url: `${receiver.origin}/mcp`, events: ['contact.deleted'] }))
        .data;
      expect(webhook.secret).toMatch(/^whsec_/);
      expect((await call('get_webhook', { webhook_id: webhook.id })).data).toEqual(
        snakeKeys((await rest('GET', `/v1/webhooks/${webhook.id}`)).data),
      );
      expect((await call('list_webhooks')).data).toEqual(snakeKeys(await rest('GET', '/v1/webhooks')));
      expect((await call('update_webhook', { webhook_id: webhook.id, description: 'crm' })).data.description).toBe(
        'crm',
      );
      expect((await call('delete_contact', { contact_id: contactId })).data).toEqual({ id: contactId, deleted: true });
      await h.engine.scheduler.runDue();
      const deliveries = await call('list_webhook_deliveries', { webhook_id: webhook.id });
      expect(deliveries.data).toEqual(snakeKeys(await rest('GET', `/v1/webhooks/${webhook.id}/deliveries`)));
      const replay = await call('replay_webhook_delivery', {
        webhook_id: webhook.id,
        delivery_id: deliveries.data.data[0].id,
      });
      expect(replay.data.replay_of).toBe(deliveries.data.data[0].id);
      expect((await call('delete_webhook', { webhook_id: webhook.id })).data).toEqual({
        id: webhook.id,
        deleted: true,
      });
      await close();
    });

    it("every event kind in a delivery log and a replay matches the tools' output schemas, in snake_case throughout", async () => {
      const ws = await h.seed();
      const { call, close } = await connect(h, ws);
      const w = h.engine.workspace(ws.org.id);
      const webhook = (await call('create_webhook', { url: `${receiver.origin}/every-kind`, events: [...EVENT_KINDS] }))
        .data;
      const contact = (
        await call('create_contact', {
          external_user_id: 'kinds',
          email: 'kinds@example.com',
          mrr_cents: 100,
          currency: 'USD',
          metadata: { seatCount: 3 },
        })
      ).data;
      expect(
        (await call('update_contact', { contact_id: contact.id, mrr_cents: 200, currency: 'USD' })).data.mrr_cents,
      ).toBe(200);
      const board = await w.boards.create({ name: 'Kinds' });
      const post = (await call('create_post', { board_id: board.id, title: 'Every kind', contact_id: contact.id }))
        .data;
      await call('update_post', { post_id: post.id, status: 'planned' });
      const twin = (await call('create_post', { board_id: board.id, title: 'Every kind, again' })).data;
      expect((await call('merge_post', { post_id: twin.id, into_post_id: post.id })).data.merged_into_id).toBe(post.id);
      expect((await call('delete_post', { post_id: twin.id })).data).toEqual({ id: twin.id, deleted: true });
      await w.participation.vote({ postId: post.id, email: 'voter@example.com', notifyMe: false });
      expect((await call('create_vote', { post_id: post.id, contact_id: contact.id })).data.contact_id).toBe(
        contact.id,
      );
      await call('delete_vote', { post_id: post.id, contact_id: contact.id });
      const said = (await call('create_comment', { post_id: post.id, body_text: 'On it', official: true })).data;
      expect((await call('update_comment', { comment_id: said.id, body_text: 'On it now' })).data.body_text).toBe(
        'On it now',
      );
      await call('delete_comment', { comment_id: said.id });
      await w.participation.comment({
        postId: post.id,
        email: 'voter@example.com',
        bodyText: 'Yes please',
        notifyMe: false,
      });
      await w.changelog.publish((await w.changelog.create({ boardId: board.id, title: 'Shipped' })).id);
      const company = (await call('upsert_company', { external_company_id: 'kinds-co', name: 'Kinds' })).data;
      await call('update_company', { company_id: company.id, mrr_cents: 900, currency: 'EUR' });
      await call('delete_company', { company_id: company.id });
      await call('delete_contact', { contact_id: contact.id });
      await h.engine.scheduler.runDue();

      const listed = await call('list_webhook_deliveries', { webhook_id: webhook.id, limit: 100 });
      expect(listed.isError, JSON.stringify(listed.error)).toBe(false);
      const deliveries: Array<{ id: string; event: string; payload: Record<string, unknown> }> = listed.data.data;
      expect([...new Set(deliveries.map((d) => d.event))].sort()).toEqual([...EVENT_KINDS].sort());
      const rest = (await h.request('GET', `/v1/webhooks/${webhook.id}/deliveries?limit=100`, { key: ws.key })).body;
      expect(listed.data).toEqual(snakeKeys(rest));
      const created = deliveries.find((d) => d.event === 'contact.created')!;
      expect(created.payload.contact).toMatchObject({
        mrr_cents: 100,
        consent_basis: 'admin_created',
        first_seen_at: expect.any(String),
        metadata: { seatCount: 3 },
      });
      for (const delivery of deliveries) {
        const replay = await call('replay_webhook_delivery', { webhook_id: webhook.id, delivery_id: delivery.id });
        expect(replay.isError, `${delivery.event}: ${JSON.stringify(replay.error)}`).toBe(false);
        expect(replay.data.payload).toEqual(delivery.payload);
      }
      await close();
    });

    it('applies the REST validation rules on the snake_case surface, as tool errors with the same code and message', async () => {
      const ws = await h.seed({ contactCap: 1 });
      const { call, close } = await connect(h, ws);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ external_user_id: 'v', mrr_cents: 100 }, 'currency'],
        [{ external_user_id: 'v', currency: 'USD' }, 'mrr_cents'],
        [{ external_user_id: 'v', mrr_cents: 100_000_001, currency: 'USD' }, 'mrr_cents'],
        [{ external_user_id: 'v', email: `${'a'.repeat(315)}@x.com` }, 'email'],
        [
          { external_user_id: 'v', metadata: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) },
          'metadata',
        ],
        [{ external_user_id: '' }, 'external_user_id'],
        [{ external_user_id: 'v', nickname: 'x' }, 'nickname'],
      ];
      for (const [args, path] of cases) {
        const result = await call('create_contact', args);
        expect(result.isError, JSON.stringify(args).slice(0, 60)).toBe(true);
        expect(result.error.code).toBe('ERR_VALIDATION');
        expect(result.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
        expect(JSON.stringify(result.error)).not.toMatch(/mrrCents|externalUserId/);
      }
      expect((await call('create_contact', { external_user_id: 'first' })).isError).toBe(false);
      const capped = await call('create_contact', { external_user_id: 'second' });
      expect(capped.error).toMatchObject({
        code: 'ERR_PLAN_LIMIT',
        details: { limit: 1, current: 1, resource: 'contact' },
      });
      expect((await call('get_contact', { contact_id: 'ctc_nope' })).error.code).toBe('ERR_NOT_FOUND');
      expect((await call('get_contact', {})).error.code).toBe('ERR_VALIDATION');
      const open = await connect(h, await h.seed());
      expect((await open.call('create_contact', { external_user_id: 'taken' })).isError).toBe(false);
      const taken = await open.call('create_contact', { external_user_id: 'taken' });
      expect(taken.error).toMatchObject({ code: 'ERR_CONFLICT', message: 'external_user_id already taken' });
      await open.close();
      // The session survives every refusal.
      expect((await call('whoami')).isError).toBe(false);
      await close();
    });

    it('refuses every REST contact validation case on create, identify and update, converted to snake_case', async () => {
      const ws = await h.seed();
      const { call, close } = await connect(h, ws);
      const existing = (await call('create_contact', { external_user_id: 'base' })).data;
      for (const [what, body, path] of INVALID_CONTACT_BODIES) {
        const args = snakeKeys(body) as Record<string, unknown>;
        const results = [
          await call('create_contact', args),
          await call('identify_contact', { external_user_id: 'new-one', ...args }),
          await call('update_contact', { contact_id: existing.id, ...args }),
        ];
        for (const result of results) {
          expect(result.isError, what).toBe(true);
          expect(result.error.code, what).toBe('ERR_VALIDATION');
          expect(
            result.error.details.issues.map((i: { path: string }) => i.path),
            what,
          ).toContain(toSnake(path));
        }
      }
      expect(
        (await call('list_contacts')).data.data.map((c: { external_user_id: string }) => c.external_user_id),
      ).toEqual(['base']);
      await close();
    });

    it('a read caller sees and calls the read tools only', async () => {
      const ws = await h.seed();
      const { client, call, close } = await connect(h, ws, 'read');
      const { tools } = await client.listTools();
      expect(tools.every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
      expect(tools).toHaveLength(READ_TOOLS.length);
      const refused = await call('create_contact', { external_user_id: 'x' });
      expect(refused.error).toMatchObject({
        code: 'ERR_SCOPE_INSUFFICIENT',
        details: { required: 'read:write', granted: 'read' },
      });
      expect((await call('list_contacts')).isError).toBe(false);
      await close();
    });

    it("every tool, each called once in a walk of every operation, passes the official client's output validation", async () => {
      const ws = await h.seed();
      const { call, close } = await connect(h, ws);
      const called = new Set<string>();
      await everyOperation(
        async (id, params = {}, input = {}) => {
          const name = OPERATIONS[id].tool;
          const result = await call(name, snakeKeys({ ...params, ...(input as object) }) as Record<string, unknown>);
          // A result that broke its tool's output schema would have failed the call in the client itself.
          expect(result.isError, `${name}: ${JSON.stringify(result.error)}`).toBe(false);
          called.add(name);
          return answersPage(id) ? result.data.data : result.data;
        },
        `${receiver.origin}/walk`,
        () =>
          h.engine
            .workspace(ws.org.id)
            .as(CLI_ACTOR)
            .integrations.connect({ service: 'slack', webhookUrl: 'https://hooks.slack.com/services/T000/B000/XXXX' }),
      );
      expect([...called].sort()).toEqual(OPERATION_IDS.map((id) => OPERATIONS[id].tool).sort());
      await close();
    });
  },
  { transports: ['fetch'], engine: { webhooks: { allowPrivateNetworks: true } } },
);
