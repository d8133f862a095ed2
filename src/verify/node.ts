// The Node build of feedback-service/verify: the same API as index.ts on node:crypto (about twice as fast).
import { createVerifyApi } from './internal/api.js';
import { createNodeCryptoBackend } from './internal/node-crypto.js';

export const { verifyWebhook, verifyRequest, verifyNodeRequest, signPayload } = createVerifyApi(
  createNodeCryptoBackend(),
);
export * from './internal/exports.js';
