#!/usr/bin/env bash
# Builds the wasm module into www/pkg (release: opt-level "s", LTO) and
# prints its size raw and gzipped; then the single-file page
# dist/dlt-calculator.html (scripts/build-single.mjs), and prints its size.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release --target wasm32-unknown-unknown -p dlt-wasm
wasm-bindgen --target web --no-typescript --out-dir www/pkg \
  target/wasm32-unknown-unknown/release/dlt_wasm.wasm
wasm=www/pkg/dlt_wasm_bg.wasm
echo "wasm: $(stat -c %s "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzipped"
# The page as one self-contained file for file:// and no network: dist/dlt-calculator.html.
node scripts/build-single.mjs
