import type { H3 } from 'h3';
import { CLI_ACTOR, type Engine, type TeamRole } from '../../src/engine/index.js';

export interface Page {
  status: number;
  headers: Headers;
  text: string;
  /** Where a redirect points. */
  location: string | null;
}

/**
 * A browser as far as the portal can tell, over `app.fetch`: it keeps cookies (per path, as Set-Cookie scopes them),
 * sends Fetch Metadata as Chromium does for a same-origin form, and reads the anti-forgery field from the pages.
 */
export class Visitor {
  /** name -> { value, path } */
  readonly cookies = new Map<string, { value: string; path: string }>();
  /** The anti-forgery field of the last page that had one. */
  csrf = '';

  constructor(
    private readonly app: H3,
    readonly origin = 'http://portal.test',
  ) {}

  private cookieHeader(path: string): string {
    return [...this.cookies]
      .filter(([, c]) => path.startsWith(c.path))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private async send(path: string, init: RequestInit & { headers: Record<string, string> }): Promise<Page> {
    const cookie = this.cookieHeader(path);
    const res = await this.app.fetch(
      new Request(`${this.origin}${path}`, { ...init, headers: { ...(cookie ? { cookie } : {}), ...init.headers } }),
    );
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split('; ');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      const cookiePath = attributes.find((a) => a.startsWith('Path='))?.slice(5) ?? '/';
      if (attributes.includes('Max-Age=0')) this.cookies.delete(name);
      else this.cookies.set(name, { value, path: cookiePath });
    }
    const text = await res.text();
    const field = /name="csrf" value="([^"]*)"/.exec(text);
    if (field) this.csrf = field[1]!;
    return { status: res.status, headers: res.headers, text, location: res.headers.get('location') };
  }

  get(path: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.send(path, { method: 'GET', headers: { 'sec-fetch-site': 'none', ...headers } });
  }

  /**
   * A form post from one of the portal's own pages (its anti-forgery field included unless `csrf` is given). Fields as
   * a record, or as pairs where a name repeats (checkboxes).
   */
  post(
    path: string,
    fields: Record<string, string> | Array<[string, string]>,
    headers: Record<string, string> = {},
  ): Promise<Page> {
    const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
    const body = new URLSearchParams([
      ...(pairs.some(([name]) => name === 'csrf') ? [] : [['csrf', this.csrf] as [string, string]]),
      ...pairs,
    ]).toString();
    return this.send(path, {
      method: 'POST',
      body,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'content-length': String(Buffer.byteLength(body)),
        origin: this.origin,
        'sec-fetch-site': 'same-origin',
        ...headers,
      },
    });
  }
}

/**
 * A person of `role` on the workspace's team, signed into the console by their one-time link, as a visitor of `app`
 * at http://console.test (the engine's public address in the console's suites).
 */
export async function consoleMember(app: H3, engine: Engine, organizationId: string, role: TeamRole): Promise<Visitor> {
  const email = `${role}.${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { signIn } = await engine
    .workspace(organizationId)
    .team.add(CLI_ACTOR, { email, role }, { invite: false, workspace: 'Acme' });
  const token = new URL(signIn.link!, 'http://console.test').searchParams.get('token')!;
  const v = new Visitor(app, 'http://console.test');
  await v.get(`/console/sign-in/link?token=${token}`);
  await v.post('/console/sign-in/link', { token });
  return v;
}
