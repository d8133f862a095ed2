// The full stack under load: engine + h3 app on node:http, in its own process.
// Prints one JSON line { url, key, organizationId } once listening.
import { parseArgs } from 'node:util';
import { createEngine, createEngineOnOrm, engineOrmOptions } from '../src/engine/engine.js';
import { parseDatabase } from '../src/engine/internal/orm-config.js';
import { createApp, serveNode } from '../src/h3/index.js';

const { values } = parseArgs({ options: { db: { type: 'string' }, driver: { type: 'string' }, seed: { type: 'string' } } });
const database = values.db!;
let engine;
if (values.driver === 'better-sqlite') {
  // Comparison only: the same engine on @mikro-orm/better-sqlite (a devDependency, never shipped).
  const { MikroORM } = await import('@mikro-orm/better-sqlite');
  const target = parseDatabase(database);
  const options = await engineOrmOptions(target);
  const orm = await MikroORM.init({ ...(options as object), pool: undefined } as never);
  for (const pragma of ['journal_mode = WAL', 'synchronous = NORMAL', 'busy_timeout = 5000', 'foreign_keys = ON']) {
    await orm.em.getConnection().execute(`PRAGMA ${pragma}`);
  }
  engine = createEngineOnOrm(orm as never, 'sqlite');
} else {
  engine = await createEngine({ database });
}
await engine.migrate();
const org = await engine.organizations.create({ name: 'bench', plan: 'paid', rateLimit: 1_000_000_000 });
const key = await engine.keys.create(org.id, 'read:write');
const ws = engine.workspace(org.id);
for (let i = 0; i < Number(values.seed ?? 0); i++) await ws.contacts.identify({ externalUserId: `u${i}`, name: 'seed', email: `u${i}@example.com` });
const server = await serveNode(createApp({ engine }), { port: 0 });
console.log(JSON.stringify({ url: server.url, key: key.key, organizationId: org.id }));
process.on('SIGTERM', async () => {
  await server.close();
  await engine.close();
  process.exit(0);
});
