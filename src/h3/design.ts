import { contrastRatio } from '../engine/index.js';
import { readPackagedFile } from './packaged.js';
import { asset } from './pages.js';

// The design system the portal and the console share: the tokens (colours, type, spacing, radii, shadows) as CSS
// custom properties from one source, a light and a dark theme, and the elements and components both faces draw with.
// Each face's stylesheet is DESIGN_CSS followed by its own layout rules, which use the tokens only.

/** A theme's colours: what each token is. Text colours keep 4.5:1 on the surfaces they are drawn on (design.test.ts). */
export interface Palette {
  /** The page. */
  bg: string;
  /** Cards, bars, inputs' background: a step off the page. */
  surface: string;
  /** Hovered rows, code, quiet panels. */
  sunken: string;
  ink: string;
  muted: string;
  line: string;
  /** Borders of controls (inputs, selects): 3:1 on the page. */
  control: string;
  accent: string;
  /** Text on the accent (primary buttons). */
  accentInk: string;
  focus: string;
  danger: string;
  dangerSoft: string;
  ok: string;
  okSoft: string;
  warn: string;
  warnSoft: string;
  /** A post status: its text on its own background, a pill. */
  status: Record<StatusTone, { fg: string; bg: string }>;
}

/** The tones the post statuses are drawn in (the same names as the statuses). */
export type StatusTone = 'open' | 'under_review' | 'planned' | 'in_progress' | 'shipped' | 'declined' | 'duplicate';

export const LIGHT: Palette = {
  bg: '#ffffff',
  surface: '#f6f7f9',
  sunken: '#eef0f3',
  ink: '#15181e',
  muted: '#525a66',
  line: '#e1e4e9',
  control: '#868d98',
  accent: '#1d4ed8',
  accentInk: '#ffffff',
  focus: '#1d4ed8',
  danger: '#b42318',
  dangerSoft: '#fef3f2',
  ok: '#067647',
  okSoft: '#ecfdf3',
  warn: '#93370d',
  warnSoft: '#fffaeb',
  status: {
    open: { fg: '#3f4753', bg: '#eef0f3' },
    under_review: { fg: '#854a0e', bg: '#fef3c7' },
    planned: { fg: '#1e4fbf', bg: '#e0eaff' },
    in_progress: { fg: '#6127c7', bg: '#efe8ff' },
    shipped: { fg: '#0f6b3a', bg: '#dcf7e6' },
    declined: { fg: '#a3231b', bg: '#fde7e5' },
    duplicate: { fg: '#525a66', bg: '#eef0f3' },
  },
};

export const DARK: Palette = {
  bg: '#0e1014',
  surface: '#161a20',
  sunken: '#1e232b',
  ink: '#e8eaee',
  muted: '#a3abb8',
  line: '#2a3039',
  control: '#6f7886',
  accent: '#8fb0ff',
  accentInk: '#0e1014',
  focus: '#8fb0ff',
  danger: '#ff8a80',
  dangerSoft: '#3a1512',
  ok: '#6ee7a8',
  okSoft: '#0f2a1c',
  warn: '#fbbf5a',
  warnSoft: '#33240a',
  status: {
    open: { fg: '#c9ced6', bg: '#262c35' },
    under_review: { fg: '#f8c56a', bg: '#3a2a0c' },
    planned: { fg: '#a9c3ff', bg: '#1a2a52' },
    in_progress: { fg: '#cdb8ff', bg: '#2d1f55' },
    shipped: { fg: '#86e8ae', bg: '#0f3321' },
    declined: { fg: '#ffa39b', bg: '#4a1714' },
    duplicate: { fg: '#a3abb8', bg: '#262c35' },
  },
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A palette as custom properties (`--bg: #fff; ...; --s-open-fg: ...`). */
function properties(p: Palette): string {
  const plain = Object.entries(p)
    .filter(([, v]) => typeof v === 'string')
    .map(([k, v]) => `--${kebab(k)}: ${v};`);
  const statuses = Object.entries(p.status).map(
    ([s, c]) => `--s-${s.replace('_', '-')}-fg: ${c.fg}; --s-${s.replace('_', '-')}-bg: ${c.bg};`,
  );
  return [...plain, ...statuses].join(' ');
}

/**
 * The tokens: light by default, dark where the system prefers it, and either where the person chose it with the
 * toggle (`data-theme` on the root, set by theme.js from what this browser remembers).
 */
const TOKENS = `
:root { color-scheme: light; ${properties(LIGHT)}
  --font: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", "Noto Sans", Arial, sans-serif;
  --mono: ui-monospace, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace;
  --text-xs: .75rem; --text-sm: .875rem; --text-md: 1rem; --text-lg: 1.125rem; --text-xl: 1.375rem; --text-2xl: 1.75rem;
  --sp-1: .25rem; --sp-2: .5rem; --sp-3: .75rem; --sp-4: 1rem; --sp-5: 1.5rem; --sp-6: 2rem; --sp-8: 3rem;
  --r-sm: 6px; --r-md: 10px; --r-lg: 14px; --r-full: 999px;
  --shadow-sm: 0 1px 2px rgb(16 24 40 / .06); --shadow-md: 0 4px 12px rgb(16 24 40 / .08), 0 1px 3px rgb(16 24 40 / .06);
  --accent-soft: color-mix(in srgb, var(--accent) 10%, var(--bg));
  --accent-line: color-mix(in srgb, var(--accent) 35%, var(--bg));
}
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { color-scheme: dark; ${properties(DARK)} } }
:root[data-theme="dark"] { color-scheme: dark; ${properties(DARK)} }
`;

/** The elements and components both faces use. */
const BASE = `
* { box-sizing: border-box; }
html { font: 15px/1.55 var(--font); color: var(--ink); background: var(--bg); -webkit-text-size-adjust: 100%; }
body { margin: 0; overflow-wrap: anywhere; }
h1, h2, h3 { line-height: 1.25; letter-spacing: -.01em; }
h1 { font-size: var(--text-2xl); margin: var(--sp-2) 0 var(--sp-4); }
h2 { font-size: var(--text-lg); margin: var(--sp-5) 0 var(--sp-2); }
time { white-space: nowrap; }
a { color: var(--accent); text-decoration: none; }
a:hover { text-decoration: underline; }
p a, .markdown a, .body a, .notice a { text-decoration: underline; text-underline-offset: .15em; }
:focus-visible { outline: 2px solid var(--focus); outline-offset: 2px; border-radius: 2px; }
.muted { color: var(--muted); }
.sr-only, .hp { position: absolute; inset-inline-start: -9999px; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.skip { position: absolute; inset-inline-start: -9999px; }
.skip:focus { inset-inline-start: var(--sp-4); top: var(--sp-4); background: var(--bg); padding: var(--sp-2) var(--sp-4); z-index: 10; }
input, select, textarea { font: inherit; color: var(--ink); background: var(--bg); border: 1px solid var(--control); border-radius: var(--r-sm); padding: .4rem .6rem; max-width: 100%; }
select { appearance: none; padding-inline-end: 1.8rem; background-image: linear-gradient(45deg, transparent 50%, var(--muted) 50%), linear-gradient(135deg, var(--muted) 50%, transparent 50%); background-position: calc(100% - 14px) 55%, calc(100% - 9px) 55%; background-size: 5px 5px; background-repeat: no-repeat; }
[dir="rtl"] select { background-position: 9px 55%, 14px 55%; }
textarea { width: 100%; min-height: 6rem; }
button, .button { font: inherit; font-weight: 600; display: inline-flex; align-items: center; gap: var(--sp-1); padding: .4rem .9rem; border-radius: var(--r-sm); border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink); cursor: pointer; text-decoration: none; line-height: 1.4; }
.button:hover { text-decoration: none; }
button.secondary, .button.secondary { background: var(--bg); color: var(--accent); border-color: var(--accent-line); }
button.quiet { background: transparent; color: var(--ink); border-color: var(--line); }
button.small { padding: .1rem .55rem; font-size: var(--text-sm); }
button.link { background: none; border: none; color: var(--accent); padding: 0; font-weight: 400; }
button:disabled { opacity: .5; cursor: default; }
.pill { display: inline-block; font-size: var(--text-xs); font-weight: 600; line-height: 1.6; border-radius: var(--r-full); padding: 0 .6rem; white-space: nowrap; background: var(--s-open-bg); color: var(--s-open-fg); }
.pill.s-under_review { background: var(--s-under-review-bg); color: var(--s-under-review-fg); }
.pill.s-planned { background: var(--s-planned-bg); color: var(--s-planned-fg); }
.pill.s-in_progress { background: var(--s-in-progress-bg); color: var(--s-in-progress-fg); }
.pill.s-shipped { background: var(--s-shipped-bg); color: var(--s-shipped-fg); }
.pill.s-declined { background: var(--s-declined-bg); color: var(--s-declined-fg); }
.pill.s-duplicate { background: var(--s-duplicate-bg); color: var(--s-duplicate-fg); }
.avatar { display: inline-grid; place-items: center; flex: none; width: 1.75rem; height: 1.75rem; border-radius: var(--r-full); background: var(--accent-soft); color: var(--ink); font-size: var(--text-xs); font-weight: 700; letter-spacing: .02em; }
.card { background: var(--bg); border: 1px solid var(--line); border-radius: var(--r-md); box-shadow: var(--shadow-sm); }
.notice { border: 1px solid var(--accent-line); background: var(--accent-soft); border-radius: var(--r-md); padding: var(--sp-3) var(--sp-4); }
.error { border: 1px solid var(--danger); color: var(--danger); background: var(--danger-soft); border-radius: var(--r-md); padding: var(--sp-2) var(--sp-4); }
.empty { text-align: center; color: var(--muted); border: 1px dashed var(--line); border-radius: var(--r-md); padding: var(--sp-6) var(--sp-4); }
.markdown pre, pre { overflow-x: auto; background: var(--sunken); padding: var(--sp-2) var(--sp-3); border-radius: var(--r-sm); font-family: var(--mono); font-size: var(--text-sm); }
code { font-family: var(--mono); font-size: .9em; }
.theme-toggle { background: transparent; color: var(--muted); border: 1px solid var(--line); font-weight: 500; font-size: var(--text-sm); padding: .15rem .6rem; }
.theme-toggle[hidden] { display: none; }
.pager { display: flex; gap: var(--sp-3); justify-content: space-between; margin: var(--sp-4) 0; }
`;

/** The design system's stylesheet: the tokens, both themes, the shared elements and components. */
export const DESIGN_CSS = TOKENS + BASE;

/** The script that applies the theme a person chose (before the page is drawn) and runs the toggle. */
export const THEME_SCRIPT = asset(
  'theme',
  'js',
  'text/javascript; charset=utf-8',
  readPackagedFile('theme.js', import.meta.url, new URL('./browser/theme.js', import.meta.url)),
);

/** Mix two `#rrggbb` colours: `t` of `b` into `a`. */
function mix(a: string, b: string, t: number): string {
  const at = (hex: string, i: number) => parseInt(hex.slice(i, i + 2), 16);
  return `#${[1, 3, 5]
    .map((i) =>
      Math.round(at(a, i) + (at(b, i) - at(a, i)) * t)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * The accent a workspace's branding gives, fitted to a theme: the colour itself where it keeps 4.5:1 with the theme's
 * page and surface, else moved toward the theme's ink (lighter in the dark theme, darker in the light) by the least
 * step that does; and the text on it, whichever of the page and the ink reads better.
 */
export function fitAccent(accent: string, p: Palette): { accent: string; accentInk: string } {
  let fitted = accent.toLowerCase();
  for (let t = 0.05; t <= 1 && Math.min(contrastRatio(fitted, p.bg), contrastRatio(fitted, p.surface)) < 4.5; t += 0.05)
    fitted = mix(accent.toLowerCase(), p.ink, t);
  const accentInk = [p.bg, p.ink, '#ffffff', '#000000'].reduce((best, c) =>
    contrastRatio(c, fitted) > contrastRatio(best, fitted) ? c : best,
  );
  return { accent: fitted, accentInk };
}

/** A workspace's branding as a stylesheet: its accent fitted to each theme (fitAccent), the toggle's choice kept. */
export function brandStylesheet(accent: string): string {
  const light = fitAccent(accent, LIGHT);
  const dark = fitAccent(accent, DARK);
  const props = (f: { accent: string; accentInk: string }) =>
    `--accent: ${f.accent}; --accent-ink: ${f.accentInk}; --focus: ${f.accent};`;
  return `:root { ${props(light)} }
@media (prefers-color-scheme: dark) { :root:not([data-theme="light"]) { ${props(dark)} } }
:root[data-theme="dark"] { ${props(dark)} }
`;
}

const SEPARATORS = /[\s._-]+/;
/** A letter or a digit, in any script. */
const LETTER = /[\p{L}\p{N}]/u;
/** The first letter or digit of a word (a whole code point, never half of a surrogate pair). */
const firstLetter = (word: string): string => {
  for (const ch of word) if (LETTER.test(ch)) return ch;
  return '';
};

/** A person's initials for an avatar: the first letters of the first and last words of the name (or of the email). */
export function initials(name: string): string {
  const at = name.indexOf('@');
  const words = (at === -1 ? name : name.slice(0, at)).split(SEPARATORS).filter((w) => LETTER.test(w));
  if (!words.length) return '?';
  return (firstLetter(words[0]!) + (words.length > 1 ? firstLetter(words[words.length - 1]!) : '')).toUpperCase();
}
