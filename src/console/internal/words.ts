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
import { html, type SafeHtml } from '../../h3/index.js';

const english = translator();

/** A console message (or one it shares with the portal: a status's name) as text. */
export const say = (key: ConsoleKey | MessageKey, values?: MessageValues): string => english.t(key, values);

/** The tags every console message may use: a screen reader's words, small print, emphasis, code. */
const COMMON_TAGS: MessageTags = {
  hidden: (inside) => html`<span class="sr-only">${inside}</span>`,
  muted: (inside) => html`<span class="muted">${inside}</span>`,
  held: (inside) => html`<span class="held">${inside}</span>`,
  strong: (inside) => html`<strong>${inside}</strong>`,
  em: (inside) => html`<em>${inside}</em>`,
  code: (inside) => html`<code>${inside}</code>`,
};

/** A console message as HTML (values escaped; its tags wrapped: the common ones, and those given, such as a link). */
export const sayHtml = (key: ConsoleKey, values?: HtmlValues, tags?: MessageTags): SafeHtml =>
  english.html(key, values, tags ? { ...COMMON_TAGS, ...tags } : COMMON_TAGS);
