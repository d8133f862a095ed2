// Workspaces: what an operator creates and changes (plans, caps, limits, the portal's settings).

export { updateSettings, type WorkspaceSettings } from './actions.js';
export {
  type CreateOrganizationInput,
  contrastOnWhite,
  contrastRatio,
  frameOrigins,
  HANDLE_PATTERN,
  type OrganizationInfo,
  type UpdateOrganizationInput,
} from './model.js';
export { createOrganizationsService, type OrganizationsContext, type OrganizationsService } from './service.js';
