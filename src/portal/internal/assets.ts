import { CATALOGS, LOCALES } from '../../engine/index.js';
import { type Asset, asset, readPackagedFile, THEME_SCRIPT } from '../../h3/index.js';
import { PORTAL_CSS } from './styles.js';

export { type Asset, assetResponse } from '../../h3/index.js';

/** A browser script of the portal's (src/portal/browser/, type-checked and linted as the sources are). */
const script = (name: string) =>
  readPackagedFile(name, import.meta.url, new URL(`../browser/${name}`, import.meta.url));

export const STYLESHEET = asset('portal', 'css', 'text/css; charset=utf-8', PORTAL_CSS);
export const SCRIPT = asset('portal', 'js', 'text/javascript; charset=utf-8', script('portal.js'));
/** The widget's few words in every language (it runs on the host's page and asks nothing of the server for them). */
const WIDGET_WORDS = Object.fromEntries(
  LOCALES.map((l) => {
    const c = CATALOGS[l];
    return [
      l,
      { label: c['widget.label'], close: c['widget.close'], refused: c['widget.refused'], open: c['widget.openInTab'] },
    ];
  }),
);
/** The widget host pages load at a fixed address (`/portal/widget.js`), so it is cached for minutes, not a year. */
export const WIDGET = asset(
  'widget',
  'js',
  'text/javascript; charset=utf-8',
  script('widget.js').replace('/* WORDS */ {}', JSON.stringify(WIDGET_WORDS)),
);
/** The design system's theme script (applies the chosen theme before the page is drawn; runs the toggle). */
export const THEME = THEME_SCRIPT;
export const ASSETS: ReadonlyMap<string, Asset> = new Map([STYLESHEET, SCRIPT, THEME].map((a) => [a.name, a]));
