export { createPortal, PORTAL_LIMITS, PORTAL_PATH, type PortalLimits, type PortalOptions } from './portal.js';
