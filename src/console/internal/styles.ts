// The console's one stylesheet, served as a hashed asset (no inline styles: the policy needs no 'unsafe-inline').
// Colours keep a contrast of at least 4.5:1 on their backgrounds.
export const CONSOLE_CSS = `
:root { color-scheme: light; --ink: #111827; --muted: #4b5563; --line: #d1d5db; --bg: #ffffff; --soft: #f3f4f6; --accent: #1d4ed8; --accent-ink: #ffffff; --warn: #92400e; }
* { box-sizing: border-box; }
html { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: var(--bg); }
body { margin: 0; }
a { color: var(--accent); }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }
.skip { position: absolute; left: -9999px; }
.skip:focus { left: 1rem; top: 1rem; background: var(--bg); padding: .5rem 1rem; z-index: 10; }
header.bar { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between; padding: .6rem 1rem; border-bottom: 1px solid var(--line); background: var(--soft); }
header.bar .name { font-weight: 700; color: var(--ink); text-decoration: none; }
header.bar nav ul { list-style: none; display: flex; gap: 1rem; margin: 0; padding: 0; }
header.bar nav a[aria-current="page"] { font-weight: 700; color: var(--ink); }
main { max-width: 72rem; margin: 0 auto; padding: 1rem; }
main.narrow { max-width: 28rem; }
h1 { font-size: 1.5rem; margin: .5rem 0 1rem; }
.muted { color: var(--muted); }
.error { color: #991b1b; font-weight: 600; }
.notice { background: #ecfdf5; border: 1px solid #047857; padding: .5rem .75rem; border-radius: .35rem; }
label { display: block; font-weight: 600; margin: .5rem 0 .25rem; }
input, select, textarea { font: inherit; padding: .35rem .5rem; border: 1px solid #6b7280; border-radius: .35rem; background: var(--bg); color: var(--ink); max-width: 100%; box-sizing: border-box; }
button { font: inherit; padding: .4rem .9rem; border-radius: .35rem; border: 1px solid var(--accent); background: var(--accent); color: var(--accent-ink); cursor: pointer; }
button.link { background: none; border: none; color: var(--accent); padding: 0; text-decoration: underline; }
form.filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: 0 0 1rem; }
form.filters label { margin: 0; font-weight: 400; font-size: .9rem; }
form.filters label > * { display: block; }
form.filters label.check { align-self: center; }
form.filters label.check > input { display: inline; margin-right: .35rem; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .45rem .5rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .85rem; color: var(--muted); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.held { color: var(--warn); font-weight: 600; font-size: .85rem; }
ul.teams { list-style: none; padding: 0; }
ul.teams li { padding: .5rem 0; border-bottom: 1px solid var(--line); }
.pager { margin: 1rem 0; }
textarea { width: 100%; }
button.secondary { background: var(--bg); color: var(--accent); }
form.inline { display: inline; }
.sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }
.crumbs { margin: 0; font-size: .9rem; }
.columns { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: 2rem; }
@media (max-width: 50rem) { .columns { grid-template-columns: 1fr; } }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .5rem; }
.post-body { white-space: pre-wrap; margin: 1rem 0; }
ol.comments { list-style: none; padding: 0; }
ol.comments li { border-bottom: 1px solid var(--line); padding: .5rem 0; }
ol.comments li.official { border-left: 3px solid var(--accent); padding-left: .6rem; }
ol.comments .meta { font-size: .9rem; color: var(--muted); }
ol.comments .body { white-space: pre-wrap; }
.badge { font-size: .75rem; border: 1px solid var(--accent); color: var(--accent); border-radius: 1rem; padding: 0 .45rem; }
.notes { background: #fffbeb; border: 1px solid #f59e0b; border-radius: .35rem; padding: 0 .75rem .5rem; margin-top: 1.5rem; }
.held-box { border: 1px solid var(--warn); border-radius: .35rem; padding: 0 .75rem .75rem; }
.impact { font-size: 1rem; }
details { margin: 1.5rem 0; }
summary { cursor: pointer; font-weight: 600; }
ul.targets { list-style: none; padding: 0; }
table.audit td.long { overflow-wrap: anywhere; }
table.audit td.when { white-space: nowrap; }
table.posts tr.current { background: #eff6ff; outline: 2px solid var(--accent); }
form.board { display: block; margin: 1rem 0; }
form.board label { display: inline; }
.keys { font-size: .8rem; display: none; }
.js .keys { display: inline; }
.tag { font-size: .75rem; background: var(--soft); border: 1px solid var(--line); border-radius: 1rem; padding: 0 .45rem; }
fieldset.tags { border: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: .25rem 1rem; }
fieldset.tags label { font-weight: 400; margin: 0; }
.bulk { display: flex; gap: .5rem; align-items: center; margin: 0 0 .5rem; }
.bulk label { margin: 0; font-weight: 400; }
ul.targets li { padding: .35rem 0; border-bottom: 1px solid var(--line); }
header.bar nav ul { flex-wrap: wrap; gap: .25rem 1rem; }
.roadmap { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 1rem; }
@media (max-width: 50rem) { .roadmap { grid-template-columns: 1fr; } }
.column { background: var(--soft); border-radius: .5rem; padding: 0 .75rem .75rem; }
ol.cards { list-style: none; margin: 0; padding: 0; }
ol.cards li { background: var(--bg); border: 1px solid var(--line); border-radius: .35rem; padding: .5rem .6rem; margin: .5rem 0; display: flex; flex-wrap: wrap; gap: .25rem .5rem; align-items: baseline; }
ol.cards li a { flex: 1 1 100%; font-weight: 600; }
.js ol.cards li[draggable] { cursor: grab; }
ol.cards li.dragging { opacity: .5; outline: 2px dashed var(--accent); }
.order-buttons { margin-left: auto; display: inline-flex; gap: .25rem; }
button.small { padding: .1rem .5rem; font-size: .85rem; }
button:disabled { opacity: .45; cursor: default; }
form.row { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; }
form.row label { margin: 0; }
.row { display: flex; flex-wrap: wrap; gap: 0 1rem; }
.inline-label { display: inline; font-weight: 400; margin: 0; }
.preview { border: 1px solid var(--line); border-radius: .35rem; padding: 0 .75rem .75rem; }
.markdown pre { overflow-x: auto; background: var(--soft); padding: .5rem; }
fieldset.ships { border: 1px solid var(--line); border-radius: .35rem; margin: 1rem 0; }
fieldset.ships label { font-weight: 400; }
fieldset.ships legend, fieldset.tags legend { font-weight: 600; }
label.check { font-weight: 400; }
table.facts { width: auto; }
table.facts th { color: var(--muted); font-weight: 600; font-size: .9rem; }
input.secret { font-family: ui-monospace, monospace; width: 100%; }
ol.attempts { margin: 0; padding-left: 1.2rem; }
ol.attempts pre { white-space: pre-wrap; max-width: 40rem; overflow-wrap: anywhere; }
h1.long, td.long, .wrap-anywhere { overflow-wrap: anywhere; }
.wrap-anywhere th { overflow-wrap: normal; }
`;
