import { expect, it } from 'vitest';
import { CLI_ACTOR } from '../../src/engine/index.js';
import { linearDelivery } from '../helpers/fakes/linear.js';
import { describeMatrix, type Harness, type SeededWorkspace } from '../helpers/harness.js';

// The integrations through REST (list and remove; the console connects them) and the inbound endpoint Linear, GitHub
// and Slack post to: no key, their signature.

const SECRET = 'lin_wh_secret_h3';
const connect = (h: Harness, ws: SeededWorkspace) =>
  h.engine
    .workspace(ws.org.id)
    .as(CLI_ACTOR)
    .integrations.connect({ service: 'linear', apiKey: 'lin_api_k', webhookSecret: SECRET });

describeMatrix('integrations REST and inbound', (h) => {
  it('GET /v1/integrations lists the connections without their credentials; DELETE removes one (read:write only)', async () => {
    const ws = await h.seed();
    const { id } = await connect(h, ws);
    const list = await h.request('GET', '/v1/integrations', { key: ws.readKey });
    expect(list.status).toBe(200);
    expect(list.body.data).toMatchObject([
      { id, service: 'linear', auth: 'api_key', status: 'active', lastError: null },
    ]);
    expect(Object.keys(list.body.data[0]).sort()).toEqual(
      ['account', 'auth', 'createdAt', 'id', 'lastError', 'lastErrorAt', 'service', 'status', 'updatedAt'].sort(),
    );
    expect(JSON.stringify(list.body)).not.toContain('lin_api_k');
    expect((await h.request('DELETE', `/v1/integrations/${id}`, { key: ws.readKey })).status).toBe(403);
    const other = await h.seed();
    expect((await h.request('DELETE', `/v1/integrations/${id}`, { key: other.key })).body.error.code).toBe(
      'ERR_NOT_FOUND',
    );
    const gone = await h.request('DELETE', `/v1/integrations/${id}`, { key: ws.key });
    expect(gone).toMatchObject({ status: 200, body: { data: { id, deleted: true } } });
    expect((await h.request('DELETE', `/v1/integrations/${id}`, { key: ws.key })).status).toBe(404);
    expect((await h.request('GET', '/v1/integrations', { key: ws.readKey })).body.data).toEqual([]);
  });

  it('POST /integrations/{id}/webhook takes a signed delivery with no key, and refuses what its signature does not cover', async () => {
    const ws = await h.seed();
    const { id } = await connect(h, ws);
    const d = linearDelivery(
      SECRET,
      { action: 'update', type: 'Issue', data: { id: 'i' } },
      h.engine.clock().getTime(),
    );
    const path = `/integrations/${id}/webhook`;
    const ok = await h.request('POST', path, { key: null, rawBody: d.body, headers: d.headers });
    expect(ok.status).toBe(200);
    const tampered = await h.request('POST', path, {
      key: null,
      rawBody: d.body.replace('"i"', '"j"'),
      headers: d.headers,
    });
    expect(tampered).toMatchObject({ status: 401, body: { error: { message: 'Invalid signature.' } } });
    const unknown = await h.request('POST', '/integrations/int_nobody/webhook', {
      key: null,
      rawBody: d.body,
      headers: d.headers,
    });
    expect(unknown.status).toBe(404);
    const get = await h.request('GET', path, { key: null });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const huge = await h.request('POST', path, { key: null, rawBody: 'x'.repeat(1024 * 1024 + 1), headers: d.headers });
    expect(huge.status).toBe(413);
  });
});
