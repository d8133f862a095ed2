// The CPU work of a write with and without the search triggers (SQLite, in process), counted in instructions by
// callgrind, which a busy machine or a slow disk does not change (unlike writes per second). Run by
// bench/search-write-instructions.sh (needs `npm run build` and valgrind); docs/benchmarks.md, "Search: writes".
//   node bench/search-write-instructions.mjs with|without identify|existing|posts N [sync-file-prefix]
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine } from '../dist/engine/index.js';

const [side, kind, n] = [process.argv[2], process.argv[3], Number(process.argv[4])];
const engine = await createEngine({ database: join(mkdtempSync(join(tmpdir(), 'wc-')), 'w.db'), log: () => {} });
await engine.migrate();
if (side === 'without')
  for (const { name } of await engine.db.all(
    "SELECT name FROM sqlite_master WHERE type = 'trigger' AND name GLOB '*_search_*'",
  ))
    await engine.db.run(`DROP TRIGGER ${name}`);
const org = await engine.organizations.create({ name: 'W', plan: 'paid' });
const w = engine.workspace(org.id);
const board = await w.boards.create({ name: 'Ideas' });
const ops = {
  identify: (i) =>
    w.contacts.identify({ externalUserId: `u-${i}`, email: `person${i}@example.com`, name: `Person ${i}` }),
  existing: (i) => w.contacts.identify({ externalUserId: `u-${Math.abs(i) % 300}`, plan: `plan-${i}` }),
  posts: (i) =>
    w.posts.create(board.id, {
      title: `Idea ${i} alpha beta gamma`,
      body: { json: {}, text: `some words for the body of idea ${i} delta epsilon` },
    }),
};
// Contacts for the existing-contact case, and warm-ups, the same whatever n is.
for (let i = 0; i < 300; i++) await ops.identify(i + 100000);
for (let i = 0; i < 300; i++) await w.contacts.identify({ externalUserId: `u-${i}`, email: `p${i}@example.com` });
for (let i = 0; i < 200; i++) await ops[kind](-1 - i);
// Only the measured writes are counted: the runner turns callgrind's instrumentation on at "ready" and off at "done".
const sync = process.argv[5];
const waitFor = async (file) => {
  while (!existsSync(file)) await new Promise((r) => setTimeout(r, 50));
};
if (sync) {
  writeFileSync(`${sync}.ready`, '');
  await waitFor(`${sync}.go`);
}
for (let i = 0; i < n; i++) await ops[kind](i);
if (sync) {
  writeFileSync(`${sync}.done`, '');
  await waitFor(`${sync}.stop`);
}
await engine.close();
