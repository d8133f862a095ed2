// The sender on its own, against real receivers on 127.0.0.1: what one attempt reports for each way a
// receiver can answer (the scheduler's tests cover the same through the delivery log).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender, type Sender } from '../../../src/engine/delivery/sender.js';
import { type Receiver, startReceiver } from '../../helpers/receiver.js';

const TIMEOUT_MS = 400;
const headers = { 'Content-Type': 'application/json', 'X-Service-Delivery': 'dlv_sender_test' };

describe('delivery sender', () => {
  let receiver: Receiver;
  let sender: Sender;
  beforeAll(async () => {
    receiver = await startReceiver();
    sender = createSender({ allowPrivateNetworks: true, timeoutMs: TIMEOUT_MS });
  });
  afterAll(async () => {
    await sender.close();
    await receiver.close();
  });

  it('posts the body and headers as given to the path and query of the url', async () => {
    receiver.respond((_req, res) => void res.end('thanks'));
    const outcome = await sender.send(
      `${receiver.origin}/hooks/in?source=feedback`,
      headers,
      '{"event":"contact.created"}',
    );
    expect(outcome).toMatchObject({ ok: true, statusCode: 200, error: null, responseBody: 'thanks' });
    const got = receiver.requests.at(-1)!;
    expect(got).toMatchObject({
      method: 'POST',
      path: '/hooks/in?source=feedback',
      body: '{"event":"contact.created"}',
    });
    expect(got.headers['x-service-delivery']).toBe('dlv_sender_test');
  });

  it('an empty 2xx body is kept as null, not as an empty string', async () => {
    receiver.respond((_req, res) => {
      res.statusCode = 204;
      res.end();
    });
    expect(await sender.send(`${receiver.origin}/`, headers, '{}')).toMatchObject({
      ok: true,
      statusCode: 204,
      responseBody: null,
    });
  });

  it('keeps the first 1 KiB of a body that arrives in many chunks, byte for byte', async () => {
    // Two-byte characters after one ASCII byte: chunk edges and the 1 KiB cut fall mid-character.
    const bytes = Buffer.from(`a${'é'.repeat(2000)}`);
    receiver.respond(async (_req, res) => {
      res.statusCode = 500;
      for (let i = 0; i < bytes.length; i += 100) {
        res.write(bytes.subarray(i, i + 100));
        await new Promise((r) => setTimeout(r, 1));
      }
      res.end();
    });
    const outcome = await sender.send(`${receiver.origin}/`, headers, '{}');
    expect(outcome).toMatchObject({ ok: false, statusCode: 500, error: 'receiver answered 500' });
    expect(outcome.responseBody).toBe(`a${'é'.repeat(511)}\uFFFD`);
  });

  it('does not read an endless 2xx body to its end: past 64 KiB the attempt is over, and it succeeded', async () => {
    let stop = false;
    receiver.respond(async (_req, res) => {
      res.writeHead(200);
      while (!stop && !res.destroyed) {
        res.write('y'.repeat(16 * 1024));
        await new Promise((r) => setTimeout(r, 1));
      }
    });
    const outcome = await sender.send(`${receiver.origin}/`, headers, '{}');
    stop = true;
    expect(outcome).toMatchObject({ ok: true, statusCode: 200, responseBody: 'y'.repeat(1024) });
    expect(outcome.durationMs).toBeLessThan(TIMEOUT_MS);
  });

  it('a body still arriving at the deadline times out, even though each chunk came in time', async () => {
    let stop = false;
    receiver.respond(async (_req, res) => {
      res.writeHead(200);
      while (!stop && !res.destroyed) {
        res.write('.');
        await new Promise((r) => setTimeout(r, 50));
      }
    });
    const outcome = await sender.send(`${receiver.origin}/`, headers, '{}');
    stop = true;
    expect(outcome).toMatchObject({
      ok: false,
      statusCode: 200,
      error: `timeout: no complete response within ${TIMEOUT_MS} ms`,
    });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS);
    expect(outcome.durationMs).toBeLessThan(TIMEOUT_MS * 3);
  });

  it('a receiver that never answers times out without a status code', async () => {
    receiver.respond(() => {});
    const outcome = await sender.send(`${receiver.origin}/`, headers, '{}');
    expect(outcome).toMatchObject({
      ok: false,
      statusCode: null,
      error: `timeout: no complete response within ${TIMEOUT_MS} ms`,
    });
  });

  it('a redirect is reported with its location and not followed', async () => {
    receiver.respond((_req, res) => {
      res.writeHead(307, { location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    });
    const before = receiver.requests.length;
    const outcome = await sender.send(`${receiver.origin}/moved`, headers, '{}');
    expect(outcome).toMatchObject({
      ok: false,
      statusCode: 307,
      error: 'redirect to http://127.0.0.1:1/elsewhere not followed',
    });
    expect(receiver.requests.length).toBe(before + 1);
  });

  it('a connection closed before any answer fails with the reason', async () => {
    receiver.respond((_req, res) => void res.destroy());
    const outcome = await sender.send(`${receiver.origin}/`, headers, '{}');
    expect(outcome.ok).toBe(false);
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/socket|closed/i);
  });

  it('an invalid url fails the attempt without a request', async () => {
    expect(await sender.send('not a url', headers, '{}')).toMatchObject({
      ok: false,
      statusCode: null,
      error: 'invalid url not a url',
    });
  });

  it('with the guard on, an IP-literal private host is refused before connecting', async () => {
    const guarded = createSender({ allowPrivateNetworks: false, timeoutMs: TIMEOUT_MS });
    const before = receiver.requests.length;
    try {
      expect(await guarded.send(`${receiver.origin}/`, headers, '{}')).toMatchObject({
        ok: false,
        statusCode: null,
        error: '127.0.0.1 is a loopback address',
      });
      expect(receiver.requests.length).toBe(before);
    } finally {
      await guarded.close();
    }
  });
});
