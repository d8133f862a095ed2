// Workspaces: what an operator creates and changes (plans, caps, limits, the portal's settings).
export { createOrganizationsService, type OrganizationsContext, type OrganizationsService } from './service.js';
export { HANDLE_PATTERN, contrastOnWhite, frameOrigins, type CreateOrganizationInput, type OrganizationInfo, type UpdateOrganizationInput } from './model.js';
