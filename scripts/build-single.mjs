// Builds dist/dlt-calculator.html: the whole page in one file that works
// when opened from file:// with no network (node only, no npm packages).
//
//   node scripts/build-single.mjs [OUT]      (after www/pkg is built)
//
// How: every ES module of the page (app.js and what it imports, the views,
// the chart library) goes in a <script type="text/plain"> block, its
// relative imports rewritten to bare names ("dlt/views/torus.js"); a small
// inline script turns each block into a Blob URL, installs an import map
// from the names to those URLs and imports the app. The solver worker is a
// classic worker made from worker.js: the wasm-bindgen glue imported from a
// data: URL, the wasm (base64 in the worker's source) handed to init() as
// bytes. workers.js, the one module that starts `new Worker(new
// URL('./worker.js', import.meta.url), ...)`, gets the worker from
// globalThis.dltCreateWorker instead. The style sheet is inlined; the file
// carries its own Content-Security-Policy: inline scripts, blob: modules and
// the worker's data: glue only, no network at all (default-src 'none',
// connect-src 'none').

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const WWW = path.join(ROOT, 'www');
const OUT = path.resolve(process.argv[2] ?? path.join(ROOT, 'dist', 'dlt-calculator.html'));

const read = (rel) => fs.readFileSync(path.join(WWW, rel), 'utf8');

// Relative module specifiers: static imports and re-exports, bare imports, dynamic import('…').
const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"\n]+)\2/g;
const WORKER = /new\s+Worker\(\s*new\s+URL\(\s*(['"])\.\/worker\.js\1\s*,\s*import\.meta\.url\s*\)\s*,\s*[A-Za-z_$][\w$]*\s*\)/g;

/** Our modules reachable from app.js (the vendored library is taken as it is). */
function collect(entry) {
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

/** Text safe inside a <script type="text/plain"> block. */
function rawText(name, text) {
  if (/<\/script|<!--/i.test(text)) throw new Error(`${name} contains "</script" or "<!--"; it cannot be inlined as is`);
  return text;
}

const modules = collect('app.js');
const workersSrc = modules.get('workers.js');
if (!workersSrc || workersSrc.includes("new URL('./worker.js'")) throw new Error('workers.js: the worker construction was not rewritten');

// The worker: a classic one (from file://, Chromium starts no module worker
// from a Blob URL, and a worker cannot fetch the page's Blob URLs), so its
// static import of the glue becomes an import() of a data: URL, and the wasm
// comes as base64 inside the worker's own source.
let worker = read('worker.js');
const importLine = /^import\s+([A-Za-z_$][\w$]*)\s*,\s*\{([^}]*)\}\s*from\s*(['"])\.\/pkg\/dlt_wasm\.js\3;?[ \t]*$/m;
const im = importLine.exec(worker);
if (!im) throw new Error('worker.js: no "import init, { … } from \'./pkg/dlt_wasm.js\'" line to rewrite');
const names = im[2].split(',').map((x) => x.trim()).filter(Boolean).map((x) => {
  const [from, to = from] = x.split(/\s+as\s+/).map((y) => y.trim());
  return { from, to };
});
worker = worker.replace(importLine, [
  `let ${[im[1], ...names.map((n) => n.to)].join(', ')};`,
  `const glueLoaded = import(__DLT_GLUE_URL__).then((m) => { ${im[1]} = m.default; ${names.map((n) => `${n.to} = m.${n.from};`).join(' ')} });`,
  'function wasmBytes() {',
  '  const bin = atob(__DLT_WASM_B64__);',
  '  const bytes = new Uint8Array(bin.length);',
  '  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);',
  '  return bytes;',
  '}',
].join('\n'));
const initCall = /\binit\(\)/;
if (!initCall.test(worker)) throw new Error('worker.js: no init() call to rewrite');
worker = worker.replace(initCall, `glueLoaded.then(() => ${im[1]}({ module_or_path: wasmBytes() }))`);
if (/^\s*(import|export)\s/m.test(worker)) throw new Error('worker.js: an import or export is left; a classic worker cannot have one');
const glue = read('pkg/dlt_wasm.js');
const wasm = fs.readFileSync(path.join(WWW, 'pkg', 'dlt_wasm_bg.wasm'));

// The page: index.html's body, without its script and preload tags.
const index = read('index.html');
const body = index.slice(index.indexOf('<body>') + 6, index.indexOf('</body>'))
  .replace(/\s*<script\b[^>]*><\/script>/g, '')
  .replace(/<a href="(?![a-z]+:|#)[^"]*">([^<]*)<\/a>/g, '$1'); // links to files beside the page lead nowhere from one file
const title = /<title>([^<]*)<\/title>/.exec(index)?.[1] ?? 'The divisible-load calculator';
const description = /<meta name="description" content="([^"]*)">/.exec(index)?.[1] ?? '';
const css = read('style.css');
if (/<\/style/i.test(css)) throw new Error('style.css contains "</style"');

const CSP = [
  "default-src 'none'",
  "script-src 'unsafe-inline' blob: data: 'wasm-unsafe-eval'",
  'worker-src blob:',
  "connect-src 'none'",
  'img-src data: blob:',
  "style-src 'unsafe-inline'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

const bootstrap = `
// Blob URLs for the modules, the wasm and the worker; an import map; then the app.
(() => {
  const blob = (parts, type) => URL.createObjectURL(new Blob(parts, { type }));
  const imports = {};
  for (const s of document.querySelectorAll('script[type="text/plain"][data-module]')) {
    imports[s.dataset.module] = blob([s.textContent], 'text/javascript');
  }
  const b64 = document.getElementById('dlt-wasm').textContent.replace(/\\s+/g, '');
  const glue = 'data:text/javascript;base64,' + btoa(unescape(encodeURIComponent(document.getElementById('dlt-glue').textContent)));
  const workerSrc = document.getElementById('dlt-worker').textContent
    .replace('__DLT_GLUE_URL__', JSON.stringify(glue))
    .replace('__DLT_WASM_B64__', JSON.stringify(b64));
  const workerUrl = blob([workerSrc], 'text/javascript');
  globalThis.dltCreateWorker = () => new Worker(workerUrl);
  const map = document.createElement('script');
  map.type = 'importmap';
  map.textContent = JSON.stringify({ imports });
  document.head.append(map);
  import('dlt/app.js').catch((e) => {
    const b = document.getElementById('banner');
    b.hidden = false;
    b.className = 'banner error';
    b.textContent = 'The calculator could not start: ' + e.message;
  });
})();
`;

const blocks = [];
for (const [rel, src] of modules) {
  blocks.push(`<script type="text/plain" data-module="dlt/${rel}">${rawText(rel, src)}</script>`);
}
blocks.push(`<script type="text/plain" id="dlt-glue">${rawText('pkg/dlt_wasm.js', glue)}</script>`);
blocks.push(`<script type="text/plain" id="dlt-worker">${rawText('worker.js', worker)}</script>`);
blocks.push(`<script type="text/plain" id="dlt-wasm">${wasm.toString('base64').replace(/.{1,4096}/g, '$&\n')}</script>`);

const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="color-scheme" content="light dark">
<title>${title}</title>
<meta name="description" content="${description}">
<link rel="icon" href="data:,">
<style>
${css}
</style>
</head>
<body>
${body.trim()}
${blocks.join('\n')}
<script>${bootstrap}</script>
</body>
</html>
`;

fs.mkdirSync(path.dirname(OUT), { recursive: true });
fs.writeFileSync(OUT, html);
const size = fs.statSync(OUT).size;
console.log(`single file: ${path.relative(process.cwd(), OUT) || OUT}: ${size.toLocaleString('en')} bytes (${(size / 1048576).toFixed(2)} MiB), ${modules.size} modules, wasm ${wasm.length.toLocaleString('en')} bytes`);
