// Offline after the first visit: a service worker (sw.js) keeps the app
// shell. Only over http(s); the single file needs none.

export function registerOffline() {
  if (!('serviceWorker' in navigator) || !/^https?:$/.test(location.protocol)) return;
  navigator.serviceWorker.register('./sw.js').then(() => navigator.serviceWorker.ready).then((reg) => {
    // What this page loaded before the worker took over, the views' modules included.
    const urls = performance.getEntriesByType('resource').map((e) => e.name).filter((u) => u.startsWith(location.origin));
    reg.active?.postMessage({ type: 'cache', urls: [new URL('./', location.href).href, ...urls] });
  }, (e) => console.info('no offline copy:', e?.message ?? e));
}
