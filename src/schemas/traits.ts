// The traits contacts and companies share: a plan, revenue (mrrCents and currency, always as a pair) and metadata.
import { z } from 'zod';
import { jsonSchemaRefinement } from './common.js';

export const MAX_METADATA_KEYS = 100;
export const MAX_MRR_CENTS = 100_000_000;

export const contactPlanSchema = z.string().min(1).max(100);
export const mrrCentsSchema = z.number().int().min(0).max(MAX_MRR_CENTS);
export const currencySchema = z.string().regex(/^[A-Z]{3}$/, 'currency must be three uppercase letters');
export const metadataSchema = z
  .record(z.string(), z.unknown())
  .refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, {
    message: `metadata may have at most ${MAX_METADATA_KEYS} keys`,
    params: { code: 'too_big' },
  })
  .superRefine(jsonSchemaRefinement);

/**
 * `mrrCents` and `currency` travel as a pair: a body that carries one carries the other,
 * and either both are null or neither is.
 */
export function checkMrrPairing(
  value: Record<string, unknown>,
  ctx: z.RefinementCtx,
  names: { mrrCents: string; currency: string } = { mrrCents: 'mrrCents', currency: 'currency' },
): void {
  const hasMrr = names.mrrCents in value;
  const hasCurrency = names.currency in value;
  if (!hasMrr && !hasCurrency) return;
  if (hasMrr !== hasCurrency) {
    const missing = hasMrr ? names.currency : names.mrrCents;
    ctx.addIssue({
      code: 'custom',
      path: [missing],
      message: `${names.mrrCents} and ${names.currency} must be supplied together`,
      params: { code: 'unpaired' },
    });
    return;
  }
  if ((value[names.mrrCents] === null) !== (value[names.currency] === null)) {
    ctx.addIssue({
      code: 'custom',
      path: [value[names.mrrCents] === null ? names.mrrCents : names.currency],
      message: `${names.mrrCents} and ${names.currency} must both be set or both be null`,
      params: { code: 'unpaired' },
    });
  }
}
