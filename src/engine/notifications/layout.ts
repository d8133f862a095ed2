import { html, type SafeHtml } from '../shared/index.js';

// The one layout of every mail (notifications, digests, the changelog, sign-in codes, invitations): the workspace's
// name and logo at the top, its accent on the button, the content, and why the person gets it. Mail clients keep
// only inline styles and tables, so the design system's tokens are written out here as values (light: mail clients
// that darken a message do it themselves).

/** A workspace's branding as mail shows it. */
export interface MailBrand {
  /** Who the mail is from, as the header names it (the workspace, or "Feedback console"). */
  name: string;
  logoUrl: string | null;
  /** `#rrggbb`, checked for 4.5:1 on white when it was set; the default blue without one. */
  accent: string | null;
}

const INK = '#15181e';
const MUTED = '#525a66';
const LINE = '#e1e4e9';
const SURFACE = '#f6f7f9';
const DEFAULT_ACCENT = '#1d4ed8';
const FONT = "-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif";

/** A clear button (a link styled as one: mail has no forms), in the workspace's accent. */
export const mailButton = (brand: MailBrand, link: { href: string; label: string }): SafeHtml =>
  html`<table role="presentation" cellpadding="0" cellspacing="0" style="margin:24px 0"><tr><td style="border-radius:8px;background:${brand.accent ?? DEFAULT_ACCENT}"><a href="${link.href}" style="display:inline-block;padding:12px 22px;font:600 15px/1 ${FONT};color:#ffffff;text-decoration:none;border-radius:8px">${link.label}</a></td></tr></table>`;

/** Styles the Markdown of a changelog entry keeps in mail (inline: mail clients drop style sheets). */
export function inlineMarkdownStyles(rendered: string): string {
  // Headings one level down (the entry's title is the message's h1), each styled; in one pass, so none is moved twice.
  const SIZES: Record<string, number> = { 1: 20, 2: 17, 3: 15, 4: 15, 5: 14, 6: 14 };
  return rendered
    .replace(/<(\/?)h([1-6])>/g, (_, close: string, level: string) => {
      const to = Math.min(Number(level) + 1, 6);
      return close ? `</h${to}>` : `<h${to} style="font-size:${SIZES[level]}px;margin:18px 0 6px;color:${INK}">`;
    })
    .replaceAll('<p>', '<p style="margin:0 0 12px">')
    .replaceAll('<a href=', `<a style="color:${DEFAULT_ACCENT}" href=`)
    .replaceAll('<pre>', `<pre style="background:${SURFACE};padding:12px;border-radius:6px;overflow:auto">`)
    .replaceAll(
      '<blockquote>',
      `<blockquote style="margin:0 0 12px;padding-left:12px;border-left:3px solid ${LINE};color:${MUTED}">`,
    );
}

/**
 * The whole message: a hidden preheader (what inboxes show beside the subject), the header (logo and name), the
 * content, and the footer (why they get it, and their links).
 */
export function mailLayout(v: {
  brand: MailBrand;
  title: string;
  preheader: string;
  content: SafeHtml;
  footer: SafeHtml | string;
  /** The message's language and writing direction (English unless given). */
  lang?: { locale: string; dir: 'ltr' | 'rtl' };
}): string {
  const { brand } = v;
  const lang = v.lang ?? { locale: 'en', dir: 'ltr' };
  return String(html`<!doctype html>
<html lang="${lang.locale}" dir="${lang.dir}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="color-scheme" content="light"><title>${v.title}</title></head>
<body dir="${lang.dir}" style="margin:0;padding:0;background:${SURFACE}">
<div style="display:none;max-height:0;overflow:hidden">${v.preheader}</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${SURFACE}"><tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:600px;background:#ffffff;border:1px solid ${LINE};border-radius:12px">
<tr><td style="padding:20px 28px;border-bottom:1px solid ${LINE};font:700 17px/1.3 ${FONT};color:${INK}">${
    brand.logoUrl
      ? html`<img src="${brand.logoUrl}" alt="" height="28" style="height:28px;width:auto;vertical-align:middle;margin-inline-end:8px;border:0">`
      : ''
  }<span style="vertical-align:middle">${brand.name}</span></td></tr>
<tr><td style="padding:24px 28px;font:15px/1.6 ${FONT};color:${INK}">${v.content}</td></tr>
<tr><td style="padding:16px 28px 24px;border-top:1px solid ${LINE};font:13px/1.5 ${FONT};color:${MUTED}">${v.footer}</td></tr>
</table></td></tr></table>
</body></html>`);
}

/** A paragraph of the message's text, in its style. */
export const para = (line: string): SafeHtml => html`<p style="margin:0 0 12px">${line}</p>`;

/** A heading of the message (its first line, or an item's in a digest). */
export const heading = (text: string, size = 20): SafeHtml =>
  html`<h1 style="font-size:${size}px;line-height:1.3;margin:0 0 14px;color:${INK}">${text}</h1>`;

/** A code the person types (a sign-in code), large and spaced so it is read at a glance. */
export const codeBlock = (code: string): SafeHtml =>
  html`<p style="margin:8px 0 20px;font:700 30px/1 ui-monospace,Menlo,Consolas,monospace;letter-spacing:6px;color:${INK}">${code}</p>`;
