// The tab bar over the views and the gallery (WAI-ARIA tabs: the arrows,
// Home and End move and select).

import { el } from './form.js';
import { moveTo } from './roving.js';

/** Builds one tab per page in `tabsEl`; `go(id)` shows a page. */
export function tabBar(tabsEl, pages, go) {
  for (const page of pages) {
    const tab = el('button', {
      type: 'button', role: 'tab', id: `tab-${page.id}`, 'aria-controls': `view-${page.id}`,
      'aria-selected': 'false', 'data-view': page.id, 'data-testid': `tab-${page.id}`, tabindex: '-1',
    }, el('span', { class: 'tab-title', text: page.title }), el('span', { class: 'tab-paper', text: page.paper.id === 'figures' ? 'figures' : `[${page.paper.id}]` }));
    tab.addEventListener('click', () => go(page.id));
    tab.addEventListener('keydown', (e) => {
      const target = pages[moveTo(e.key, pages.indexOf(page), pages.length, { upDown: false })];
      if (!target) return;
      e.preventDefault();
      go(target.id);
      document.getElementById(`tab-${target.id}`)?.focus();
    });
    tabsEl.append(tab);
  }
}

/** Marks page `id`'s tab selected (and the only one in the tab order). */
export function selectTab(tabsEl, id) {
  for (const t of tabsEl.children) {
    const on = t.dataset.view === id;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
  }
}
