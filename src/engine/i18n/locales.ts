// The languages the portal, the widget and the mail speak (docs/portal.md, "Languages"), and which of them a person
// gets: a tag they or their browser give is matched to the nearest one we have (`pt` to Brazilian Portuguese, `zh-SG`
// to Simplified Chinese; Traditional Chinese to none), by @formatjs/intl-localematcher's CLDR distances.
import { match } from '@formatjs/intl-localematcher';
import Negotiator from 'negotiator';
import { LOCALES, type Locale } from '../../schemas/locales.js';
import { kept } from './kept.js';

export { LOCALES, type Locale };
export const DEFAULT_LOCALE: Locale = 'en';

/** Each locale's name in its own language, as the switcher lists it. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  it: 'Italiano',
  nl: 'Nederlands',
  ja: '日本語',
  'zh-CN': '简体中文',
  ar: 'العربية',
};

const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set(['ar']);

/** The writing direction of a locale's pages: `rtl` mirrors the layout (the stylesheets use logical properties). */
export const directionOf = (locale: Locale): 'ltr' | 'rtl' => (RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr');

export const isLocale = (value: unknown): value is Locale =>
  typeof value === 'string' && (LOCALES as readonly string[]).includes(value);

/** The longest language tag a contact or a workspace may carry (BCP 47's practical bound). */
export const LOCALE_TAG_MAX = 35;

const canonical = new Map<string, string | null>();
/** A well-formed BCP 47 tag in its canonical case (`pt-br` as `pt-BR`), or null for anything else. */
export function canonicalTag(tag: string): string | null {
  if (tag.length === 0 || tag.length > LOCALE_TAG_MAX) return null;
  return kept(canonical, tag, () => {
    try {
      return Intl.getCanonicalLocales(tag)[0] ?? null;
    } catch {
      return null;
    }
  });
}

const nearest = new Map<string, Locale | null>();
/** The locale we have nearest a tag, or null when none is near enough. */
const nearestTo = (tag: string): Locale | null =>
  kept(nearest, tag, () => {
    const found = match([tag], LOCALES, '', { algorithm: 'best fit' });
    return isLocale(found) ? found : null;
  });

/** The locale we have that is nearest the first of `wanted` we can serve at all; null when none is near enough. */
export function nearestLocale(wanted: readonly (string | null | undefined)[]): Locale | null {
  // One at a time, so that a person's first choice wins over a nearer match of their second.
  for (const w of wanted) {
    const tag = w ? canonicalTag(w) : null;
    const found = tag ? nearestTo(tag) : null;
    if (found) return found;
  }
  return null;
}

const accepted = new Map<string, string[]>();
/** The languages of an `Accept-Language` header, most wanted first (q=0 and `*` left out). */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const value = header.slice(0, 500);
  return kept(accepted, value, () =>
    new Negotiator({ headers: { 'accept-language': value } }).languages().filter((l) => l !== '*'),
  );
}
