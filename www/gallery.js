// The figure gallery: every numbered figure and table of the five papers
// that the models reproduce, with the paper's caption and parameters, each
// drawn on one click and each a permalink.
//
// Two kinds of entries:
//   view entries open a view with the figure's parameters (through the
//   permalink machinery: `values` are field texts, checked by the view's own
//   form) and show the panel that draws the figure;
//   chart entries are curves no view draws (a sweep over another parameter):
//   the gallery sends their requests to the worker as one sweep and draws
//   them here, `#v=1&view=gallery&fig=ID` being their permalink.
// `shape`, where present, says in one sentence why a curve has a
// surprising shape (a falling Cmax, a plateau), in the paper's words.
// `status`, where present, says in one line whether the drawing agrees with
// what the paper's text says about the figure (tests/figures_000/ checks
// each statement).
// `NOT_COVERED` lists the figures left out, and why.

import { buildLink } from './permalink.js';
import { sweepOption, fitLegend, logRange } from './charts.js';
import { accessibleChart } from './chart-access.js';
import { el, fill, message, progress } from './ui.js';
import { exportMenu } from './export.js';
import { paperValues, printedSeries } from './printed.js';
import { radioGroup } from './roving.js';
import paper000 from './gallery/000.js';
import paper001 from './gallery/001.js';
import paper002 from './gallery/002.js';
import paper003 from './gallery/003.js';
import paper004 from './gallery/004.js';

export const GALLERY_ID = 'gallery';

/** The five papers: [authors, title, venue]. */
export const PAPERS = {
  '000': ['Drozdowski, Wolniewicz', 'Performance limits of divisible load processing in systems with limited communication buffers', 'JPDC 2004'],
  '001': ['Błażewicz, Drozdowski, Guinand, Trystram', 'Scheduling a divisible task in a two-dimensional toroidal mesh', 'DAM 1999'],
  '002': ['Drozdowski, Wolniewicz', 'Out-of-core divisible load processing', 'IEEE TPDS 2003'],
  '003': ['Drozdowski, Singh, Marszałkowski', 'Isoefficiency maps for divisible computations in hierarchical memory systems', 'PPAM 2019'],
  '004': ['Chen, Chu', 'Divisible non-linear load distribution on heterogeneous single-level trees'],
};

/** Paper `id` cited: authors, “title”, venue. */
export const citation = (id) => {
  const [authors, title, venue] = PAPERS[id];
  return [authors, `“${title}”`, venue].filter(Boolean).join(', ');
};

/** Where to read paper `id`: the page does not ship the papers, so a search for its exact title. */
export const paperLink = (id) => `https://scholar.google.com/scholar?q=${encodeURIComponent(`"${PAPERS[id][1]}"`)}`;

/** The entries, one file a paper (gallery/000.js …), in the papers' order. */
export const ENTRIES = [...paper000, ...paper001, ...paper002, ...paper003, ...paper004];

export const NOT_COVERED = [
  { paper: '000', label: 'Fig. 1', why: 'the binomial tree’s structure and its embeddings: a drawing of the topology, nothing is computed' },
  { paper: '002', label: 'Fig. 1', why: 'a measurement on a real computer (pattern search in a linear array), not a model' },
  { paper: '002', label: 'Fig. 2', why: 'a diagram of the memory hierarchy and of a piecewise-linear time function; the Memory hierarchy view lists any processor’s pieces and swap point' },
  { paper: '002', label: 'Fig. 11', why: 'experiments on a cluster of three PCs: measurements, not a model' },
  { paper: '004', label: 'Fig. 1', why: 'a drawing of the single-level tree network' },
  { paper: '004', label: 'Tables I–V', why: 'the notation and the listings of algorithms PE, S, FON and M: no numbers to draw (the Non-linear loads view runs the algorithms)' },
];

// ---- the page -----------------------------------------------------------------------

/** The permalink of an entry: a view's state, or the gallery itself for a chart entry. */
export function entryLink(entry) {
  if (entry.chart) return buildLink({ view: GALLERY_ID, fig: entry.id });
  return buildLink({ view: entry.view, fields: entry.values, parts: entry.parts, panel: entry.panel });
}

/**
 * Draws the gallery into `section`. `api`: {solver, hasView(id), open(hash),
 * embed (the page is in a frame), and share.js's shareButtons(hash, title)
 * and openFullLink(hash)}, passed in so that this module, which the plain
 * node tests import, needs no page. Returns {focus(figId), redraw()}.
 */
export function mountGallery(section, api) {
  const charts = new Map(); // entry id -> {chart, series, option}
  const list = el('div', { class: 'gallery-list' });
  const papers = ['all', ...Object.keys(PAPERS)];
  const buttons = papers.map((p) => el('button', {
    type: 'button', role: 'radio', 'aria-checked': String(p === 'all'), 'data-paper': p, 'data-testid': `filter-${p}`, text: p === 'all' ? 'all papers' : `[${p}]`,
  }));
  radioGroup(buttons, (b) => {
    const p = b.dataset.paper;
    for (const card of list.querySelectorAll('.fig-card, .paper-head')) card.hidden = p !== 'all' && card.dataset.paper !== p;
  });
  // Embedded, the gallery is one figure (focus hides the rest): no filter, no list of what is left out.
  fill(section,
    el('div', { class: 'view-head' },
      el('h2', { text: 'Figure gallery' }),
      el('p', { class: 'intro', text: `The figures and tables of the five papers that the models reproduce: ${ENTRIES.length} of them, each with the paper’s caption and parameters. “Draw” computes it now, in this page; the link keeps it (share it, or put it in a course page with the embed code). Curves that a view draws open in that view; the others are drawn here.` })),
    api.embed ? null : el('div', { class: 'segmented gallery-filter', role: 'radiogroup', 'aria-label': 'papers shown' }, buttons),
    list);

  let lastPaper = null;
  for (const entry of ENTRIES) {
    if (entry.paper !== lastPaper) {
      lastPaper = entry.paper;
      list.append(el('h3', { class: 'paper-head', 'data-paper': entry.paper }, `[${entry.paper}] `, el('cite', { text: citation(entry.paper) })));
    }
    list.append(card(entry));
  }
  if (!api.embed) {
    list.append(el('section', { class: 'card not-covered', 'data-testid': 'not-covered' },
      el('h3', { text: 'Not in the gallery' }),
      el('ul', {}, NOT_COVERED.map((n) => el('li', {}, el('b', { text: `[${n.paper}] ${n.label}: ` }), n.why)))));
  }

  function card(entry) {
    const link = entryLink(entry);
    const available = entry.chart || api.hasView(entry.view);
    const body = el('div', { class: 'fig-body' });
    const draw = el('button', {
      type: 'button', class: 'primary small', 'data-testid': `draw-${entry.id}`, disabled: !available,
      text: entry.chart ? 'Draw' : 'Draw in the view',
      onclick: () => api.open(link),
    });
    const a = el('a', { href: link, class: 'fig-link', 'data-testid': `link-${entry.id}`, text: 'permalink' });
    const { share, embed, out, status } = api.shareButtons(() => link, `[${entry.paper}] ${entry.label}`);
    // A share bar like a view's: embedded, its style shows the "open in the calculator" link alone.
    const actions = el('div', { class: 'fig-actions share-bar' }, draw, a, share, embed,
      available ? null : el('span', { class: 'fig-missing', text: `the ${entry.view} view is not in this build` }),
      api.openFullLink(() => link), out, status);
    const node = el('article', { class: 'card fig-card', id: `fig-${entry.id}`, 'data-fig': entry.id, 'data-paper': entry.paper, 'aria-labelledby': `fig-${entry.id}-title` },
      el('header', { class: 'fig-head' },
        el('span', { class: 'fig-paper', text: `[${entry.paper}]` }),
        el('h4', { id: `fig-${entry.id}-title`, text: entry.label }),
        el('span', { class: 'fig-kind', text: entry.chart ? 'drawn here' : `in the ${entry.view} view` })),
      el('blockquote', { class: 'fig-caption', text: `“${entry.caption}”` }),
      el('p', { class: 'fig-params' }, el('span', { class: 'fig-params-label', text: 'Parameters: ' }), entry.params),
      entry.note ? el('p', { class: 'fig-note', text: entry.note }) : null,
      entry.shape ? el('p', { class: 'fig-shape', 'data-testid': `shape-${entry.id}`, text: entry.shape }) : null,
      entry.status ? el('p', { class: 'fig-status', 'data-testid': `status-${entry.id}`, text: entry.status }) : null,
      actions, body);
    if (entry.chart) {
      node.querySelector('.fig-head').append(exportMenu(node, {
        basename: () => `dlt-${entry.id}`,
        info: () => ({ title: `[${entry.paper}] ${entry.label}: ${entry.caption}`, subtitle: entry.params }),
      }));
    }
    return node;
  }

  /** 380 px; in a frame, what leaves the card's head and caption in sight above it (FRAME's 500 px: 300). */
  function chartHeight() {
    return api.embed ? Math.max(200, Math.min(380, innerHeight - 200)) : 380;
  }

  let controller = null;
  async function drawChart(entry) {
    const node = list.querySelector(`[data-fig="${entry.id}"]`);
    const body = node.querySelector('.fig-body');
    const spec = entry.chart;
    let c = charts.get(entry.id);
    if (c?.series) {
      render(entry, c);
      return;
    }
    controller?.abort();
    controller = new AbortController();
    const { signal } = controller;
    body.querySelectorAll('.msg, .progress').forEach((n) => n.remove());
    const box = el('div', { class: 'chart', 'data-chart': 'figure', 'data-label': entry.label, style: `height: ${chartHeight()}px` });
    box.dataset.description = `${entry.label} of [${entry.paper}]: ${entry.caption} Parameters: ${entry.params}.`;
    box.setAttribute('role', 'img');
    box.setAttribute('aria-label', box.dataset.description);
    // A Tab stop with the views' keys and data table (chart-access.js).
    box.tabIndex = 0;
    if (!c) {
      const { chart, tools } = accessibleChart(box, 'figure', { onResize: fitLegend });
      body.append(box, tools);
      c = { chart, box };
      charts.set(entry.id, c);
    }
    const bar = progress(`${entry.label}: ${spec.requests.length} points`, () => controller.abort());
    body.prepend(bar.el);
    node.dataset.state = 'pending';
    const started = performance.now();
    let responses;
    try {
      responses = await api.solver.sweep(spec.requests, { signal, pick: spec.pick, onProgress: (d, t) => bar.update(d, t) });
    } catch (e) {
      bar.finish(e.code === 'cancelled' ? 'cancelled' : '');
      if (e.code !== 'cancelled') body.prepend(message('error', `The figure could not be computed: ${e.message}`));
      node.dataset.state = e.code === 'cancelled' ? 'cancelled' : 'error';
      return;
    }
    bar.finish(`${spec.requests.length} points in ${Math.round(performance.now() - started)} ms`);
    const failed = responses.filter((r) => r?.error);
    if (failed.length) body.append(message('info', `${failed.length} of ${responses.length} points were refused by the core and are left out: ${failed[0].error.message}`));
    c.series = spec.series(responses);
    if (spec.paper) {
      const printed = spec.paper(responses);
      c.series = [...c.series, ...printedSeries(printed)];
      body.querySelector('.fig-values')?.remove();
      body.append(paperValues(printed));
    }
    render(entry, c);
    node.dataset.state = 'done';
  }

  function render(entry, c) {
    const spec = entry.chart;
    const option = sweepOption({ series: c.series, xName: spec.xName, yName: spec.yName, xLog: spec.xLog, yLog: spec.yLog, xInteger: spec.xInteger });
    if (spec.yLog) Object.assign(option.yAxis, logRange(c.series));
    if (spec.yScale) Object.assign(option.yAxis, { scale: true });
    c.chart.setOption(option, { notMerge: true });
    fitLegend(c.chart);
  }

  return {
    /** Scrolls to an entry and draws it (chart entries). */
    focus(id) {
      const entry = ENTRIES.find((e) => e.id === id);
      if (!entry) return false;
      const node = list.querySelector(`[data-fig="${entry.id}"]`);
      if (api.embed) for (const n of list.children) n.hidden = n !== node;
      node.scrollIntoView({ block: 'start' });
      node.classList.add('focused');
      setTimeout(() => node.classList.remove('focused'), 1600);
      if (entry.chart) drawChart(entry);
      return true;
    },
    /** Draws the figures again (after a change of colour scheme). */
    redraw() {
      for (const entry of ENTRIES) {
        const c = charts.get(entry.id);
        if (c?.series) render(entry, c);
      }
    },
    entries: ENTRIES,
  };
}

