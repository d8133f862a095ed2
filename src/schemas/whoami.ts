import { z } from 'zod';
import { scopeSchema, timestampSchema } from './common.js';

/** Response data of `GET /v1/whoami`. */
export const whoamiSchema = z.object({
  keyId: z.string(),
  organizationId: z.string(),
  scope: scopeSchema,
  rateLimit: z.object({ limit: z.number().int(), remaining: z.number().int(), resetAt: timestampSchema }),
});
export type Whoami = z.infer<typeof whoamiSchema>;
