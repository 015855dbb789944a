// Sharing a page state: its link and embed code copied (a view's bar and
// every gallery card use the same buttons), a view's request and response
// saved as JSON; embedded, "Open in the calculator" instead.

import { el } from './form.js';
import { saveText } from './ui.js';
import { mounted } from './page.js';
import { linkOf, pageUrl } from './links.js';

/** The frame every embed code asks for: what embed mode is laid out for. */
export const FRAME = { width: 600, height: 500 };

/**
 * Share and Embed buttons for the state `hash()` (a permalink's hash, read
 * at the click), titled `title`, and the box and status line that show
 * what was copied: {share, embed, out, status}, placed by the caller.
 */
export function shareButtons(hash, title) {
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
  const iframe = () => `<iframe src="${pageUrl(hash(), { embed: true }).replace(/"/g, '%22')}" title="${title.replace(/"/g, '&quot;')}: the divisible-load calculator" width="${FRAME.width}" height="${FRAME.height}" style="border:0;max-width:100%" loading="lazy"></iframe>`;
  return {
    share: el('button', { type: 'button', class: 'ghost small', 'data-testid': 'share', title: 'a link that opens exactly what is shown here, with these parameters', onclick: () => copy(pageUrl(hash()), 'Link') }, 'Share link'),
    embed: el('button', { type: 'button', class: 'ghost small', 'data-testid': 'embed-code', title: 'HTML for a course page: this chart, its numbers and controls in a frame', onclick: () => copy(iframe(), 'Embed code') }, 'Embed'),
    out,
    status,
  };
}

/** "Open in the calculator ↗": the state `hash()` in a page of its own (shown in embed mode only). */
export function openFullLink(hash) {
  const a = el('a', { class: 'open-full', target: '_blank', rel: 'noopener', 'data-testid': 'open-full', href: pageUrl(hash()), text: 'Open in the calculator ↗' });
  // The state changes as the frame's form is edited: the link follows when it is about to be used.
  const point = () => { a.href = pageUrl(hash()); };
  for (const type of ['focus', 'mouseenter', 'click']) a.addEventListener(type, point);
  return a;
}

/** The bar of `view`: {el, ready(), add(...buttons)} (ready: a response exists to save; add: buttons of other modules, before the embedded page's link). */
export function shareBar(view) {
  const hash = () => linkOf(view.id);
  const { share, embed, out, status } = shareButtons(hash, view.title);
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
  const open = openFullLink(hash);
  const bar = el('div', { class: 'share-bar' },
    el('span', { class: 'embed-title', text: `${view.title} [${view.paper.id}]` }),
    share, embed, req, res, open, out, status);
  return {
    el: bar,
    add(...buttons) {
      open.before(...buttons);
    },
    ready() {
      req.disabled = false;
      res.disabled = false;
      open.href = pageUrl(hash()); // the link of what is shown, for a link copied without a hover
    },
  };
}
