#!/usr/bin/env bash
# Builds the page and serves it on http://127.0.0.1:${PORT:-8000}/ .
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
echo "serving on http://127.0.0.1:${PORT:-8000}/ (Ctrl-C stops)"
cd www && exec python3 -m http.server "${PORT:-8000}" --bind 127.0.0.1
