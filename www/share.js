// A view's share bar: its link and embed code copied, its request and
// response saved as JSON; embedded, "Open in the calculator" instead.

import { el } from './form.js';
import { saveText } from './ui.js';
import { mounted } from './page.js';
import { shareUrl, embedUrl } from './links.js';

/** The bar of `view`: {el, ready()} (ready: a response exists to save). */
export function shareBar(view) {
  const out = el('input', { type: 'text', readonly: true, class: 'share-url', 'data-testid': 'share-url', 'aria-label': 'link to copy', hidden: true });
  const status = el('span', { class: 'share-status', role: 'status', 'aria-live': 'polite', 'data-testid': 'share-status' });
  const copy = async (text, what) => {
    out.hidden = false;
    out.value = text;
    let ok = false;
    try {
      await navigator.clipboard.writeText(text);
      ok = true;
    } catch {
      out.select();
      try { ok = document.execCommand('copy'); } catch { ok = false; }
    }
    status.textContent = ok ? `${what} copied.` : `Copy the ${what.toLowerCase()} from the box.`;
    out.dataset.copied = String(ok);
  };
  const jsonButton = (what) => el('button', {
    type: 'button', class: 'ghost small', 'data-testid': `export-${what}`, disabled: true,
    title: `the ${what} the core answered, as JSON (the contract of API.md)`,
    onclick: () => {
      const m = mounted.get(view.id);
      const data = what === 'request' ? m.request : m.last;
      const text = `${JSON.stringify(data, null, 2)}\n`;
      saveText(text, `${view.id}-${what}.json`, 'application/json');
      status.textContent = `${view.id}-${what}.json saved (${text.length.toLocaleString('en')} bytes).`;
    },
  }, `${what === 'request' ? 'Request' : 'Response'} JSON`);
  const req = jsonButton('request');
  const res = jsonButton('response');
  const openFull = el('a', { class: 'open-full', target: '_blank', rel: 'noopener', 'data-testid': 'open-full', text: 'Open in the calculator ↗' });
  const point = () => { openFull.href = shareUrl(view.id); };
  for (const type of ['focus', 'mouseenter', 'click']) openFull.addEventListener(type, point);
  const bar = el('div', { class: 'share-bar' },
    el('span', { class: 'embed-title', text: `${view.title} [${view.paper.id}]` }),
    el('button', { type: 'button', class: 'ghost small', 'data-testid': 'share', title: 'a link that opens exactly this view with these parameters', onclick: () => copy(shareUrl(view.id), 'Link') }, 'Share link'),
    el('button', {
      type: 'button', class: 'ghost small', 'data-testid': 'embed-code', title: 'HTML for a course page: this view’s chart and controls in a frame',
      onclick: () => copy(`<iframe src="${embedUrl(view.id).replace(/"/g, '%22')}" title="${view.title}: the divisible-load calculator" width="100%" height="600" style="border:0" loading="lazy"></iframe>`, 'Embed code'),
    }, 'Embed'),
    req, res, openFull, out, status);
  return { el: bar, ready() { req.disabled = false; res.disabled = false; } };
}
