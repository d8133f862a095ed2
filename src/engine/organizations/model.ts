import { checkWording, isLocale, LOCALES, type Locale, type Wording } from '../i18n/index.js';
import { SEARCH_LANGUAGES, type SearchLanguage, STEM_LANGUAGES, type StemLanguage } from '../search/index.js';
import {
  BILLING_STATES,
  type BillingState,
  DEFAULT_RATE_LIMIT,
  effectiveContactCap,
  FeedbackError,
  PLANS,
  type Plan,
  RESERVED_HANDLES,
} from '../shared/index.js';
import type { organizations } from '../store/index.js';

/** A workspace as the engine shows it: its row, with its plan and billing state typed and the limits in force resolved. */
export interface OrganizationInfo
  extends Omit<organizations.OrganizationRow, 'plan' | 'billingState' | 'contactCap' | 'rateLimit'> {
  plan: Plan;
  billingState: BillingState;
  /** The cap in force (null = unlimited); `contactCapOverride` says whether it overrides the plan's default. */
  contactCap: number | null;
  /** Requests per minute per key, the default when none is set. */
  rateLimit: number;
}

export interface CreateOrganizationInput {
  name: string;
  plan?: Plan;
  /** A number overrides the plan's cap; null means unlimited; undefined keeps the plan default. */
  contactCap?: number | null;
  adminEmails?: string[];
  rateLimit?: number;
  /** The portal's and its mail's default language; English unless given. */
  locale?: Locale;
}

export interface UpdateOrganizationInput {
  name?: string;
  plan?: Plan;
  billingState?: BillingState;
  /** A number or null (unlimited) overrides; 'default' returns to the plan's cap. */
  contactCap?: number | null | 'default';
  adminEmails?: string[];
  /** Requests per minute per key; null returns to the server default. */
  rateLimit?: number | null;
  /** The portal's public handle; null removes it. */
  handle?: string | null;
  portalEnabled?: boolean;
  portalVerifiedOnly?: boolean;
  portalModeration?: boolean;
  /** Replaces the list; each an origin (`https://app.example.com`, `http://localhost:3000`); at most 20. */
  portalFrameOrigins?: string[];
  /** Mail contacts its admins created (`admin_created`): the admin attests the lawful basis. */
  notifyAdminCreated?: boolean;
  /** How PostgreSQL reads its posts' words (one of SEARCH_LANGUAGES); its posts are indexed again. SQLite has one for all. */
  searchLanguage?: SearchLanguage;
  /** The language a search's words are forgiven in, their stems also matching (one of STEM_LANGUAGES; `none`: off). */
  searchStems?: StemLanguage;
  /**
   * The team's synonyms, replacing the list: groups of 2 to 10 words or phrases that find each other (`sso`, `single
   * sign-on`, `saml`); at most 100 groups, each word or phrase at most 60 characters.
   */
  searchSynonyms?: string[][];
  /** The portal's logo: an https address of an image (at most 2,048 characters); null removes it. */
  portalLogoUrl?: string | null;
  /** The portal's accent colour, `#rrggbb`; null returns to the default. */
  portalAccent?: string | null;
  /** The portal's and its mail's language where the person's own is not known (one of LOCALES). */
  locale?: Locale;
  /** The team's own words for some of the portal's messages, replacing the whole set (docs/portal.md). */
  portalWording?: Wording;
}

/** An accent colour as the portal takes it: `#` and six hex digits. */
export const ACCENT_PATTERN = /^#[0-9a-fA-F]{6}$/;

/** The relative luminance of a `#rrggbb` colour (WCAG 2). */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast between two `#rrggbb` colours (WCAG 2's ratio, 1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The contrast of a `#rrggbb` colour against white. */
export const contrastOnWhite = (hex: string): number => contrastRatio(hex, '#ffffff');

/** A logo address: https (http only on this machine, for development), without credentials, at most 2,048 characters. */
function checkLogoUrl(text: string): void {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {}
  const local = url?.hostname === '127.0.0.1' || url?.hostname === 'localhost';
  if (
    !url ||
    text.length > 2048 ||
    url.username ||
    url.password ||
    !(url.protocol === 'https:' || (url.protocol === 'http:' && local))
  )
    throw new FeedbackError(
      'ERR_VALIDATION',
      `${text} is not a logo address: give the https address of an image, e.g. https://example.com/logo.png`,
    );
}

/** The origins a workspace lets frame its portal, as the CSP names them; what is not one is ERR_VALIDATION. */
export function frameOrigins(list: readonly string[]): string[] {
  if (list.length > 20) throw new FeedbackError('ERR_VALIDATION', 'At most 20 origins may frame the portal.');
  return [
    ...new Set(
      list.map((text) => {
        let url: URL | undefined;
        try {
          url = new URL(text);
        } catch {}
        if (
          !url ||
          (url.protocol !== 'https:' && url.protocol !== 'http:') ||
          url.username ||
          url.password ||
          url.pathname !== '/' ||
          url.search ||
          url.hash
        )
          throw new FeedbackError(
            'ERR_VALIDATION',
            `${text} is not an origin: give scheme, host and port only, e.g. https://app.example.com`,
          );
        return url.origin;
      }),
    ),
  ];
}

/** A portal handle: 2 to 40 lower-case letters, digits and single dashes, starting and ending with a letter or digit. */
export const HANDLE_PATTERN = /^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9])){1,39}$/;

export function toInfo(row: organizations.OrganizationRow): OrganizationInfo {
  return {
    ...row,
    plan: row.plan as Plan,
    billingState: row.billingState as BillingState,
    contactCap: effectiveContactCap(row),
    rateLimit: row.rateLimit ?? DEFAULT_RATE_LIMIT,
  };
}

export function check(input: {
  plan?: string;
  billingState?: string;
  contactCap?: unknown;
  rateLimit?: unknown;
  name?: string;
  handle?: string | null;
  searchLanguage?: string;
  searchStems?: string;
  searchSynonyms?: unknown;
  portalLogoUrl?: string | null;
  portalAccent?: string | null;
  locale?: string;
  portalWording?: unknown;
}) {
  if (input.locale !== undefined && !isLocale(input.locale))
    throw new FeedbackError('ERR_VALIDATION', `locale must be one of ${LOCALES.join(', ')}`);
  if (input.portalWording !== undefined) checkPortalWording(input.portalWording);
  if (input.searchStems !== undefined && !STEM_LANGUAGES.includes(input.searchStems as StemLanguage))
    throw new FeedbackError('ERR_VALIDATION', `search stems must be one of ${STEM_LANGUAGES.join(', ')}`);
  if (input.searchSynonyms !== undefined) checkSynonyms(input.searchSynonyms);
  if (typeof input.portalLogoUrl === 'string') checkLogoUrl(input.portalLogoUrl);
  if (typeof input.portalAccent === 'string' && !ACCENT_PATTERN.test(input.portalAccent))
    throw new FeedbackError('ERR_VALIDATION', 'The accent colour must be # and six hex digits, e.g. #1d4ed8.');
  if (typeof input.portalAccent === 'string' && contrastOnWhite(input.portalAccent) < 4.5)
    throw new FeedbackError(
      'ERR_VALIDATION',
      `The accent colour ${input.portalAccent} is too light: links in it on white, and white text on it, would be hard to read (contrast ${contrastOnWhite(input.portalAccent).toFixed(1)}:1, at least 4.5:1 needed). Choose a darker shade.`,
    );
  if (input.searchLanguage !== undefined && !SEARCH_LANGUAGES.includes(input.searchLanguage as SearchLanguage))
    throw new FeedbackError('ERR_VALIDATION', `search language must be one of ${SEARCH_LANGUAGES.join(', ')}`);
  if (typeof input.handle === 'string' && !HANDLE_PATTERN.test(input.handle))
    throw new FeedbackError(
      'ERR_VALIDATION',
      'handle must be 2 to 40 lower-case letters, digits and single dashes, starting and ending with a letter or digit',
    );
  if (typeof input.handle === 'string' && RESERVED_HANDLES.includes(input.handle))
    throw new FeedbackError(
      'ERR_VALIDATION',
      `handle ${input.handle} is reserved: the portal's own pages live at /portal/${input.handle}/`,
    );
  if (input.name !== undefined && (input.name.length < 1 || input.name.length > 200))
    throw new FeedbackError('ERR_VALIDATION', 'name must be 1 to 200 characters');
  if (input.plan !== undefined && !PLANS.includes(input.plan as Plan))
    throw new FeedbackError('ERR_VALIDATION', `plan must be one of ${PLANS.join(', ')}`);
  if (input.billingState !== undefined && !BILLING_STATES.includes(input.billingState as BillingState))
    throw new FeedbackError('ERR_VALIDATION', `billing must be one of ${BILLING_STATES.join(', ')}`);
  const cap = input.contactCap;
  if (typeof cap === 'number' && !(Number.isInteger(cap) && cap >= 0))
    throw new FeedbackError('ERR_VALIDATION', 'contact cap must be a non-negative integer');
  const rate = input.rateLimit;
  if (rate !== undefined && rate !== null && !(typeof rate === 'number' && Number.isInteger(rate) && rate >= 1))
    throw new FeedbackError('ERR_VALIDATION', 'rate limit must be a positive integer');
}

/** A workspace's own words: per locale, per message, each one that could replace ours (`checkWording`). */
function checkPortalWording(wording: unknown): void {
  if (typeof wording !== 'object' || wording === null || Array.isArray(wording))
    throw new FeedbackError('ERR_VALIDATION', 'wording must be an object of locales');
  let count = 0;
  for (const [locale, messages] of Object.entries(wording)) {
    if (typeof messages !== 'object' || messages === null || Array.isArray(messages))
      throw new FeedbackError('ERR_VALIDATION', `wording.${locale} must be an object of messages`);
    for (const [key, message] of Object.entries(messages)) {
      const why = typeof message === 'string' ? checkWording(locale, key, message) : 'The message must be text.';
      if (why) throw new FeedbackError('ERR_VALIDATION', `wording ${locale} ${key}: ${why}`);
      if (++count > 500) throw new FeedbackError('ERR_VALIDATION', 'wording: at most 500 messages in all');
    }
  }
}

/** Synonyms as a workspace keeps them: at most 100 groups of 2 to 10 words or phrases, each 1 to 60 characters. */
function checkSynonyms(groups: unknown): void {
  const refuse = (why: string) => {
    throw new FeedbackError('ERR_VALIDATION', `synonyms: ${why}`);
  };
  if (!Array.isArray(groups) || groups.length > 100) refuse('at most 100 groups');
  (groups as unknown[]).forEach((group, i) => {
    if (!Array.isArray(group) || group.length < 2 || group.length > 10)
      refuse(`group ${i + 1} must name 2 to 10 words or phrases`);
    for (const member of group as unknown[])
      if (
        typeof member !== 'string' ||
        member.trim().length === 0 ||
        member.length > 60 ||
        !/[\p{L}\p{N}]/u.test(member)
      )
        refuse(`group ${i + 1}: each word or phrase is 1 to 60 characters, with a letter or digit`);
  });
}
