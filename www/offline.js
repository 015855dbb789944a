// Offline after the first visit: a service worker (sw.js) keeps the app
// shell. Only over http(s); the single file needs none.
//
// Registered once the page is quiet, not while it loads: installing, the
// worker fetches the whole shell and Chromium compiles the scripts it
// stores (the chart library alone, 150 ms), CPU that the first figure's
// solves and drawing wanted on a 2-core machine: 000 Fig. 13(b) cold in a
// fresh browser 2.3-3.0 s with it at start, 1.9-2.2 s without.

/** How often the page is looked at, and how many looks in a row must find it idle. */
const LOOK_MS = 500;
const IDLE_LOOKS = 2;
/** Registered by then however busy the page (a long map, sweep after sweep). */
const LATEST_MS = 20000;

/** Registers sw.js once `busy()` (the page's pools have work) has been false for a while after load. */
export function registerOffline(busy) {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
  const since = performance.now();
  let idle = 0;
  const look = () => {
    idle = busy() ? 0 : idle + 1;
    if (idle >= IDLE_LOOKS || performance.now() - since >= LATEST_MS) register();
    else setTimeout(look, LOOK_MS);
  };
  const start = () => setTimeout(look, LOOK_MS);
  if (document.readyState === 'complete') start();
  else addEventListener('load', start, { once: true });
}

function register() {
  navigator.serviceWorker.register('./sw.js').then(() => navigator.serviceWorker.ready).then((reg) => {
    // What this page loaded before the worker took over, the views' modules included.
    const urls = performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.startsWith(location.origin));
    reg.active?.postMessage({ type: 'cache', urls: [new URL('./', location.href).href, ...urls] });
  }, (e) => console.info('no offline copy:', e?.message ?? e));
}
