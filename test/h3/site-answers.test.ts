import { request as httpRequest } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { H3 } from 'h3';
import { beforeAll, expect, it } from 'vitest';
import { createConsole } from '../../src/console/index.js';
import { CLI_ACTOR } from '../../src/engine/index.js';
import { createApp } from '../../src/h3/index.js';
import { type NodeServer, serveNode } from '../../src/h3/node.js';
import { createPortal } from '../../src/portal/index.js';
import { describeEngine } from '../helpers/harness.js';

// What every answer of the two sites (the portal and the console) gets on its way out, in one place (finishSiteAnswer
// in src/h3/pages.ts): HEAD as GET without the body, pages tagged and answered 304 when unchanged, pages compressed.

const fetchApp = (app: H3, path: string, init: RequestInit = {}) =>
  app.fetch(new Request(`http://site.test${path}`, init));

/** The cookies an answer set, as the browser sends them back (one visitor: its anti-forgery token). */
const cookieOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

describeEngine('the answers of the portal and the console', (e) => {
  let app: H3;
  let base: string;
  let boardPath: string;
  let postPath: string;
  let add: (title: string) => Promise<unknown>;
  beforeAll(async () => {
    app = createApp({
      engine: e.engine,
      sites: [createPortal({ engine: e.engine }), createConsole({ engine: e.engine })],
      logError: () => {},
    });
    const org = await e.engine.organizations.create({ name: 'Acme', plan: 'paid' });
    await e.engine.organizations.update(org.id, { handle: `answers-${e.database}`, portalEnabled: true });
    const w = e.engine.workspace(org.id);
    const board = await w.boards.create({ name: 'Ideas' });
    add = (title) => w.posts.create(board.id, { title });
    const post = (await add('Dark mode')) as { slug: string };
    base = `/portal/answers-${e.database}`;
    boardPath = `${base}/b/${board.slug}`;
    postPath = `${boardPath}/p/${post.slug}`;
  });

  it('HEAD answers every GET route as its GET does, without the body: pages, assets, the widget, the console, a 404', async () => {
    const home = await (await fetchApp(app, `${base}/`)).text();
    const stylesheet = home.match(/href="([^"]+\.css)"/)![1]!;
    const script = home.match(/src="([^"]+\.js)"/)![1]!;
    for (const path of [
      `${base}/`,
      boardPath,
      postPath,
      stylesheet,
      script,
      '/portal/widget.js',
      '/console/sign-in',
      `${base}/nothing-here`,
    ]) {
      const get = await fetchApp(app, path);
      const head = await fetchApp(app, path, { method: 'HEAD' });
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
      expect((await get.text()).length, path).toBeGreaterThan(0);
    }
    expect((await fetchApp(app, `${base}/nothing-here`, { method: 'HEAD' })).status).toBe(404);
  });

  it('a page carries an ETag of its content: the same page answers 304 to it, a changed page 200 with a new tag', async () => {
    // One visitor (its cookie), as a browser is: the list's vote forms carry that visitor's anti-forgery token.
    const first = await fetchApp(app, boardPath);
    const cookie = cookieOf(first);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]+"$/);
    expect((await fetchApp(app, boardPath, { headers: { cookie } })).headers.get('etag')).toBe(etag);
    const again = await fetchApp(app, boardPath, { headers: { cookie, 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect(again.headers.get('etag')).toBe(etag);
    expect(again.headers.get('cache-control')).toBe('no-cache');
    expect((await fetchApp(app, boardPath, { headers: { cookie, 'if-none-match': 'W/"other", *' } })).status).toBe(304);
    expect((await fetchApp(app, boardPath, { headers: { cookie, 'if-none-match': 'W/"other"' } })).status).toBe(200);
    await add('Offline mode');
    const changed = await fetchApp(app, boardPath, { headers: { cookie, 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect(await changed.text()).toContain('Offline mode');
  });

  it('a page is compressed as the browser takes it (brotli, else gzip), to the same HTML, with one tag', async () => {
    // One visitor (its cookie), as a browser is: the page's forms carry that visitor's anti-forgery token.
    const first = await fetchApp(app, postPath);
    const cookie = cookieOf(first);
    const visit = (headers: Record<string, string> = {}) =>
      fetchApp(app, postPath, { headers: { cookie, ...headers } });
    const plain = await visit();
    expect(plain.headers.get('content-encoding')).toBeNull();
    const html = await plain.text();
    expect(html.length).toBeGreaterThan(1024);
    const br = await visit({ 'accept-encoding': 'gzip, deflate, br' });
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toMatch(/accept-encoding/i);
    const brBytes = Buffer.from(await br.arrayBuffer());
    expect(brotliDecompressSync(brBytes).toString()).toBe(html);
    expect(brBytes.length).toBeLessThan(html.length / 2);
    expect(Number(br.headers.get('content-length'))).toBe(brBytes.length);
    const gz = await visit({ 'accept-encoding': 'gzip' });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(html);
    // The same page, whatever its coding, has one tag.
    expect(br.headers.get('etag')).toBe(plain.headers.get('etag'));
  });

  it('over a real connection: HEAD gets the headers alone, and a browser-like client reads the compressed page', async () => {
    let server: NodeServer | undefined;
    try {
      server = await serveNode(app, { port: 0 });
      const origin = server.url.replace(/\/$/, '');
      const head = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
        (resolve, reject) => {
          const req = httpRequest(`${origin}${boardPath}`, { method: 'HEAD' }, (res) => {
            let body = '';
            res.on('data', (c) => (body += c));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
          });
          req.on('error', reject);
          req.end();
        },
      );
      expect(head).toMatchObject({ status: 200, body: '' });
      expect(head.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(head.headers.etag).toMatch(/^W\//);
      const page = await fetch(`${origin}${boardPath}`, { headers: { 'accept-encoding': 'br' } });
      expect(page.headers.get('content-encoding')).toBe('br');
      expect(await page.text()).toContain('Dark mode');
    } finally {
      await server?.close();
    }
  });

  it("the server's own GET routes answer HEAD too, and every page links an icon that is served", async () => {
    for (const path of ['/healthz', '/readyz', '/v1/openapi.json', '/docs', '/favicon.ico', '/favicon.svg']) {
      const get = await fetchApp(app, path);
      const head = await fetchApp(app, path, { method: 'HEAD' });
      expect(head.status, path).toBe(get.status);
      expect(head.headers.get('content-type'), path).toBe(get.headers.get('content-type'));
      expect(await head.text(), path).toBe('');
    }
    expect((await fetchApp(app, '/nowhere', { method: 'HEAD' })).status).toBe(404);
    const icon = await fetchApp(app, '/favicon.ico');
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/svg+xml');
    expect(await icon.text()).toMatch(/^<svg /);
    for (const path of [`${base}/`, '/console/sign-in']) {
      const page = await (await fetchApp(app, path)).text();
      expect(page, path).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
    }
  });

  it("a workspace's logo is its portal's icon", async () => {
    const org = await e.engine.organizations.create({ name: 'Logo Co' });
    await e.engine.organizations.update(org.id, { handle: `logo-${e.database}`, portalEnabled: true });
    await e.engine
      .workspace(org.id)
      .as(CLI_ACTOR)
      .updateSettings({ portalLogoUrl: 'https://cdn.example.com/logo.png' });
    const page = await (await fetchApp(app, `/portal/logo-${e.database}/`)).text();
    expect(page).toContain('<link rel="icon" href="https://cdn.example.com/logo.png">');
    expect(page).not.toContain('/favicon.svg');
  });
});
