// The service worker: the served page keeps working offline after its first
// load. It keeps a copy of the app shell (the page, its modules, the chart
// library, the wasm) and of every same-origin file the page fetches.
// Network first: online, every file is fresh (a new build shows at once);
// offline, the copy answers. Registered by app.js over http(s) only.

const CACHE = 'dlt-calculator-v1';
const SHELL = [
  './', './index.html', './style.css', './app.js', './page.js', './mount.js', './context.js', './chart-keys.js', './chart-access.js', './explain.js', './printed.js', './links.js', './pin.js', './pin-draw.js', './pin-compare.js',
  './share.js', './tabs.js', './roving.js', './banner.js', './offline.js', './form.js', './form-controls.js', './form-rows.js', './charts.js', './gantt.js', './ui.js', './format.js',
  './workers.js', './pool.js', './pool-sweep.js', './solver-error.js', './worker.js', './permalink.js', './export.js', './gallery.js', './views/index.js',
  './vendor/echarts/echarts.custom.min.js', './pkg/dlt_wasm.js', './pkg/dlt_wasm_bg.wasm',
];

self.addEventListener('install', (event) => {
  // A file missing from this list (a view renamed) must not stop the install.
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(SHELL.map((u) => cache.add(u).catch(() => {})))).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('dlt-calculator-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The page sends what it loaded before this worker controlled it (the views' modules among them).
self.addEventListener('message', (event) => {
  const { type, urls } = event.data ?? {};
  if (type !== 'cache' || !Array.isArray(urls)) return;
  const own = urls.filter((u) => typeof u === 'string' && new URL(u, self.location.href).origin === self.location.origin).slice(0, 500);
  event.waitUntil(caches.open(CACHE).then((cache) => Promise.all(own.map((u) => cache.match(u).then((hit) => hit || cache.add(u)).catch(() => {})))));
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    try {
      const response = await fetch(request);
      if (response.ok && response.type === 'basic') cache.put(request, response.clone()).catch(() => {});
      return response;
    } catch (err) {
      // Offline: the copy; a page address with its query (?embed=1) is the shell too.
      const hit = await cache.match(request, { ignoreSearch: request.mode === 'navigate' });
      if (hit) return hit;
      if (request.mode === 'navigate') {
        const shell = await cache.match('./index.html') ?? await cache.match('./');
        if (shell) return shell;
      }
      throw err;
    }
  })());
});
