#!/usr/bin/env bash
# Cross-checks the calculator's LP optima against HiGHS (the npm package
# `highs`, HiGHS compiled to WebAssembly): seeded random instances of every
# LP model, raw and pruned, exported with `dlt export` and solved by both.
#
# Usage: scripts/crosscheck.sh [COUNT]
#   COUNT (or CROSSCHECK_COUNT)   instances (default 320, about 30 s)
#   CROSSCHECK_SEED=N             another seed (default 1)
#
# Besides the LPs: MIP (2)-(11) of 003 on small instances (both prove
# optimality) and larger ones at equal time (never worse than HiGHS), and
# hetero_star's fixed-order MIPs (and the best order of m <= 4 as the least
# of every permutation's MIP).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ -n "${1:-}" ]; then
  export CROSSCHECK_COUNT=$1
fi
bash scripts/setup.sh --highs
cargo build --quiet --release -p dlt-cli
DLT_BIN="$PWD/target/release/dlt" node --test tests/highs/
