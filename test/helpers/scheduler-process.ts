// One server process's scheduler, for the multi-process tests: started against DATABASE_URL (webhooks allowed to
// private addresses; Linear and GitHub at LINEAR_API_URL and GITHUB_API_URL; mail and admin notices to SMTP_URL; LEASE_MS and POLL_MS as given), prints "ready" (IDLE_WHEN_READY: once idle), and on
// SIGTERM stops (finishing what it claimed) and prints its totals as JSON. SIGKILL ends it with nothing finished.
import { createEngine } from '../../src/engine/index.js';

const engine = await createEngine({
  database: process.env.DATABASE_URL!,
  log: (message, error) => process.stderr.write(`${message}${error ? ` ${(error as Error).message}` : ''}\n`),
  mail: { smtpUrl: process.env.SMTP_URL, publicUrl: 'https://feedback.test' },
  webhooks: {
    allowPrivateNetworks: true,
    timeoutMs: 5000,
    scheduler: { leaseMs: Number(process.env.LEASE_MS ?? 60_000), pollMs: Number(process.env.POLL_MS ?? 200) },
  },
  // The integrations' services, when the test runs local stand-ins of them.
  integrations: {
    ...(process.env.LINEAR_API_URL ? { linear: { apiUrl: process.env.LINEAR_API_URL } } : {}),
    ...(process.env.GITHUB_API_URL ? { github: { apiUrl: process.env.GITHUB_API_URL } } : {}),
  },
});
await engine.scheduler.start();
// IDLE_WHEN_READY: "ready" once the start's own first round has claimed and sent what it found, so that the next claim
// is a wake-up's (a commit, a NOTIFY, the poll).
if (process.env.IDLE_WHEN_READY) await engine.scheduler.runDue();
process.stdout.write('ready\n');
process.once('SIGTERM', () => {
  void (async () => {
    await engine.close();
    process.stdout.write(`${JSON.stringify(engine.scheduler.totals)}\n`);
    process.exit(0);
  })();
});
