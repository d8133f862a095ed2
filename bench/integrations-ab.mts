// What the integrations cost the write path (issue 51): every event's insert now also fires the
// `event_integration_fan_out` trigger (a Slack notice's job, for a workspace whose Slack connection takes that kind).
// Identify changing a trait (one update and its `contact.updated` event) against an earlier checkout's, in one process,
// taking turns, on SQLite and on PostgreSQL; medians of 30 rounds of 50 identifies each side, the side that goes first
// alternating. The new side's workspace has Linear and Slack connected (Slack taking post events only).
// Run: FEEDBACK_SECRET_KEY=$(npx tsx src/cli/index.ts secrets generate-key) BENCH_BASE=/path/to/older/checkout \
//   npx tsx bench/integrations-ab.mts
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from '../test/helpers/databases.js';
import { takingTurns } from './measure.js';

async function stand(root: string, dialect: 'sqlite' | 'postgresql', connect: boolean) {
  const { createEngine, CLI_ACTOR } = await import(`${root}/src/engine/index.ts`);
  const database =
    dialect === 'sqlite'
      ? join(mkdtempSync(join(tmpdir(), 'ab-')), 'x.db')
      : (await createTestDatabase('postgresql')).url;
  const engine = await createEngine({ log: () => {}, database });
  await engine.migrate();
  const org = await engine.organizations.create({ name: 'Bench', plan: 'paid' });
  const w = engine.workspace(org.id);
  if (connect) {
    await w.as(CLI_ACTOR).integrations.connect({ service: 'linear', apiKey: 'k' });
    const slack = await w
      .as(CLI_ACTOR)
      .integrations.connect({ service: 'slack', webhookUrl: 'https://hooks.slack.com/services/T/B/x' });
    await w.as(CLI_ACTOR).integrations.updateSettings(slack.id, { notices: ['post.created'] });
  }
  for (let i = 0; i < 50; i++) await w.contacts.identify({ externalUserId: `u${i}`, plan: 'a' });
  let flip = 0;
  return {
    engine,
    async round() {
      const plan = ++flip % 2 ? 'b' : 'a';
      const t0 = performance.now();
      for (let i = 0; i < 50; i++) await w.contacts.identify({ externalUserId: `u${i}`, plan });
      return (performance.now() - t0) / 50;
    },
  };
}

const base = process.env.BENCH_BASE;
if (!base) throw new Error('Set BENCH_BASE to a checkout of the commit to compare with');
for (const dialect of ['sqlite', 'postgresql'] as const) {
  const a = await stand(base, dialect, false);
  const b = await stand(join(import.meta.dirname, '..'), dialect, true);
  const { old: o, new: n } = await takingTurns(30, (side) => (side === 'old' ? a : b).round());
  console.log(
    `${dialect}: identify (a changed trait) old ${(o * 1000).toFixed(0)} us, new ${(n * 1000).toFixed(0)} us, new/old ${(n / o).toFixed(2)}`,
  );
  await a.engine.close();
  await b.engine.close();
}
