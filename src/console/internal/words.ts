// The console's words: its messages in the catalogs (src/engine/i18n/catalogs/console), in English this turn. Pages
// say them through here, so the console can follow the portal into other languages by giving them a translator.
import {
  type ConsoleKey,
  type HtmlValues,
  type MessageKey,
  type MessageTags,
  type MessageValues,
  translator,
} from '../../engine/index.js';
import type { SafeHtml } from '../../h3/index.js';

const english = translator();

/** A console message (or one it shares with the portal: a status's name) as text. */
export const say = (key: ConsoleKey | MessageKey, values?: MessageValues): string => english.t(key, values);

/** A console message as HTML (values escaped; tags wrapped as given). */
export const sayHtml = (key: ConsoleKey, values?: HtmlValues, tags?: MessageTags): SafeHtml =>
  english.html(key, values, tags);
