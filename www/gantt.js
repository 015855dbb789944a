// The Gantt chart every schedule-producing model shares: one row per
// processor (or layer), communications above, computations below, results
// sent back above on the sender's row, any length of schedule.

import { echarts, BASE, COLORS, axisLabel, lines } from './charts.js';
import { fmt, isNum } from './format.js';

/** The label of a schedule row: "layer 2 ×20", "P1". */
function rowLabel(row, i) {
  const label = row?.label ?? `row ${i}`;
  return isNum(row?.count) && row.count !== 1 ? `${label} ×${fmt(row.count)}` : label;
}

// A schedule of 10^4 stages has 10^5 and more intervals: drawn one by one,
// they take seconds, and most are narrower than a pixel. Above this many
// items, the intervals of a row and lane closer than a fraction of the
// schedule's length are drawn as one.
const GANTT_MAX_ITEMS = 20000;
// The first merging gap, as a fraction of the schedule's length: finer than
// a pixel of the chart, even zoomed in a few times.
const GANTT_FIRST_GAP = 1 / 8000;

/**
 * Gantt items [row, start, end, load, from, messages, intervals, busy] of
 * `intervals` ({proc, start, end, load, from?, messages?}); the consecutive
 * ones of a row no more than `gap` apart are merged (their loads, messages
 * and busy times added up, `from` -1 if they differ), `gap` < 0 merges none.
 */
function ganttItems(intervals, gap) {
  const item = (s) => [s.proc, s.start, s.end, s.load, s.from ?? -1, s.messages ?? 1, 1, s.end - s.start];
  if (gap < 0) return intervals.map(item);
  const rows = new Map();
  for (const s of intervals) {
    if (!rows.has(s.proc)) rows.set(s.proc, []);
    rows.get(s.proc).push(s);
  }
  const items = [];
  for (const list of rows.values()) {
    list.sort((a, b) => a.start - b.start);
    let last = null;
    for (const s of list) {
      if (last && s.start - last[2] <= gap) {
        last[2] = Math.max(last[2], s.end);
        last[3] += isNum(s.load) ? s.load : 0;
        if (last[4] !== (s.from ?? -1)) last[4] = -1;
        last[5] += s.messages ?? 1;
        last[6] += 1;
        last[7] += s.end - s.start;
      } else {
        last = item(s);
        items.push(last);
      }
    }
  }
  return items;
}

/** The items of both lanes, merged as finely as GANTT_MAX_ITEMS allows; `gap` the merging gap used (-1: none). */
function ganttLanes(lanes, span) {
  let gap = -1;
  for (;;) {
    const items = lanes.map((list) => ganttItems(list, gap));
    if (items.reduce((n, x) => n + x.length, 0) <= GANTT_MAX_ITEMS || !(span > 0)) return { items, gap };
    gap = gap < 0 ? span * GANTT_FIRST_GAP : gap * 4;
  }
}

/**
 * A Gantt chart of the contract's `schedule` (API.md): one row per entry of
 * `processors`, communications in the upper lane of a row (drawn on the
 * receiver), computations in the lower lane; any length of schedule
 * (merged below a pixel, see GANTT_MAX_ITEMS).
 */
export function ganttOption(response, { timeName = 'time', extra = [] } = {}) {
  const rows = Array.isArray(response.processors) ? response.processors : [];
  const intervals = Array.isArray(response.schedule) ? response.schedule : [];
  const labels = rows.map(rowLabel);
  const lanes = { comm: [], compute: [], result: [] };
  let lastRow = -1;
  let end = 0;
  for (const s of intervals) {
    if (!isNum(s.start) || !isNum(s.end) || !Number.isInteger(s.proc) || s.proc < 0) continue;
    // A result is drawn on the row that sends it, after its computation;
    // its `to` is the receiver.
    const item = s.kind === 'result' && Number.isInteger(s.from) ? { ...s, proc: s.from, from: s.proc } : s;
    lanes[s.kind in lanes ? s.kind : 'compute'].push(item);
    lastRow = Math.max(lastRow, item.proc);
    end = Math.max(end, s.end);
  }
  while (labels.length <= lastRow) labels.push(`row ${labels.length}`);
  const makespan = isNum(response.makespan) ? response.makespan : undefined;
  const { items: [comm, compute, result], gap } = ganttLanes([lanes.comm, lanes.compute, lanes.result], makespan ?? end);
  const extraSeries = extra.map((x) => ({
    name: x.name, lane: x.lane ?? 'comm', color: x.color,
    data: x.intervals.filter((s) => isNum(s.start) && isNum(s.end)).map((s) => ({ value: [s.proc, s.start, s.end, s.load, -1, 1, 1, s.end - s.start], note: s.note })),
  }));
  const renderItem = (lane) => (params, api) => {
    const row = api.value(0);
    const a = api.coord([api.value(1), row]);
    const b = api.coord([api.value(2), row]);
    const band = api.size([0, 1])[1];
    const h = Math.max(2, band * 0.34);
    const y = lane === 'comm' ? a[1] - h - 1 : a[1] + 1;
    const shape = echarts.graphic.clipRectByRect(
      { x: a[0], y, width: Math.max(1.5, b[0] - a[0]), height: h },
      { x: params.coordSys.x, y: params.coordSys.y, width: params.coordSys.width, height: params.coordSys.height });
    // Merged intervals: as dense as the row is busy in them.
    const busy = api.value(7) / (api.value(2) - api.value(1));
    const opacity = api.value(6) > 1 && busy < 1 ? Math.max(0.3, busy) : 1;
    return shape && { type: 'rect', shape, style: { fill: api.visual('color'), opacity }, emphasis: { style: { stroke: COLORS.text, lineWidth: 1 } } };
  };
  const tooltip = (p) => {
    const [row, start, end, load, from, messages, merged, busy] = p.value;
    if (!['communication', 'computation', 'results'].includes(p.seriesName)) {
      return [`<b>${escape(p.seriesName)}: ${escape(labels[row])}</b>`, `start ${fmt(start)}, end ${fmt(end)}`, `duration ${fmt(end - start)}`, `load ${fmt(load)}`, p.data?.note ? escape(p.data.note) : ''].filter(Boolean).join('<br>');
    }
    const comm = p.seriesName !== 'computation';
    const what = { communication: ['communications to', 'communication to'], computation: ['computations on', 'computation on'], results: ['results sent by', 'results sent by'] }[p.seriesName];
    if (merged > 1) {
      return [`<b>${fmt(merged)} ${what[0]} ${escape(labels[row])}</b>`,
        `drawn as one: less than ${fmt(gap, 3)} apart at this scale`,
        `from ${fmt(start)} to ${fmt(end)}, busy ${fmt((100 * busy) / (end - start), 3)} % of it`, `load ${fmt(load)} in all`].join('<br>');
    }
    const lines = [`<b>${what[1]} ${escape(labels[row])}</b>`];
    if (comm && from >= 0) lines.push(`${p.seriesName === 'results' ? 'to' : 'from'} ${escape(labels[from] ?? from)}${messages > 1 ? `, ${fmt(messages)} messages` : ''}`);
    lines.push(`start ${fmt(start)}, end ${fmt(end)}`, `duration ${fmt(end - start)}`, `${p.seriesName === 'results' ? 'results of load' : 'load'} ${fmt(load)}${comm ? ' per message' : ''}`);
    return lines.join('<br>');
  };
  return {
    ...BASE,
    legend: { top: 0, left: 0, data: [...extraSeries.map((x) => x.name), 'communication', 'computation', ...(result.length ? ['results'] : [])], itemWidth: 14, itemHeight: 10 },
    tooltip: { trigger: 'item', confine: true, formatter: tooltip },
    grid: { left: 8, right: 24, top: 34, bottom: 62, outerBoundsMode: 'same', outerBoundsContain: 'axisLabel' },
    dataZoom: [
      { type: 'slider', xAxisIndex: 0, filterMode: 'weakFilter', height: 18, bottom: 8, labelFormatter: (v) => fmt(v, 3) },
      { type: 'inside', xAxisIndex: 0, filterMode: 'weakFilter' },
    ],
    xAxis: { type: 'value', name: timeName, nameLocation: 'middle', nameGap: 26, min: 0, max: makespan, axisLabel: axisLabel(), splitLine: lines.splitLine },
    yAxis: { type: 'category', data: labels, inverse: true, axisTick: { show: false }, axisLabel: { color: COLORS.text }, splitLine: { show: true, lineStyle: { color: COLORS.grid } } },
    series: [
      ...extraSeries.map((x) => ({ name: x.name, type: 'custom', renderItem: renderItem(x.lane), dimensions: GANTT_DIMENSIONS, encode: { x: [1, 2], y: 0 }, data: x.data, itemStyle: { color: x.color } })),
      { name: 'communication', type: 'custom', renderItem: renderItem('comm'), dimensions: GANTT_DIMENSIONS, encode: { x: [1, 2], y: 0 }, data: comm, itemStyle: { color: COLORS.comm } },
      ...(result.length ? [{ name: 'results', type: 'custom', renderItem: renderItem('comm'), dimensions: GANTT_DIMENSIONS, encode: { x: [1, 2], y: 0 }, data: result, itemStyle: { color: COLORS.result } }] : []),
      { name: 'computation', type: 'custom', renderItem: renderItem('compute'), dimensions: GANTT_DIMENSIONS, encode: { x: [1, 2], y: 0 }, data: compute, itemStyle: { color: COLORS.compute },
        markLine: makespan === undefined ? undefined : {
          silent: true, symbol: 'none', label: { formatter: `Cmax ${fmt(makespan)}`, color: COLORS.muted, position: 'start', align: 'right', rotate: 0, distance: 4 },
          lineStyle: { color: COLORS.reference, type: 'dashed' }, data: [{ xAxis: makespan }],
        } },
    ],
  };
}

// Names of a Gantt item's values (the CSV export's columns): the row, its
// interval, the load, the sender's row (-1: none), the message count and
// the schedule's intervals it stands for (more than 1 when merged) and the
// time they take together.
const GANTT_DIMENSIONS = ['row', 'start', 'end', 'load', 'from', 'messages', 'intervals', 'busy'];

/** A height for a Gantt chart with `n` rows. */
export function ganttHeight(n) {
  return Math.max(180, Math.min(640, 110 + 34 * n));
}

/** `s` safe inside a tooltip's HTML. */
function escape(s) {
  return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));
}
