import { LOCALE_NAMES, LOCALES, type Locale, type Paths, PORTAL_PATH, type Translator } from '../../engine/index.js';
import { html, initials, type SafeHtml } from '../../h3/index.js';
import { SCRIPT, STYLESHEET, THEME } from './assets.js';

/** A time as people say it ("3 days ago") in the page's language, the exact instant on hover and in `datetime`. */
export const when = (tr: Translator, iso: string, now = Date.now()): SafeHtml =>
  html`<time datetime="${iso}" title="${tr.exactTime(iso)}">${tr.relativeTime(iso, now)}</time>`;

/** A person's initials in a circle; decorative (the name is always written beside it). */
export const avatar = (name: string): SafeHtml =>
  html`<span class="avatar" aria-hidden="true">${initials(name)}</span>`;

/**
 * Where the language switcher sends the choice: a portal page posts it (with the anti-forgery token and the page to
 * come back to); a mail's page asks for itself again with `lang` (its token is in its address).
 */
export interface Here {
  method: 'get' | 'post';
  action: string;
  fields: ReadonlyArray<readonly [string, string]>;
}

export type Section = 'boards' | 'roadmap' | 'changelog';

/** Who is looking: the signed-in end-user, if any. */
export interface Viewer {
  name: string | null;
  email: string;
  /** Signed in with the workspace's token (rather than an emailed code). */
  verified: boolean;
}

export interface PageFrame {
  /** The page's words: its language, with the workspace's own wording. */
  tr: Translator;
  /** Where the page is, for the language switcher; none on pages that offer no switcher. */
  here?: Here;
  workspace: string;
  paths: Paths;
  title: string;
  section?: Section;
  viewer?: Viewer | null;
  /** The anti-forgery token forms on the page carry. */
  csrf?: string;
  /** A line about what just happened ("Your vote counts."), announced to screen readers. */
  notice?: string | null;
  /** The workspace's branding: its logo's address and its accent colour (`#rrggbb`). */
  brand?: Brand;
  /** What a link to the page shows where it is shared (meta description, Open Graph). */
  summary?: { description: string; type?: 'website' | 'article' };
}

/** A portal's branding, as its settings give it. */
export interface Brand {
  logoUrl: string | null;
  accent: string | null;
}

/** The hidden field every form carries: the anti-forgery token. */
export const csrfField = (frame: Pick<PageFrame, 'csrf'>): SafeHtml =>
  html`<input type="hidden" name="csrf" value="${frame.csrf ?? ''}">`;

/** The head's lines that say what the page is, for search engines and for previews where a link is shared. */
function summaryTags(title: string, workspace: string, summary: PageFrame['summary']): SafeHtml | string {
  if (!summary) return '';
  const text = summary.description.replace(/\s+/g, ' ').trim();
  const description = text.length > 200 ? `${text.slice(0, 197)}...` : text;
  return html`<meta name="description" content="${description}">
<meta property="og:type" content="${summary.type ?? 'website'}">
<meta property="og:site_name" content="${workspace}">
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta name="twitter:card" content="summary">`;
}

/**
 * The language switcher: a form that asks for the same page in another language, sent by its button (choosing alone
 * changes nothing, so a keyboard user can look through the list: WCAG 3.2.2).
 */
function languages(tr: Translator, here: Here): SafeHtml {
  const options = languageOptions(tr.locale);
  const kept = here.fields.map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`);
  return html`<form class="languages" method="${here.method}" action="${here.action}"><label for="language">${tr.t('layout.language')}</label><select id="language" name="lang" data-switch-language>${options}</select>${kept}<button type="submit" class="secondary">${tr.t('layout.languageApply')}</button></form>`;
}

const OPTIONS = new Map<string, SafeHtml>();
/**
 * The switcher's options, the chosen one selected: made once per language. Each language's name is written with
 * character references (`&#26085;`), so that a page in a Latin script stays one-byte text all through (a page holding
 * one CJK character is stored, joined, hashed and sent as two-byte text, which costs every page some microseconds).
 */
function languageOptions(chosen: Locale): SafeHtml {
  let options = OPTIONS.get(chosen);
  if (!options) {
    const ascii = (name: string) => name.replace(/[^\x20-\x7e]/gu, (c) => `&#${c.codePointAt(0)};`);
    options = html.raw`${LOCALES.map(
      (l) => `<option value="${l}" lang="${l}"${l === chosen ? ' selected' : ''}>${ascii(LOCALE_NAMES[l])}</option>`,
    ).join('')}`;
    OPTIONS.set(chosen, options);
  }
  return options;
}

/** The document every portal page is: its head, a skip link, the header bar, the main content and the footer. */
function shell(
  frame: Pick<PageFrame, 'tr' | 'here' | 'title' | 'workspace' | 'notice' | 'brand' | 'summary'>,
  bar: SafeHtml,
  main: SafeHtml,
): string {
  const { title, workspace, brand, tr } = frame;
  return String(html`<!doctype html>
<html lang="${tr.locale}" dir="${tr.dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${tr.t('layout.title', { page: title, workspace })}</title>
${summaryTags(title, workspace, frame.summary)}
${brand?.logoUrl ? html`<link rel="icon" href="${brand.logoUrl}">` : html`<link rel="icon" href="/favicon.svg" type="image/svg+xml">`}
<link rel="stylesheet" href="${PORTAL_PATH}/assets/${STYLESHEET.name}">
${brand?.accent ? html`<link rel="stylesheet" href="${PORTAL_PATH}/assets/theme/${brand.accent.slice(1).toLowerCase()}.css?v=${STYLESHEET.hash}">` : ''}
<script src="${PORTAL_PATH}/assets/${THEME.name}"></script>
<script src="${PORTAL_PATH}/assets/${SCRIPT.name}" defer></script>
</head>
<body>
<a class="skip" href="#main">${tr.t('layout.skip')}</a>
<header class="site"><div class="bar">
${bar}
</div></header>
<main id="main">
${frame.notice ? html`<p class="notice" role="status">${frame.notice}</p>` : ''}
${main}
</main>
<footer class="site"><span>${tr.html('layout.footer', { workspace }, { name: (inside) => html`<span dir="auto">${inside}</span>` })}</span>${frame.here ? languages(tr, frame.here) : ''}<button type="button" class="theme-toggle" data-theme-toggle data-label-auto="${tr.t('layout.themeAuto')}" data-label-light="${tr.t('layout.themeLight')}" data-label-dark="${tr.t('layout.themeDark')}" hidden>${tr.t('layout.theme')}</button></footer>
</body>
</html>
`);
}

/** Who is signed in, as a compact menu: their initials; their name, email settings and sign out inside. */
function account(frame: PageFrame, viewer: Viewer): SafeHtml {
  const name = viewer.name ?? viewer.email;
  const { tr } = frame;
  return html`<details class="account"><summary aria-label="${tr.t('account.label', { name })}">${avatar(name)}</summary>
<div class="menu card"><span class="muted">${tr.html('account.signedInAs', { name }, { strong: (inside) => html`<strong dir="auto">${inside}</strong>` })}</span>
<a href="${frame.paths.notifications}">${tr.t('account.emailSettings')}</a>
<form method="post" action="${frame.paths.signOut}">${csrfField(frame)}<button type="submit" class="link">${tr.t('account.signOut')}</button></form></div></details>`;
}

/** The frame of every page of a workspace's portal: its name, the sections, who is signed in, and the main content. */
export function page(frame: PageFrame, main: SafeHtml): string {
  const { tr } = frame;
  const link = (section: Section, href: string, label: string) =>
    html`<li><a href="${href}"${frame.section === section ? html.raw` aria-current="page"` : ''}>${label}</a></li>`;
  const logo = frame.brand?.logoUrl ? html`<img class="logo" src="${frame.brand.logoUrl}" alt="" height="28">` : '';
  const bar = html`<a class="name" href="${frame.paths.home}">${logo}<span dir="auto">${frame.workspace}</span></a>
<nav class="sections" aria-label="${tr.t('layout.sections')}"><ul>
${link('boards', frame.paths.home, tr.t('nav.boards'))}${link('roadmap', frame.paths.roadmap, tr.t('nav.roadmap'))}${link('changelog', frame.paths.changelog, tr.t('nav.changelog'))}
</ul></nav>
${frame.viewer ? html`<div class="tools">${account(frame, frame.viewer)}</div>` : ''}`;
  return shell(frame, bar, main);
}

/** A page a mail's link leads to: the workspace's name and nothing else around it (the workspace may have no portal). */
export function mailPage(
  frame: { tr: Translator; here?: Here; workspace: string; title: string; notice?: string | null },
  main: SafeHtml,
): string {
  return shell(frame, html`<span class="name">${frame.workspace}</span>`, main);
}
