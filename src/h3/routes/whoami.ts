import { dataSchema } from '../../schemas/common.js';
import { whoamiSchema } from '../../schemas/whoami.js';
import type { Whoami } from '../../schemas/whoami.js';
import { defineRoute } from '../internal/route.js';

export const whoamiRoutes = [
  defineRoute({
    method: 'GET',
    path: '/v1/whoami',
    doc: { operationId: 'whoami', summary: 'The key, its workspace and its rate-limit budget', responses: { 200: dataSchema(whoamiSchema) } },
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
