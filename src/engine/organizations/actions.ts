import { type Actor, actAs } from '../members/index.js';
import type { WorkspaceContext } from '../store/index.js';
import type { UpdateOrganizationInput } from './model.js';
import { createOrganizationsService, type OrganizationsContext } from './service.js';

/** The settings a workspace's owners and admins change themselves; plan, billing, caps and rate limits are the operator's. */
const SETTINGS = [
  'name',
  'adminEmails',
  'handle',
  'portalEnabled',
  'portalVerifiedOnly',
  'portalModeration',
  'portalFrameOrigins',
  'notifyAdminCreated',
  'portalLogoUrl',
  'portalAccent',
  'searchStems',
  'searchSynonyms',
  'locale',
  'portalWording',
] as const satisfies ReadonlyArray<keyof UpdateOrganizationInput>;
export type WorkspaceSettings = Pick<UpdateOrganizationInput, (typeof SETTINGS)[number]>;

/** The workspace's own settings (owners and admins); `workspace.settings_changed` names the fields changed. */
export const updateSettings = (ctx: OrganizationsContext & WorkspaceContext, actor: Actor, change: WorkspaceSettings) =>
  actAs(ctx, actor, 'manage', async (inner) => {
    const input = Object.fromEntries(
      SETTINGS.filter((k) => change[k] !== undefined).map((k) => [k, change[k]]),
    ) as WorkspaceSettings;
    const org = await createOrganizationsService(inner).update(ctx.organizationId, input);
    const detail = { fields: Object.keys(input) };
    return {
      result: org,
      audit: {
        action: 'workspace.settings_changed',
        resourceType: 'workspace',
        resourceId: ctx.organizationId,
        detail,
      },
    };
  });
