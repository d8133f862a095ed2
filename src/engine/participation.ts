import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { decodeProtectedHeader, errors as jose, jwtVerify, type JWTPayload } from 'jose';
import type { Comment, Vote } from '../schemas/interactions.js';
import type { Post } from '../schemas/posts.js';
import { createContactsService } from './contacts/service.js';
import type { Mailer } from './delivery/mailer.js';
import { FeedbackError } from './errors.js';
import { createInteractionsService } from './interactions.js';
import { sealedAt } from './sealing.js';
import type { SecretBox } from './secrets.js';
import { hashEmail } from './shared/email.js';
import { newId } from './shared/ids.js';
import * as organizations from './store/organizations.js';
import * as access from './store/portal-access.js';
import { voterKey } from './store/votes.js';
import type { Database } from './store/sql.js';

/** How long a portal token may live: its `exp` at most this far ahead of the moment it is exchanged. */
export const PORTAL_TOKEN_MAX_SECONDS = 24 * 60 * 60;
/** Clock difference tolerated between the workspace's backend and this server when checking `exp`. */
const CLOCK_TOLERANCE_SECONDS = 60;
/** How long a session lasts: a token session as long as a token may; an email-code session 30 days. */
export const PORTAL_SESSION_SECONDS = { verified: 24 * 60 * 60, email: 30 * 24 * 60 * 60 } as const;
/** One-time codes: six digits, valid 15 minutes, five tries. */
export const PORTAL_CODE = { digits: 6, seconds: 15 * 60, attempts: 5 } as const;
/** The grace period of a rotation when none is given: the old secret keeps verifying for 24 hours. */
export const DEFAULT_ROTATION_GRACE_SECONDS = 24 * 60 * 60;

/** Who is taking part: vouched for by the workspace's token, or by a code mailed to their address. */
export interface PortalIdentity {
  verified: boolean;
  /** The workspace's user id (the token's `sub`); null for an email-verified person. */
  externalUserId: string | null;
  email: string;
  name: string | null;
}

/**
 * What an end-user does on the portal: the same three public interactions the engine has. `returnTo` is where the
 * page that asked goes afterwards; the engine keeps it with a pending action and does not read it.
 */
export type PortalAction = (
  | { kind: 'vote'; postId: string; notifyMe: boolean }
  | { kind: 'comment'; postId: string; parentId?: string; bodyText: string; notifyMe: boolean }
  | { kind: 'post'; boardId: string; title: string; bodyText?: string; notifyMe: boolean }
) & { returnTo?: string };

export type PortalActionResult =
  | { kind: 'vote'; vote: Vote }
  | { kind: 'comment'; comment: Comment }
  /** `held`: the workspace moderates anonymous posts and this one waits for approval. */
  | { kind: 'post'; post: Post; held: boolean };

/** A session the browser keeps: `token` goes in the cookie; only its SHA-256 is stored. */
export interface PortalSession {
  token: string;
  identity: PortalIdentity;
  expiresAt: Date;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const refuse = (message: string) => new FeedbackError('ERR_UNAUTHORIZED', message);

/** A portal secret: `fps_` and 32 random bytes (base64url). The HMAC key is the whole string's UTF-8 bytes. */
const newPortalSecret = () => `fps_${randomBytes(32).toString('base64url')}`;

/** A post body from the portal's plain text: one paragraph per line, as a rich-text document. */
function plainBody(text: string) {
  const paragraphs = text.split(/\r?\n/).map((line) => (line ? { type: 'paragraph', content: [{ type: 'text', text: line }] } : { type: 'paragraph' }));
  return { json: { type: 'doc', content: paragraphs }, text };
}

/** Why a token does not verify, in words for the person who minted it. */
function tokenRefusal(err: unknown, audience: string): FeedbackError {
  if (err instanceof jose.JWTExpired) return refuse('The sign-in token has expired; ask the site for a new one.');
  if (err instanceof jose.JWTClaimValidationFailed) {
    if (err.claim === 'aud') return refuse(`The sign-in token is for another audience; its aud must be this workspace's id (${audience}).`);
    if (err.claim === 'nbf' || err.claim === 'iat') return refuse(`The sign-in token's ${err.claim} is in the future.`);
    return refuse(`The sign-in token's ${err.claim} claim is missing or invalid (${err.reason}).`);
  }
  if (err instanceof jose.JWSSignatureVerificationFailed) return refuse("The sign-in token's signature does not verify with this workspace's portal secret.");
  if (err instanceof jose.JOSEError) return refuse(`The sign-in token is not a valid JWT (${err.message}).`);
  throw err;
}

export interface ParticipationDeps {
  db: Database;
  organizationId: string;
  clock: () => Date;
  secrets: SecretBox;
  mailer: Mailer;
}

/**
 * Taking part on a workspace's portal: its token secret, signing in with a token the workspace's backend minted, the
 * email codes of anonymous end-users, sessions, and the post, vote and comment they make (each the engine's public
 * interaction, in one transaction with its events).
 */
export function createParticipation({ db, organizationId, clock, secrets, mailer }: ParticipationDeps) {
  const org = organizationId;
  const context = sealedAt.portalSecret(org);
  const contacts = createContactsService(db, org, clock);
  const interactions = createInteractionsService(db, org, clock);

  async function settings() {
    const row = await organizations.find(db, org);
    if (!row) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${org}.`);
    return row;
  }

  /** The secrets that verify now: the current one, and the previous one until its grace period ends. */
  async function verifyingKeys(now: Date): Promise<Uint8Array[]> {
    const row = await organizations.findPortalSecrets(db, org);
    if (!row?.current) throw new FeedbackError('ERR_FORBIDDEN', 'This portal does not accept sign-in tokens: the workspace has no portal secret yet.');
    const keys = [row.current];
    if (row.previous && row.previousUntil && row.previousUntil > now) keys.push(row.previous);
    return keys.map((sealed) => new TextEncoder().encode(secrets.open(sealed, context)));
  }

  async function startSession(identity: PortalIdentity, now: Date): Promise<PortalSession> {
    const token = randomBytes(32).toString('base64url');
    const expiresAt = new Date(now.getTime() + (identity.verified ? PORTAL_SESSION_SECONDS.verified : PORTAL_SESSION_SECONDS.email) * 1000);
    await access.removeExpired(db, now);
    await access.insertSession(db, { id: sha256(token), organizationId: org, ...identity, createdAt: now, expiresAt });
    return { token, identity, expiresAt };
  }

  return {
    secret: {
      /** Create the workspace's first portal secret; shown once. A workspace that has one rotates it instead. */
      async create(): Promise<{ secret: string }> {
        const now = clock();
        const current = await organizations.findPortalSecrets(db, org);
        if (!current) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${org}.`);
        if (current.current) throw new FeedbackError('ERR_CONFLICT', 'This workspace already has a portal secret; rotate it to get a new one.');
        const secret = newPortalSecret();
        await organizations.setPortalSecrets(db, org, { current: secrets.seal(secret, context), previous: null, previousUntil: null }, now);
        return { secret };
      },

      /**
       * Replace the portal secret; the one it replaces keeps verifying tokens for `graceSeconds` (0 ends it at once),
       * so the workspace's backend can switch without a window of refused sign-ins.
       */
      async rotate(graceSeconds: number = DEFAULT_ROTATION_GRACE_SECONDS): Promise<{ secret: string; previousValidUntil: string | null }> {
        if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > 30 * 24 * 60 * 60)
          throw new FeedbackError('ERR_VALIDATION', 'The grace period must be 0 to 30 days.');
        const now = clock();
        const current = await organizations.findPortalSecrets(db, org);
        if (!current) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${org}.`);
        if (!current.current) throw new FeedbackError('ERR_CONFLICT', 'This workspace has no portal secret to rotate; create one first.');
        const secret = newPortalSecret();
        const until = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
        await organizations.setPortalSecrets(db, org, { current: secrets.seal(secret, context), previous: until && current.current, previousUntil: until }, now);
        return { secret, previousValidUntil: until?.toISOString() ?? null };
      },
    },

    /**
     * Exchange a token minted by the workspace's backend for a session: HS256 only, `aud` the workspace's id, `sub`
     * and `email` present, `exp` present and at most 24 hours ahead. Runs identify exactly as
     * `POST /v1/contacts/identify` does (source `identify`, consentBasis `sdk_identify`, the same events).
     */
    async signIn(token: string): Promise<PortalSession> {
      const now = clock();
      let alg: unknown;
      try {
        alg = decodeProtectedHeader(token).alg;
      } catch {
        throw refuse('The sign-in token is not a JWT.');
      }
      if (alg !== 'HS256') throw refuse(`The sign-in token is signed with ${String(alg)}; this portal accepts only HS256.`);
      let payload: JWTPayload | undefined;
      let lastError: unknown;
      for (const key of await verifyingKeys(now)) {
        try {
          ({ payload } = await jwtVerify(token, key, {
            algorithms: ['HS256'],
            audience: org,
            requiredClaims: ['sub', 'exp'],
            currentDate: now,
            clockTolerance: CLOCK_TOLERANCE_SECONDS,
          }));
          break;
        } catch (err) {
          lastError = err;
          // Only a signature that does not match may be the other secret's; any other fault is the token's.
          if (!(err instanceof jose.JWSSignatureVerificationFailed)) break;
        }
      }
      if (!payload) throw tokenRefusal(lastError, org);
      if (payload.exp! > now.getTime() / 1000 + PORTAL_TOKEN_MAX_SECONDS + CLOCK_TOLERANCE_SECONDS)
        throw refuse('The sign-in token expires more than 24 hours ahead; mint short-lived tokens (exp at most 24 hours away).');
      const { sub, email, name, plan } = payload as JWTPayload & Record<string, unknown>;
      if (typeof email !== 'string') throw refuse('The sign-in token has no email claim.');
      let contact;
      try {
        ({ contact } = await contacts.identify({
          externalUserId: sub,
          email,
          ...(name !== undefined ? { name } : {}),
          ...(plan !== undefined ? { plan } : {}),
        }));
      } catch (err) {
        if (err instanceof FeedbackError && err.code === 'ERR_VALIDATION') throw refuse(`The sign-in token's claims are not a valid identity: ${err.message}`);
        throw err;
      }
      return startSession({ verified: true, externalUserId: contact.externalUserId, email, name: contact.name }, now);
    },

    /** The person a session token stands for, while the session lasts. */
    async session(token: string | undefined): Promise<PortalIdentity | null> {
      if (!token || token.length > 100) return null;
      const row = await access.findSession(db, org, sha256(token), clock());
      return row ? { verified: row.verified, externalUserId: row.externalUserId, email: row.email, name: row.name } : null;
    },

    async signOut(token: string): Promise<void> {
      await access.removeSession(db, org, sha256(token));
    },

    /**
     * An anonymous end-user asks to do something: their address gets a one-time code, and the action waits for it.
     * Refused when the workspace takes part only with sign-in. Returns the code's id (the page that asks for it).
     */
    async requestCode(who: { email: string; name?: string | null }, action: PortalAction, mail: { workspace: string }): Promise<{ codeId: string }> {
      if ((await settings()).portalVerifiedOnly) throw new FeedbackError('ERR_FORBIDDEN', `${mail.workspace} takes feedback only from signed-in users.`);
      const now = clock();
      const id = newId('pcode', now.getTime());
      const code = String(randomInt(0, 10 ** PORTAL_CODE.digits)).padStart(PORTAL_CODE.digits, '0');
      await access.removeExpired(db, now);
      await access.insertCode(db, {
        id,
        organizationId: org,
        email: who.email,
        name: who.name ?? null,
        codeHash: sha256(`${id}:${code}`),
        action: JSON.stringify(action),
        attempts: 0,
        createdAt: now,
        expiresAt: new Date(now.getTime() + PORTAL_CODE.seconds * 1000),
      });
      await mailer.send({
        about: 'a sign-in code',
        to: [who.email],
        subject: `${code} is your code for ${mail.workspace}`,
        text:
          `Your code is ${code}.\n\nEnter it on ${mail.workspace}'s feedback page to confirm your email address. ` +
          `It works once, for ${PORTAL_CODE.seconds / 60} minutes.\n\nIf you did not ask for it, ignore this message: nothing happens without the code.`,
      });
      return { codeId: id };
    },

    /**
     * Confirm a code: the action it waits with and a session for the address (so the next action needs no code).
     * A wrong code counts a try; after five, or once expired, the code is gone and a new one must be asked for.
     */
    async confirmCode(codeId: string, code: string): Promise<{ session: PortalSession; action: PortalAction }> {
      const now = clock();
      const outcome = await db.transaction(async (tx) => {
        const row = await access.findCode(tx, org, codeId);
        if (!row) return { refusal: 'This code is no longer valid; ask for a new one.' } as const;
        if (row.expiresAt <= now) {
          await access.removeCode(tx, row.id);
          return { refusal: 'This code has expired; ask for a new one.' } as const;
        }
        const given = Buffer.from(sha256(`${row.id}:${code.trim()}`), 'hex');
        if (!timingSafeEqual(given, Buffer.from(row.codeHash, 'hex'))) {
          if (row.attempts + 1 >= PORTAL_CODE.attempts) {
            await access.removeCode(tx, row.id);
            return { refusal: 'That code is wrong, and it was the last try; ask for a new code.' } as const;
          }
          await access.countAttempt(tx, row.id);
          return { refusal: `That code is wrong; ${PORTAL_CODE.attempts - row.attempts - 1} tries left.`, retry: true } as const;
        }
        // Removed in the transaction that read it: two confirmations racing use the code once.
        if (!(await access.removeCode(tx, row.id))) return { refusal: 'This code is no longer valid; ask for a new one.' } as const;
        return { row } as const;
      });
      if ('refusal' in outcome) throw new FeedbackError('ERR_VALIDATION', outcome.refusal, { retry: 'retry' in outcome });
      const { row } = outcome;
      const session = await startSession({ verified: false, externalUserId: null, email: row.email, name: row.name }, now);
      return { session, action: JSON.parse(row.action) as PortalAction };
    },

    /**
     * Do what the person asked, as the engine's public interaction (its change and its events in one transaction).
     * Someone signed in with a token is linked to the contact identify made; an email-verified person gets a contact
     * only with the notify-me opt-in. Anonymous posts wait as `pending` where the workspace moderates.
     */
    async act(identity: PortalIdentity, action: PortalAction): Promise<PortalActionResult> {
      const s = await settings();
      if (s.portalVerifiedOnly && !identity.verified) throw new FeedbackError('ERR_FORBIDDEN', `${s.name} takes feedback only from signed-in users.`);
      // A signed-in user's contact exists (identify made it): the workspace vouches for them, so the row is linked to it
      // without an opt-in; notify-me is what they ticked (the pages offer it only to people not signed in with a token).
      const who = { email: identity.email, ...(identity.name ? { name: identity.name } : {}), notifyMe: action.notifyMe, vouched: identity.verified };
      const userId = identity.verified && identity.externalUserId ? identity.externalUserId : undefined;
      switch (action.kind) {
        case 'vote':
          return { kind: 'vote', vote: await interactions.vote({ postId: action.postId, ...who, ...(userId ? { userId } : {}) }) };
        case 'comment':
          return {
            kind: 'comment',
            comment: await interactions.comment({
              postId: action.postId,
              bodyText: action.bodyText,
              ...(action.parentId ? { parentId: action.parentId } : {}),
              ...who,
              ...(userId ? { authorUserId: userId } : {}),
            }),
          };
        case 'post': {
          const held = s.portalModeration && !identity.verified;
          const post = await interactions.post(
            { boardId: action.boardId, title: action.title, ...(action.bodyText ? { body: plainBody(action.bodyText) } : {}), ...who, ...(userId ? { authorUserId: userId } : {}) },
            { held },
          );
          return { kind: 'post', post, held };
        }
      }
    },

    /** Whether this person has voted on the post. */
    async hasVoted(identity: PortalIdentity, postId: string): Promise<boolean> {
      return access.hasVoted(db, postId, voterKey(identity.verified ? identity.externalUserId : null, hashEmail(identity.email)!));
    },
  };
}
export type Participation = ReturnType<typeof createParticipation>;
