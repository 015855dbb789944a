// What the isoefficiency view asks of the core, as plain data and pure
// functions (no DOM, no workers): its fields, and the map's requests built
// from them. The page imports it, and so does scripts/default-map.mjs, which
// precomputes the default map at build time with the same requests.

export const FIELDS = [
  { key: 'a1', symbol: 'a₁', name: 'in-core processing rate (a1 in [003])', unit: 's/MB', kind: 'number', default: 0.109 },
  { key: 'a2', symbol: 'a₂', name: 'out-of-core processing rate (a2 in [003])', unit: 's/MB', kind: 'number', default: 4.132 },
  { key: 'b2', symbol: 'b₂', name: 'out-of-core time offset (b2 in [003], < 0)', unit: 's', kind: 'number', default: -27109 },
  { key: 'C', symbol: 'C', name: 'transfer time per MB (C in [003])', unit: 's/MB', kind: 'number', default: 0.005 },
  { key: 'O', symbol: 'O', name: 'message start-up O (O in [003])', unit: 's', kind: 'number', default: 0.075 },
  { key: 'S', symbol: 'S', name: 'machine start-up S (S in [003])', unit: 's', kind: 'number', default: 25.4 },
  { key: 'n', symbol: 'n', name: 'load chunks (n in [003])', kind: 'integer', default: 20, help: 'the paper: n = 20' },
  { key: 'm_lo', symbol: 'm', name: 'map: machines from', kind: 'integer', core: 'm', default: 2 },
  { key: 'm_hi', symbol: 'm', name: 'map: machines to', kind: 'integer', core: 'm', default: 20, help: 'one request per m, spread over the workers' },
  { key: 'levels_below', symbol: 'e', name: 'map: efficiency levels below V_max (Fig. 1)', kind: 'list', core: 'levels', model: 'isoefficiency_map', optional: true, default: [5, 10, 20, 30], placeholder: 'blank: none', help: 'each level costs two bisections per m' },
  { key: 'levels_above', symbol: 'e', name: 'map: efficiency levels above V_max (Fig. 2)', kind: 'list', core: 'levels', model: 'isoefficiency_map', optional: true, default: [1.5, 2, 5, 10, 20, 30], placeholder: 'blank: none', help: 'the paper shows only e > 1 here' },
  { key: 'V_lo', symbol: 'V', name: 'map: loads from', unit: 'MB', kind: 'number', core: 'V', default: 1e3 },
  { key: 'V_hi', symbol: 'V', name: 'map: loads to', unit: 'MB', kind: 'number', core: 'V', default: 5e5, help: 'e = 1.5 and 2 above V_max lie at 2e5–4e5 MB' },
  { key: 'width', symbol: 'w', name: 'map: stopping width of the searches', unit: 'MB', kind: 'number', model: 'isoefficiency_map', default: 100, help: 'the paper used 1 MB; 100 MB is faster and reads the same' },
  { key: 'map_lps', symbol: 'LPs', name: 'map: LP budget per MIP (send sequences solved)', kind: 'integer', core: 'lp_budget', optional: true, placeholder: 'blank: the core’s default', help: 'the search solves one LP per send sequence; a budget, not a time, so the map is the same on any machine' },
  { key: 'm', symbol: 'm', name: 'point: machines (m in [003])', kind: 'integer', default: 2, help: 'or click the map' },
  { key: 'V', symbol: 'V', name: 'point: load (V in [003])', unit: 'MB', kind: 'number', default: 134485 },
  { key: 'lp_budget', symbol: 'LPs', name: 'point: LP budget of the MIP (send sequences solved)', kind: 'integer', optional: true, placeholder: 'blank: the core’s default' },
  { key: 'proof_budget', symbol: 'LPs', name: 'point: LPs of the branch and bound that proves the schedule optimal or bounds its gap', kind: 'integer', optional: true, placeholder: 'blank: the core’s default', help: 'each node of the tree is an LP with the sends so far fixed' },
];

// The form's field behind a path of the map's request, and what the path
// stands for there when the form's field is not the whole of it.
const FORM_FIELDS = [
  [/^levels/, 'levels_above', 'the distinct levels of both lists together'],
  [/^V_range\[0\]/, 'V_lo'],
  [/^V_range/, 'V_hi'],
  [/^m_range\[0\]/, 'm_lo'],
  [/^m_range/, 'm_hi'],
  [/^lp_budget/, 'map_lps'],
];

/** The core's error about a map request as an error of the form's field it concerns, or null. */
export function formError(error) {
  const hit = FORM_FIELDS.find(([path]) => path.test(String(error?.field ?? '')));
  if (!hit) return null;
  const [, field, what] = hit;
  return { ...error, field, message: what ? `${error.message} (${what})` : error.message };
}

/** Sorted distinct levels of both lists (the core computes both sides of each). */
export function unionLevels(v) {
  return [...new Set([...(v.levels_below ?? []), ...(v.levels_above ?? [])])].sort((a, b) => a - b);
}


/** The map's request without m_range, from the form's values. */
export function mapBase(v) {
  const base = {
    model: 'isoefficiency_map', n: v.n, levels: unionLevels(v), V_range: [v.V_lo, v.V_hi],
    S: v.S, O: v.O, C: v.C, a1: v.a1, a2: v.a2, b2: v.b2, width: v.width,
  };
  if (v.map_lps !== undefined) base.lp_budget = v.map_lps;
  return base;
}

/** The map's request for one m. */
export function mapRequest(base, m) {
  return { ...base, m_range: [m, m] };
}

/** The single point (m, V) whose schedule the view draws, from the form's values. */
export function pointRequest(v) {
  const q = { model: 'isoefficiency', m: v.m, n: v.n, V: v.V, S: v.S, O: v.O, C: v.C, a1: v.a1, a2: v.a2, b2: v.b2 };
  if (v.lp_budget !== undefined) q.lp_budget = v.lp_budget;
  if (v.proof_budget !== undefined) q.proof_budget = v.proof_budget;
  return q;
}

/** The form's values when nothing is changed. */
export function defaults() {
  return Object.fromEntries(FIELDS.filter((f) => f.default !== undefined).map((f) => [f.key, f.default]));
}

/** What identifies a map: its request without m_range, and its machine counts. */
export function mapKey(v) {
  return JSON.stringify([mapBase(v), v.m_lo, v.m_hi]);
}
