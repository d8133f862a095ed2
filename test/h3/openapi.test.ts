import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Document, Spectral } from '@stoplight/spectral-core';
import { Json } from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { expect, it } from 'vitest';
import { OPERATION_EXAMPLES } from '../../src/contract/examples.js';
import {
  OPERATION_IDS,
  OPERATION_SCHEMAS,
  OPERATIONS,
  type OperationSchemas,
  pathParams,
} from '../../src/contract/index.js';
import { describeMatrix } from '../helpers/harness.js';

describeMatrix('GET /v1/openapi.json', (h) => {
  it('serves a valid OpenAPI 3.1 document without a key', async () => {
    const res = await h.request('GET', '/v1/openapi.json', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(res.body);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
  });

  it("passes Redocly's recommended-strict rules: a description, tags, 4xx responses, licence and contact", async () => {
    const doc = (await h.request('GET', '/v1/openapi.json', { key: null })).body;
    const config = await createConfig({ extends: ['recommended-strict'] });
    const problems = await lintFromString({ source: JSON.stringify(doc), absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer}`)).toEqual([]);
    for (const operations of Object.values(
      doc.paths as Record<string, Record<string, { description: string; tags: string[] }>>,
    )) {
      for (const op of Object.values(operations)) {
        expect(op.description.length).toBeGreaterThan(20);
        expect(doc.tags.map((t: { name: string }) => t.name)).toContain(op.tags[0]);
      }
    }
  });

  it('shows an example of every operation, recorded from a real run, and each is valid against its schemas', async () => {
    const doc = (await h.request('GET', '/v1/openapi.json', { key: null })).body;
    for (const id of OPERATION_IDS) {
      const example = OPERATION_EXAMPLES[id];
      const schemas: OperationSchemas = OPERATION_SCHEMAS[id];
      const op = doc.paths[OPERATIONS[id].path.replace(/:([A-Za-z]+)/g, '{$1}')][OPERATIONS[id].method.toLowerCase()];
      expect(op.responses[String(example.status)].content['application/json'].example, id).toEqual(example.response);
      const answer = schemas.responses[example.status as 200];
      expect(answer, `${id} ${example.status}`).toBeDefined();
      expect(answer!.safeParse(example.response).error, id).toBeUndefined();
      const input = schemas.body ?? schemas.query;
      if (input) expect(input.safeParse(example.input ?? {}).error, id).toBeUndefined();
      if (schemas.body) expect(op.requestBody.content['application/json'].example, id).toEqual(example.input ?? {});
      for (const name of pathParams(OPERATIONS[id].path)) expect(example.params?.[name], `${id} ${name}`).toBeTruthy();
    }
  });

  it("passes Spectral's spectral:oas rules with no error", async () => {
    const doc = (await h.request('GET', '/v1/openapi.json', { key: null })).body;
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const results = await spectral.run(new Document(JSON.stringify(doc), Json));
    // Severity 0 is an error (1 a warning, 2 information, 3 a hint).
    expect(
      results.filter((r) => r.severity === 0).map((r) => `${r.code}: ${r.message} at ${r.path.join('.')}`),
    ).toEqual([]);
  });

  it('declares the statuses any operation answers, and they occur: 400 broken JSON, 405 another method', async () => {
    const ws = await h.seed();
    const doc = (await h.request('GET', '/v1/openapi.json', { key: null })).body;
    for (const status of ['400', '405', '503'])
      expect(Object.keys(doc.paths['/v1/whoami'].get.responses)).toContain(status);
    const broken = await h.request('POST', '/v1/contacts', { key: ws.key, rawBody: '{"externalUserId":' });
    expect(broken.status).toBe(400);
    const other = await h.request('PUT', '/v1/whoami', { key: ws.key });
    expect(other.status).toBe(405);
    expect(other.body.error.code).toBe('ERR_METHOD_NOT_ALLOWED');
  });

  it('covers every route the app serves, and only those', async () => {
    const doc = (await h.request('GET', '/v1/openapi.json', { key: null })).body;
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const served = h.app['~routes']
      .filter((r) => r.route !== '/**')
      .map((r) => `${r.method} ${r.route!.replace(/:([A-Za-z]+)/g, '{$1}')}`)
      .sort();
    expect(documented).toEqual(served);
    expect(served.length).toBeGreaterThan(15);
  });

  it('documents bodies, parameters, responses and errors from the schemas, with their bounds', async () => {
    const doc = (await h.request('GET', '/v1/openapi.json', { key: null })).body;
    const create = doc.paths['/v1/contacts'].post;
    const body = create.requestBody.content['application/json'].schema;
    expect(body.additionalProperties).toBe(false);
    expect(body.properties.mrrCents.anyOf?.[0]?.maximum ?? body.properties.mrrCents.maximum).toBe(100_000_000);
    expect(body.properties.email.anyOf?.[0]?.maxLength ?? body.properties.email.maxLength).toBe(320);
    expect(Object.keys(create.responses).sort()).toEqual([
      '201',
      '400',
      '401',
      '402',
      '403',
      '405',
      '409',
      '413',
      '422',
      '429',
      '500',
      '503',
    ]);
    expect(create.parameters.map((p: { name: string }) => p.name)).toContain('Idempotency-Key');
    const list = doc.paths['/v1/contacts'].get;
    const limit = list.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false });
    const replay = doc.paths['/v1/webhooks/{webhookId}/deliveries/{deliveryId}/replay'].post;
    expect(
      replay.parameters.filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name),
    ).toEqual(['webhookId', 'deliveryId']);
    expect(replay.responses['409']).toBeDefined();
    const webhook = doc.paths['/v1/webhooks'].post.responses['201'].content['application/json'].schema;
    expect(webhook.properties.data.required).toContain('secret');
    expect(
      doc.paths['/v1/webhooks/{webhookId}'].get.responses['200'].content['application/json'].schema.properties.data
        .properties.secret,
    ).toBeUndefined();
  });

  it('answers 405 to other methods on it', async () => {
    const res = await h.request('POST', '/v1/openapi.json', { key: null });
    expect(res.status).toBe(405);
  });
});
