#!/usr/bin/env bash
# Fuzzes the JSON boundary (dlt_core::parse + dlt_core::solve) with
# libFuzzer for a bounded time: arbitrary bytes as a request must give no
# panic, no hang (-timeout per input), a well-formed error or a success with
# finite numbers. Seeds: examples/*.json; dictionary: fuzz/parse_solve.dict.
#
# Usage: scripts/fuzz.sh [SECONDS]      (default 60)
#   FUZZ_JOBS=2      parallel fuzzing processes (default 1)
#   FUZZ_SEED=N      libFuzzer's seed (default: random), for repeatable runs
#   FUZZ_FRESH=1     start from the examples only, in a temporary corpus
#                    (default: the corpus kept in fuzz/corpus/parse_solve)
# A crash leaves its input in fuzz/artifacts/parse_solve/ and exits non-zero;
# reproduce with: cd fuzz && cargo +nightly fuzz run parse_solve -s none FILE
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
jobs=${FUZZ_JOBS:-1}

rustup toolchain list | grep '^nightly' >/dev/null || rustup toolchain install nightly --profile minimal
command -v cargo-fuzz >/dev/null || cargo install cargo-fuzz

cd fuzz
mkdir -p corpus/parse_solve artifacts/parse_solve
corpus=corpus/parse_solve
if [ -n "${FUZZ_FRESH:-}" ]; then
  corpus=$(mktemp -d)
fi
# No unsafe code in the core: no sanitizer, for speed; debug assertions
# (overflow checks) stay on.
cargo +nightly fuzz build -s none parse_solve
log=$(mktemp)
jobs_log=$(mktemp)
trap 'rm -f "$log" "$jobs_log"; if [ -n "${FUZZ_FRESH:-}" ]; then rm -rf "$corpus"; fi' EXIT
args=()
if [ -n "${FUZZ_SEED:-}" ]; then
  args+=(-seed="$FUZZ_SEED")
fi
if [ "$jobs" -gt 1 ]; then
  # Each job logs to fuzz/fuzz-JOB.log; their lines are gathered below.
  rm -f fuzz-*.log
  args+=(-jobs="$jobs" -workers="$jobs")
fi
set +e
cargo +nightly fuzz run -s none parse_solve "$corpus" ../examples -- \
  -max_total_time="$seconds" -timeout=30 -rss_limit_mb=4096 -max_len=8192 \
  -dict=parse_solve.dict -print_final_stats=1 "${args[@]}" >"$log" 2>&1
status=$?
set -e
stats=$log
if [ "$jobs" -gt 1 ]; then
  # The jobs' own logs: one count each.
  stats=$jobs_log
  cat fuzz-*.log >"$stats"
  cat "$stats" >>"$log"
fi
grep -E '^(#[0-9]+ +(pulse|DONE)|Done|stat::number|.*(panicked at|ERROR: libFuzzer|SUMMARY|Test unit written|^input:))' "$log" | sort -u | tail -n 25 || true
runs=$(grep -Eo '^stat::number_of_executed_units: [0-9]+' "$stats" | awk '{ n += $2 } END { print n + 0 }')
echo "fuzz: $runs executions in ${seconds} s ($jobs job(s)), corpus $(ls "$corpus" | wc -l) inputs, exit status $status"
slow=$(grep -Eo 'Test unit written to [^ ]*slow-unit-[0-9a-f]+' "$log" | awk '{ print $NF }' | sort -u || true)
if [ -n "$slow" ]; then
  echo "fuzz: slow inputs (over 10 s each, not failures):" && echo "$slow"
fi
crashes=$(grep -Eo 'Test unit written to [^ ]*(crash|timeout|oom|leak)-[0-9a-f]+' "$log" | awk '{ print $NF }' | sort -u || true)
if [ -n "$crashes" ]; then
  echo "fuzz: FAILED: crash or timeout, input saved:" && echo "$crashes"
  grep -E -A2 'panicked at' "$log" | head -n 20 || true
  exit 1
fi
exit "$status"
