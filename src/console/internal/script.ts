// The console's one script (a hashed asset; the policy allows no inline script). Every page works without it; it adds
// keyboard navigation of the posts table and changes a post's status without a reload.
export const CONSOLE_JS = `(() => {
  document.documentElement.classList.add('js');
  const typing = (el) => el && (el.tagName === 'INPUT' || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || el.isContentEditable);

  // The posts table: j / k move between posts, x ticks one for a bulk action, Enter opens it, / goes to the search.
  const rows = () => Array.from(document.querySelectorAll('table.posts tbody tr'));
  const current = () => rows().findIndex((r) => r.classList.contains('current'));
  const select = (i) => {
    const all = rows();
    if (!all.length) return;
    const n = Math.max(0, Math.min(all.length - 1, i));
    all.forEach((r, k) => r.classList.toggle('current', k === n));
    const link = all[n].querySelector('a');
    if (link) link.focus();
  };
  document.addEventListener('keydown', (e) => {
    if (e.metaKey || e.ctrlKey || e.altKey || typing(document.activeElement)) return;
    if (e.key === '/') { const q = document.querySelector('input[name=q]'); if (q) { e.preventDefault(); q.focus(); } return; }
    if (!rows().length) return;
    if (e.key === 'j') { e.preventDefault(); select(current() + 1); }
    else if (e.key === 'k') { e.preventDefault(); select(current() - 1); }
    else if (e.key === 'x') {
      const row = rows()[current()];
      const box = row && row.querySelector('input[type=checkbox]');
      if (box) { e.preventDefault(); box.checked = !box.checked; }
    }
  });

  // A post's status: sent in the background, and the page's content replaced by the answer's (its notice included).
  document.addEventListener('submit', async (e) => {
    const form = e.target;
    if (!(form instanceof HTMLFormElement) || !form.matches('form[data-inline]')) return;
    e.preventDefault();
    const button = form.querySelector('button[type=submit]');
    if (button) button.disabled = true;
    try {
      const res = await fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)), credentials: 'same-origin' });
      const page = new DOMParser().parseFromString(await res.text(), 'text/html');
      const main = page.querySelector('main');
      if (!main) throw new Error('no page');
      document.querySelector('main').replaceWith(main);
      if (res.redirected) history.replaceState(null, '', res.url);
      const notice = main.querySelector('[role=status], [role=alert]');
      if (notice) { notice.setAttribute('tabindex', '-1'); notice.focus(); }
    } catch {
      form.submit();
    }
  });
})();
`;
