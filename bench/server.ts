// The full stack under load: engine + h3 app on node:http, in its own process.
// Prints one JSON line { url, key, organizationId } once listening.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

// The built package, as users run it (npm run bench builds first); BENCH_SOURCE=1 runs the sources instead.
const from = (face: string) =>
  pathToFileURL(
    join(import.meta.dirname, process.env.BENCH_SOURCE ? `../src/${face}/index.ts` : `../dist/${face}/index.js`),
  ).href;
const { createEngine } = (await import(from('engine'))) as typeof import('../src/engine/index.js');
const { createApp, serveNode } = (await import(from('h3'))) as typeof import('../src/h3/index.js');

// --key and --org reuse a workspace seeded by an earlier start on the same database.
const { values } = parseArgs({
  options: { db: { type: 'string' }, seed: { type: 'string' }, key: { type: 'string' }, org: { type: 'string' } },
});
const engine = await createEngine({ database: values.db! });
await engine.migrate();
let info = { key: values.key, organizationId: values.org };
if (!info.key || !info.organizationId) {
  const org = await engine.organizations.create({ name: 'bench', plan: 'paid', rateLimit: 1_000_000_000 });
  const key = await engine.keys.create(org.id, 'read:write');
  const ws = engine.workspace(org.id);
  for (let i = 0; i < Number(values.seed ?? 0); i++)
    await ws.contacts.identify({ externalUserId: `u${i}`, name: 'seed', email: `u${i}@example.com` });
  info = { key: key.key, organizationId: org.id };
}
const server = await serveNode(createApp({ engine }), { port: 0 });
console.log(JSON.stringify({ url: server.url, ...info }));
process.on('SIGTERM', async () => {
  await server.close();
  await engine.close();
  process.exit(0);
});
