#!/usr/bin/env bash
# The side-by-side benchmark (issue 6, part 3): in one headless Chromium
# run, the same models solved by the calculator's wasm and by HiGHS's wasm
# (the LP text the calculator exports), with the time ratio per model and
# size, and the native times of `dlt-bench --requests`.
#
# Usage: scripts/bench.sh [--quick]
#   (default)  the full run, about 25 minutes on 2 cores; writes the table
#              to docs/benchmarks-browser.md, every gallery entry's cold time
#              in Chromium to docs/benchmarks-gallery.md, and prints the LP
#              cases side by side with native HiGHS (dlt-bench --highs,
#              PyPI highspy, presolve on, one thread)
#   --quick    the smallest sizes, HiGHS limited to 10 s (LP) / 5 s (MIP),
#              about 2.5 minutes; prints the table, writes nothing
# Exits non-zero when the page errs or the two solvers' makespans disagree
# beyond what their claims allow (see tests/bench/run.mjs).
set -euo pipefail
cd "$(dirname "$0")/.."
quick=
case "${1:-}" in
  --quick) quick=--quick ;;
  "") ;;
  *) echo "usage: scripts/bench.sh [--quick]" >&2; exit 2 ;;
esac
bash scripts/setup.sh --browser --highs
bash scripts/build.sh
cargo build --quiet --release -p dlt-cli --bin dlt-bench
if [ -n "$quick" ]; then
  node tests/bench/run.mjs --quick
else
  node tests/bench/run.mjs --write docs/benchmarks-browser.md
  node tests/bench/gallery.mjs --write docs/benchmarks-gallery.md
  python3 -c 'import highspy' 2>/dev/null || pip install --quiet highspy
  target/release/dlt-bench --highs
fi
# The page's load time: fresh profile to the first result, median of 3.
node scripts/load-budget.mjs
