import { type BackfillUser, backfillInputSchema } from '../../schemas/interactions.js';
import { hashEmail, parseInput, suppressionDigest, validationError } from '../shared/index.js';
import { contacts, suppressions, type WorkspaceContext } from '../store/index.js';
import { readContactCap } from './caps.js';
import { insertContact } from './write.js';

/**
 * Import historical end-users as contacts with consentBasis `legacy_inferred` (treat as suppressed for marketing),
 * skipping emails that already have a contact and addresses on the suppression list (an erased person comes back only
 * with a fresh opt-in of their own). One transaction for the batch.
 */
export async function backfill(
  { db, organizationId, clock }: WorkspaceContext,
  users: readonly BackfillUser[],
): Promise<{ created: string[]; skipped: number; suppressed: number }> {
  const input = parseInput(backfillInputSchema, users);
  const disordered = input.findIndex((u) => Date.parse(u.lastSeenAt) < Date.parse(u.firstSeenAt));
  if (disordered !== -1)
    throw validationError([
      { path: `${disordered}.lastSeenAt`, code: 'too_small', message: 'lastSeenAt must not be before firstSeenAt' },
    ]);
  const cap = await readContactCap(db, organizationId);
  return db.transaction(async (tx) => {
    const created: string[] = [];
    let skipped = 0;
    const now = clock();
    const salt = await suppressions.saltOf(tx, organizationId, false);
    const onList = salt
      ? await suppressions.suppressed(
          tx,
          organizationId,
          input.map((u) => suppressionDigest(salt, u.email)),
        )
      : new Set<string>();
    let suppressedCount = 0;
    for (const user of input) {
      if (salt && onList.has(suppressionDigest(salt, user.email))) {
        suppressedCount++;
        continue;
      }
      if (await contacts.findIdByEmailHash(tx, organizationId, hashEmail(user.email)!)) {
        skipped++;
        continue;
      }
      const record = await insertContact(
        tx,
        organizationId,
        {
          externalUserId: null,
          email: user.email,
          name: user.name ?? null,
          plan: null,
          mrrCents: null,
          currency: null,
          metadata: {},
          locale: null,
          source: user.source ?? 'admin',
          consentBasis: 'legacy_inferred',
          firstSeenAt: new Date(user.firstSeenAt),
          lastSeenAt: new Date(user.lastSeenAt),
        },
        now,
        cap,
      );
      if (record) created.push(record.id);
    }
    return { created, skipped, suppressed: suppressedCount };
  });
}
