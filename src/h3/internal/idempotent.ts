import { type Engine, FeedbackError } from '../../engine/index.js';
import { errorResponse, jsonText, type ResponseHeaders } from './respond.js';

/**
 * A POST with an Idempotency-Key: the first request with the key runs and its response (success or refusal) is kept
 * 24 hours; a repeat with the same request gets that response again (`Idempotent-Replayed: true`) without running,
 * a repeat with another request is 409, and a repeat while the first still runs waits for it. An unexpected failure
 * keeps nothing, so a retry runs again.
 */
export async function idempotent(
  engine: Engine,
  organizationId: string,
  idempotencyKey: string,
  fingerprint: string,
  run: () => Promise<{ status: number; body: unknown }>,
  headers: ResponseHeaders,
): Promise<Response> {
  if (!/^[\x21-\x7e]{1,255}$/.test(idempotencyKey))
    return errorResponse(
      'ERR_BAD_REQUEST',
      'Idempotency-Key must be 1 to 255 visible ASCII characters.',
      undefined,
      headers,
    );
  const decision = await engine.idempotency.begin(organizationId, idempotencyKey, fingerprint);
  if (decision.kind === 'conflict')
    return errorResponse('ERR_CONFLICT', decision.message, { reason: 'idempotency_key_reused' }, headers);
  if (decision.kind === 'replay') {
    headers['idempotent-replayed'] = 'true';
    return jsonText(decision.status, decision.body, headers);
  }
  let status: number;
  let payload: unknown;
  try {
    ({ status, body: payload } = await run());
  } catch (err) {
    if (!(err instanceof FeedbackError) || err.status >= 500) {
      await engine.idempotency.release(organizationId, idempotencyKey).catch(() => {});
      throw err;
    }
    status = err.status;
    payload = { error: err.toJSON() };
  }
  const text = JSON.stringify(payload);
  await engine.idempotency.complete(organizationId, idempotencyKey, status, text);
  return jsonText(status, text, headers);
}
