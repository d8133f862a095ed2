// A workspace's own wording (docs/portal.md, "Your own words"): a message of the catalogs, replaced in one locale.
// It must parse, and use the English message's values and tags and no others, so every page can still fill it in.
import { type MessageFormatElement, parse, TYPE } from '@formatjs/icu-messageformat-parser';
import { CATALOGS, type MessageKey } from './catalogs/index.js';
import { isLocale } from './locales.js';

/** The longest message a workspace may put in place of one of ours. */
export const WORDING_MAX = 1000;

/** The values and tags a message uses, by name. */
export function namesIn(message: string): Set<string> {
  const names = new Set<string>();
  const walk = (elements: MessageFormatElement[]) => {
    for (const e of elements) {
      if (e.type === TYPE.argument || e.type === TYPE.number || e.type === TYPE.date || e.type === TYPE.time)
        names.add(e.value);
      if (e.type === TYPE.plural || e.type === TYPE.select) {
        names.add(e.value);
        for (const option of Object.values(e.options)) walk(option.value);
      }
      if (e.type === TYPE.tag) {
        names.add(`<${e.value}>`);
        walk(e.children);
      }
    }
  };
  walk(parse(message));
  return names;
}

/** Why a workspace's message cannot replace ours (its locale, key or text), or null when it can. */
export function checkWording(locale: string, key: string, message: string): string | null {
  if (!isLocale(locale)) return `${locale} is not one of the portal's languages.`;
  if (!Object.hasOwn(CATALOGS.en, key)) return `${key} is not a message of the portal.`;
  if (message.length === 0 || message.length > WORDING_MAX)
    return `The message must be 1 to ${WORDING_MAX} characters long.`;
  let used: Set<string>;
  try {
    used = namesIn(message);
  } catch (err) {
    return `The message is not ICU MessageFormat: ${(err as Error).message}.`;
  }
  const allowed = namesIn(CATALOGS.en[key as MessageKey]);
  const unknown = [...used].filter((n) => !allowed.has(n));
  if (unknown.length)
    return `The message uses ${unknown.join(', ')}, which ${key} does not have (it has ${[...allowed].join(', ') || 'none'}).`;
  return null;
}

/**
 * One message of a workspace's wording as people type it, `locale:key=message` (the command line's `--wording`, a line
 * of the console's form); null when it is not written that way. An empty message is the command line's way to remove one.
 */
export function wordingLine(text: string): { locale: string; key: string; message: string } | null {
  const match = /^\s*([A-Za-z-]+):([\w.]+)\s*=\s*(.*?)\s*$/s.exec(text);
  return match ? { locale: match[1]!, key: match[2]!, message: match[3]! } : null;
}
