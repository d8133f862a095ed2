import { BILLING_STATES, PLANS, type BillingState, type Plan } from '../../engine/index.js';
import { UsageError, intFlag, parseFlags, subcommandError } from '../args.js';
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
  // Arguments are checked before the database is opened (or created).
  if (values.plan !== undefined && !(PLANS as readonly string[]).includes(values.plan)) throw new UsageError(`--plan must be one of ${PLANS.join(', ')}`);
  if (values.billing !== undefined && !(BILLING_STATES as readonly string[]).includes(values.billing)) {
    throw new UsageError(`--billing must be one of ${BILLING_STATES.join(', ')}`);
  }
  if (sub === 'list') {
    const orgs = await withEngine(values.db, (e) => e.organizations.list());
    const lines = orgs.map((o) => `${o.id}  ${o.name}  plan ${o.plan}, billing ${o.billingState}, contact cap ${o.contactCap ?? 'unlimited'}`);
    print(values.json, { data: orgs }, lines.length ? lines.join('\n') : 'No organizations yet.');
    return;
  }
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
  throw subcommandError('org', sub, ['list', 'create', 'update']);
}
