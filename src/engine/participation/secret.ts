import { randomBytes } from 'node:crypto';
import { sealedAt } from '../secrets/index.js';
import { FeedbackError } from '../shared/index.js';
import { organizations } from '../store/index.js';
import { DEFAULT_ROTATION_GRACE_SECONDS, type PortalContext } from './participants.js';

/** A portal secret: `fps_` and 32 random bytes (base64url). The HMAC key is the whole string's UTF-8 bytes. */
const newPortalSecret = () => `fps_${randomBytes(32).toString('base64url')}`;

/** The secrets that verify now: the current one, and the previous one until its grace period ends. */
export async function verifyingKeys({ db, organizationId, secrets }: PortalContext, now: Date): Promise<Uint8Array[]> {
  const row = await organizations.findPortalSecrets(db, organizationId);
  if (!row?.current)
    throw new FeedbackError(
      'ERR_FORBIDDEN',
      'This portal does not accept sign-in tokens: the workspace has no portal secret yet.',
    );
  const keys = [row.current];
  if (row.previous && row.previousUntil && row.previousUntil > now) keys.push(row.previous);
  return keys.map((sealed) => new TextEncoder().encode(secrets.open(sealed, sealedAt.portalSecret(organizationId))));
}

/** Create the workspace's first portal secret; shown once. A workspace that has one rotates it instead. */
export async function createSecret({ db, organizationId, clock, secrets }: PortalContext): Promise<{ secret: string }> {
  const now = clock();
  const current = await organizations.findPortalSecrets(db, organizationId);
  if (!current) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
  if (current.current)
    throw new FeedbackError('ERR_CONFLICT', 'This workspace already has a portal secret; rotate it to get a new one.');
  const secret = newPortalSecret();
  await organizations.setPortalSecrets(
    db,
    organizationId,
    { current: secrets.seal(secret, sealedAt.portalSecret(organizationId)), previous: null, previousUntil: null },
    now,
  );
  return { secret };
}

/**
 * Replace the portal secret; the one it replaces keeps verifying tokens for `graceSeconds` (0 ends it at once), so the
 * workspace's backend can switch without a window of refused sign-ins.
 */
export async function rotateSecret(
  { db, organizationId, clock, secrets }: PortalContext,
  graceSeconds: number = DEFAULT_ROTATION_GRACE_SECONDS,
): Promise<{ secret: string; previousValidUntil: string | null }> {
  if (!Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > 30 * 24 * 60 * 60)
    throw new FeedbackError('ERR_VALIDATION', 'The grace period must be 0 to 30 days.');
  const now = clock();
  const current = await organizations.findPortalSecrets(db, organizationId);
  if (!current) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${organizationId}.`);
  if (!current.current)
    throw new FeedbackError('ERR_CONFLICT', 'This workspace has no portal secret to rotate; create one first.');
  const secret = newPortalSecret();
  const until = graceSeconds > 0 ? new Date(now.getTime() + graceSeconds * 1000) : null;
  const sealed = secrets.seal(secret, sealedAt.portalSecret(organizationId));
  await organizations.setPortalSecrets(
    db,
    organizationId,
    { current: sealed, previous: until && current.current, previousUntil: until },
    now,
  );
  return { secret, previousValidUntil: until?.toISOString() ?? null };
}

/** Whether the workspace has a portal secret, and until when the one it replaced still verifies (null: none does). */
export async function secretState({
  db,
  organizationId,
  clock,
}: PortalContext): Promise<{ exists: boolean; previousValidUntil: string | null }> {
  const row = await organizations.findPortalSecrets(db, organizationId);
  const until =
    row?.previous && row.previousUntil && row.previousUntil > clock() ? row.previousUntil.toISOString() : null;
  return { exists: Boolean(row?.current), previousValidUntil: until };
}
