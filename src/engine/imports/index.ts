// Imports: a team's history brought in from the tool it leaves (Canny, Fider), as one neutral bundle the command line
// reads from their exports. Dates and authors are kept; people become contacts with consentBasis `legacy_inferred`;
// every thing is recorded by its id in the source, so a rerun of the same export adds only what is new.
import { readContactCap } from '../contacts/index.js';
import type { WorkspaceContext } from '../store/index.js';
import { IMPORT_KINDS, type ImportBundle, type ImportKind, type ImportSummary } from './bundle.js';

export { IMPORT_KINDS, type ImportBundle, type ImportKind, type ImportSummary } from './bundle.js';

import { write } from './write.js';

class DryRun extends Error {}

const zero = () => Object.fromEntries(IMPORT_KINDS.map((k) => [k, 0])) as Record<ImportKind, number>;

/**
 * Bring a bundle in, in one transaction: what is new is written (no event for posts, votes, comments or entries: this
 * is history, not news; a new contact's `contact.created`, as every insert of one; votes count on their posts and
 * impact as any vote), what a past run recorded is skipped. With `dryRun`, everything is
 * done and rolled back, and the summary says what would be. `progress` hears of each kind as it is done.
 */
export async function importBundle(
  ctx: WorkspaceContext,
  bundle: ImportBundle,
  options: { dryRun?: boolean; progress?: (kind: ImportKind, done: number, total: number) => void } = {},
): Promise<ImportSummary> {
  const summary: ImportSummary = { dryRun: options.dryRun === true, created: zero(), skipped: zero() };
  const cap = await readContactCap(ctx.db, ctx.organizationId);
  try {
    await ctx.db.transaction(async (tx) => {
      await write(tx, ctx, bundle, summary, cap, options.progress ?? (() => {}));
      if (options.dryRun) throw new DryRun();
    });
  } catch (err) {
    if (!(err instanceof DryRun)) throw err;
  }
  return summary;
}

/** A workspace's imports. Built once per workspace. */
export function createImports(ctx: WorkspaceContext) {
  return {
    /** Bring an export's bundle in (see importBundle). */
    run: (bundle: ImportBundle, options?: Parameters<typeof importBundle>[2]) => importBundle(ctx, bundle, options),
  };
}
