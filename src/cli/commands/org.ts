import {
  type BillingState,
  FeedbackError,
  type Plan,
  type UpdateOrganizationInput,
  wordingLine,
} from '../../engine/index.js';
import { type DatabaseOptions, withEngine } from '../common.js';
import { type Io, print } from '../io.js';

export type ListOptions = DatabaseOptions;
export interface CreateOptions extends DatabaseOptions {
  name: string;
  plan?: Plan;
  contactCap?: number | 'none';
  adminEmail?: string[];
  rateLimit?: number;
}
export interface UpdateOptions extends DatabaseOptions {
  name?: string;
  plan?: Plan;
  billing?: BillingState;
  /** 'default': the plan's. */
  contactCap?: number | 'none' | 'default';
  adminEmail?: string[];
  rateLimit?: number | 'default';
  /** `none` removes it. */
  handle?: string;
  portal?: 'on' | 'off';
  portalVerifiedOnly?: 'on' | 'off';
  portalModeration?: 'on' | 'off';
  portalFrameOrigin?: string[];
  notifyAdminCreated?: 'on' | 'off';
  /** Checked by the engine (one of its SEARCH_LANGUAGES). */
  searchLanguage?: string;
  /** Checked by the engine (one of its STEM_LANGUAGES). */
  searchStems?: string;
  /** Each a group, its words or phrases separated by commas; `none` clears the list. */
  searchSynonym?: string[];
  /** One of LOCALES (commander checks). */
  locale?: string;
  /** Each `locale:key=message` (an empty message removes it); `none` alone removes them all. */
  wording?: string[];
}

/**
 * The workspace's wording after the changes typed: each `locale:key=message` set (or, empty, removed) over what it
 * has; `none` alone starts from nothing. The engine checks each message.
 */
function wordingAfter(current: Record<string, Record<string, string>>, changes: string[] | undefined) {
  if (!changes) return undefined;
  if (changes.join() === 'none') return {};
  const next: Record<string, Record<string, string>> = Object.fromEntries(
    Object.entries(current).map(([locale, messages]) => [locale, { ...messages }]),
  );
  for (const change of changes) {
    const said = wordingLine(change);
    if (!said) throw new FeedbackError('ERR_VALIDATION', `--wording ${change}: write it as locale:key=message`);
    const { locale, key, message } = said;
    const messages = (next[locale] ??= {});
    if (message === '') delete messages[key];
    else messages[key] = message;
    if (Object.keys(messages).length === 0) delete next[locale];
  }
  return next;
}

/** The synonym groups as typed: each a comma-separated list; `none` alone clears them. */
const synonymGroups = (groups: string[] | undefined) =>
  groups &&
  (groups.join() === 'none'
    ? []
    : groups.map((g) =>
        g
          .split(',')
          .map((m) => m.trim())
          .filter(Boolean),
      ));

export async function list(options: ListOptions, io: Io): Promise<void> {
  const orgs = await withEngine(options.db, (e) => e.organizations.list());
  const lines = orgs.map(
    (o) => `${o.id}  ${o.name}  plan ${o.plan}, billing ${o.billingState}, contact cap ${o.contactCap ?? 'unlimited'}`,
  );
  print(io, options.json, { data: orgs }, lines.length ? lines.join('\n') : 'No organizations yet.');
}

export async function create(options: CreateOptions, io: Io): Promise<void> {
  const org = await withEngine(options.db, (e) =>
    e.organizations.create({
      name: options.name,
      plan: options.plan,
      ...(options.contactCap !== undefined
        ? { contactCap: options.contactCap === 'none' ? null : options.contactCap }
        : {}),
      adminEmails: options.adminEmail,
      rateLimit: options.rateLimit,
    }),
  );
  print(io, options.json, { ...org }, `Created organization ${org.id} (${org.name}, plan ${org.plan}).`);
}

const onOff = (state: 'on' | 'off' | undefined) => (state === undefined ? undefined : state === 'on');

export async function update(orgId: string, options: UpdateOptions, io: Io): Promise<void> {
  const org = await withEngine(options.db, async (e) =>
    e.organizations.update(orgId, {
      ...(options.wording
        ? { portalWording: wordingAfter((await e.organizations.get(orgId))?.portalWording ?? {}, options.wording) }
        : {}),
      locale: options.locale as UpdateOrganizationInput['locale'],
      name: options.name,
      plan: options.plan,
      billingState: options.billing,
      contactCap: options.contactCap === 'none' ? null : options.contactCap,
      adminEmails: options.adminEmail,
      rateLimit: options.rateLimit === 'default' ? null : options.rateLimit,
      handle: options.handle === 'none' ? null : options.handle,
      portalEnabled: onOff(options.portal),
      portalVerifiedOnly: onOff(options.portalVerifiedOnly),
      portalModeration: onOff(options.portalModeration),
      portalFrameOrigins:
        options.portalFrameOrigin && (options.portalFrameOrigin.join() === 'none' ? [] : options.portalFrameOrigin),
      notifyAdminCreated: onOff(options.notifyAdminCreated),
      searchLanguage: options.searchLanguage as UpdateOrganizationInput['searchLanguage'],
      searchStems: options.searchStems as UpdateOrganizationInput['searchStems'],
      searchSynonyms: synonymGroups(options.searchSynonym),
    }),
  );
  print(
    io,
    options.json,
    { ...org },
    `Updated organization ${org.id}: plan ${org.plan}, billing ${org.billingState}, contact cap ${org.contactCap ?? 'unlimited'}, rate limit ${org.rateLimit}/min` +
      (org.handle ? `, portal /portal/${org.handle}/ ${org.portalEnabled ? 'on' : 'off'}` : '') +
      (org.portalVerifiedOnly ? ', signed-in users only' : '') +
      (org.portalModeration ? ', anonymous posts moderated' : '') +
      (org.portalFrameOrigins.length ? `, framed by ${org.portalFrameOrigins.join(' ')}` : '') +
      (org.notifyAdminCreated ? ', notifications to admin-created contacts on' : '') +
      (org.searchLanguage !== 'simple' ? `, posts searched in ${org.searchLanguage}` : '') +
      (org.searchStems !== 'english' ? `, search stems ${org.searchStems}` : '') +
      (org.searchSynonyms.length ? `, ${org.searchSynonyms.length} synonym group(s)` : '') +
      (org.locale !== 'en' ? `, language ${org.locale}` : '') +
      (Object.keys(org.portalWording).length
        ? `, own wording in ${Object.keys(org.portalWording).sort().join(', ')}`
        : '') +
      '.',
  );
}
