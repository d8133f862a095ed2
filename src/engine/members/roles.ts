// The console's roles and what each may do: one table, checked by the engine for every team action and by the console
// for every route (docs/console.md).
import { emailSchema } from '../../schemas/contacts.js';
import { TEAM_ROLES, type TeamRole } from '../../schemas/team.js';
import { FeedbackError } from '../shared/index.js';

export { TEAM_ROLES, type TeamRole };

/**
 * What a role may do: `read` everything of the workspace; `triage` posts, comments, statuses, tags and changelog
 * drafts; `manage` the workspace (settings, webhooks, keys, the team but its owners, the audit log); `own` it (owners:
 * add, demote and remove owners).
 */
export type TeamPermission = 'read' | 'triage' | 'manage' | 'own';

const GRANTS: Record<TeamRole, readonly TeamPermission[]> = {
  owner: ['read', 'triage', 'manage', 'own'],
  admin: ['read', 'triage', 'manage'],
  member: ['read', 'triage'],
  viewer: ['read'],
};

export const allows = (role: TeamRole, permission: TeamPermission): boolean => GRANTS[role].includes(permission);

export function isTeamRole(value: unknown): value is TeamRole {
  return typeof value === 'string' && (TEAM_ROLES as readonly string[]).includes(value);
}

/** An address's domain (`acme.com` of `ana@acme.com`). */
export const domainOf = (email: string) => email.slice(email.lastIndexOf('@') + 1);

/** An address as the team tables keep it: trimmed and lower-cased; refused (422) when it is not one. */
export function teamEmail(value: string): string {
  const email = value.trim().toLowerCase();
  if (!emailSchema.safeParse(email).success)
    throw new FeedbackError('ERR_VALIDATION', `${JSON.stringify(value)} is not an email address.`);
  return email;
}
