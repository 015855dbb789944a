// The time unit of an LP `dlt export` wrote, from its first line
// `\ NAME: loads in units of X, times in units of T`: the solver's objective
// times T is the makespan in seconds. Shared by the cross-check (node) and
// the side-by-side benchmark (a browser page).

export function timeUnit(lp) {
  const first = lp.split('\n', 1)[0];
  const m = /times in units of (\S+)/.exec(first);
  if (!m) throw new Error(`no time unit on the LP's first line: ${first}`);
  return Number(m[1]);
}
