import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { signPayload } from '../../src/verify/index.js';

// The receiver examples as a user runs them (PORT and FEEDBACK_WEBHOOK_SECRET from the environment): a signed delivery
// is taken, the same one again is a duplicate, a forged one is refused.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
// Stubbed, and put back after the file (test files share a process: nothing here may reach another file).
vi.stubEnv('PORT', '0');
vi.stubEnv('FEEDBACK_WEBHOOK_SECRET', SECRET);

/** An example program, imported as `node` would run it (they are plain .mjs files, with no declarations). */
const example = (name: string): Promise<{ server: unknown }> => import(`../../examples/${name}.mjs`);
const express = (await example('receiver-express')).server as Server;
const h3 = (await example('receiver-h3')).server as {
  ready(): Promise<unknown>;
  url?: string;
  close(force?: boolean): Promise<void>;
};
await new Promise<void>((resolve) => (express.listening ? resolve() : express.once('listening', () => resolve())));
await h3.ready();
afterAll(async () => {
  await new Promise((resolve) => express.close(resolve));
  await h3.close(true);
  vi.unstubAllEnvs();
});

const receivers = {
  express: `http://127.0.0.1:${(express.address() as AddressInfo).port}/webhooks/feedback`,
  h3: new URL('/webhooks/feedback', h3.url!.replace('localhost', '127.0.0.1')).href,
};

describe.each(Object.entries(receivers))('examples/receiver-%s.mjs', (_name, url) => {
  it('takes a signed delivery once, answers its repeat as a duplicate, and refuses a forged one', async () => {
    const body = JSON.stringify({
      event: 'contact.deleted',
      organizationId: 'org_1',
      contact: { id: 'ctc_1', externalUserId: null },
    });
    const headers = (signature: string, id: string) => ({
      'content-type': 'application/json',
      'x-service-signature': signature,
      'x-service-delivery': id,
      'x-service-event': 'contact.deleted',
    });
    const id = `dlv_${url.length}${Date.now()}`;
    const signature = await signPayload(SECRET, body);
    expect((await fetch(url, { method: 'POST', headers: headers(signature, id), body })).status).toBe(204);
    const again = await fetch(url, { method: 'POST', headers: headers(signature, id), body });
    expect([again.status, await again.text()]).toEqual([200, 'duplicate']);
    const forged = await fetch(url, {
      method: 'POST',
      headers: headers(await signPayload('whsec_forged0000000000000000000000000', body), `${id}-x`),
      body,
    });
    expect(forged.status).toBe(400);
  });
});
