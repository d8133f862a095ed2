import { randomBytes } from 'node:crypto';
import type { Engine } from '../../src/engine/index.js';
import type { SmtpSink } from './smtp.js';

/** A workspace with its portal on (a unique handle), one public board and one post. */
export async function portalWorkspace(engine: Engine, name = 'Acme') {
  const org = await engine.organizations.create({ name, plan: 'paid' });
  const handle = `ws-${randomBytes(4).toString('hex')}`;
  await engine.organizations.update(org.id, { handle, portalEnabled: true });
  const ws = engine.workspace(org.id);
  const board = await ws.boards.create({ name: 'Ideas' });
  const post = await ws.posts.create(board.id, { title: 'Dark mode' });
  return { org, handle, ws, board, post };
}

/** Addresses unique to one test, so the suites sharing one SMTP sink can tell their mail apart. */
export function addresses(...names: string[]): Record<string, string> {
  const tag = randomBytes(3).toString('hex');
  return Object.fromEntries(names.map((n) => [n, `${n}.${tag}@example.com`]));
}

/** How many messages each address got since the sink held `from` messages. */
export function countsSince(sink: SmtpSink, from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of sink.mails.slice(from)) for (const to of m.to) counts.set(to, (counts.get(to) ?? 0) + 1);
  return counts;
}
