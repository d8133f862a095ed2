import { DESIGN_CSS } from '../../h3/index.js';

// The console's one stylesheet: the design system (tokens, both themes, shared components) and the console's app
// layout, which uses the tokens only. Served as a hashed asset (no inline styles: the policy needs no 'unsafe-inline').
const CONSOLE_LAYOUT = `
html { font-size: 14px; }
.shell { display: grid; grid-template-columns: 13.5rem minmax(0, 1fr); min-height: 100vh; background: linear-gradient(90deg, var(--surface) 0 13.5rem, var(--line) 13.5rem calc(13.5rem + 1px), var(--bg) calc(13.5rem + 1px)); }
.sidebar { background: var(--surface); border-right: 1px solid var(--line); padding: var(--sp-3); display: flex; flex-direction: column; gap: var(--sp-3); position: sticky; top: 0; align-self: start; min-height: 100vh; max-height: 100vh; overflow-y: auto; }
.sidebar .name { font-weight: 700; font-size: var(--text-lg); color: var(--ink); padding: var(--sp-1) var(--sp-2); }
.sidebar nav ul { list-style: none; margin: 0; padding: 0; display: flex; flex-direction: column; gap: 2px; }
.sidebar nav a { display: flex; justify-content: space-between; align-items: center; gap: var(--sp-2); padding: .35rem var(--sp-2); border-radius: var(--r-sm); color: var(--ink); font-weight: 500; }
.sidebar nav a:hover { background: var(--sunken); text-decoration: none; }
.sidebar nav a[aria-current="page"] { background: var(--accent-soft); color: var(--accent); font-weight: 600; }
.count { font-size: var(--text-xs); font-weight: 600; color: var(--muted); background: var(--sunken); border-radius: var(--r-full); padding: 0 .45rem; min-width: 1.5rem; text-align: center; }
.count.attention { background: var(--warn-soft); color: var(--warn); }
.sidebar .who { margin-top: auto; border-top: 1px solid var(--line); padding-top: var(--sp-3); display: flex; flex-direction: column; gap: var(--sp-2); font-size: var(--text-sm); }
.sidebar .who .me { display: flex; align-items: center; gap: var(--sp-2); min-width: 0; }
.sidebar .who .email { min-width: 0; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; overflow-wrap: normal; }
.sidebar .who form { margin: 0; }
header.bar { display: flex; flex-wrap: wrap; gap: var(--sp-3); align-items: center; justify-content: space-between; padding: var(--sp-2) var(--sp-4); border-bottom: 1px solid var(--line); background: var(--surface); }
header.bar .name { font-weight: 700; color: var(--ink); }
main { padding: var(--sp-3) var(--sp-5); max-width: 80rem; width: 100%; }
main.narrow { max-width: 30rem; margin: var(--sp-6) auto; }
h1 { font-size: var(--text-xl); margin: 0 0 var(--sp-2); }
h2 { font-size: var(--text-md); margin: var(--sp-4) 0 var(--sp-2); }
label { display: block; font-weight: 600; margin: var(--sp-2) 0 var(--sp-1); }
.notice { margin: 0 0 var(--sp-3); }
.error { font-weight: 600; }
form.filters { display: flex; flex-wrap: wrap; gap: var(--sp-1) var(--sp-2); align-items: center; margin: 0 0 var(--sp-2); padding: var(--sp-1) var(--sp-2); background: var(--surface); border: 1px solid var(--line); border-radius: var(--r-md); }
form.filters label { margin: 0; font-weight: 400; font-size: var(--text-sm); display: flex; align-items: center; gap: var(--sp-1); color: var(--muted); }
form.filters input, form.filters select { padding: .25rem .5rem; font-size: var(--text-sm); }
form.filters select { padding-right: 1.6rem; }
form.filters input[type="search"] { min-width: 10rem; }
form.filters label.check > input { margin: 0; }
form.filters button { padding: .25rem .8rem; font-size: var(--text-sm); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .3rem .5rem; border-bottom: 1px solid var(--line); vertical-align: middle; }
th { font-size: var(--text-xs); color: var(--muted); font-weight: 600; text-transform: uppercase; letter-spacing: .03em; white-space: nowrap; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
tbody tr:hover { background: var(--surface); }
caption { text-align: left; font-size: var(--text-sm); padding: var(--sp-1) 0; }
table.posts td:first-child { width: 1.5rem; }
table.posts td, table.posts th { padding-top: .2rem; padding-bottom: .2rem; line-height: 1.4; }
table.posts caption { padding: 0 0 var(--sp-1); }
table.posts td.title a { font-weight: 600; color: var(--ink); }
table.posts td.impact .impact-line { display: block; white-space: nowrap; }
table.posts td.impact strong { font-weight: 600; }
table.posts td.impact .payers { font-size: var(--text-xs); color: var(--muted); }
table.posts tr.current { background: var(--accent-soft); outline: 2px solid var(--accent); }
.held { color: var(--warn); font-weight: 600; font-size: var(--text-xs); }
.tag { font-size: var(--text-xs); background: var(--sunken); border-radius: var(--r-full); padding: 0 .45rem; color: var(--ink); }
.badge { font-size: var(--text-xs); border: 1px solid var(--accent-line); color: var(--accent); border-radius: var(--r-full); padding: 0 .45rem; }
.bulk { display: flex; flex-wrap: wrap; gap: var(--sp-2); align-items: center; margin: 0 0 var(--sp-2); font-size: var(--text-sm); }
.bulk label { margin: 0; font-weight: 400; }
.bulk select, .bulk button { padding: .2rem .6rem; font-size: var(--text-sm); }
.pager { margin: var(--sp-3) 0; }
ul.teams { list-style: none; padding: 0; }
ul.teams li { display: flex; justify-content: space-between; align-items: baseline; gap: var(--sp-3); padding: var(--sp-2) 0; border-bottom: 1px solid var(--line); }
ul.teams a { font-weight: 600; }
form.inline { display: inline; }
.crumbs { margin: 0 0 var(--sp-2); font-size: var(--text-sm); }
.meta { display: flex; flex-wrap: wrap; gap: var(--sp-2); align-items: center; }
.columns { display: grid; grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); gap: var(--sp-5); }
.columns > * { min-width: 0; }
ul.targets a { text-decoration: underline; }
.picker-list label[hidden] { display: none; }
.post-body { white-space: pre-wrap; margin: var(--sp-3) 0; }
ol.comments { list-style: none; padding: 0; }
ol.comments li { border-bottom: 1px solid var(--line); padding: var(--sp-2) 0; }
ol.comments li.official { border-left: 3px solid var(--accent); padding-left: var(--sp-3); }
ol.comments .meta { font-size: var(--text-sm); color: var(--muted); }
ol.comments .meta strong { color: var(--ink); }
ol.comments .body { white-space: pre-wrap; }
.panel { padding: 0 var(--sp-3) var(--sp-3); margin-bottom: var(--sp-3); }
.panel h2 { margin-top: var(--sp-3); }
.person { display: inline-flex; align-items: center; gap: var(--sp-2); min-width: 0; }
table.voters td { overflow-wrap: normal; }
table.voters .person .muted { overflow-wrap: anywhere; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: var(--sp-1) var(--sp-3); margin: var(--sp-2) 0 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; }
ul.segments { list-style: none; display: flex; flex-wrap: wrap; gap: var(--sp-1); padding: 0; margin: var(--sp-2) 0; }
ul.segments a { display: inline-flex; gap: var(--sp-1); align-items: center; padding: .15rem .6rem; border: 1px solid var(--line); border-radius: var(--r-full); color: var(--ink); font-size: var(--text-sm); }
ul.segments a[aria-current="true"] { border-color: var(--accent); background: var(--accent-soft); color: var(--accent); }
.notes { background: var(--warn-soft); border: 1px solid var(--line); border-radius: var(--r-md); padding: 0 var(--sp-3) var(--sp-2); margin-top: var(--sp-4); }
.held-box { border: 1px solid var(--warn); border-radius: var(--r-md); padding: 0 var(--sp-3) var(--sp-3); }
.impact { font-size: var(--text-md); }
details { margin: var(--sp-4) 0; }
summary { cursor: pointer; font-weight: 600; }
ul.targets { list-style: none; padding: 0; }
ul.targets li { padding: var(--sp-1) 0; border-bottom: 1px solid var(--line); }
ol.audit { list-style: none; padding: 0; margin: 0; }
ol.audit li { display: flex; gap: var(--sp-3); align-items: flex-start; padding: var(--sp-2) 0; border-bottom: 1px solid var(--line); }
ol.audit .muted { font-size: var(--text-sm); }
form.board { display: block; margin: var(--sp-3) 0; }
form.board label { display: inline; }
.keys { font-size: var(--text-xs); display: none; }
.js .keys { display: inline; }
fieldset { border: 1px solid var(--line); border-radius: var(--r-md); }
.integration { padding: 0 var(--sp-4) var(--sp-2); margin: var(--sp-4) 0; }
.integration > h2 { margin: var(--sp-3) 0 0; font-size: var(--text-lg); }
.integration input.wide { width: 100%; font-family: var(--mono); font-size: var(--text-sm); }
.mapping { display: flex; flex-wrap: wrap; gap: var(--sp-2) var(--sp-4); }
.mapping > div { flex: 0 1 12rem; min-width: 0; }
.mapping label { margin: 0; font-weight: 400; }
.mapping select { width: 100%; }
.inline-fields { display: flex; flex-wrap: wrap; gap: var(--sp-1) var(--sp-3); align-items: end; flex: 1 1 100%; }
.inline-fields label { margin: 0; }
ul.issues { list-style: none; padding: 0; margin: var(--sp-2) 0; }
ul.issues li { padding: var(--sp-1) 0; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
ul.issues a { font-weight: 600; }
fieldset.tags { border: none; padding: 0; margin: 0; display: flex; flex-wrap: wrap; gap: var(--sp-1) var(--sp-4); }
fieldset.tags label { font-weight: 400; margin: 0; }
.roadmap { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: var(--sp-3); }
.column { background: var(--surface); border: 1px solid var(--line); border-radius: var(--r-md); padding: 0 var(--sp-3) var(--sp-3); }
ol.cards { list-style: none; margin: 0; padding: 0; }
ol.cards li { background: var(--bg); border: 1px solid var(--line); border-radius: var(--r-sm); padding: var(--sp-2); margin: var(--sp-2) 0; display: flex; flex-wrap: wrap; gap: var(--sp-1) var(--sp-2); align-items: baseline; box-shadow: var(--shadow-sm); }
ol.cards li a { flex: 1 1 100%; font-weight: 600; color: var(--ink); }
.js ol.cards li[draggable] { cursor: grab; }
ol.cards li.dragging { opacity: .5; outline: 2px dashed var(--accent); }
.order-buttons { margin-left: auto; display: inline-flex; gap: var(--sp-1); }
form.row { display: flex; flex-wrap: wrap; gap: var(--sp-2) var(--sp-4); align-items: end; }
form.row label { margin: 0; }
.row { display: flex; flex-wrap: wrap; gap: 0 var(--sp-4); }
.inline-label { display: inline; font-weight: 400; margin: 0; }
.preview { border: 1px solid var(--line); border-radius: var(--r-md); padding: 0 var(--sp-3) var(--sp-3); }
fieldset.ships { margin: var(--sp-3) 0; }
fieldset.ships label { font-weight: 400; }
fieldset.ships legend, fieldset.tags legend { font-weight: 600; }
.picker-list { max-height: 16rem; overflow-y: auto; border: 1px solid var(--line); border-radius: var(--r-sm); padding: var(--sp-1) var(--sp-2); margin-top: var(--sp-2); }
.picker-list label { display: flex; gap: var(--sp-2); align-items: baseline; margin: var(--sp-1) 0; }
label.check { font-weight: 400; }
table.facts { width: auto; }
table.facts th { color: var(--muted); text-transform: none; letter-spacing: 0; font-size: var(--text-sm); }
input.secret { font-family: var(--mono); width: 100%; }
ol.attempts { margin: 0; padding-left: 1.2rem; }
ol.attempts pre, pre.payload { white-space: pre-wrap; max-width: 48rem; overflow-wrap: anywhere; }
h1.long, td.long, .wrap-anywhere { overflow-wrap: anywhere; }
.wrap-anywhere th { overflow-wrap: normal; }
@media (max-width: 60rem) { .columns { grid-template-columns: 1fr; } .roadmap { grid-template-columns: 1fr; } .columns > .aside-first { order: -1; } }
@media (max-width: 45rem) {
  .shell { display: block; }
  .shell { background: var(--bg); }
  .sidebar { position: static; min-height: 0; max-height: none; border-right: 0; border-bottom: 1px solid var(--line); flex-direction: row; flex-wrap: wrap; align-items: center; gap: var(--sp-2); padding: var(--sp-2) var(--sp-3); }
  .sidebar nav { order: 3; flex-basis: 100%; overflow-x: auto; }
  .sidebar nav ul { flex-direction: row; }
  .sidebar nav a { white-space: nowrap; }
  .sidebar .who { margin: 0 0 0 auto; border: 0; padding: 0; flex-direction: row; align-items: center; }
  .sidebar .who .email { display: none; }
  main { padding: var(--sp-3); }
  form.filters input[type="search"] { min-width: 0; flex: 1 1 100%; }
  /* Every table is a list of cards on a phone: its header read by screen readers, each cell on its line. */
  table thead { position: absolute; left: -9999px; }
  table caption { display: block; }
  table, tbody, tr, td { display: block; width: auto; }
  tbody tr { border: 1px solid var(--line); border-radius: var(--r-md); margin: 0 0 var(--sp-2); padding: var(--sp-2) var(--sp-3); position: relative; }
  td { border: 0; padding: .1rem 0; text-align: left; }
  td.num { text-align: left; }
  td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-size: var(--text-sm); }
  td.pick { position: absolute; right: var(--sp-2); top: var(--sp-2); }
  td.title { padding-right: 2rem; }
  td, th, td.when, td time { white-space: normal; overflow-wrap: anywhere; }
  tbody th { display: block; text-align: left; padding: .1rem 0; border: 0; }
}
`;

export const CONSOLE_CSS = DESIGN_CSS + CONSOLE_LAYOUT;
