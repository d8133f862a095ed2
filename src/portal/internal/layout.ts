import { html, type SafeHtml } from '@remix-run/html-template';
import { type Paths, PORTAL_PATH } from '../../engine/index.js';
import { SCRIPT, STYLESHEET } from './assets.js';

/** A date as people read it (UTC), with the machine-readable instant. */
export const when = (iso: string): SafeHtml => html`<time datetime="${iso}">${iso.slice(0, 10)}</time>`;

/** `n thing` or `n things`. */
export const count = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

export type Section = 'boards' | 'roadmap' | 'changelog';

/** Who is looking: the signed-in end-user, if any. */
export interface Viewer {
  name: string | null;
  email: string;
  /** Signed in with the workspace's token (rather than an emailed code). */
  verified: boolean;
}

export interface PageFrame {
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
}

/** A portal's branding, as its settings give it. */
export interface Brand {
  logoUrl: string | null;
  accent: string | null;
}

/** The hidden field every form carries: the anti-forgery token. */
export const csrfField = (frame: Pick<PageFrame, 'csrf'>): SafeHtml =>
  html`<input type="hidden" name="csrf" value="${frame.csrf ?? ''}">`;

/** The document every portal page is: its head, a skip link, the header bar, the main content and the footer. */
function shell(
  title: string,
  workspace: string,
  bar: SafeHtml,
  notice: string | null | undefined,
  main: SafeHtml,
  brand?: Brand,
): string {
  return String(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · ${workspace}</title>
${brand?.logoUrl ? html`<link rel="icon" href="${brand.logoUrl}">` : html`<link rel="icon" href="/favicon.svg" type="image/svg+xml">`}
<link rel="stylesheet" href="${PORTAL_PATH}/assets/${STYLESHEET.name}">
${brand?.accent ? html`<link rel="stylesheet" href="${PORTAL_PATH}/assets/theme/${brand.accent.slice(1)}.css">` : ''}
<script src="${PORTAL_PATH}/assets/${SCRIPT.name}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header class="site"><div class="bar">
${bar}
</div></header>
<main id="main">
${notice ? html`<p class="notice" role="status">${notice}</p>` : ''}
${main}
</main>
<footer class="site">Feedback for ${workspace}</footer>
</body>
</html>
`);
}

/** The frame of every page of a workspace's portal: its name, the sections, who is signed in, and the main content. */
export function page(frame: PageFrame, main: SafeHtml): string {
  const link = (section: Section, href: string, label: string) =>
    html`<li><a href="${href}"${frame.section === section ? html.raw` aria-current="page"` : ''}>${label}</a></li>`;
  const logo = frame.brand?.logoUrl ? html`<img class="logo" src="${frame.brand.logoUrl}" alt="" height="28"> ` : '';
  const bar = html`<a class="name" href="${frame.paths.home}">${logo}${frame.workspace}</a>
<nav class="sections" aria-label="Sections"><ul>
${link('boards', frame.paths.home, 'Boards')}${link('roadmap', frame.paths.roadmap, 'Roadmap')}${link('changelog', frame.paths.changelog, 'Changelog')}
</ul></nav>
${
  frame.viewer
    ? html`<form class="who" method="post" action="${frame.paths.signOut}">${csrfField(frame)}<span class="muted">Signed in as ${frame.viewer.name ?? frame.viewer.email}</span> <a href="${frame.paths.notifications}">Email settings</a> <button type="submit" class="link">Sign out</button></form>`
    : ''
}`;
  return shell(frame.title, frame.workspace, bar, frame.notice, main, frame.brand);
}

/** A page a mail's link leads to: the workspace's name and nothing else around it (the workspace may have no portal). */
export function mailPage(frame: { workspace: string; title: string; notice?: string | null }, main: SafeHtml): string {
  return shell(frame.title, frame.workspace, html`<span class="name">${frame.workspace}</span>`, frame.notice, main);
}
