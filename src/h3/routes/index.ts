import type { RouteDefinition } from '../internal/route.js';
import { contactRoutes } from './contacts.js';
import { postRoutes } from './posts.js';
import { webhookRoutes } from './webhooks.js';
import { whoamiRoutes } from './whoami.js';

/**
 * Every REST operation, in one table: the app serves it, the OpenAPI document describes it, and the agent
 * tools take their schemas from it.
 */
export const ROUTES: readonly RouteDefinition[] = [...contactRoutes, ...postRoutes, ...webhookRoutes, ...whoamiRoutes];
