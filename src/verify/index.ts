// The web build: Web Crypto and web-standard APIs only, for Workers, Deno, Bun, Vercel Edge and browsers.
// Node resolves `feedback-service/verify` to ./node.ts instead (same API, node:crypto).
import { createVerifyApi } from './internal/api.js';
import { createWebCryptoBackend } from './internal/web-crypto.js';

export const { verifyWebhook, verifyRequest, verifyNodeRequest, signPayload } = createVerifyApi(
  createWebCryptoBackend(),
);
export * from './internal/exports.js';
