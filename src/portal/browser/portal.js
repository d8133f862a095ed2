// @ts-check
// The portal's one script, served as a static asset with a hashed name (assets.ts), so the Content-Security-Policy
// allows it without 'unsafe-inline'. Every page works without it; it only spares reloads:
// - a vote by someone signed in counts without leaving the page, on a board's list or a post's page (pressed again, it
//   is taken back), and the focus stays on the vote button (anyone else goes on to the page that asks for their email, as without the script);
// - while a title is typed on the new-post form, posts with a similar title are listed, so a duplicate is not filed;
// - in the widget's panel, Escape asks the page around it to close the panel.
(() => {
  'use strict';
  // In the widget's panel: Escape closes the panel (key presses inside a frame never reach the page around it).
  if (window.parent !== window) {
    addEventListener('keydown', (event) => {
      if (event.key === 'Escape') window.parent.postMessage({ feedbackService: 'close' }, '*');
    });
    // The widget waits for this: a frame that never says it is here was refused (frame-ancestors), and the widget
    // says so instead of showing a broken frame.
    window.parent.postMessage({ feedbackService: 'ready' }, '*');
  }
  /** What a vote did, said to screen readers (and shown on a post's page). @param {string} text */
  const announce = (text) => {
    let region = document.getElementById('vote-status');
    if (!region) {
      region = document.createElement('p');
      region.id = 'vote-status';
      region.setAttribute('role', 'status');
      region.className = document.querySelector('article.post') ? 'notice' : 'sr-only';
      document.querySelector('main')?.prepend(region);
    }
    region.textContent = text;
  };
  // The post page's vote form, and a list's one form whose rows' buttons each post it to their own post.
  for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll('form.vote, form.votes'))) {
    form.addEventListener('submit', async (event) => {
      const button = /** @type {HTMLButtonElement | null} */ (event.submitter ?? form.querySelector('button'));
      if (!button?.classList.contains('vote-button')) return;
      event.preventDefault();
      if (button.getAttribute('aria-busy') === 'true') return;
      const action = button.getAttribute('formaction') ?? form.action;
      button.setAttribute('aria-busy', 'true');
      try {
        const res = await fetch(action, {
          method: 'POST',
          body: new URLSearchParams(/** @type {any} */ (new FormData(form))),
          headers: { accept: 'application/json' },
        });
        if (!res.ok) throw new Error(String(res.status));
        const answer = await res.json();
        // The same button, pressed (or no longer): it keeps the focus, so a keyboard user stays where they were, and
        // pressing it again does the other (a vote taken back, or cast again).
        // The answer's words are in the page's language (the server's catalogs): the count, the button's, the notice.
        const words = answer.words;
        const count = button.querySelector('[data-vote-count]');
        if (count) count.textContent = words.count;
        const label = button.querySelector('[data-vote-label]');
        if (label) label.textContent = words.label;
        const total = document.querySelector('[data-vote-total]');
        if (total) total.textContent = words.total;
        const voted = answer.voted === true;
        button.setAttribute('formaction', action.replace(/\/(un)?vote$/, voted ? '/unvote' : '/vote'));
        button.setAttribute('aria-pressed', String(voted));
        button.title = words.title;
        button.removeAttribute('aria-busy');
        if (form.classList.contains('vote')) for (const box of form.querySelectorAll('label.check')) box.remove();
        announce(words.notice);
        button.focus();
      } catch {
        // Not signed in, or anything else: the page flow, as without the script (to the pressed button's address).
        form.action = action;
        form.submit();
      }
    });
  }
  const title = /** @type {HTMLInputElement | null} */ (document.querySelector('input[data-similar]'));
  const list = document.getElementById('similar');
  if (title && list) {
    let timer = 0;
    let asked = '';
    title.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        const q = title.value.trim();
        if (q === asked) return;
        asked = q;
        if (q.length < 3) {
          list.replaceChildren();
          return;
        }
        const res = await fetch(`${title.dataset.similar}?q=${encodeURIComponent(q)}`, {
          headers: { accept: 'application/json' },
        }).catch(() => null);
        if (!res?.ok || asked !== q) return;
        const answer = await res.json();
        const items = answer.data.map((/** @type {{ href: string, title: string, votes: string }} */ p) => {
          const li = document.createElement('li');
          const a = document.createElement('a');
          a.href = p.href;
          a.textContent = p.title;
          a.dir = 'auto';
          const votes = document.createElement('span');
          votes.className = 'muted';
          votes.textContent = p.votes;
          li.append(a, ' ', votes);
          return li;
        });
        if (items.length) {
          const heading = document.createElement('p');
          heading.textContent = answer.heading;
          const ul = document.createElement('ul');
          ul.append(...items);
          list.replaceChildren(heading, ul);
        } else list.replaceChildren();
      }, 250);
    });
  }
})();
