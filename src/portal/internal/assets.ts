import { type Asset, asset } from '../../h3/index.js';
import { PORTAL_JS } from './script.js';
import { PORTAL_CSS } from './styles.js';
import { WIDGET_JS } from './widget.js';

export { type Asset, assetResponse } from '../../h3/index.js';

export const STYLESHEET = asset('portal', 'css', 'text/css; charset=utf-8', PORTAL_CSS);
export const SCRIPT = asset('portal', 'js', 'text/javascript; charset=utf-8', PORTAL_JS);
/** The widget host pages load at a fixed address (`/portal/widget.js`), so it is cached for minutes, not a year. */
export const WIDGET = asset('widget', 'js', 'text/javascript; charset=utf-8', WIDGET_JS);
export const ASSETS: ReadonlyMap<string, Asset> = new Map([STYLESHEET, SCRIPT].map((a) => [a.name, a]));
