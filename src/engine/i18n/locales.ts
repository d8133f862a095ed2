// The languages the portal, the widget and the mail speak (docs/portal.md, "Languages"), and which of them a person
// gets: a tag they or their browser give is matched to the nearest one we have (`pt` to Brazilian Portuguese, `zh-SG`
// to Simplified Chinese; Traditional Chinese to none), by @formatjs/intl-localematcher's CLDR distances.
import { match } from '@formatjs/intl-localematcher';
import Negotiator from 'negotiator';

import { LOCALES, type Locale } from '../../schemas/locales.js';

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

/** A well-formed BCP 47 tag in its canonical case (`pt-br` as `pt-BR`), or null for anything else. */
export function canonicalTag(tag: string): string | null {
  if (tag.length === 0 || tag.length > LOCALE_TAG_MAX) return null;
  try {
    return Intl.getCanonicalLocales(tag)[0] ?? null;
  } catch {
    return null;
  }
}

/** The locale we have that is nearest the first of `wanted` we can serve at all; null when none is near enough. */
export function nearestLocale(wanted: readonly (string | null | undefined)[]): Locale | null {
  const tags = wanted.flatMap((w) => {
    const tag = w ? canonicalTag(w) : null;
    return tag ? [tag] : [];
  });
  for (const tag of tags) {
    // One at a time, so that a person's first choice wins over a nearer match of their second.
    const found = match([tag], LOCALES, '', { algorithm: 'best fit' });
    if (isLocale(found)) return found;
  }
  return null;
}

/** The languages of an `Accept-Language` header, most wanted first (q=0 and `*` left out). */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  return new Negotiator({ headers: { 'accept-language': header.slice(0, 500) } }).languages().filter((l) => l !== '*');
}
