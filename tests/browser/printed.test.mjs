// The numbers the page shows as printed in the papers, against the same
// numbers in tests/golden/papers.json, so that the two copies cannot drift:
// the printed values of the figures a view draws (www/printed.js) and the
// inputs they belong to, those of the gallery's chart entries (their
// `paper` hooks) and Table 1 of [003] (views/isomap-draw.js). A printed
// value papers.json does not hold is listed in ABSENT, with why; one it
// holds unrounded, in ROUNDED. Plain node, no browser (the views' tables:
// printed-views.test.mjs):
//
//   node --test tests/browser/printed.test.mjs      (from the repository root)

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PRINTED } from '../../www/printed.js';
import { ENTRIES } from '../../www/gallery.js';
import { TABLE1 } from '../../www/views/isomap-draw.js';

const CASES = new Map(JSON.parse(readFileSync(new URL('../golden/papers.json', import.meta.url), 'utf8')).cases.map((c) => [c.id, c]));

// Where papers.json keeps the exact value of a number the paper prints
// rounded: the decimals printed.
const ROUNDED = {
  '002-fig3: (b) core memory only: Cmax planned': 3, // 13/3
  '002-fig3: (b) real Cmax under the hierarchy': 3, // 31/3
};

/** The same number: equal up to papers.json's 12 decimals, or, where ROUNDED says, papers.json's rounded as printed. */
function same(page, golden, name) {
  const d = ROUNDED[name];
  const ok = d === undefined ? Math.abs(page - golden) <= 1e-11 * Math.max(1, Math.abs(golden)) : page.toFixed(d) === golden.toFixed(d);
  assert.ok(ok, `${name}: the page carries ${page}, papers.json ${golden}`);
}

/** papers.json's expected value at `[case, ...path]`, or undefined. */
function golden([id, ...at]) {
  return at.reduce((o, k) => o?.[k], CASES.get(id)?.expect);
}

// The view-drawn figures: the case of each source of `at` (its first key);
// the rest of `at` is the path in that case's `expect`, as in the response.
const VIEW_CASES = {
  '002-fig3': { a: '002-example', b: '002-classical-core', c: '002-classical-ooc' },
  '002-fig10': { chunk: '002-chunk-fig10' },
};

// The gallery's chart entries: the case and path of a printed value, from its `what`.
const GALLERY_CASES = {
  '004-fig7': [
    [/^([MS]), speed-up at m = 7$/, ([, alg]) => ['004-fig7-first-terms', `speedup_${alg}_m7`]],
    [/^M, first term at m = (\d+) \[s\]$/, ([, m]) => ['004-fig7-first-terms', 'first_term', Number(m) - CASES.get('004-fig7-first-terms').request.m_range[0]]],
  ],
  '004-fig9': [[/^L = (\d+): (m[123]) \(Lemma 12\)$/, ([, L, key]) => ['004-lemma12', key, CASES.get('004-lemma12').request.L.indexOf(Number(L))]]],
  '004-fig10': [[/^L = (\d+): (rho[123]) \(Lemma 10\)$/, ([, L, key]) => ['004-lemma10', key, CASES.get('004-lemma10').request.L.indexOf(Number(L))]]],
};

// Printed values papers.json does not hold, and why (a name, or the start of names and *).
const ABSENT = {
  '002-fig10: swap point swp': 'swp = (A^h_1 − A^l_1)/(A^l_2 − A^h_2) of the request, not a result papers.json checks',
  '004-fig6: S, speed-up at m = 10': 'the closed form 1 + mL^(γ−1)β/(L^(γ−1)β + 1) cut to 10.99; no case in papers.json',
  '004-fig7: M, second term at m = *': 'one start-up more than Theorem 9 (the calculator keeps the theorem: tests/golden/papers.json keeps the first terms only)',
  '004-fig8: *': 'Fig. 8’s terms at m = 14, 15: no case in papers.json',
};
const absent = (name) => Object.keys(ABSENT).find((k) => (k.endsWith('*') ? name.startsWith(k.slice(0, -1)) : name === k));

/** Every printed value the page carries: {name, page, at: [case, ...path] | undefined}. */
function carried() {
  const out = [];
  for (const [id, p] of Object.entries(PRINTED)) {
    for (const v of p.values) {
      const [source, ...at] = v.at;
      const kase = VIEW_CASES[id]?.[source];
      out.push({ name: `${id}: ${v.what}`, page: v.paper, at: kase && [kase, ...at] });
    }
  }
  for (const entry of ENTRIES.filter((e) => e.chart?.paper)) {
    // Called without responses: the rows' printed values, none computed.
    for (const v of entry.chart.paper([])) {
      const rule = (GALLERY_CASES[entry.id] ?? []).find(([re]) => re.test(v.what));
      out.push({ name: `${entry.id}: ${v.what}`, page: v.paper, at: rule && rule[1](rule[0].exec(v.what)) });
    }
  }
  return out;
}

test('every printed value the page carries is papers.json’s, or listed as absent from it', () => {
  const values = carried();
  for (const v of values) {
    assert.ok(Number.isFinite(v.page), `${v.name}: ${v.page}`);
    const g = v.at && golden(v.at);
    if (g === undefined) {
      assert.ok(absent(v.name), `${v.name} (${v.page}): not in papers.json${v.at ? ` at ${v.at.join('.')}` : ''}, and not listed in ABSENT`);
      continue;
    }
    assert.equal(absent(v.name), undefined, `${v.name} is in papers.json: take it out of ABSENT`);
    same(v.page, g, v.name);
  }
  // Each entry of ABSENT and ROUNDED still names a value the page carries.
  for (const k of Object.keys(ABSENT)) assert.ok(values.some((v) => absent(v.name) === k), `ABSENT lists ${k}, which the page no longer carries`);
  for (const k of Object.keys(ROUNDED)) assert.ok(values.some((v) => v.name === k), `ROUNDED lists ${k}, which the page no longer carries`);
});

test('the printed values of a view belong to papers.json’s request', () => {
  for (const [id, kase] of [['002-fig3', '002-example'], ['002-fig10', '002-chunk-fig10']]) {
    assert.deepEqual(PRINTED[id].inputs, CASES.get(kase).request, id);
  }
});

test('Table 1 of [003] is papers.json’s', () => {
  const { expect } = CASES.get('003-table1');
  assert.deepEqual(TABLE1.m, expect.m);
  for (const key of ['E_max', 'V_max']) {
    assert.equal(TABLE1[key].length, expect[key].length, key);
    TABLE1[key].forEach((x, i) => same(x, expect[key][i], `Table 1, ${key} at m = ${TABLE1.m[i]}`));
  }
});

// The figures whose surprising shape (a falling Cmax, a plateau, a speedup
// that saturates or falls) the paper explains: each entry says why in one
// sentence that quotes the paper and says where.
const SHAPED = ['000-fig10', '000-fig11', '001-fig7', '001-fig8', '002-fig10', '003-fig1', '004-fig6', '004-fig8'];

test('the figures of a surprising shape say why, in the paper’s words', () => {
  for (const id of SHAPED) {
    const entry = ENTRIES.find((e) => e.id === id);
    assert.ok(entry, `${id}: no gallery entry`);
    assert.match(entry.shape ?? '', /^[^.]*“[^”]{20,}”[^“]*\((Sec\. [0-9IV.]+)\)\.$/, `${id}: ${entry.shape}`);
  }
});
