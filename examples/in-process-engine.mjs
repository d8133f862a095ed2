// Use the engine in-process, without HTTP: an in-memory SQLite workspace.
// Run after `npm run build`: node examples/in-process-engine.mjs
import { createEngine } from 'feedback-service/engine';

const engine = await createEngine({ database: ':memory:' });
await engine.migrate();
const org = await engine.organizations.create({ name: 'Acme', plan: 'paid' });
const ws = engine.workspace(org.id);

await ws.contacts.identify({ externalUserId: 'u_1', email: 'ada@acme.com', plan: 'pro' });
await ws.contacts.identify({ externalUserId: 'u_1', plan: 'team' }); // a trait changed: contact.updated
await ws.contacts.identify({ externalUserId: 'u_1', plan: 'team' }); // only lastSeenAt moves: no event

for (const e of await ws.events.list()) console.log(e.type, e.payloadText);
await engine.close();
