// The page's ES modules as read from www/: what app.js imports, directly or
// not, each with its relative imports rewritten to bare names
// ("dlt/views/torus.js") for the single file's import map
// (scripts/build-single.mjs); its keys are the modules the served page
// preloads (scripts/preload.mjs). The vendored library is taken as it is.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WWW = path.join(ROOT, 'www');

export const read = (rel) => fs.readFileSync(path.join(WWW, rel), 'utf8');

// Relative module specifiers: static imports and re-exports, bare imports, dynamic import('…').
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\n]+)\2/g;
const WORKER = /new\s+Worker\(\s*new\s+URL\(\s*(['"])\.\/worker\.js\1\s*,\s*import\.meta\.url\s*\)\s*,\s*\{\s*type:\s*(['"])module\2\s*\}\s*\)/g;

/** Our modules reachable from app.js (the vendored library is taken as it is). */
export function collect(entry) {
  const modules = new Map(); // rel path -> source
  const visit = (rel) => {
    if (modules.has(rel)) return;
    let src = read(rel);
    modules.set(rel, null);
    if (!rel.startsWith('vendor/')) {
      src = src.replace(SPECIFIER, (m, head, q, spec) => {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(rel), spec));
        if (target.startsWith('..')) throw new Error(`${rel} imports ${spec}, outside www/`);
        if (target === 'pkg/dlt_wasm.js') return m; // only the worker loads the wasm glue
        visit(target);
        return `${head}${q}dlt/${target}${q}`;
      });
      src = src.replace(WORKER, 'globalThis.dltCreateWorker()');
    }
    modules.set(rel, src);
  };
  visit(entry);
  return modules;
}
