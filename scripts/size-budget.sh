#!/usr/bin/env bash
# Size budget of the page's wasm module: fails if www/pkg/dlt_wasm_bg.wasm,
# gzipped with gzip -9, exceeds the budget below. Run after
# `bash scripts/build.sh` (or pass --build to run it first).
#
# Budget: 400 KB = 409600 bytes gzipped (gzip -9).
set -euo pipefail
cd "$(dirname "$0")/.."
budget=$((400 * 1024))
if [ "${1:-}" = "--build" ]; then
  bash scripts/build.sh
fi
wasm=www/pkg/dlt_wasm_bg.wasm
if [ ! -f "$wasm" ]; then
  echo "size budget: $wasm not found; run bash scripts/build.sh first (or pass --build)" >&2
  exit 1
fi
raw=$(stat -c %s "$wasm")
gz=$(gzip -9 -c "$wasm" | wc -c)
kb() { awk -v b="$1" 'BEGIN { printf "%.1f KB", b / 1024 }'; }
echo "size budget: $wasm is $raw bytes ($(kb "$raw")) raw, $gz bytes ($(kb "$gz")) gzipped -9; budget $budget bytes ($(kb "$budget")) gzipped"
if [ "$gz" -gt "$budget" ]; then
  echo "size budget: FAILED, $((gz - budget)) bytes over" >&2
  exit 1
fi
echo "size budget: ok, $((budget - gz)) bytes to spare"
