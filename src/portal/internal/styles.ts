import { DESIGN_CSS } from '../../h3/index.js';

// The portal's one stylesheet: the design system (tokens, both themes, shared components) and the portal's layout,
// which uses the tokens only. Served as a static asset with a hashed name (assets.ts): no inline styles, so the
// Content-Security-Policy needs no 'unsafe-inline'.
const PORTAL_LAYOUT = `
body { display: flex; flex-direction: column; min-height: 100vh; }
header.site { border-bottom: 1px solid var(--line); background: var(--surface); }
header.site .bar { max-width: 56rem; margin: 0 auto; padding: var(--sp-2) var(--sp-4); display: flex; flex-wrap: wrap; gap: var(--sp-2) var(--sp-5); align-items: center; }
header.site .name { font-weight: 700; font-size: var(--text-lg); color: var(--ink); display: inline-flex; align-items: center; gap: var(--sp-2); }
header.site img.logo { max-height: 28px; width: auto; }
nav.sections { flex: 1; }
nav.sections ul { list-style: none; display: flex; gap: var(--sp-1); margin: 0; padding: 0; }
nav.sections a { color: var(--muted); font-weight: 500; padding: .3rem .6rem; border-radius: var(--r-sm); display: block; }
nav.sections a:hover { background: var(--sunken); text-decoration: none; }
nav.sections a[aria-current="page"] { color: var(--ink); background: var(--sunken); font-weight: 600; }
.account { position: relative; }
.account summary { list-style: none; cursor: pointer; display: inline-flex; align-items: center; gap: var(--sp-2); border-radius: var(--r-full); }
.account summary::-webkit-details-marker { display: none; }
.account .menu { position: absolute; inset-inline-end: 0; top: calc(100% + var(--sp-2)); z-index: 5; min-width: 14rem; max-width: calc(100vw - 2rem); padding: var(--sp-3); display: flex; flex-direction: column; gap: var(--sp-2); }
.account form { margin: 0; }
.tools { display: flex; align-items: center; gap: var(--sp-3); margin-inline-start: auto; }
main { width: 100%; max-width: 56rem; margin: 0 auto; padding: var(--sp-4); flex: 1; }
footer.site { width: 100%; max-width: 56rem; margin: 0 auto; padding: var(--sp-4); color: var(--muted); font-size: var(--text-sm); display: flex; justify-content: space-between; gap: var(--sp-3); flex-wrap: wrap; align-items: center; }
footer.site form.languages { display: flex; align-items: center; gap: var(--sp-2); margin-inline-start: auto; }
footer.site form.languages select, footer.site form.languages button { font-size: var(--text-sm); padding-block: .25rem; min-height: 2rem; }
.head { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: var(--sp-3); margin-bottom: var(--sp-3); }
.head h1 { margin: 0; }
.crumbs { margin: 0 0 var(--sp-2); font-size: var(--text-sm); }
.crumbs a { text-decoration: none; }
.boards { list-style: none; margin: 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); gap: var(--sp-3); }
.boards li a { display: flex; flex-direction: column; gap: var(--sp-1); height: 100%; padding: var(--sp-4); color: var(--ink); }
.boards li a:hover { text-decoration: none; border-color: var(--accent-line); }
.boards .board-name { font-weight: 600; font-size: var(--text-lg); color: var(--accent); }
.boards .board-description { color: var(--muted); overflow-wrap: anywhere; }
.boards .counts { margin-top: auto; font-size: var(--text-sm); color: var(--muted); }
.posts, .entries { list-style: none; margin: 0; padding: 0; }
.posts > li { display: flex; gap: var(--sp-3); align-items: flex-start; padding: var(--sp-3); margin: 0 0 var(--sp-2); }
.posts .text { min-width: 0; flex: 1; }
.post-title { font-weight: 600; font-size: var(--text-md); color: var(--ink); }
.meta { display: flex; flex-wrap: wrap; align-items: center; gap: var(--sp-1) var(--sp-2); margin-top: var(--sp-1); font-size: var(--text-sm); color: var(--muted); }
.excerpt { margin: var(--sp-1) 0 0; color: var(--muted); font-size: var(--text-sm); display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
form.vote, p.vote { margin: 0; flex: none; }
.vote-button { flex-direction: column; gap: 0; min-width: 3.5rem; padding: .3rem .4rem; background: var(--bg); color: var(--ink); border: 1px solid var(--line); line-height: 1.2; }
.vote-button:hover:not(:disabled) { border-color: var(--accent); }
.vote-button .arrow { color: var(--muted); font-size: var(--text-xs); }
.vote-button strong { font-size: var(--text-lg); }
.vote-button[aria-pressed="true"] { background: var(--accent-soft); border-color: var(--accent); color: var(--accent); opacity: 1; }
.vote-button[aria-pressed="true"] .arrow { color: var(--accent); }
form.filters { display: flex; flex-wrap: wrap; gap: var(--sp-2); align-items: center; margin: 0 0 var(--sp-3); }
form.filters input[type="search"] { flex: 1 1 12rem; }
.sorts { list-style: none; display: flex; gap: var(--sp-1); padding: 0; margin: 0 0 var(--sp-3); }
.sorts a { display: block; padding: .2rem .7rem; border-radius: var(--r-full); color: var(--muted); font-size: var(--text-sm); font-weight: 500; }
.sorts a[aria-current="true"] { background: var(--ink); color: var(--bg); }
.sorts a:hover { text-decoration: none; background: var(--sunken); }
.sorts a[aria-current="true"]:hover { background: var(--ink); }
article.post { padding: var(--sp-4); display: flex; gap: var(--sp-4); align-items: flex-start; }
article.post .text { flex: 1; min-width: 0; }
article.post h1 { margin: 0 0 var(--sp-2); font-size: var(--text-xl); }
.body { white-space: pre-wrap; margin: var(--sp-3) 0 0; }
.author { display: inline-flex; align-items: center; gap: var(--sp-2); color: var(--ink); }
.comments, .comments ul { list-style: none; padding-inline-start: 0; margin: 0; }
.comments ul { margin-inline-start: var(--sp-4); border-inline-start: 2px solid var(--line); padding-inline-start: var(--sp-3); }
.comment { margin: var(--sp-3) 0; }
.comment > .who-said { display: flex; align-items: center; gap: var(--sp-2); font-size: var(--text-sm); color: var(--muted); }
.comment > .who-said strong { color: var(--ink); }
.comment > .body { margin: var(--sp-1) 0 0 2.25rem; }
.comment > .reply { margin-inline-start: 2.25rem; font-size: var(--text-sm); }
.comment.official > .body { border-inline-start: 3px solid var(--accent); padding-inline-start: var(--sp-2); }
.team-badge { font-size: var(--text-xs); font-weight: 600; color: var(--accent); border: 1px solid var(--accent-line); border-radius: var(--r-full); padding: 0 .45rem; }
.roadmap { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: var(--sp-3); }
.roadmap section { background: var(--surface); border: 1px solid var(--line); border-radius: var(--r-md); padding: var(--sp-2) var(--sp-3) var(--sp-3); }
.roadmap h2 { margin: var(--sp-2) 0; display: flex; align-items: center; gap: var(--sp-2); }
.roadmap ol { list-style: none; padding: 0; margin: 0; display: flex; flex-direction: column; gap: var(--sp-2); }
.roadmap li { padding: var(--sp-2) var(--sp-3); }
.roadmap li a { font-weight: 600; color: var(--ink); display: block; }
.entries article { padding: var(--sp-4) var(--sp-5); margin-bottom: var(--sp-3); }
.entries h2 { margin: 0 0 var(--sp-1); font-size: var(--text-xl); }
form.stack { display: flex; flex-direction: column; gap: var(--sp-3); max-width: 36rem; margin: 0 0 var(--sp-5); }
form.stack label { display: flex; flex-direction: column; gap: var(--sp-1); font-weight: 500; }
form.stack label.check { flex-direction: row; align-items: center; gap: var(--sp-2); font-weight: 400; }
form.stack button { align-self: flex-start; }
fieldset { border: 1px solid var(--line); border-radius: var(--r-md); padding: var(--sp-2) var(--sp-4) var(--sp-3); margin: 0; display: flex; flex-direction: column; gap: var(--sp-2); }
legend { font-weight: 600; padding: 0 var(--sp-1); }
.follows { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: var(--sp-2); }
.actions { display: flex; gap: var(--sp-3); align-items: center; flex-wrap: wrap; }
#similar ul { margin: var(--sp-1) 0 0; padding-inline-start: var(--sp-5); }
.notice { margin: 0 0 var(--sp-3); }
@media (max-width: 40rem) {
  header.site .bar { gap: var(--sp-1) var(--sp-3); padding: var(--sp-2) var(--sp-3); }
  nav.sections { order: 3; flex-basis: 100%; margin: 0 -.6rem; }
  main { padding: var(--sp-3); }
  article.post { flex-direction: column-reverse; gap: var(--sp-3); padding: var(--sp-3); }
  .posts > li { padding: var(--sp-2) var(--sp-3); }
  h1 { font-size: var(--text-xl); }
}
`;

export const PORTAL_CSS = DESIGN_CSS + PORTAL_LAYOUT;
