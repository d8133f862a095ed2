import { errors as jose, jwtVerify, SignJWT } from 'jose';
import type { SecretBox } from '../secrets/index.js';
import { FeedbackError } from '../shared/index.js';

/** How long the links in a mail work: a mail client may offer its unsubscribe button for weeks after delivery. */
export const MAIL_TOKEN_DAYS = 90;
const PURPOSE = 'mail-token';

/** Who a mail's links are for: the recipient's address (by hash) in a workspace, and the contact it was sent to. */
export interface MailRecipient {
  organizationId: string;
  contactId: string;
  emailHash: string;
}

/**
 * The token in a mail's unsubscribe and preferences links: an HS256 JWT (jose) under a key derived from the server's
 * secret key, naming the workspace (`aud`), the contact (`sub`) and the address's hash (`eh`, base64url), for 90 days.
 * Nothing else is needed to act on it: a mail client's one-click POST carries no cookie.
 */
export function createMailTokens(secrets: SecretBox, clock: () => Date) {
  // Imported once: jose given raw bytes imports a key for every token (a Web Crypto importKey, several times the HMAC).
  let keys: Promise<{ current: CryptoKey; all: CryptoKey[] }> | undefined;
  const keysOf = () =>
    (keys ??= (async () => {
      const raw = secrets.signingKeys(PURPOSE);
      const load = (bytes: Uint8Array) =>
        crypto.subtle.importKey('raw', new Uint8Array(bytes), { name: 'HMAC', hash: 'SHA-256' }, false, [
          'sign',
          'verify',
        ]);
      const all = await Promise.all(raw.all.map(load));
      return { current: all[0]!, all };
    })());
  return {
    async sign(r: MailRecipient): Promise<string> {
      const now = Math.floor(clock().getTime() / 1000);
      return new SignJWT({ eh: Buffer.from(r.emailHash, 'hex').toString('base64url') })
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience(r.organizationId)
        .setSubject(r.contactId)
        .setIssuedAt(now)
        .setExpirationTime(now + MAIL_TOKEN_DAYS * 86400)
        .sign((await keysOf()).current);
    },

    /** The recipient a token names; ERR_UNAUTHORIZED with a sentence for the person when it does not verify or has expired. */
    async verify(token: string): Promise<MailRecipient> {
      if (token.length > 1000) throw new FeedbackError('ERR_UNAUTHORIZED', 'This link is not valid.');
      let lastError: unknown;
      for (const key of (await keysOf()).all) {
        try {
          const { payload } = await jwtVerify(token, key, {
            algorithms: ['HS256'],
            requiredClaims: ['aud', 'sub', 'exp'],
            currentDate: clock(),
          });
          const eh = typeof payload.eh === 'string' ? Buffer.from(payload.eh, 'base64url') : undefined;
          if (eh?.length !== 32 || typeof payload.aud !== 'string') break;
          return { organizationId: payload.aud, contactId: payload.sub!, emailHash: eh.toString('hex') };
        } catch (err) {
          lastError = err;
          if (!(err instanceof jose.JWSSignatureVerificationFailed)) break;
        }
      }
      if (lastError instanceof jose.JWTExpired) {
        throw new FeedbackError(
          'ERR_UNAUTHORIZED',
          `This link has expired (links in our emails work for ${MAIL_TOKEN_DAYS} days); the next email brings a new one.`,
          { reason: 'expired', days: MAIL_TOKEN_DAYS },
        );
      }
      throw new FeedbackError(
        'ERR_UNAUTHORIZED',
        'This link is not valid: it may have been cut short when it was copied.',
      );
    },
  };
}
export type MailTokens = ReturnType<typeof createMailTokens>;
