import { FeedbackError, isUniqueViolation, newId } from '../shared/index.js';
import { type Database, organizations, search } from '../store/index.js';
import {
  type CreateOrganizationInput,
  check,
  frameOrigins,
  type OrganizationInfo,
  toInfo,
  type UpdateOrganizationInput,
} from './model.js';

/** What the operator's workspace administration runs with; `keyCache` hears of every change (keys carry plan and limits). */
export interface OrganizationsContext {
  db: Database;
  clock: () => Date;
  keyCache: { clear(): void };
}

export async function get({ db }: OrganizationsContext, id: string): Promise<OrganizationInfo | null> {
  const row = await organizations.find(db, id);
  return row ? toInfo(row) : null;
}

export async function create(ctx: OrganizationsContext, input: CreateOrganizationInput): Promise<OrganizationInfo> {
  check(input);
  const now = ctx.clock();
  const id = newId('org', now.getTime());
  await organizations.insert(
    ctx.db,
    {
      id,
      name: input.name,
      plan: input.plan ?? 'free',
      billingState: 'active',
      contactCapOverride: input.contactCap !== undefined,
      contactCap: input.contactCap ?? null,
      rateLimit: input.rateLimit ?? null,
      adminEmails: input.adminEmails ?? [],
      handle: null,
      portalEnabled: false,
      portalVerifiedOnly: false,
      portalModeration: false,
      portalFrameOrigins: [],
      notifyAdminCreated: false,
      searchLanguage: 'simple',
      searchStems: 'english',
      searchSynonyms: [],
      portalLogoUrl: null,
      portalAccent: null,
      locale: input.locale ?? 'en',
      portalWording: {},
    },
    now,
  );
  return (await get(ctx, id))!;
}

/** The columns an update sets: what it names, the cap as an override (or back to the plan's with `default`). */
function changesOf(input: UpdateOrganizationInput): organizations.OrganizationChanges {
  const cap = input.contactCap;
  return {
    name: input.name,
    plan: input.plan,
    billingState: input.billingState,
    adminEmails: input.adminEmails,
    rateLimit: input.rateLimit,
    handle: input.handle,
    portalEnabled: input.portalEnabled,
    portalVerifiedOnly: input.portalVerifiedOnly,
    portalModeration: input.portalModeration,
    portalFrameOrigins: input.portalFrameOrigins && frameOrigins(input.portalFrameOrigins),
    notifyAdminCreated: input.notifyAdminCreated,
    searchLanguage: input.searchLanguage,
    searchStems: input.searchStems,
    searchSynonyms: input.searchSynonyms?.map((group) => group.map((m) => m.trim().toLowerCase())),
    portalLogoUrl: input.portalLogoUrl,
    portalAccent: input.portalAccent === null ? null : input.portalAccent?.toLowerCase(),
    locale: input.locale,
    portalWording: input.portalWording,
    ...(cap === 'default'
      ? { contactCapOverride: false, contactCap: null }
      : cap !== undefined
        ? { contactCapOverride: true, contactCap: cap }
        : {}),
  };
}

export async function update(
  ctx: OrganizationsContext,
  id: string,
  input: UpdateOrganizationInput,
): Promise<OrganizationInfo> {
  check(input);
  let found: boolean;
  try {
    // A new search language indexes the workspace's posts again, with the change.
    found = await ctx.db.transaction(async (tx) => {
      const updated = await organizations.update(tx, id, changesOf(input), ctx.clock());
      if (updated && input.searchLanguage !== undefined) await search.reindexWorkspace(tx, id);
      return updated;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new FeedbackError('ERR_CONFLICT', `The handle ${input.handle} is taken.`);
    throw err;
  }
  ctx.keyCache.clear();
  if (!found) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${id}.`);
  return (await get(ctx, id))!;
}

/** Delete a workspace and everything in it (its keys, contacts, boards, webhooks and their deliveries). */
export async function remove(ctx: OrganizationsContext, id: string): Promise<{ id: string; deleted: true }> {
  const found = await organizations.remove(ctx.db, id);
  ctx.keyCache.clear();
  if (!found) throw new FeedbackError('ERR_NOT_FOUND', `No organization with id ${id}.`);
  return { id, deleted: true };
}

/** Operator-level workspace administration (the CLI's `org` commands). */
export function createOrganizationsService(ctx: OrganizationsContext) {
  return {
    create: (input: CreateOrganizationInput) => create(ctx, input),
    update: (id: string, input: UpdateOrganizationInput) => update(ctx, id, input),
    get: (id: string) => get(ctx, id),
    /** The workspace whose portal answers at this handle, whether or not the portal is on. */
    async byHandle(handle: string): Promise<OrganizationInfo | null> {
      const row = await organizations.findByHandle(ctx.db, handle);
      return row ? toInfo(row) : null;
    },
    /** Every workspace, oldest first. */
    list: async (): Promise<OrganizationInfo[]> => (await organizations.list(ctx.db)).map(toInfo),
    count: (): Promise<number> => organizations.count(ctx.db),
    delete: (id: string) => remove(ctx, id),
  };
}
export type OrganizationsService = ReturnType<typeof createOrganizationsService>;
