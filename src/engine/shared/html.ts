// The `html` template tag every page and mail is written with: each interpolated value is escaped unless it is
// already HTML made by this tag (or by `html.raw`, for markup from a trusted renderer).
//
// Hand-written rather than @remix-run/html-template (which it replaces, with the same rules and output): that
// library wraps every fragment in a `String` object and runs a replace with a callback on every value, and a post
// page of 500 comments spent twice as long in it as in this (docs/benchmarks.md, "Server time before and after the
// look"). Here a fragment is a small object holding its string, and a value is scanned once and copied only when it
// holds one of the five characters that need escaping.

/** A piece of HTML that is safe to put in a page as it is. */
export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

/** What a template may interpolate: HTML, or values that are written as text (escaped). */
export type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[];

const SPECIAL = /[&<>"']/;
const SPECIALS = /[&<>"']/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const entity = (c: string) => ENTITIES[c]!;

/** Text as HTML: `& < > " '` as their entities, everything else as it is. */
export const escapeHtml = (text: string): string => (SPECIAL.test(text) ? text.replace(SPECIALS, entity) : text);

function escaped(value: Interpolation): string {
  if (typeof value === 'string') return escapeHtml(value);
  if (value instanceof SafeHtml) return value.value;
  if (value == null) return '';
  if (Array.isArray(value)) {
    let out = '';
    for (const item of value) out += escaped(item);
    return out;
  }
  return escapeHtml(String(value));
}

function unescaped(value: Interpolation): string {
  if (value == null) return '';
  if (Array.isArray(value)) {
    let out = '';
    for (const item of value) out += unescaped(item);
    return out;
  }
  return typeof value === 'string' ? value : String(value);
}

function tag(strings: TemplateStringsArray, values: Interpolation[], write: (v: Interpolation) => string): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += write(values[i]) + strings[i + 1]!;
  return new SafeHtml(out);
}

export interface HtmlTag {
  /** HTML with every value escaped, except fragments that are already HTML. */
  (strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml;
  /** HTML with the values put in as they are: only for markup from a trusted renderer. */
  raw(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml;
}

export const html: HtmlTag = Object.assign(
  (strings: TemplateStringsArray, ...values: Interpolation[]) => tag(strings, values, escaped),
  { raw: (strings: TemplateStringsArray, ...values: Interpolation[]) => tag(strings, values, unescaped) },
);
