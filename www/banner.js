// The banner under the header: a notice (a link that could not be opened
// as it was) or an error (the solver stopped), with a Dismiss button.

import { el } from './form.js';
import { fill } from './ui.js';

const bannerEl = document.getElementById('banner');

/** Shows `text` (and a list of `items`) as `kind` 'notice' or 'error'; no text hides the banner. */
export function banner(kind, text, items = []) {
  if (!text) {
    bannerEl.hidden = true;
    bannerEl.textContent = '';
    delete bannerEl.dataset.kind;
    return;
  }
  bannerEl.hidden = false;
  bannerEl.className = `banner ${kind}`;
  bannerEl.dataset.kind = kind;
  bannerEl.setAttribute('data-testid', kind === 'notice' ? 'notice' : 'banner');
  // Text only: a notice may quote a hostile link; it is never parsed as HTML.
  const body = el('div', { class: 'banner-text' }, el('span', { text }), items.length ? el('ul', {}, items.map((t) => el('li', { text: t }))) : null);
  fill(bannerEl, body, el('button', { type: 'button', class: 'ghost small', text: 'Dismiss', onclick: () => banner() }));
}

/** Hides the banner if it shows a notice (a later link opened fine). */
export function clearNotice() {
  if (bannerEl.dataset.kind === 'notice') banner();
}
