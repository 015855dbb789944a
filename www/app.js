// The page: a tab bar over the registered views (views/index.js) and the
// figure gallery, and the link in the address bar that says which page is
// shown in which state. The modules that do the work: page.js (what they
// share, the one solver among it), mount.js (a view and its computation),
// context.js (what a view draws with), links.js (its state as a link),
// share.js, tabs.js, banner.js, offline.js.

import { el } from './form.js';
import { setScheme } from './charts.js';
import { views } from './views/index.js';
import { parseLink, clip, PIN_PART } from './permalink.js';
import { mountGallery, GALLERY_ID, ENTRIES, entryLink } from './gallery.js';
import { solver, figures, embed, mounted, shown, core } from './page.js';
import { banner, clearNotice } from './banner.js';
import { linkOf, restoreView, showPanel } from './links.js';
import { mountView } from './mount.js';
import { restorePin, redrawPin } from './pin.js';
import { tabBar, selectTab } from './tabs.js';
import { shareButtons, openFullLink } from './share.js';
import { registerOffline } from './offline.js';

if (embed) document.documentElement.classList.add('embed');

const tabsEl = document.getElementById('tabs');
const viewsEl = document.getElementById('views');

// The skip link moves the focus itself: its #views in the address bar would
// be read as a link to a view (the hash holds the page's state).
document.querySelector('.skip-link').addEventListener('click', (e) => {
  e.preventDefault();
  viewsEl.focus();
});
const GALLERY = { id: GALLERY_ID, title: 'Gallery', paper: { id: 'figures' } };
const pages = [...views, GALLERY];
let gallery = null;

solver.onCrash((e) => {
  banner('error', `The solver stopped (${e.message}). A fresh one has been started: press Compute to try again.`);
});

// The forms' ranges are the core's: a view mounts once they are read (the
// tabs and the gallery need none). Without them (the wasm failed to load)
// the forms show none and the solver's error says the rest.
const modelsRead = solver.models().then((models) => { core.models = models; }, () => {});

// ---- colour scheme: the system's, followed while the page is open ----------

const darkQuery = matchMedia('(prefers-color-scheme: dark)');
setScheme(darkQuery.matches);
darkQuery.addEventListener('change', (e) => {
  setScheme(e.matches);
  for (const m of mounted.values()) {
    if (!m.last) continue;
    try {
      m.view.render(m.last, m.ctx);
      redrawPin(m);
    } catch (err) {
      console.warn(err);
    }
  }
  gallery?.redraw();
});

// ---- which page is shown ------------------------------------------------------

tabBar(tabsEl, pages, go);

function activate(id) {
  shown.id = id;
  selectTab(tabsEl, id);
  if (id === GALLERY_ID) mountGalleryOnce();
  else if (!mounted.has(id)) mounted.set(id, mountView(views.find((v) => v.id === id), viewsEl));
  for (const s of viewsEl.querySelectorAll(':scope > section')) s.hidden = s.dataset.view !== id;
  document.title = `${pages.find((v) => v.id === id).title} — the divisible-load calculator`;
}

/** Shows page `id` as the user left it, and records it in the history. */
async function go(id) {
  selectTab(tabsEl, id);
  if (id !== GALLERY_ID) await modelsRead;
  activate(id);
  const m = mounted.get(id);
  if (m && !m.started) m.compute();
  history.pushState(null, '', linkOf(id));
}

/**
 * Opens the state a hash describes. A link sets the whole state of its view:
 * what it does not name takes its default. Every value goes through the
 * form's own checks; a link that fails them opens the defaults, with a notice.
 */
async function applyHash(hash, { initial = false } = {}) {
  let link = parseLink(hash);
  // Embedded, a gallery figure that a view draws is that view at the figure's panel: the card alone has no chart.
  const entry = embed && link.view === GALLERY_ID && ENTRIES.find((e) => e.id === link.fig);
  if (entry && !entry.chart) link = { ...parseLink(entryLink(entry)), notices: link.notices };
  const notices = [...link.notices];
  let id = link.view;
  let bad = link.bad;
  if (link.empty) id = shown.id ?? views[0].id;
  if (id && !pages.some((p) => p.id === id)) {
    notices.push(`There is no view “${clip(id)}” in this calculator; the first view opens with its defaults.`);
    id = undefined;
    bad = true;
  }
  if (!id) id = views[0].id;
  if (id === GALLERY_ID) {
    activate(id);
    shown.fig = undefined;
    if (link.fig) {
      if (gallery.focus(link.fig)) shown.fig = link.fig;
      else notices.push(`The gallery has no figure “${clip(link.fig)}”.`);
    }
  } else {
    selectTab(tabsEl, id);
    await modelsRead;
    const fresh = !mounted.has(id);
    activate(id);
    const m = mounted.get(id);
    if (!link.empty || fresh) {
      bad = restoreView(m, { ...link, bad }, notices);
      // Before the view's own request: the pinned one goes to the solver first.
      restorePin(m, bad ? undefined : link.parts.get(PIN_PART), notices);
    }
    m.panel = bad ? undefined : link.panel;
    m.compute().then(() => showPanel(m, initial));
  }
  if (notices.length) {
    const [first, ...rest] = notices;
    banner('notice', first, rest);
  } else clearNotice();
  history.replaceState(null, '', linkOf(id));
}

// Back, forward, a link followed, a hash typed: a fragment navigation fires
// popstate and then hashchange; the state is applied once.
let navHash = null;
window.addEventListener('popstate', () => {
  navHash = location.hash;
  applyHash(location.hash);
});
window.addEventListener('hashchange', (e) => {
  const seen = navHash !== null && new URL(e.newURL).hash === navHash;
  navHash = null;
  if (!seen) applyHash(location.hash);
});

function mountGalleryOnce() {
  if (gallery) return;
  // The figures' workers load the core while the gallery is built: one task each.
  for (let i = 0; i < figures.size; i++) figures.version().catch(() => {});
  const section = el('section', { class: 'view gallery', id: `view-${GALLERY_ID}`, role: 'tabpanel', 'aria-labelledby': `tab-${GALLERY_ID}`, 'data-view': GALLERY_ID });
  viewsEl.append(section);
  gallery = mountGallery(section, {
    solver: figures,
    hasView: (id) => views.some((v) => v.id === id),
    embed,
    shareButtons,
    openFullLink,
    open(link) {
      if (location.hash === link) applyHash(link);
      else location.hash = link;
    },
  });
}

// ---- start ----------------------------------------------------------------------------

applyHash(location.hash, { initial: true });
solver.version().then(
  (v) => { document.getElementById('version').textContent = v; },
  () => { document.getElementById('version').textContent = '—'; },
);
registerOffline(() => [solver, figures].some((pool) => pool.running > 0 || pool.queued > 0));
