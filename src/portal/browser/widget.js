// @ts-check
// widget.js: what a workspace's own site loads to offer its portal in a panel. It runs in the host page, not in the
// portal, so it touches the host as little as it can: one element, its own styles in a shadow root, one global
// (`FeedbackService`), no cookies, no network of its own. The portal pages load in an iframe, which the portal lets
// only the origins the workspace lists frame (`org update --portal-frame-origin`).
(() => {
  'use strict';
  const script = /** @type {HTMLScriptElement | null} */ (document.currentScript);
  const handle = script?.dataset.portal;
  if (!handle || !/^[a-z0-9-]{2,40}$/.test(handle)) {
    console.error('[feedback-service] widget.js needs data-portal="HANDLE" on its script tag');
    return;
  }
  const origin = new URL(script.src, location.href).origin;
  /**
   * Every language's words, filled in by the server (src/portal/internal/assets.ts).
   * @type {Record<string, { label: string, close: string, refused: string, open: string }>}
   */
  const WORDS = /* WORDS */ {};
  /**
   * The language of the panel: `data-locale`, else the host page's `<html lang>`, else the browser's, matched to the
   * portal's languages by their tag, then by their language alone (`pt` is `pt-BR`); null leaves it to the portal.
   * @param {readonly (string | null | undefined)[]} wanted
   */
  const nearest = (wanted) => {
    const ours = Object.keys(WORDS);
    for (const tag of wanted) {
      if (!tag) continue;
      const exact = ours.find((l) => l.toLowerCase() === tag.toLowerCase());
      const language = tag.split('-')[0]?.toLowerCase();
      // Traditional Chinese is not Simplified: zh-TW, zh-HK and zh-Hant match no catalog of ours.
      const traditional = /^zh-(tw|hk|mo|hant)/i.test(tag);
      const near = traditional ? undefined : ours.find((l) => l.split('-')[0]?.toLowerCase() === language);
      if (exact || near) return exact || near || null;
    }
    return null;
  };
  const locale = nearest([script.dataset.locale, document.documentElement.lang, ...navigator.languages]);
  const words = WORDS[locale ?? 'en'] ?? WORDS.en;
  const home = `/portal/${handle}/${locale ? `?lang=${encodeURIComponent(locale)}` : ''}`;
  const label = script.dataset.label || words?.label || 'Feedback';
  /** @param {string} message */
  const say = (message) => message.replace('{label}', label);
  /** @type {string | null} */
  let token = null;
  const host = document.createElement('div');
  host.setAttribute('data-feedback-service', handle);
  const root = host.attachShadow({ mode: 'open' });
  root.innerHTML =
    '<style>' +
    ':host { all: initial; }' +
    '.open { position: fixed; right: 1.25rem; bottom: 1.25rem; z-index: 2147483000; font: 600 15px/1 system-ui, sans-serif; color: #fff; background: #1d4ed8; border: 0; border-radius: 999px; padding: .8rem 1.1rem; box-shadow: 0 4px 14px rgba(0,0,0,.25); cursor: pointer; }' +
    '.open:focus-visible, .close:focus-visible { outline: 3px solid #f59e0b; outline-offset: 2px; }' +
    '.panel { position: fixed; right: 1.25rem; bottom: 4.75rem; z-index: 2147483000; width: min(26rem, calc(100vw - 2.5rem)); height: min(40rem, calc(100vh - 6.5rem)); display: flex; flex-direction: column; background: #fff; border: 1px solid #d8dde3; border-radius: .75rem; box-shadow: 0 12px 32px rgba(0,0,0,.25); overflow: hidden; }' +
    '.panel[hidden] { display: none; }' +
    '.bar { display: flex; justify-content: space-between; align-items: center; padding: .5rem .75rem; font: 600 15px/1.2 system-ui, sans-serif; color: #1b1f24; border-bottom: 1px solid #d8dde3; }' +
    '.close { font: 20px/1 system-ui, sans-serif; background: none; border: 0; color: #1b1f24; cursor: pointer; padding: .25rem .5rem; }' +
    'iframe { flex: 1; width: 100%; border: 0; }' +
    'iframe[hidden] { display: none; }' +
    '.refused { flex: 1; padding: 1.25rem; font: 15px/1.5 system-ui, sans-serif; color: #1b1f24; }' +
    '.refused a { color: #1d4ed8; }' +
    '</style>' +
    '<button class="open" type="button" aria-expanded="false" aria-controls="panel"></button>' +
    '<div class="panel" id="panel" role="dialog" aria-label="" hidden><div class="bar"><span class="title"></span><button class="close" type="button" aria-label="">\u00d7</button></div></div>';
  const open = /** @type {HTMLButtonElement} */ (root.querySelector('.open'));
  const panel = /** @type {HTMLElement} */ (root.querySelector('.panel'));
  open.textContent = label;
  panel.setAttribute('aria-label', label);
  if (locale) {
    panel.lang = locale;
    open.lang = locale;
  }
  /** @type {HTMLElement} */ (root.querySelector('.close')).setAttribute('aria-label', words?.close ?? 'Close');
  /** @type {HTMLElement} */ (root.querySelector('.title')).textContent = label;
  /** @type {HTMLIFrameElement | null} */
  let frame = null;
  /** Whether the portal in the frame said it is there (its script does, once it runs). */
  let ready = false;
  /** How long after the frame loads the portal has to say so before the panel says it was refused. */
  const READY_WITHIN_MS = 3000;
  /** The frame was refused (the portal does not list this site): a message and a link instead of a broken frame. */
  function refused() {
    if (ready || !frame || panel.querySelector('.refused')) return;
    frame.hidden = true;
    const box = document.createElement('div');
    box.className = 'refused';
    box.setAttribute('role', 'alert');
    const text = document.createElement('p');
    text.textContent = say(words?.refused ?? '{label} cannot be shown on this site.');
    const link = document.createElement('a');
    link.href = origin + home;
    link.target = '_blank';
    link.rel = 'noopener';
    link.textContent = say(words?.open ?? 'Open {label} in a new tab');
    box.append(text, link);
    panel.append(box);
    console.error(
      `[feedback-service] the portal refused to be framed by ${location.origin}: list it with \`feedback-service org update ORG_ID --portal-frame-origin ${location.origin}\` (docs/portal.md)`,
    );
  }
  const base = `/portal/${handle}/`;
  const address = () =>
    origin + (token ? `${base}sign-in?token=${encodeURIComponent(token)}&return=${encodeURIComponent(home)}` : home);
  function show() {
    let shown = frame;
    if (!shown) {
      shown = frame = document.createElement('iframe');
      shown.title = label;
      shown.src = address();
      shown.addEventListener('load', () => setTimeout(refused, READY_WITHIN_MS));
      panel.append(shown);
    }
    panel.hidden = false;
    open.setAttribute('aria-expanded', 'true');
    shown.focus();
  }
  function hide() {
    panel.hidden = true;
    open.setAttribute('aria-expanded', 'false');
    open.focus();
  }
  open.addEventListener('click', () => (panel.hidden ? show() : hide()));
  /** @type {HTMLElement} */ (root.querySelector('.close')).addEventListener('click', hide);
  panel.addEventListener('keydown', (event) => event.key === 'Escape' && hide());
  // Escape pressed inside the portal's frame: its script asks (only that frame is listened to).
  window.addEventListener('message', (event) => {
    if (!frame || event.source !== frame.contentWindow || event.origin !== origin || !event.data) return;
    if (event.data.feedbackService === 'ready') ready = true;
    if (event.data.feedbackService === 'close') hide();
  });
  /** @type {Record<string, (arg: any) => void>} */
  const api = {
    /** Sign the person in with a token your backend minted (docs/portal.md); the panel uses it from then on. */
    /** @param {{ token?: unknown } | null | undefined} options */
    identify(options) {
      token = options && typeof options.token === 'string' ? options.token : null;
      if (frame) frame.src = address();
    },
    open: show,
    close: hide,
  };
  // Calls made before this script loaded: window.FeedbackService = [['identify', { token }]].
  const global = /** @type {Window & { FeedbackService?: unknown }} */ (window);
  const queued = Array.isArray(global.FeedbackService) ? global.FeedbackService : [];
  global.FeedbackService = api;
  for (const [name, arg] of queued) if (typeof api[name] === 'function') api[name](arg);
  (document.body || document.documentElement).append(host);
})();
