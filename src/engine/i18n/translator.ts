// The words of a page or a mail in one language: ICU MessageFormat (plurals, selects, numbers) by intl-messageformat,
// dates and relative times by `Intl`. A message is compiled once per locale and kept; a workspace's own wording
// (docs/portal.md, "Your own words") replaces a message where it has one.
import { IntlMessageFormat } from 'intl-messageformat';
import { escapeHtml, SafeHtml } from '../shared/index.js';
import { CATALOGS, type ConsoleKey, consoleEn, type MessageKey } from './catalogs/index.js';
import { DEFAULT_LOCALE, directionOf, type Locale } from './locales.js';

/** A message's values: text and numbers, and in `html` messages also HTML made by the `html` tag. */
export type MessageValues = Record<string, string | number>;
export type HtmlValues = Record<string, string | number | SafeHtml>;
/** An `html` message's tags (`<link>…</link>`): each gets its inside as HTML and wraps it. */
export type MessageTags = Record<string, (inside: SafeHtml) => SafeHtml>;

/** A workspace's own words for some messages, per locale: `{ de: { 'board.newPost': 'Idee einreichen' } }`. */
export type Wording = Partial<Record<Locale, Partial<Record<MessageKey, string>>>>;

export interface Translator {
  readonly locale: Locale;
  readonly dir: 'ltr' | 'rtl';
  /** A message as text. */
  t(key: MessageKey | ConsoleKey, values?: MessageValues): string;
  /** A message as HTML: its text and values escaped, SafeHtml values and its tags' markup as they are. */
  html(key: MessageKey | ConsoleKey, values?: HtmlValues, tags?: MessageTags): SafeHtml;
  /** An instant as people say it ("3 days ago"); after a year, the date itself. */
  relativeTime(iso: string, now?: number): string;
  /** The exact instant (`27 Nov 2026, 14:03 UTC`), in the locale's order. */
  exactTime(iso: string): string;
  /** A number in the locale's digits and grouping. */
  number(n: number): string;
}

const compiled = new Map<string, IntlMessageFormat>();

/** A message compiled for a locale, kept (the catalogs' are a few hundred; a workspace's own are bounded too). */
function formatOf(locale: Locale, message: string): IntlMessageFormat {
  const key = `${locale}\u0000${message}`;
  let format = compiled.get(key);
  if (!format) {
    if (compiled.size >= 20_000) compiled.clear();
    format = new IntlMessageFormat(message, locale, undefined, { ignoreTag: false });
    compiled.set(key, format);
  }
  return format;
}

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
];

/** Every locale's formatters, made once (making one costs tens of microseconds). */
const FORMATTERS = new Map<
  Locale,
  { relative: Intl.RelativeTimeFormat; exact: Intl.DateTimeFormat; n: Intl.NumberFormat }
>();
function formattersOf(locale: Locale) {
  let f = FORMATTERS.get(locale);
  if (!f) {
    f = {
      relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
      exact: new Intl.DateTimeFormat(locale, {
        dateStyle: 'medium',
        timeStyle: 'short',
        timeZone: 'UTC',
        hourCycle: 'h23',
      }),
      n: new Intl.NumberFormat(locale),
    };
    FORMATTERS.set(locale, f);
  }
  return f;
}

/** The parts of a formatted message as HTML: text escaped, HTML values and tags' markup as made. */
function joined(parts: unknown): SafeHtml {
  if (typeof parts === 'string') return new SafeHtml(escapeHtml(parts));
  // A message that is one tag or one HTML value formats to that alone.
  if (parts instanceof SafeHtml) return parts;
  let out = '';
  for (const part of (Array.isArray(parts) ? parts : [parts]) as unknown[]) {
    if (part instanceof SafeHtml) out += part.value;
    else if (Array.isArray(part)) out += joined(part).value;
    else out += escapeHtml(String(part));
  }
  return new SafeHtml(out);
}

const translators = new Map<Locale, Translator>();

/** The translator of a locale, with a workspace's own wording where it has some. */
export function translator(locale: Locale = DEFAULT_LOCALE, wording?: Wording): Translator {
  const own = wording?.[locale];
  const plain = !own || Object.keys(own).length === 0;
  if (plain) {
    const made = translators.get(locale);
    if (made) return made;
  }
  const catalog = CATALOGS[locale];
  const english = CATALOGS.en;
  // The console's messages are English only this turn.
  const messageOf = (key: MessageKey | ConsoleKey): string =>
    (key.startsWith('console.')
      ? consoleEn[key as ConsoleKey]
      : (own?.[key as MessageKey] ?? catalog[key as MessageKey] ?? english[key as MessageKey])) ?? key;
  const f = formattersOf(locale);
  const phrases = new Map<string, string>();
  const t: Translator = {
    locale,
    dir: directionOf(locale),
    t: (key, values) => String(formatOf(locale, messageOf(key)).format(values)),
    html(key, values, tags) {
      const all: Record<string, unknown> = { ...values };
      // A tag's name is never a value's (the tag would be written in its place).
      for (const [name, wrap] of Object.entries(tags ?? {}))
        if (!(name in all)) all[name] = (inside: unknown[]) => wrap(joined(inside));
      return joined(formatOf(locale, messageOf(key)).format(all as never));
    },
    relativeTime(iso, now = Date.now()) {
      let amount = (Date.parse(iso) - now) / 1000;
      if (Math.abs(amount) < 45) return t.t('time.justNow');
      for (const [unit, size] of RELATIVE_STEPS) {
        if (Math.abs(amount) < size) {
          const key = `${Math.round(amount)}${unit}`;
          let phrase = phrases.get(key);
          if (phrase === undefined) phrases.set(key, (phrase = f.relative.format(Math.round(amount), unit)));
          return phrase;
        }
        amount /= size;
      }
      return iso.slice(0, 10);
    },
    exactTime: (iso) => `${f.exact.format(new Date(iso))} UTC`,
    number: (n) => f.n.format(n),
  };
  if (plain) translators.set(locale, t);
  return t;
}
