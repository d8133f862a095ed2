// @ts-check
// The console's one script (a hashed asset; the policy allows no inline script). Every page works without it; it adds
// keyboard navigation of the posts table, changes a post's status without a reload, orders the roadmap by drag and
// drop, and shows a changelog draft's Markdown preview as it is typed.
(() => {
  /** A form's fields as a request body. @param {HTMLFormElement} form */
  const formBody = (form) => new URLSearchParams(/** @type {any} */ (new FormData(form)));
  document.documentElement.classList.add('js');
  /** @param {Element | null} el */
  const typing = (el) =>
    el &&
    (el.tagName === 'INPUT' ||
      el.tagName === 'TEXTAREA' ||
      el.tagName === 'SELECT' ||
      (el instanceof HTMLElement && el.isContentEditable));

  // The posts table: j / k move between posts, x ticks one for a bulk action, Enter opens it, / goes to the search.
  const rows = () => Array.from(document.querySelectorAll('table.posts tbody tr'));
  const current = () => rows().findIndex((r) => r.classList.contains('current'));
  /** @param {number} i */
  const select = (i) => {
    const all = rows();
    if (!all.length) return;
    const n = Math.max(0, Math.min(all.length - 1, i));
    for (const [k, r] of all.entries()) r.classList.toggle('current', k === n);
    const link = all[n].querySelector('a');
    if (link) link.focus();
  };
  document.addEventListener('keydown', (e) => {
    if (e.metaKey || e.ctrlKey || e.altKey || typing(document.activeElement)) return;
    if (e.key === '/') {
      const q = /** @type {HTMLInputElement | null} */ (document.querySelector('input[name=q]'));
      if (q) {
        e.preventDefault();
        q.focus();
      }
      return;
    }
    if (!rows().length) return;
    if (e.key === 'j') {
      e.preventDefault();
      select(current() + 1);
    } else if (e.key === 'k') {
      e.preventDefault();
      select(current() - 1);
    } else if (e.key === 'x') {
      const row = rows()[current()];
      const box = row && /** @type {HTMLInputElement | null} */ (row.querySelector('input[type=checkbox]'));
      if (box) {
        e.preventDefault();
        box.checked = !box.checked;
      }
    }
  });

  // A form sent in the background: the page's content replaced by the answer's (its notice, or why not, focused).
  /** @param {string} action @param {URLSearchParams} body */
  const send = async (action, body) => {
    const res = await fetch(action, { method: 'POST', body, credentials: 'same-origin' });
    const page = new DOMParser().parseFromString(await res.text(), 'text/html');
    const main = page.querySelector('main');
    if (!main) throw new Error('no page');
    const here = document.querySelector('main');
    if (!here) throw new Error('no page');
    here.replaceWith(main);
    if (res.redirected) history.replaceState(null, '', res.url);
    const notice = /** @type {HTMLElement | null} */ (main.querySelector('[role=status], [role=alert]'));
    if (notice) {
      notice.setAttribute('tabindex', '-1');
      notice.focus();
    }
  };
  document.addEventListener('submit', async (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('form[data-inline]')) return;
    e.preventDefault();
    const button = /** @type {HTMLButtonElement | null} */ (form.querySelector('button[type=submit]'));
    if (button) button.disabled = true;
    try {
      await send(form.action, formBody(form));
    } catch {
      form.submit();
    }
  });

  // The roadmap: drag a post within its column; on the drop, the column's new order is saved.
  /** @type {{ li: HTMLLIElement, list: HTMLElement, before: string } | null} */
  let dragged = null;
  document.addEventListener('dragstart', (e) => {
    const li =
      e.target instanceof Element
        ? /** @type {HTMLLIElement | null} */ (e.target.closest('ol[data-sortable] > li'))
        : null;
    const list = li?.parentElement;
    if (!li || !list) return;
    dragged = {
      li,
      list,
      before: Array.from(list.children)
        .map((c) => /** @type {HTMLElement} */ (c).dataset.post)
        .join(),
    };
    li.classList.add('dragging');
    if (e.dataTransfer) {
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', li.dataset.post ?? '');
    }
  });
  document.addEventListener('dragover', (e) => {
    if (!dragged) return;
    const over =
      e.target instanceof Element && /** @type {HTMLLIElement | null} */ (e.target.closest('ol[data-sortable] > li'));
    if (!over || over.parentElement !== dragged.list) return;
    e.preventDefault();
    if (over === dragged.li) return;
    const box = over.getBoundingClientRect();
    dragged.list.insertBefore(dragged.li, e.clientY > box.top + box.height / 2 ? over.nextSibling : over);
  });
  document.addEventListener('drop', (e) => {
    if (dragged) e.preventDefault();
  });
  document.addEventListener('dragend', async () => {
    if (!dragged) return;
    const { li, list, before } = dragged;
    dragged = null;
    li.classList.remove('dragging');
    const ids = Array.from(list.children).map((c) => /** @type {HTMLElement} */ (c).dataset.post);
    if (ids.join() === before) return;
    const form = /** @type {HTMLFormElement | null} */ (document.getElementById('roadmap-order'));
    if (!form) return;
    const body = formBody(form);
    body.set('status', list.dataset.status ?? '');
    for (const id of ids) body.append('post', id ?? '');
    try {
      await send(form.action, body);
    } catch {
      location.reload();
    }
  });

  // A changelog draft's preview, as it is typed (the server renders it: the same Markdown as the portal's).
  let previewing = 0;
  document.addEventListener('input', (e) => {
    const area = e.target;
    if (!(area instanceof HTMLTextAreaElement) || !area.matches('textarea[data-preview]')) return;
    clearTimeout(previewing);
    previewing = setTimeout(async () => {
      const form = area.form;
      if (!form) return;
      const body = formBody(form);
      try {
        const res = await fetch(String(area.dataset.preview), { method: 'POST', body, credentials: 'same-origin' });
        const page = new DOMParser().parseFromString(await res.text(), 'text/html');
        const shown = page.getElementById('preview');
        if (res.ok && shown) document.getElementById('preview')?.replaceWith(shown);
      } catch {}
    }, 400);
  });

  // A list narrowed as a word is typed (the changelog's posts it ships): the choices that do not match are hidden,
  // the chosen ones never.
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (document.querySelectorAll('input[data-filter]'))) {
    const list = document.getElementById(input.dataset.filter ?? '');
    if (!list) continue;
    input.addEventListener('input', () => {
      const words = input.value.toLowerCase().split(/\s+/).filter(Boolean);
      for (const label of /** @type {NodeListOf<HTMLLabelElement>} */ (list.querySelectorAll('label'))) {
        const box = label.querySelector('input');
        const text = (label.textContent ?? '').toLowerCase();
        label.hidden = !box?.checked && !words.every((w) => text.includes(w));
      }
    });
    // Enter in the filter does not send the form.
    input.addEventListener('keydown', (e) => e.key === 'Enter' && e.preventDefault());
  }
})();
