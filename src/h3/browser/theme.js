// @ts-check
// theme.js: the theme a person chose, remembered by this browser. Loaded in the head without `defer`, so the chosen
// theme is on the root before anything is drawn (no flash of the other one); the rest waits for the page. Without
// JavaScript, or with nothing chosen, the system's preference (prefers-color-scheme) decides.
// The toggle (a button with data-theme-toggle, hidden until this runs) goes round Auto, Light, Dark.
(() => {
  'use strict';
  const KEY = 'feedback-service:theme';
  const root = document.documentElement;
  /** @returns {string} */
  const stored = () => {
    try {
      return localStorage.getItem(KEY) ?? 'auto';
    } catch {
      return 'auto'; // storage refused (a sandboxed frame, privacy settings): the system decides
    }
  };
  /** @param {string} theme */
  const apply = (theme) => {
    if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
    else delete root.dataset.theme;
  };
  let chosen = stored();
  apply(chosen);
  const LABELS = /** @type {Record<string, string>} */ ({
    auto: 'Theme: auto',
    light: 'Theme: light',
    dark: 'Theme: dark',
  });
  const NEXT = /** @type {Record<string, string>} */ ({ auto: 'light', light: 'dark', dark: 'auto' });
  document.addEventListener('DOMContentLoaded', () => {
    for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (
      document.querySelectorAll('button[data-theme-toggle]')
    )) {
      // The page's own words for each theme, where it gives them (the portal's, in its language).
      const show = () => {
        button.textContent =
          button.dataset[`label${chosen[0]?.toUpperCase()}${chosen.slice(1)}`] ?? LABELS[chosen] ?? LABELS.auto;
      };
      show();
      button.hidden = false;
      button.addEventListener('click', () => {
        chosen = NEXT[chosen] ?? 'light';
        try {
          localStorage.setItem(KEY, chosen);
        } catch {} // not remembered, but this page still changes
        apply(chosen);
        show();
      });
    }
  });
})();
