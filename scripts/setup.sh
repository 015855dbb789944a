#!/usr/bin/env bash
# Installs what building and testing need; quick when it is already there.
# Usage: scripts/setup.sh [--browser] [--highs]
#   --browser   also Chromium and the npm packages of tests/browser
#   --highs     also the npm package highs (tests/highs: the cross-check and
#               the benchmark)
set -euo pipefail
cd "$(dirname "$0")/.."

installed_targets=$(rustup target list --installed)
for target in wasm32-unknown-unknown thumbv6m-none-eabi; do
  grep -qx "$target" <<<"$installed_targets" || rustup target add "$target"
done

# Lints run in the test command.
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy

# The CLI must match the wasm-bindgen crate in Cargo.lock exactly.
want=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
have=$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)
if [ "$have" != "$want" ]; then
  # Not --locked: one of the CLI's pinned dependencies is gone from the registry.
  cargo install wasm-bindgen-cli --version "$want"
fi

# npm ci in DIR unless its node_modules already holds PACKAGE.
npm_packages() {
  if [ ! -d "$1/node_modules/$2" ]; then
    (cd "$1" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

# wasm-opt (npm binaryen) shrinks the page's wasm after wasm-bindgen.
npm_packages scripts binaryen

for option in "$@"; do
  case "$option" in
    --browser)
      if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
        export DEBIAN_FRONTEND=noninteractive
        apt-get update -qq
        apt-get install -y -qq chromium chromium-driver >/dev/null
      fi
      npm_packages tests/browser playwright-core
      npm_packages tests/browser typescript
      npm_packages tests/browser axe-core
      ;;
    --highs) npm_packages tests/highs highs ;;
    *) echo "usage: scripts/setup.sh [--browser] [--highs]" >&2; exit 2 ;;
  esac
done
