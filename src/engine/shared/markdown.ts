// Markdown as the changelog is written (the console's editor and preview, the portal's changelog): CommonMark by
// markdown-it with raw HTML off, so the output is sanitized by construction: every `<` the author typed is escaped,
// links and images take only http(s) and mailto (markdown-it's validateLink refuses javascript:, vbscript:, file:
// and data: except images, and we narrow it further), and links to elsewhere open with rel="nofollow noopener".

import MarkdownIt from 'markdown-it';
import { html, type SafeHtml } from './html.js';

const SAFE_LINK = /^(https?:|mailto:|\/|#)/i;

const md = new MarkdownIt('commonmark', { html: false, linkify: false, typographer: false });
md.validateLink = (url) => SAFE_LINK.test(url.trim());
const renderLink =
  md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
  const href = tokens[idx]!.attrGet('href') ?? '';
  if (/^https?:/i.test(href)) tokens[idx]!.attrSet('rel', 'nofollow noopener');
  return renderLink(tokens, idx, options, env, self);
};
// Images would load from anywhere (the pages' policy allows none from elsewhere): shown as their links instead.
md.renderer.rules.image = (tokens, idx) => {
  const t = tokens[idx]!;
  const src = md.utils.escapeHtml(t.attrGet('src') ?? '');
  return `<a href="${src}" rel="nofollow noopener">${md.utils.escapeHtml(t.content || 'image')}</a>`;
};

/** A changelog body (Markdown) as HTML, safe to put in a page as it is. */
export function markdown(source: string): SafeHtml {
  const rendered = md.render(source);
  return html.raw`${rendered}`;
}
