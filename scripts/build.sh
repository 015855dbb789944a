#!/usr/bin/env bash
# Builds the wasm module into www/pkg (profile wasm: opt-level "s", LTO, then
# wasm-opt -O1) with its TypeScript declarations (generated from the
# core's Rust types) and a package.json, so that www/pkg is a package a
# web developer can import; prints its size raw and gzipped; then the single-file page
# dist/dlt-calculator.html (scripts/build-single.mjs), and prints its size.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --quiet --profile wasm --target wasm32-unknown-unknown -p dlt-wasm
wasm-bindgen --target web --out-dir www/pkg \
  target/wasm32-unknown-unknown/wasm/dlt_wasm.wasm
# The response reader (crates/dlt-wasm/js/tape.js), which wasm-bindgen
# leaves as a module of its own under snippets/, written into the glue:
# www/pkg stays the two files that the page, its service worker and the
# single-file build load.
node --input-type=module -e "
import fs from 'node:fs';
const glue = 'www/pkg/dlt_wasm.js';
const text = fs.readFileSync(glue, 'utf8').replace(/^import \{ [\w, ]+ \} from '\.\/(snippets\/[^']+)';\n/gm,
  (_, file) => fs.readFileSync('www/pkg/' + file, 'utf8').replace(/^export (function|const) /gm, '\$1 '));
if (text.includes('snippets/')) throw new Error('a snippet left in ' + glue);
fs.writeFileSync(glue, text);
fs.rmSync('www/pkg/snippets', { recursive: true });
"
# Binaryen on top of rustc's opt-level "s" and LTO: the debug names
# dropped and its light passes (-O1), the features the module declares
# kept as they are. Measured on the gzipped module (session 10): as
# wasm-bindgen writes it 436 KB, -O1 and no names 369 KB, where -Oz gave
# 399 KB (smaller raw, 1.00 against 1.05 MB, but it compresses worse)
# and ran no faster. The producers and target-features sections go too:
# metadata for tools, which no browser reads (209 bytes gzipped). The
# light passes repeated until they gain nothing (--converge): 216 bytes
# less gzipped (session 33), 13 s where one round took 6 s. The functions
# in the order of their names (read before the names are dropped): the
# copies one generic function gets per type sit side by side, within
# gzip's window of each other: 409,774 -> 396,046 bytes gzipped (session
# 47), the raw size the same and the solves as fast.
scripts/node_modules/.bin/wasm-opt -O1 --converge --reorder-functions-by-name --strip-debug --strip-producers --strip-target-features www/pkg/dlt_wasm_bg.wasm -o www/pkg/dlt_wasm_bg.wasm
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
