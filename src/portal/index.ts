export { createPortal, PORTAL_PATH, type PortalOptions } from './portal.js';
