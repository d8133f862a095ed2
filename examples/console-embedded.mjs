// The team console inside your own admin, behind your own sign-in (docs/console.md, "Embedding it in your own admin").
// Your app decides who is at the console and with which role; the console's own sign-in is off.
//   npm install feedback-service h3
//   FEEDBACK_DATABASE=./feedback.db PORT=4000 node console-embedded.mjs
// then open http://127.0.0.1:4000/ and sign in as Alice (admin) or Victor (viewer).

import { createConsole } from 'feedback-service/console';
import { createEngine } from 'feedback-service/engine';
import { createApp } from 'feedback-service/h3';
import { H3, serve } from 'h3';

const engine = await createEngine({ database: process.env.FEEDBACK_DATABASE ?? './feedback.db' });
await engine.migrate();
const [workspace] = await engine.organizations.list();
const org = workspace ?? (await engine.organizations.create({ name: 'Acme', plan: 'paid' }));

// Your app's users and sessions: a stand-in (use your real session store).
const USERS = {
  alice: { email: 'alice@acme.example', name: 'Alice', role: 'admin' },
  victor: { email: 'victor@acme.example', name: 'Victor', role: 'viewer' },
};
const sessions = new Map(); // session token -> user key

/** Who a request is from, as your app knows it: the workspace, their address and their role there; or null. */
function member(request) {
  const token = /(?:^|;\s*)host_session=([^;]+)/.exec(request.headers.get('cookie') ?? '')?.[1];
  const user = USERS[sessions.get(token)];
  return user ? { organizationId: org.id, ...user } : null;
}

const feedback = createApp({ engine, sites: [createConsole({ engine, member })] });

export const app = new H3()
  .get(
    '/',
    () =>
      new Response(
        '<!doctype html><title>Acme admin</title><h1>Acme admin</h1><p><a href="/login/alice">Sign in as Alice (admin)</a> · <a href="/login/victor">Sign in as Victor (viewer)</a> · <a href="/console/">Feedback console</a></p>',
        { headers: { 'content-type': 'text/html; charset=utf-8' } },
      ),
  )
  .get('/login/:who', (event) => {
    const who = event.context.params?.who;
    if (!(who in USERS)) return new Response('No such user', { status: 404 });
    const token = crypto.randomUUID();
    sessions.set(token, who);
    return new Response(null, {
      status: 303,
      headers: { location: '/console/', 'set-cookie': `host_session=${token}; Path=/; HttpOnly; SameSite=Lax` },
    });
  })
  // Everything under /console goes to the feedback console, with the request as it came (its path included).
  .all('/console', (event) => feedback.fetch(event.req))
  .all('/console/**', (event) => feedback.fetch(event.req));

export const server = serve(app, { port: Number(process.env.PORT ?? 4000), hostname: '127.0.0.1', silent: true });
export { engine };
