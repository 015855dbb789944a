// The keyboard's way through a chart (a Tab stop made by context.js): what
// the mouse does by hovering and clicking. Left/Right move over the points
// of a series, Up/Down to the nearest point of the next series, Home/End to
// its ends; the point is highlighted, its tooltip shown and its series and
// values read out by a polite live region; Enter does what a click on it
// does (the chart's `pick`), Escape leaves it.

import { el } from './ui.js';
import { fmt, isNum } from './format.js';

const valueOf = (item) => (item && typeof item === 'object' && !Array.isArray(item) ? item.value : item);
const nameOf = (d) => (d && typeof d === 'object' ? d.name : d);

/**
 * The points the keys move over, series by series: items with a drawn
 * value. Left out: series hidden by the legend, gaps ('-', null) and the
 * corners of a step line (items drawn without a symbol).
 */
function pointsOf(option) {
  const hidden = option.legend?.[0]?.selected ?? {};
  const out = [];
  (option.series ?? []).forEach((s, seriesIndex) => {
    if (!Array.isArray(s.data) || hidden[s.name] === false) return;
    const items = [];
    s.data.forEach((d, dataIndex) => {
      const v = valueOf(d);
      const vals = Array.isArray(v) ? v : [v];
      if (d?.symbol === 'none' || vals.length === 0 || !vals.every((x) => isNum(x) || typeof x === 'string') || vals.includes('-')) return;
      items.push(dataIndex);
    });
    if (items.length) out.push({ seriesIndex, items });
  });
  return out;
}

/**
 * "MAX: x (m ± 0.5, the step) 3, V [MB] 1.2e5, machines m 3": a point's
 * series and values, each value named by the series' dimension or its axis,
 * an index into a category axis read as the category's label. A bar's one
 * value: its category (the item's place on the category axis), then it.
 */
function pointText(option, seriesIndex, dataIndex) {
  const s = option.series[seriesIndex];
  const v = valueOf(s.data[dataIndex]);
  const axes = { x: option.xAxis?.[0], y: option.yAxis?.[0] };
  const label = (axis, i) => (axis?.type === 'category' && Array.isArray(axis.data) && axis.data[i] !== undefined ? nameOf(axis.data[i]) : undefined);
  let parts;
  if (!Array.isArray(v)) {
    const [cat, val] = axes.y?.type === 'category' ? [axes.y, axes.x] : [axes.x, axes.y];
    parts = [label(cat, dataIndex) !== undefined ? `${cat.name || 'category'} ${label(cat, dataIndex)}` : '', `${val?.name || 'value'} ${fmt(v)}`];
  } else {
    const dims = (s.dimensions ?? []).map(nameOf);
    // The axis a dimension is drawn on: the series' encode, else x for the first and y for the second.
    const axisOf = (i) => ['x', 'y'].find((key) => (s.encode?.[key] !== undefined ? [s.encode[key]].flat()[0] === i : i === (key === 'x' ? 0 : 1)));
    parts = v.map((x, i) => {
      const axis = axes[axisOf(i)];
      return `${dims[i] ?? (axis?.name || ['x', 'y'][i] || `value ${i + 1}`)} ${label(axis, x) ?? (isNum(x) ? fmt(x) : x)}`;
    });
  }
  return `${s.name ?? s.type}: ${parts.filter(Boolean).join(', ')}`;
}

let hints = 0; // ids of the hints, unique on the page

/**
 * Adds the keys to chart `chart` in its focusable `box`. `pick(point)` runs
 * on Enter with {seriesIndex, dataIndex, seriesName, value} (what a click on
 * the point does, if anything). Returns `el`, the hint and the live region,
 * visually hidden, for the page to place (not inside the box: an image's
 * content is hidden from screen readers) and `refresh()`, to call when the
 * chart's option changes.
 */
export function chartKeys(box, chart, { pick } = {}) {
  const live = el('span', { 'aria-live': 'polite', 'data-testid': 'chart-live' });
  // How to use the keys, read after the chart's name (ECharts sets the box's aria-label to its description).
  const hint = el('span', { id: `chart-keys-${++hints}`, text: 'Arrow keys, Home and End move over its points and read them; Enter does what a click on the point does; Escape leaves it.' });
  box.setAttribute('aria-describedby', hint.id);
  box.setAttribute('aria-keyshortcuts', 'ArrowLeft ArrowRight ArrowUp ArrowDown Home End Enter Escape');
  let cache = null; // {option, points}, read once per option: getOption copies all of the data
  let at = null; // {s, i}: the series (in points) and the item (in its items) highlighted
  const current = () => {
    cache ??= (() => { const option = chart.getOption(); return { option, points: pointsOf(option) }; })();
    return cache;
  };
  const target = (p) => {
    const { points } = current();
    const { seriesIndex, items } = points[p.s];
    return { seriesIndex, dataIndex: items[p.i] };
  };
  const leave = () => {
    if (at && !chart.isDisposed() && cache?.points[at.s]) {
      chart.dispatchAction({ type: 'downplay', ...target(at) });
      chart.dispatchAction({ type: 'hideTip' });
    }
    at = null;
  };
  const show = (p) => {
    leave();
    at = p;
    const t = target(p);
    chart.dispatchAction({ type: 'highlight', ...t });
    chart.dispatchAction({ type: 'showTip', ...t });
    live.textContent = pointText(current().option, t.seriesIndex, t.dataIndex);
  };
  /** The point of series `s` nearest to the current one along x (the same place on another line). */
  const nearest = (s) => {
    const { option, points } = current();
    const here = valueOf(option.series[target(at).seriesIndex].data[target(at).dataIndex]);
    const x = [here].flat()[0];
    const items = points[s].items;
    const data = option.series[points[s].seriesIndex].data;
    let best = Math.min(at.i, items.length - 1);
    if (isNum(x)) {
      let gap = Infinity;
      items.forEach((d, i) => {
        const y = [valueOf(data[d])].flat()[0];
        if (isNum(y) && Math.abs(y - x) < gap) { gap = Math.abs(y - x); best = i; }
      });
    }
    return { s, i: best };
  };

  box.addEventListener('keydown', (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || chart.isDisposed()) return;
    const { points } = current();
    if (!points.length) return;
    // A point left behind by a new option (fewer series or items) starts again at the first.
    if (at && !(points[at.s]?.items.length > at.i)) at = null;
    const last = (s) => points[s].items.length - 1;
    let next;
    switch (e.key) {
      case 'ArrowRight': next = at ? { s: at.s, i: Math.min(at.i + 1, last(at.s)) } : { s: 0, i: 0 }; break;
      case 'ArrowLeft': next = at ? { s: at.s, i: Math.max(at.i - 1, 0) } : { s: 0, i: 0 }; break;
      case 'ArrowDown': next = at ? nearest((at.s + 1) % points.length) : { s: 0, i: 0 }; break;
      case 'ArrowUp': next = at ? nearest((at.s - 1 + points.length) % points.length) : { s: 0, i: 0 }; break;
      case 'Home': next = { s: at?.s ?? 0, i: 0 }; break;
      case 'End': next = { s: at?.s ?? 0, i: last(at?.s ?? 0) }; break;
      case 'Enter': {
        if (!at || !pick) return;
        e.preventDefault();
        const t = target(at);
        const s = current().option.series[t.seriesIndex];
        pick({ ...t, seriesName: s.name, value: valueOf(s.data[t.dataIndex]) });
        return;
      }
      case 'Escape':
        if (!at) return;
        e.preventDefault();
        leave();
        live.textContent = '';
        return;
      default: return;
    }
    // The keys move the point, not the page.
    e.preventDefault();
    show(next);
  });
  // The tooltip and highlight are the keyboard's: gone when the focus goes.
  box.addEventListener('blur', leave);
  return {
    el: el('span', { class: 'visually-hidden' }, hint, live),
    refresh() {
      at = null;
      cache = null;
    },
  };
}
