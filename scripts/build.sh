#!/usr/bin/env bash
# Builds the wasm module into www/pkg (release: opt-level "s", LTO, then
# wasm-opt -Oz) with its TypeScript declarations (generated from the
# core's Rust types) and a package.json, so that www/pkg is a package a
# web developer can import; prints its size raw and gzipped; then the single-file page
# dist/dlt-calculator.html (scripts/build-single.mjs), and prints its size.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --release --target wasm32-unknown-unknown -p dlt-wasm
wasm-bindgen --target web --out-dir www/pkg \
  target/wasm32-unknown-unknown/release/dlt_wasm.wasm
# Binaryen's size optimisations on top of rustc's opt-level "s" and LTO:
# about 8% of the gzipped module (408 KB -> 374 KB), the features the
# module declares kept as they are.
scripts/node_modules/.bin/wasm-opt -Oz www/pkg/dlt_wasm_bg.wasm -o www/pkg/dlt_wasm_bg.wasm
version=$(awk -F'"' '/^version = / { print $2; exit }' Cargo.toml)
cat > www/pkg/package.json <<JSON
{
  "name": "dlt-calculator",
  "version": "$version",
  "description": "The divisible-load calculator's core: solve(request) -> response, typed (dlt_wasm.d.ts); the contract is docs/API.md",
  "license": "MIT OR Apache-2.0",
  "type": "module",
  "main": "dlt_wasm.js",
  "types": "dlt_wasm.d.ts",
  "files": ["dlt_wasm_bg.wasm", "dlt_wasm.js", "dlt_wasm.d.ts", "dlt_wasm_bg.wasm.d.ts"],
  "sideEffects": ["./snippets/*"]
}
JSON
wasm=www/pkg/dlt_wasm_bg.wasm
echo "wasm: $(stat -c %s "$wasm") bytes, $(gzip -9 -c "$wasm" | wc -c) gzipped"
# The isoefficiency view's default map, precomputed by this wasm module.
node scripts/default-map.mjs
# The page as one self-contained file for file:// and no network: dist/dlt-calculator.html.
node scripts/build-single.mjs
