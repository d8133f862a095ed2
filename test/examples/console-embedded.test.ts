import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it, vi } from 'vitest';

// examples/console-embedded.mjs as a user runs it (FEEDBACK_DATABASE and PORT from the environment): the host's own
// sign-in decides who is at the console and with which role.
const dir = mkdtempSync(join(tmpdir(), 'console-embedded-'));
// Stubbed, and put back after the file (test files share a process: nothing here may reach another file).
vi.stubEnv('FEEDBACK_DATABASE', join(dir, 'feedback.db'));
vi.stubEnv('PORT', '0');
const name = 'console-embedded';
const example = (await import(`../../examples/${name}.mjs`)) as {
  server: { ready(): Promise<unknown>; url?: string; close(force?: boolean): Promise<void> };
  engine: { close(): Promise<void> };
};
await example.server.ready();
const base = example.server.url!.replace('localhost', '127.0.0.1').replace(/\/$/, '');
afterAll(async () => {
  await example.server.close(true);
  await example.engine.close();
  rmSync(dir, { recursive: true, force: true });
  vi.unstubAllEnvs();
});

/** Sign in on the host as `who`: its session cookie. */
async function hostSession(who: string): Promise<string> {
  const res = await fetch(`${base}/login/${who}`, { redirect: 'manual' });
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

it('nobody signed in on the host: 401; Alice (admin) reads and changes the settings; Victor (viewer) is refused', async () => {
  expect((await fetch(`${base}/console/`, { redirect: 'manual' })).status).toBe(401);
  const alice = await hostSession('alice');
  const home = await fetch(`${base}/console/`, { headers: { cookie: alice }, redirect: 'manual' });
  const posts = home.headers.get('location')!;
  expect(posts).toMatch(/^\/console\/org_\w+\/posts$/);
  const settingsPath = posts.replace('/posts', '/settings');
  const page = await fetch(`${base}${settingsPath}`, { headers: { cookie: alice } });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain('alice@acme.example · admin');
  // A form as the browser sends it: the console's anti-forgery cookie and field, same origin.
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)![1]!;
  const csrfCookie = page.headers
    .getSetCookie()
    .find((c) => c.startsWith('fs_csrf='))!
    .split(';')[0]!;
  const send = (cookie: string) =>
    fetch(`${base}${settingsPath}/workspace`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: `${cookie}; ${csrfCookie}`,
        'content-type': 'application/x-www-form-urlencoded',
        origin: base,
        'sec-fetch-site': 'same-origin',
      },
      body: new URLSearchParams({ csrf, name: 'Acme Corp' }),
    });
  expect((await send(alice)).status).toBe(303);
  expect(await (await fetch(`${base}${settingsPath}`, { headers: { cookie: alice } })).text()).toContain(
    'value="Acme Corp"',
  );
  const victor = await hostSession('victor');
  expect((await send(victor)).status).toBe(403);
  expect((await fetch(`${base}/console/sign-in`, { headers: { cookie: alice } })).status).toBe(404);
});
