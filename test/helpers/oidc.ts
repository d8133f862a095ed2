import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error: oidc-provider ships no types (its config is checked by the provider when it starts).
import Provider from 'oidc-provider';

/** The client the console is registered as at a test provider. */
export const OIDC_CLIENT = { client_id: 'feedback-console', client_secret: 'a-secret-the-provider-issued' };

export interface OidcProvider {
  readonly issuer: string;
  /** The authorization requests the provider received (their query), oldest first. */
  readonly seen: URLSearchParams[];
  /**
   * Go through the provider's own login and consent pages over HTTP as `account` (its dev interactions vouch for any
   * login, `email_verified: true`: an attacker's provider does the same), from the authorization URL the console sent
   * the browser to; the URL the provider sends the browser back to (the console's callback, with the code).
   */
  login(authorizationUrl: string, account: string): Promise<string>;
  close(): Promise<void>;
}

/** A real OpenID Connect provider (oidc-provider) on 127.0.0.1, with the console as a client redirecting to `redirectUris`. */
export async function startOidcProvider(redirectUris: () => string[]): Promise<OidcProvider> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      { ...OIDC_CLIENT, redirect_uris: redirectUris(), grant_types: ['authorization_code'], response_types: ['code'] },
    ],
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true, name: id.split('@')[0] }),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    features: { devInteractions: { enabled: true } },
    pkce: { required: () => true },
  });
  const callback = provider.callback();
  const seen: URLSearchParams[] = [];
  server.on('request', (req, res) => {
    const params = new URL(req.url ?? '/', issuer).searchParams;
    if (params.has('client_id')) seen.push(params);
    callback(req, res);
  });

  async function login(authorizationUrl: string, account: string): Promise<string> {
    const jar = new Map<string, string>();
    const send = async (url: string, init: RequestInit = {}) => {
      const res = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: {
          ...(init.headers as Record<string, string>),
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      });
      for (const line of res.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      return res;
    };
    let url = authorizationUrl;
    for (let hop = 0; hop < 12; hop++) {
      const res = await send(url);
      if (res.status >= 300 && res.status < 400) {
        const next = new URL(res.headers.get('location')!, url).href;
        if (!next.startsWith(issuer)) return next; // back to the console
        url = next;
        continue;
      }
      // An interaction page: its one form (login, then consent), posted with what it asks.
      const page = await res.text();
      const action = new URL(/action="([^"]+)"/.exec(page)![1]!, url).href;
      const prompt = /name="prompt" value="([^"]+)"/.exec(page)![1]!;
      const body = new URLSearchParams(
        prompt === 'login' ? { prompt, login: account, password: 'anything' } : { prompt },
      );
      const posted = await send(action, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      url = new URL(posted.headers.get('location')!, action).href;
    }
    throw new Error('the provider did not send the browser back');
  }

  return {
    issuer,
    seen,
    login,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
