// The console's team roles. A plain list, no zod: the command line validates `team add --role` against it without
// loading a schema library or the engine.
export const TEAM_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
