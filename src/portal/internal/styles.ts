// The portal's one stylesheet. Served as a static asset with a hashed name (assets.ts): no inline styles, so the
// Content-Security-Policy needs no 'unsafe-inline'. Colors keep a contrast of at least 4.5:1 on their backgrounds.
export const PORTAL_CSS = `
:root { color-scheme: light; --ink: #1b1f24; --muted: #4b5563; --line: #d8dde3; --bg: #ffffff; --soft: #f4f6f8; --accent: #1d4ed8; --accent-ink: #ffffff; }
* { box-sizing: border-box; }
html { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
body { margin: 0; overflow-wrap: anywhere; }
time { white-space: nowrap; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem 1rem; z-index: 10; }
header.site { border-bottom: 1px solid var(--line); background: var(--soft); }
header.site .bar { max-width: 60rem; margin: 0 auto; padding: .75rem 1rem; display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; }
header.site .name { font-weight: 700; font-size: 1.125rem; color: var(--ink); text-decoration: none; }
nav.sections ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; }
nav.sections a[aria-current="page"] { font-weight: 700; color: var(--ink); }
main { max-width: 60rem; margin: 0 auto; padding: 1rem; }
h1 { font-size: 1.6rem; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 1.25rem 0 .5rem; }
.muted { color: var(--muted); }
.boards, .posts, .entries { list-style: none; margin: 0; padding: 0; }
.boards li, .posts li { border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; margin: 0 0 .5rem; }
.posts li { display: grid; grid-template-columns: 3.5rem 1fr; gap: .75rem; align-items: start; }
.votes { text-align: center; border: 1px solid var(--line); border-radius: .4rem; padding: .25rem; line-height: 1.2; }
.votes strong { display: block; font-size: 1.1rem; }
.post-title { font-weight: 600; }
.status { display: inline-block; font-size: .8rem; border-radius: 1rem; padding: 0 .5rem; background: var(--soft); border: 1px solid var(--line); color: var(--ink); }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: 0 0 1rem; }
form.filters label { display: flex; flex-direction: column; font-size: .9rem; }
input, select, textarea { font: inherit; padding: .35rem .5rem; border: 1px solid #6b7280; border-radius: .35rem; background: var(--bg); color: var(--ink); }
button { font: inherit; padding: .4rem .9rem; border-radius: .35rem; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink); cursor: pointer; }
.sorts { list-style: none; display: flex; gap: .75rem; padding: 0; margin: 0 0 1rem; }
.sorts a[aria-current="true"] { font-weight: 700; color: var(--ink); }
.body { white-space: pre-wrap; overflow-wrap: anywhere; }
.comments, .comments ul { list-style: none; padding-left: 0; }
.comments ul { margin-left: 1.25rem; border-left: 2px solid var(--line); padding-left: .75rem; }
.comment { margin: .75rem 0; }
.comment .meta { font-size: .9rem; color: var(--muted); }
.comment.official > .body { border-left: 3px solid var(--accent); padding-left: .5rem; }
.comment .team { font-weight: 600; color: var(--ink); }
.notice { border: 1px solid var(--line); background: var(--soft); border-radius: .5rem; padding: .75rem 1rem; }
.roadmap { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 1rem; }
.roadmap section { background: var(--soft); border-radius: .5rem; padding: .5rem 1rem; }
.roadmap ol { padding-left: 1.25rem; }
.entries article { border-bottom: 1px solid var(--line); padding: .5rem 0 1rem; }
.markdown { overflow-wrap: anywhere; }
header.site img.logo { vertical-align: middle; max-height: 28px; width: auto; margin-right: .4rem; }
.markdown pre { overflow-x: auto; background: var(--soft, #f3f4f6); padding: .5rem; }
.markdown code { font-size: .9em; }
.pager { margin: 1rem 0; }
.hp, .sr-only { position: absolute; left: -9999px; width: 1px; height: 1px; overflow: hidden; }
form.stack { display: flex; flex-direction: column; gap: .75rem; max-width: 36rem; margin: 0 0 1.5rem; }
form.stack label { display: flex; flex-direction: column; gap: .25rem; }
form.stack label.check { flex-direction: row; align-items: center; gap: .5rem; }
form.stack textarea { min-height: 6rem; }
form.stack button { align-self: flex-start; }
fieldset { border: 1px solid var(--line); border-radius: .5rem; padding: .5rem 1rem .75rem; margin: 0; display: flex; flex-direction: column; gap: .5rem; }
legend { font-weight: 600; padding: 0 .25rem; }
.follows { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: .5rem; }
form.vote { margin: .5rem 0 1rem; }
form.who { display: flex; align-items: center; gap: .5rem; margin: 0; }
button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
button[aria-pressed="true"] { background: var(--bg); color: var(--accent); }
.error { border: 1px solid #b91c1c; color: #991b1b; background: #fef2f2; border-radius: .5rem; padding: .5rem 1rem; }
.actions { display: flex; gap: 1rem; align-items: center; flex-wrap: wrap; }
footer.site { max-width: 60rem; margin: 2rem auto; padding: 1rem; color: var(--muted); font-size: .85rem; }
`;
