export { CATALOGS, type Catalog, type ConsoleKey, consoleEn, type MessageKey } from './catalogs/index.js';
export {
  acceptedLanguages,
  canonicalTag,
  DEFAULT_LOCALE,
  directionOf,
  isLocale,
  LOCALE_NAMES,
  LOCALE_TAG_MAX,
  LOCALES,
  type Locale,
  nearestLocale,
} from './locales.js';
export {
  type HtmlValues,
  type MessageTags,
  type MessageValues,
  type Translator,
  translator,
  type Wording,
} from './translator.js';
export { checkWording, wordingLine } from './wording.js';
