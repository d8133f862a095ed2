import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { OPERATIONS } from '../src/contract/index.js';

// The reference pages promise only what the code does: every REST operation is in docs/api.md and every agent tool
// in docs/mcp.md, with its route, and nothing more.
const doc = (name: string) => readFileSync(join(import.meta.dirname, '../docs', name), 'utf8');
const normal = (path: string) => path.replace(/:\w+|\{\w+\}/g, '{}');
const operations = Object.values(OPERATIONS).map((o) => `${o.method} ${normal(o.path)}`);

/** Every `METHOD /v1/...` a page names (`GET|PATCH|DELETE /v1/webhooks/{id}` is three). */
function routesIn(text: string): string[] {
  return [
    ...text.matchAll(/\b((?:GET|POST|PUT|PATCH|DELETE)(?:\|(?:GET|POST|PUT|PATCH|DELETE))*) (\/v1\/[^\s`|),]*)/g),
  ].flatMap(([, methods, path]) => methods!.split('|').map((method) => `${method} ${normal(path!)}`));
}

it('docs/api.md documents every REST operation, and no route that does not exist', () => {
  const documented = new Set(routesIn(doc('api.md')));
  for (const operation of operations) expect(documented, operation).toContain(operation);
  const extra = [...documented].filter((route) => !operations.includes(route) && route !== 'GET /v1/openapi.json');
  expect(extra).toEqual([]);
});

it('docs/mcp.md lists every tool with the route it calls', () => {
  const text = doc('mcp.md');
  for (const operation of Object.values(OPERATIONS)) {
    const row = text.split('\n').find((line) => line.startsWith(`| \`${operation.tool}\` |`));
    expect(row, operation.tool).toBeDefined();
    expect(routesIn(row!), operation.tool).toContain(`${operation.method} ${normal(operation.path)}`);
  }
});

it('docs/client.md lists every client method with the route it calls', () => {
  const text = doc('client.md');
  for (const operation of Object.values(OPERATIONS)) {
    const row = text.split('\n').find((line) => line.startsWith(`| \`${operation.client}(`));
    expect(row, operation.client).toBeDefined();
    expect(routesIn(row!), operation.client).toContain(`${operation.method} ${normal(operation.path)}`);
  }
});
