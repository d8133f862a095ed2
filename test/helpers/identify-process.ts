// A process that identifies contacts as fast as it can, for the crash tests: against DATABASE_URL, workspace ORG_ID,
// rounds of 50 concurrent identifies (each of 25 existing contacts changed twice, and 25 new contacts), until it is
// killed. After each identify is answered it prints `ack <externalUserId> <name>`: what a client was told.
// Writes to a pipe are synchronous on Linux, so a line read by the parent was printed after the answer.
import { createEngine } from '../../src/engine/index.js';

const engine = await createEngine({ database: process.env.DATABASE_URL!, log: () => {} });
const ws = engine.workspace(process.env.ORG_ID!);
process.stdout.write('ready\n');
for (let round = 0; ; round++) {
  const calls = [
    ...Array.from({ length: 50 }, (_, i) => ({ externalUserId: `u${i % 25}`, name: `r${round}-${i}` })),
    ...Array.from({ length: 25 }, (_, i) => ({ externalUserId: `n${round}-${i}`, name: `new${round}-${i}` })),
  ];
  await Promise.all(
    calls.map(async (body) => {
      const { contact } = await ws.contacts.identify(body);
      process.stdout.write(`ack ${contact.externalUserId} ${contact.name}\n`);
    }),
  );
}
