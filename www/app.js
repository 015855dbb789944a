// The page: a tab bar over the registered views (views/index.js) and the
// figure gallery, one shared form and results frame per view, one solver
// worker for all of them, and what every view gets for free: its state in
// the URL hash (permalink.js), Share and Embed, exports of each panel
// (export.js), embed mode (?embed=1), the colour scheme of the system.
//
// A view module exports
//   { id, title, paper: {id, cite}, intro?, fields, check?(values), toRequest(values),
//     render(response, ctx) }
// and draws its results into panels it asks `ctx` for (see makeContext).

import { Pool, SolverError } from './pool.js';
import { buildForm, el } from './form.js';
import { mountChart, setScheme } from './charts.js';
import { fill, message, progress, saveText } from './ui.js';
import { views } from './views/index.js';
import { parseLink, buildLink, clip } from './permalink.js';
import { exportMenu } from './export.js';
import { mountGallery, GALLERY_ID } from './gallery.js';

const query = new URLSearchParams(location.search);
const embed = query.get('embed') === '1';
if (embed) document.documentElement.classList.add('embed');

// One worker for the whole page: a new request supersedes a running one, never waits behind it.
const solver = new Pool();
const t0 = performance.now();
let firstResultMs = null;
// A solve that takes longer than this shows its elapsed time and a Cancel button.
const PENDING_MS = 300;

const tabsEl = document.getElementById('tabs');
const viewsEl = document.getElementById('views');
const bannerEl = document.getElementById('banner');
const mounted = new Map(); // id -> {section, compute, form, view, ctx, ...}
const GALLERY = { id: GALLERY_ID, title: 'Gallery', paper: { id: 'figures' } };
const pages = [...views, GALLERY];
let activeId = null;
let gallery = null;
let galleryFig;

function banner(kind, text, items = []) {
  if (!text) {
    bannerEl.hidden = true;
    bannerEl.textContent = '';
    delete bannerEl.dataset.kind;
    return;
  }
  bannerEl.hidden = false;
  bannerEl.className = `banner ${kind}`;
  bannerEl.dataset.kind = kind;
  bannerEl.setAttribute('data-testid', kind === 'notice' ? 'notice' : 'banner');
  // Text only: a notice may quote a hostile link; it is never parsed as HTML.
  const body = el('div', { class: 'banner-text' }, el('span', { text }), items.length ? el('ul', {}, items.map((t) => el('li', { text: t }))) : null);
  fill(bannerEl, body, el('button', { type: 'button', class: 'ghost small', text: 'Dismiss', onclick: () => banner() }));
}

solver.onCrash((e) => {
  banner('error', `The solver stopped (${e.message}). A fresh one has been started: press Compute to try again.`);
});

// ---- colour scheme ------------------------------------------------------------

const darkQuery = matchMedia('(prefers-color-scheme: dark)');
setScheme(darkQuery.matches);
darkQuery.addEventListener('change', (e) => {
  setScheme(e.matches);
  for (const m of mounted.values()) {
    if (!m.last) continue;
    try {
      m.view.render(m.last, m.ctx);
    } catch (err) {
      console.warn(err);
    }
  }
  gallery?.redraw();
});

// ---- tabs (WAI-ARIA tabs: arrows, Home and End move and select) ------------------

for (const page of pages) {
  const tab = el('button', {
    type: 'button', role: 'tab', id: `tab-${page.id}`, 'aria-controls': `view-${page.id}`,
    'aria-selected': 'false', 'data-view': page.id, 'data-testid': `tab-${page.id}`, tabindex: '-1',
  }, el('span', { class: 'tab-title', text: page.title }), el('span', { class: 'tab-paper', text: page.id === GALLERY_ID ? 'figures' : `[${page.paper.id}]` }));
  tab.addEventListener('click', () => go(page.id));
  tab.addEventListener('keydown', (e) => {
    const i = pages.indexOf(page);
    const target = {
      ArrowRight: pages[(i + 1) % pages.length],
      ArrowLeft: pages[(i - 1 + pages.length) % pages.length],
      Home: pages[0],
      End: pages[pages.length - 1],
    }[e.key];
    if (!target) return;
    e.preventDefault();
    go(target.id);
    document.getElementById(`tab-${target.id}`)?.focus();
  });
  tabsEl.append(tab);
}

function activate(id) {
  activeId = id;
  for (const t of tabsEl.children) {
    const on = t.dataset.view === id;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
  }
  if (id === GALLERY_ID) mountGalleryOnce();
  else if (!mounted.has(id)) mounted.set(id, mountView(views.find((v) => v.id === id)));
  for (const s of viewsEl.querySelectorAll(':scope > section')) s.hidden = s.dataset.view !== id;
  document.title = `${pages.find((v) => v.id === id).title} — the divisible-load calculator`;
}

/** Shows page `id` as the user left it, and records it in the history. */
function go(id) {
  activate(id);
  const m = mounted.get(id);
  if (m && !m.started) m.compute();
  history.pushState(null, '', linkOf(id));
}

// ---- permalinks ---------------------------------------------------------------

/** The link of page `id` in its current state. */
function linkOf(id) {
  if (id === GALLERY_ID) return buildLink({ view: id, fig: galleryFig });
  const m = mounted.get(id);
  if (!m) return buildLink({ view: id });
  const parts = {};
  if (Object.keys(m.linkState).length) parts.x = m.linkState;
  for (const [name, f] of m.subforms) parts[name] = f.texts();
  return buildLink({ view: id, fields: m.form.texts(), parts, panel: m.panel });
}

/** The page's address without query and hash, for links that leave it. */
function baseUrl() {
  return location.href.split(/[?#]/)[0];
}

function shareUrl(id) {
  return `${baseUrl()}${linkOf(id)}`;
}

function embedUrl(id) {
  return `${baseUrl()}?embed=1${linkOf(id)}`;
}

// The hash follows the edits, at most every 300 ms (replaceState: no history entry each keystroke).
let hashTimer = 0;
function scheduleHash() {
  if (hashTimer) return;
  hashTimer = setTimeout(() => {
    hashTimer = 0;
    writeHash();
  }, 300);
}

function writeHash() {
  if (!activeId) return;
  const h = linkOf(activeId);
  if (h !== location.hash) history.replaceState(null, '', h);
}

/**
 * Opens the state a hash describes. A link sets the whole state of its view:
 * what it does not name takes its default. Every value goes through the
 * form's own checks; a link that fails them opens the defaults, with a notice.
 */
function applyHash(hash, { initial = false } = {}) {
  const link = parseLink(hash);
  const notices = [...link.notices];
  let id = link.view;
  let bad = link.bad;
  if (link.empty) id = activeId ?? views[0].id;
  if (id && !pages.some((p) => p.id === id)) {
    notices.push(`There is no view “${clip(id)}” in this calculator; the first view opens with its defaults.`);
    id = undefined;
    bad = true;
  }
  if (!id) id = views[0].id;
  if (id === GALLERY_ID) {
    activate(id);
    galleryFig = undefined;
    if (link.fig) {
      if (gallery.focus(link.fig)) galleryFig = link.fig;
      else notices.push(`The gallery has no figure “${clip(link.fig)}”.`);
    }
  } else {
    const fresh = !mounted.has(id);
    activate(id);
    const m = mounted.get(id);
    if (!link.empty || fresh) {
      m.form.reset();
      m.linkState = {};
      m.pendingParts = new Map();
      for (const f of m.subforms.values()) f.reset();
      if (!bad) {
        const r = m.form.restore(link.fields);
        if (!r.ok) {
          bad = true;
          m.form.reset();
          notices.push(`The link’s parameters are not valid for the ${m.view.title} view, so its defaults are shown:`);
          for (const [key, msg] of Object.entries(r.errors).slice(0, 8)) notices.push(`${clip(key)}: ${msg}`);
        }
        if (r.unknown.length) notices.push(`The ${m.view.title} view has no parameter ${r.unknown.slice(0, 6).map((k) => `“${clip(k)}”`).join(', ')}; ignored.`);
        if (!bad) {
          for (const [prefix, values] of link.parts) {
            if (prefix === 'x') {
              for (const [k, v] of values) if (v.length <= 200) m.linkState[k] = v;
            } else if (m.subforms.has(prefix)) {
              applyPart(m, prefix, m.subforms.get(prefix), values, notices);
            } else {
              m.pendingParts.set(prefix, values);
            }
          }
        }
      }
    }
    m.panel = bad ? undefined : link.panel;
    m.compute().then(() => showPanel(m, initial));
  }
  if (notices.length) {
    const [first, ...rest] = notices;
    banner('notice', first, rest);
  } else if (bannerEl.dataset.kind === 'notice') banner();
  history.replaceState(null, '', linkOf(id));
}

/** Sets a sub-form from a link's part; invalid values leave its defaults, with a notice. */
function applyPart(m, name, form, values, notices = null) {
  form.reset();
  const r = form.restore(values);
  if (r.ok) return;
  form.reset();
  const text = `The link’s ${name} parameters are not valid (${Object.entries(r.errors).slice(0, 4).map(([k, e]) => `${clip(k)}: ${e}`).join('; ')}); their defaults are used.`;
  if (notices) notices.push(text);
  else banner('notice', text);
}

/** Brings the panel the link names into view (and, embedded, shows only it). */
function showPanel(m, initial) {
  markEmbed(m);
  if (!m.panel || embed) return;
  const card = m.section.querySelector(`[data-panel="${CSS.escape(m.panel)}"]`);
  if (!card) return;
  card.scrollIntoView({ block: 'start', behavior: initial ? 'auto' : 'smooth' });
  card.classList.add('focused');
  setTimeout(() => card.classList.remove('focused'), 1600);
}

function markEmbed(m) {
  if (!embed) return;
  const cards = [...m.section.querySelectorAll('.panels > .panel')];
  const chosen = cards.find((c) => c.dataset.panel === m.panel) ?? cards.find((c) => c.querySelector('.chart')) ?? cards[0];
  for (const c of cards) c.toggleAttribute('data-embed-shown', c === chosen);
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

// ---- the gallery ------------------------------------------------------------------

function mountGalleryOnce() {
  if (gallery) return;
  const section = el('section', { class: 'view gallery', id: `view-${GALLERY_ID}`, role: 'tabpanel', 'aria-labelledby': `tab-${GALLERY_ID}`, 'data-view': GALLERY_ID });
  viewsEl.append(section);
  gallery = mountGallery(section, {
    solver,
    hasView: (id) => views.some((v) => v.id === id),
    open(link) {
      if (location.hash === link) applyHash(link);
      else location.hash = link;
    },
  });
}

// ---- one view ---------------------------------------------------------------------

/** "model torus, k = 2, S = 0.0001, …": a request in one line, for exported images. */
function requestLine(request) {
  if (!request) return '';
  const parts = [];
  for (const [k, v] of Object.entries(request)) {
    if (k === 'model') continue;
    if (Array.isArray(v)) parts.push(v.length <= 6 && v.every((x) => typeof x !== 'object') ? `${k} = ${v.join(', ')}` : `${k}: ${v.length} entries`);
    else if (v && typeof v === 'object') parts.push(`${k}: …`);
    else parts.push(`${k} = ${v}`);
  }
  return `${request.model}: ${parts.join('; ')}`;
}

function mountView(view) {
  const formCard = el('aside', { class: 'card form-card' }, el('h3', { text: 'Parameters' }));
  const resultMsg = el('div', { class: 'result-msg', 'data-testid': 'result-msg' });
  const panelsEl = el('div', { class: 'panels' });
  const results = el('div', { class: 'results', 'data-state': 'idle', 'data-seq': '0', 'data-testid': 'results', 'aria-live': 'off' }, resultMsg, panelsEl);
  const share = shareBar(view);
  const section = el('section', { class: 'view', id: `view-${view.id}`, role: 'tabpanel', 'aria-labelledby': `tab-${view.id}`, 'data-view': view.id },
    el('div', { class: 'view-head' },
      el('h2', { text: view.title }),
      el('p', { class: 'cite' }, `Paper [${view.paper.id}]: `, el('cite', { text: view.paper.cite })),
      view.intro ? el('p', { class: 'intro', text: view.intro }) : null,
      share.el),
    el('div', { class: 'view-body' }, formCard, results));
  viewsEl.append(section);

  let seq = 0;
  let controller = null;
  let debounce = 0;
  const m = { view, section, form: null, ctx: null, last: undefined, request: undefined, linkState: {}, subforms: new Map(), pendingParts: new Map(), panel: undefined, started: false };
  const ctx = makeContext(view, panelsEl, m);
  m.ctx = ctx;

  const form = buildForm(formCard, view.fields, { onSubmit: () => compute(), extraCheck: view.check });
  m.form = form;
  /** Lets a view's results change the form (e.g. "compute with D = D*") and recompute. */
  ctx.setValues = (obj) => {
    form.setValues(obj);
    compute();
  };
  form.onChange(() => {
    scheduleHash();
    clearTimeout(debounce);
    debounce = setTimeout(() => { if (form.values().ok) compute(); }, 450);
  });

  async function compute() {
    m.started = true;
    clearTimeout(debounce);
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    form.clearErrors();
    const { ok, values } = form.values();
    if (!ok) {
      results.dataset.state = 'invalid';
      fill(resultMsg, message('warn', 'Some parameters are not valid: see the messages beside the fields.'));
      return;
    }
    let request;
    try {
      request = view.toRequest(values);
    } catch (e) {
      results.dataset.state = 'invalid';
      fill(resultMsg, message('warn', e.message));
      return;
    }
    results.dataset.state = 'pending';
    results.classList.add('stale');
    fill(resultMsg);
    // A quick answer shows no indicator; a slow one its elapsed time and a
    // Cancel that stops the worker (a new request from the form does too).
    let started = false;
    let cancelledByUser = false;
    let bar = null;
    const showBar = setTimeout(() => {
      bar = progress(started ? 'Solving' : 'Waiting for the solver (busy with another computation)', () => {
        cancelledByUser = true;
        controller.abort();
      });
      bar.el.dataset.testid = 'solve-progress';
      fill(resultMsg, bar.el);
    }, PENDING_MS);
    let response;
    try {
      response = await solver.solve(request, { signal, onStart: () => { started = true; bar?.setLabel('Solving'); } });
    } catch (e) {
      if (e instanceof SolverError && e.code === 'cancelled') {
        if (cancelledByUser) {
          results.dataset.state = 'cancelled';
          fill(resultMsg, message('info', 'Cancelled: the solver was stopped. Change the parameters or press Compute.'));
        }
        return;
      }
      const err = e instanceof SolverError ? e.error : { code: 'internal', field: '', message: String(e?.message ?? e) };
      const atField = form.showError(err);
      results.dataset.state = 'error';
      fill(resultMsg, message('error', atField
        ? `The calculator refused the parameters: ${err.message}`
        : err.code === 'internal' && /not yet/i.test(err.message)
          ? `This model is not available in this build of the core yet (${err.message}).`
          : `${err.message}`));
      return;
    } finally {
      clearTimeout(showBar);
      bar?.finish();
    }
    if (signal.aborted) return;
    results.classList.remove('stale');
    ctx.signal = signal;
    ctx.request = request;
    ctx.values = values;
    m.last = response;
    m.request = request;
    try {
      view.render(response, ctx);
    } catch (e) {
      console.warn(e);
      fill(resultMsg, message('error', `The results could not be drawn: ${e.message}`));
    }
    share.ready();
    markEmbed(m);
    results.dataset.request = JSON.stringify(request);
    results.dataset.seq = String(++seq);
    results.dataset.state = 'done';
    if (activeId === view.id) scheduleHash();
    if (firstResultMs === null) {
      firstResultMs = Math.round(performance.now() - t0);
      document.documentElement.dataset.firstResultMs = String(firstResultMs);
    }
  }

  m.compute = compute;
  return m;
}

/** Share link, embed code, request and response as JSON (hidden but "open in the calculator" when embedded). */
function shareBar(view) {
  const out = el('input', { type: 'text', readonly: true, class: 'share-url', 'data-testid': 'share-url', 'aria-label': 'link to copy', hidden: true });
  const status = el('span', { class: 'share-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'share-status' });
  const copy = async (text, what) => {
    out.hidden = false;
    out.value = text;
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      out.select();
      try { ok = document.execCommand('copy'); } catch { ok = false; }
    }
    status.textContent = ok ? `${what} copied.` : `Copy the ${what.toLowerCase()} from the box.`;
    out.dataset.copied = String(ok);
  };
  const jsonButton = (what) => el('button', {
    type: 'button', class: 'ghost small', 'data-testid': `export-${what}`, disabled: true,
    title: `the ${what} the core answered, as JSON (the contract of API.md)`,
    onclick: () => {
      const m = mounted.get(view.id);
      const data = what === 'request' ? m.request : m.last;
      const text = `${JSON.stringify(data, null, 2)}\n`;
      saveText(text, `${view.id}-${what}.json`, 'application/json');
      status.textContent = `${view.id}-${what}.json saved (${text.length.toLocaleString('en')} bytes).`;
    },
  }, `${what === 'request' ? 'Request' : 'Response'} JSON`);
  const req = jsonButton('request');
  const res = jsonButton('response');
  const openFull = el('a', { class: 'open-full', target: '_blank', rel: 'noopener', 'data-testid': 'open-full', text: 'Open in the calculator ↗' });
  openFull.addEventListener('focus', () => { openFull.href = shareUrl(view.id); });
  openFull.addEventListener('mouseenter', () => { openFull.href = shareUrl(view.id); });
  openFull.addEventListener('click', () => { openFull.href = shareUrl(view.id); });
  const bar = el('div', { class: 'share-bar' },
    el('span', { class: 'embed-title', text: `${view.title} [${view.paper.id}]` }),
    el('button', { type: 'button', class: 'ghost small', 'data-testid': 'share', title: 'a link that opens exactly this view with these parameters', onclick: () => copy(shareUrl(view.id), 'Link') }, 'Share link'),
    el('button', {
      type: 'button', class: 'ghost small', 'data-testid': 'embed-code', title: 'HTML for a course page: this view’s chart and controls in a frame',
      onclick: () => copy(`<iframe src="${embedUrl(view.id).replace(/"/g, '%22')}" title="${view.title}: the divisible-load calculator" width="100%" height="600" style="border:0" loading="lazy"></iframe>`, 'Embed code'),
    }, 'Embed'),
    req, res, openFull, out, status);
  return { el: bar, ready() { req.disabled = false; res.disabled = false; } };
}

/**
 * What a view's render() gets: persistent panels and charts (created on
 * first use, in call order, reused by later renders), the solver for extra
 * requests (sweeps), and `signal`, aborted when the next computation starts.
 * Also the view's part of its permalink: `linkState` (its own choices, e.g.
 * what a chart plots) with `setLinkState(key, value)`, and `linkForm(name,
 * form)` for a sub-form whose fields the link keeps too.
 */
function makeContext(view, panelsEl, m) {
  const panels = new Map();
  const charts = new Map();
  const ctx = {
    solver,
    /** The view's own memory across renders (cache keys, sweep results). */
    state: {},
    signal: undefined,
    request: undefined,
    values: undefined,
    get linkState() { return m.linkState; },
    setLinkState(key, value) {
      if (value === undefined || value === null) delete m.linkState[key];
      else m.linkState[key] = String(value);
      scheduleHash();
    },
    linkForm(name, form) {
      m.subforms.set(name, form);
      const pending = m.pendingParts.get(name);
      if (pending) {
        m.pendingParts.delete(name);
        applyPart(m, name, form, pending);
      }
      form.onChange(scheduleHash);
    },
    /** A titled card in the results column; returns its body element. */
    panel(key, { title, note, wide = false } = {}) {
      let p = panels.get(key);
      if (!p) {
        const body = el('div', { class: 'panel-body' });
        const noteEl = el('p', { class: 'panel-note' });
        const titleEl = el('h3', {});
        const card = el('section', { class: `card panel${wide ? ' wide' : ''}`, 'data-panel': key }, el('div', { class: 'panel-head' }, titleEl), noteEl, body);
        card.querySelector('.panel-head').append(exportMenu(card, {
          basename: () => `${view.id}-${key}`,
          info: () => ({ title: p.titleEl.textContent, subtitle: requestLine(ctx.request) }),
        }));
        panelsEl.append(card);
        p = { card, body, noteEl, titleEl };
        panels.set(key, p);
      }
      p.titleEl.textContent = title ?? '';
      p.noteEl.textContent = note ?? '';
      p.noteEl.hidden = !note;
      return p.body;
    },
    /** Shows or hides a panel made earlier. */
    showPanel(key, shown) {
      const p = panels.get(key);
      if (p) p.card.hidden = !shown;
    },
    /**
     * An ECharts instance in its own box inside `parent`, kept across
     * renders; `height: null` leaves the box's height to the style sheet.
     * The box is labelled for screen readers with its panel's title and note.
     */
    chart(key, parent, { height = 320, className = '', renderer, onResize } = {}) {
      let c = charts.get(key);
      const card = parent.closest('[data-panel]');
      const title = card?.querySelector('.panel-head h3')?.textContent ?? key;
      const note = card?.querySelector('.panel-note')?.textContent ?? '';
      const describe = (box) => {
        box.dataset.label = title;
        box.dataset.description = `${title}. ${note}`.trim();
        box.setAttribute('role', 'img');
        box.setAttribute('aria-label', box.dataset.description);
      };
      if (!c || c.box.parentNode !== parent) {
        c?.chart.dispose();
        const box = el('div', { class: `chart ${className}`, 'data-chart': key });
        if (height) box.style.height = `${height}px`;
        describe(box);
        parent.append(box);
        c = { box, chart: mountChart(box, { renderer, onResize }) };
        charts.set(key, c);
      } else {
        describe(c.box);
        if (height && c.box.style.height !== `${height}px`) {
          c.box.style.height = `${height}px`;
          c.chart.resize();
        }
      }
      return c.chart;
    },
    /**
     * Runs `requests` as a sweep of the worker (Pool.sweep) with a progress
     * indicator in `parent`; resolves to one entry per request, or null if
     * cancelled (the Cancel button, `signal`) or superseded by a newer
     * computation.
     */
    async sweep(parent, label, requests, { pick, signal } = {}) {
      const own = new AbortController();
      const outer = ctx.signal;
      const stop = () => own.abort();
      outer?.addEventListener('abort', stop, { once: true });
      signal?.addEventListener('abort', stop, { once: true });
      if (signal?.aborted) stop();
      const bar = progress(label, stop);
      parent.querySelector(':scope > .progress')?.remove();
      parent.prepend(bar.el);
      const started = performance.now();
      try {
        const responses = await solver.sweep(requests, { signal: own.signal, pick, onProgress: (d, t) => bar.update(d, t) });
        bar.finish(`${requests.length} points in ${Math.round(performance.now() - started)} ms`);
        return responses;
      } catch (e) {
        if (e instanceof SolverError && e.code === 'cancelled') {
          bar.finish(outer?.aborted || signal?.aborted ? '' : 'cancelled');
          return null;
        }
        bar.finish();
        parent.prepend(message('error', `The sweep failed: ${e.message}`));
        return null;
      } finally {
        outer?.removeEventListener('abort', stop);
        signal?.removeEventListener('abort', stop);
      }
    },
  };
  return ctx;
}

// ---- start ----------------------------------------------------------------------------

applyHash(location.hash, { initial: true });
solver.version().then(
  (v) => { document.getElementById('version').textContent = v; },
  () => { document.getElementById('version').textContent = '—'; },
);

// Offline after the first visit: a service worker keeps the app shell
// (only over http(s); the single file needs none).
if ('serviceWorker' in navigator && /^https?:$/.test(location.protocol)) {
  navigator.serviceWorker.register('./sw.js').then(() => navigator.serviceWorker.ready).then((reg) => {
    // What this page loaded before the worker took over, the views' modules included.
    const urls = performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.startsWith(location.origin));
    reg.active?.postMessage({ type: 'cache', urls: [new URL('./', location.href).href, ...urls] });
  }, (e) => console.info('no offline copy:', e?.message ?? e));
}
