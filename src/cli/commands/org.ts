import type { BillingState, Plan } from '../../engine/index.js';
import { intFlag, parseFlags, UsageError } from '../args.js';
import { DB_FLAG, print, withEngine } from '../common.js';

const FLAGS = {
  ...DB_FLAG,
  name: { type: 'string' },
  plan: { type: 'string' },
  billing: { type: 'string' },
  'contact-cap': { type: 'string' },
  'admin-email': { type: 'string', multiple: true },
  'rate-limit': { type: 'string' },
} as const;

/** `--contact-cap`: a number, `none` (no cap), or on update `default` (the plan's). */
function capFlag(value: string | undefined, allowDefault: boolean): number | null | 'default' | undefined {
  if (value === undefined) return undefined;
  if (value === 'none') return null;
  if (value === 'default' && allowDefault) return 'default';
  return intFlag(value, 'contact-cap');
}

export async function run([sub, ...rest]: string[]): Promise<void> {
  const { values, positionals } = parseFlags(rest, FLAGS);
  if (sub === 'create') {
    if (!values.name) throw new UsageError('org create needs --name');
    if (values.billing) throw new UsageError('--billing is for org update');
    const cap = capFlag(values['contact-cap'], false);
    const org = await withEngine(values.db, (e) =>
      e.organizations.create({
        name: values.name!,
        plan: values.plan as Plan | undefined,
        ...(cap !== undefined ? { contactCap: cap as number | null } : {}),
        adminEmails: values['admin-email'],
        rateLimit: intFlag(values['rate-limit'], 'rate-limit'),
      }),
    );
    print(values.json, { ...org }, `Created organization ${org.id} (${org.name}, plan ${org.plan}).`);
    return;
  }
  if (sub === 'update') {
    const id = positionals[0];
    if (!id) throw new UsageError('org update needs ORG_ID');
    const rate = values['rate-limit'];
    const org = await withEngine(values.db, (e) =>
      e.organizations.update(id, {
        name: values.name,
        plan: values.plan as Plan | undefined,
        billingState: values.billing as BillingState | undefined,
        contactCap: capFlag(values['contact-cap'], true),
        adminEmails: values['admin-email'],
        rateLimit: rate === 'default' ? null : intFlag(rate, 'rate-limit'),
      }),
    );
    print(
      values.json,
      { ...org },
      `Updated organization ${org.id}: plan ${org.plan}, billing ${org.billingState}, contact cap ${org.contactCap ?? 'unlimited'}, rate limit ${org.rateLimit}/min.`,
    );
    return;
  }
  throw new UsageError('org needs create or update');
}
