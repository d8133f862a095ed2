// Secrets at rest: the key that seals them (environment, key file, fallbacks), AES-256-GCM sealing bound to the row a
// value is kept in, and resealing every stored secret under the current key (docs/security.md).
export {
  createSecretBox,
  generateSecretKey,
  lazySecretBox,
  parseSecretKey,
  resolveSecretKeys,
  SECRET_KEY_ENV,
  SECRET_KEY_FALLBACKS_ENV,
  type SecretBox,
  SecretKeyError,
  type SecretKeys,
  secretKeyFileOf,
} from './keys.js';
export { type ResealReport, resealStored, sealedAt } from './sealing.js';
