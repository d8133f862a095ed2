import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, describe, expect, it } from 'vitest';
import { OPERATION_IDS } from '../../src/contract/index.js';
import { createEngine, errorLine } from '../../src/engine/index.js';
import { createApp } from '../../src/h3/index.js';
import { mcpEndpoint } from '../../src/mcp/index.js';
import { CLI_ARGS } from '../helpers/cli.js';
import { describeMatrix, type Harness } from '../helpers/harness.js';

const PACKAGE_JSON = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

function result(r: Awaited<ReturnType<Client['callTool']>>) {
  const text = (r.content as Array<{ text: string }>)[0]!.text;
  return r.isError ? { error: JSON.parse(text).error } : { data: r.structuredContent as any };
}

async function httpClient(h: Harness, key: string) {
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${h.baseUrl}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  return client;
}

describeMatrix(
  'MCP over Streamable HTTP at /mcp',
  (h) => {
    it('lists one tool per operation and runs them for the key workspace', async () => {
      const ws = await h.seed();
      const client = await httpClient(h, ws.key);
      expect((await client.listTools()).tools).toHaveLength(OPERATION_IDS.length);
      expect(client.getServerVersion()).toMatchObject({ name: 'feedback-service', version: PACKAGE_JSON.version });
      const created = result(
        await client.callTool({
          name: 'create_contact',
          arguments: { external_user_id: 'http-1', mrr_cents: 990, currency: 'EUR' },
        }),
      );
      expect(created.data).toMatchObject({ external_user_id: 'http-1', mrr_cents: 990, organization_id: ws.org.id });
      const rest = await h.request('GET', `/v1/contacts/${created.data.id}`, { key: ws.key });
      expect(rest.body.data.mrrCents).toBe(990);
      await client.close();
    });

    it('applies scope, billing state and workspace isolation as REST does; no key is 401', async () => {
      const ws = await h.seed();
      const reader = await httpClient(h, ws.readKey);
      expect((await reader.listTools()).tools.map((t) => t.name)).not.toContain('create_contact');
      expect(
        result(await reader.callTool({ name: 'create_contact', arguments: { external_user_id: 'r' } })).error,
      ).toMatchObject({
        code: 'ERR_SCOPE_INSUFFICIENT',
      });
      expect(result(await reader.callTool({ name: 'list_contacts', arguments: {} })).data.data).toEqual([]);
      await reader.close();

      const frozen = await h.seed();
      await h.engine.organizations.update(frozen.org.id, { billingState: 'read_only' });
      const frozenClient = await httpClient(h, frozen.key);
      expect(
        result(await frozenClient.callTool({ name: 'create_contact', arguments: { external_user_id: 'f' } })).error,
      ).toMatchObject({ code: 'ERR_FORBIDDEN' });
      expect(result(await frozenClient.callTool({ name: 'whoami', arguments: {} })).data.organization_id).toBe(
        frozen.org.id,
      );
      await frozenClient.close();

      const other = await h.seed();
      const theirs = (await h.request('POST', '/v1/contacts', { key: other.key, body: { externalUserId: 'theirs' } }))
        .body.data;
      const mine = await httpClient(h, ws.key);
      expect(
        result(await mine.callTool({ name: 'get_contact', arguments: { contact_id: theirs.id } })).error.code,
      ).toBe('ERR_NOT_FOUND');
      await mine.close();

      const anonymous = await fetch(`${h.baseUrl}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(anonymous.status).toBe(401);
      expect((await anonymous.json()).error.code).toBe('ERR_UNAUTHORIZED');
    });

    it('whoami over /mcp reports the calling key and the budget REST reports', async () => {
      const ws = await h.seed();
      const rpc = (body: unknown) =>
        fetch(`${h.baseUrl}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            authorization: `Bearer ${ws.readKey}`,
          },
          body: JSON.stringify(body),
        });
      const rest = await h.request('GET', '/v1/whoami', { key: ws.readKey });
      const res = await rpc({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
      const data = (await res.json()).result.structuredContent;
      const readKeyId = (await h.engine.keys.authenticate(ws.readKey))!.keyId;
      expect(data).toMatchObject({ key_id: readKeyId, organization_id: ws.org.id, scope: 'read' });
      expect(data.rate_limit.limit).toBe(rest.body.data.rateLimit.limit);
      // The same budget: one request after the REST call, and what this response's headers say.
      expect(data.rate_limit.remaining).toBe(rest.body.data.rateLimit.remaining - 1);
      expect(String(data.rate_limit.remaining)).toBe(res.headers.get('ratelimit-remaining'));
    });

    it('an unexpected tool failure keeps ERR_INTERNAL, logs one line with a request id, and returns that id', async () => {
      const ws = await h.seed();
      const lines: string[] = [];
      const app = createApp({
        engine: h.engine,
        logError: (message, error) => lines.push(`${message}: ${errorLine(error)}`),
        endpoints: [mcpEndpoint(h.engine)],
      });
      const workspace = h.engine.workspace;
      (h.engine as { workspace: unknown }).workspace = () => {
        throw new TypeError('the disk is on fire');
      };
      try {
        const res = await app.fetch(
          new Request('http://x/mcp', {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              authorization: `Bearer ${ws.key}`,
            },
            body: JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'list_contacts', arguments: {} },
            }),
          }),
        );
        const requestId = res.headers.get('x-request-id');
        expect(requestId).toMatch(/^req_/);
        const call = (await res.json()).result;
        expect(call.isError).toBe(true);
        const { error } = JSON.parse(call.content[0].text);
        expect(error).toEqual({
          code: 'ERR_INTERNAL',
          message: 'An unexpected error occurred.',
          details: { request_id: requestId },
        });
        expect(call.content[0].text).not.toContain('disk is on fire');
        expect(lines).toHaveLength(1);
        expect(lines[0]).not.toContain('\n');
        expect(lines[0]).toContain(requestId);
        expect(lines[0]).toContain('list_contacts');
        expect(lines[0]).toContain('the disk is on fire');
      } finally {
        (h.engine as { workspace: unknown }).workspace = workspace;
      }
    });

    it('the stdio command against this server uses the key and its scope', async () => {
      const ws = await h.seed();
      const client = new Client({ name: 'test', version: '1' });
      await client.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [...CLI_ARGS, 'mcp', '--base-url', h.baseUrl, '--api-key', ws.readKey],
          stderr: 'pipe',
        }),
      );
      const { tools } = await client.listTools();
      expect(tools.every((t) => t.annotations?.readOnlyHint)).toBe(true);
      expect(result(await client.callTool({ name: 'whoami', arguments: {} })).data).toMatchObject({
        organization_id: ws.org.id,
        scope: 'read',
      });
      await client.close();
    });
  },
  { transports: ['socket'] },
);

describe('MCP over stdio on a database', () => {
  const dir = mkdtempSync(join(tmpdir(), 'feedback-mcp-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('spawns the built command and serves the workspace named by --org', async () => {
    const database = join(dir, 'mcp.db');
    const engine = await createEngine({ database });
    await engine.migrate();
    const org = await engine.organizations.create({ name: 'stdio', plan: 'paid' });
    await engine.close();

    const client = new Client({ name: 'test', version: '1' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [...CLI_ARGS, 'mcp', '--db', database, '--org', org.id],
        stderr: 'pipe',
      }),
    );
    expect((await client.listTools()).tools).toHaveLength(OPERATION_IDS.length);
    const created = result(
      await client.callTool({
        name: 'identify_contact',
        arguments: { external_user_id: 'stdio-1', email: 'sam@example.com' },
      }),
    );
    expect(created.data).toMatchObject({
      external_user_id: 'stdio-1',
      email: 'sam@example.com',
      organization_id: org.id,
    });
    const invalid = result(
      await client.callTool({ name: 'create_contact', arguments: { external_user_id: 'x', mrr_cents: 5 } }),
    );
    expect(invalid.error.code).toBe('ERR_VALIDATION');
    await client.close();

    const check = await createEngine({ database });
    expect((await check.workspace(org.id).contacts.list()).data.map((c) => c.externalUserId)).toEqual(['stdio-1']);
    await check.close();
  });
});
