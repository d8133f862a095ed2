// Secrets at rest: the key that seals them (environment, key file, fallbacks), AES-256-GCM sealing bound to the row a
// value is kept in, and resealing every stored secret under the current key (docs/security.md).
export {
  SECRET_KEY_ENV,
  SECRET_KEY_FALLBACKS_ENV,
  SecretKeyError,
  createSecretBox,
  lazySecretBox,
  generateSecretKey,
  parseSecretKey,
  resolveSecretKeys,
  secretKeyFileOf,
  type SecretBox,
  type SecretKeys,
} from './keys.js';
export { resealStored, sealedAt, type ResealReport } from './sealing.js';
