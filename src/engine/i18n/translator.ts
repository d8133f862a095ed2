// The words of a page or a mail in one language: ICU MessageFormat (plurals, selects, numbers) by intl-messageformat,
// dates and relative times by `Intl`. A message is compiled once per locale and kept; a workspace's own wording
// (docs/portal.md, "Your own words") replaces a message where it has one.
import { IntlMessageFormat } from 'intl-messageformat';
import { escapeHtml, SafeHtml } from '../shared/index.js';
import { CATALOGS, type ConsoleKey, consoleEn, type MessageKey } from './catalogs/index.js';
import { kept } from './kept.js';
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
const formatOf = (locale: Locale, message: string): IntlMessageFormat =>
  kept(compiled, `${locale}\u0000${message}`, () => new IntlMessageFormat(message, locale), 20_000);

const RELATIVE_STEPS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 7],
  ['week', 4.35],
  ['month', 12],
];

/**
 * The exact instant as `Intl.DateTimeFormat` writes it, to the minute, without calling it: its parts in the locale's
 * order, learnt once (formatting a date costs a few microseconds, and a thread of 500 comments has 500). Checked
 * against Intl on sample instants; a locale whose parts it cannot follow gets Intl itself.
 */
function exactFormatter(format: Intl.DateTimeFormat): (time: number) => string {
  const probe = Date.UTC(2001, 2, 4, 5, 6);
  const months = Array.from(
    { length: 12 },
    (_, m) => format.formatToParts(Date.UTC(2001, m, 4, 5, 6)).find((p) => p.type === 'month')?.value ?? '',
  );
  const pad = (v: string) => v.length === 2;
  const pieces: Array<(d: Date) => string> = [];
  for (const part of format.formatToParts(probe)) {
    const value = part.value;
    if (part.type === 'literal') pieces.push(() => value);
    else if (part.type === 'year' && value === '2001') pieces.push((d) => String(d.getUTCFullYear()));
    else if (part.type === 'month') pieces.push((d) => months[d.getUTCMonth()]!);
    else if (part.type === 'day' && (value === '4' || value === '04'))
      pieces.push((d) => String(d.getUTCDate()).padStart(pad(value) ? 2 : 1, '0'));
    else if (part.type === 'hour' && (value === '5' || value === '05'))
      pieces.push((d) => String(d.getUTCHours()).padStart(pad(value) ? 2 : 1, '0'));
    else if (part.type === 'minute' && value === '06') pieces.push((d) => String(d.getUTCMinutes()).padStart(2, '0'));
    else return (time) => format.format(time);
  }
  const fast = (time: number) => {
    const d = new Date(time);
    let out = '';
    for (const piece of pieces) out += piece(d);
    return out;
  };
  const samples = [Date.UTC(2026, 10, 28, 14, 3), Date.UTC(1999, 0, 31, 0, 0), Date.UTC(2030, 11, 9, 23, 59)];
  return samples.every((time) => fast(time) === format.format(time)) ? fast : (time) => format.format(time);
}

/** Every locale's formatters, made once (making one costs tens of microseconds). */
const FORMATTERS = new Map<
  Locale,
  { relative: Intl.RelativeTimeFormat; exact: (time: number) => string; n: Intl.NumberFormat }
>();
const formattersOf = (locale: Locale) =>
  kept(FORMATTERS, locale, () => ({
    relative: new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }),
    exact: exactFormatter(
      new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC', hourCycle: 'h23' }),
    ),
    n: new Intl.NumberFormat(locale),
  }));

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

/** An instant as people say it, relative to `now`; a phrase per amount and unit kept in `phrases` (a number key). */
function relative(
  iso: string,
  now: number,
  format: Intl.RelativeTimeFormat,
  phrases: Map<number, string>,
  justNow: () => string,
): string {
  let amount = (Date.parse(iso) - now) / 1000;
  if (Math.abs(amount) < 45) return justNow();
  for (let step = 0; step < RELATIVE_STEPS.length; step++) {
    const [unit, size] = RELATIVE_STEPS[step]!;
    if (Math.abs(amount) < size) {
      const n = Math.round(amount);
      const key = n * RELATIVE_STEPS.length + step;
      return kept(phrases, key, () => format.format(n, unit));
    }
    amount /= size;
  }
  return iso.slice(0, 10);
}

/** Whether a message's values are a count alone (a plural's usual one). */
function onlyCount(values: MessageValues): boolean {
  for (const name in values) if (name !== 'count') return false;
  return true;
}

/** Translators made, by locale and wording (a workspace's wording is read with each request; its translator is kept). */
const translators = new Map<string, Translator>();

/** The translator of a locale, with a workspace's own wording where it has some. */
export function translator(locale: Locale = DEFAULT_LOCALE, wording?: Wording): Translator {
  const own = wording?.[locale];
  const id = own && Object.keys(own).length ? `${locale}\u0000${JSON.stringify(own)}` : locale;
  return kept(translators, id, () => makeTranslator(locale, own), 500);
}

function makeTranslator(locale: Locale, own: Wording[Locale]): Translator {
  const catalog = CATALOGS[locale];
  const english = CATALOGS.en;
  // The console's messages are English only this turn.
  const messageOf = (key: MessageKey | ConsoleKey): string =>
    (key.startsWith('console.')
      ? consoleEn[key as ConsoleKey]
      : (own?.[key as MessageKey] ?? catalog[key as MessageKey] ?? english[key as MessageKey])) ?? key;
  const f = formattersOf(locale);
  const formats = new Map<string, IntlMessageFormat>();
  const formatOfKey = (key: MessageKey | ConsoleKey) => kept(formats, key, () => formatOf(locale, messageOf(key)));
  // What a message says with no values, or with a count alone (most of a page's words), kept.
  const said = new Map<string, string>();
  const counted = new Map<string, Map<number, string>>();
  const phrases = new Map<number, string>();
  const numbers = new Map<number, string>();
  const exact = new Map<string, string>();
  const t: Translator = {
    locale,
    dir: directionOf(locale),
    t(key, values) {
      if (values === undefined) return kept(said, key, () => String(formatOfKey(key).format()));
      if (typeof values.count === 'number' && onlyCount(values))
        return kept(
          kept(counted, key, () => new Map<number, string>()),
          values.count,
          () => String(formatOfKey(key).format(values)),
        );
      return String(formatOfKey(key).format(values));
    },
    html(key, values, tags) {
      const all: Record<string, unknown> = { ...values };
      // A tag's name is never a value's (the tag would be written in its place).
      for (const [name, wrap] of Object.entries(tags ?? {}))
        if (!(name in all)) all[name] = (inside: unknown[]) => wrap(joined(inside));
      return joined(formatOfKey(key).format(all as never));
    },
    relativeTime: (iso, now = Date.now()) => relative(iso, now, f.relative, phrases, () => t.t('time.justNow')),
    // To the minute, as it shows: each minute written once.
    exactTime(iso) {
      const minute = iso.slice(0, 16);
      return kept(exact, minute, () => `${f.exact(Date.parse(iso))} UTC`);
    },
    number: (n) => kept(numbers, n, () => f.n.format(n)),
  };
  return t;
}
