import type { Whoami } from '../../schemas/whoami.js';
import { defineRoute } from '../internal/route.js';

export const whoamiRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/whoami',
    scope: 'read',
    handler: async ({ key, rateLimit }) => {
      const data: Whoami = {
        keyId: key.keyId,
        organizationId: key.organizationId,
        scope: key.scope,
        rateLimit: { limit: rateLimit.limit, remaining: rateLimit.remaining, resetAt: new Date(rateLimit.resetAt).toISOString() },
      };
      return { body: { data } };
    },
  }),
];
