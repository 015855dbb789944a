// A page's state as a link (permalink.js's format): the link of what is
// shown, the hash kept up to date as the user edits, a link's values set
// into a view's form (never trusted: the form's own checks decide), and the
// panel a link names.

import { buildLink, clip, PIN_PART } from './permalink.js';
import { GALLERY_ID } from './gallery.js';
import { banner } from './banner.js';
import { mounted, shown, embed } from './page.js';

/** The link of page `id` in its current state. */
export function linkOf(id) {
  if (id === GALLERY_ID) return buildLink({ view: id, fig: shown.fig });
  const m = mounted.get(id);
  if (!m) return buildLink({ view: id });
  const parts = {};
  if (Object.keys(m.linkState).length) parts.x = m.linkState;
  for (const [name, f] of m.subforms) parts[name] = f.texts();
  if (m.pin) parts[PIN_PART] = m.pin.link;
  return buildLink({ view: id, fields: m.form.texts(), parts, panel: m.panel });
}

/** The address of the page state `hash`, embedded (`?embed=1`) or not. */
export function pageUrl(hash, { embed: framed = false } = {}) {
  return `${location.href.split(/[?#]/)[0]}${framed ? '?embed=1' : ''}${hash}`;
}

// The hash follows the edits, at most every 300 ms (replaceState: no history entry each keystroke).
let hashTimer = 0;
export function scheduleHash() {
  if (hashTimer) return;
  hashTimer = setTimeout(() => {
    hashTimer = 0;
    if (!shown.id) return;
    const h = linkOf(shown.id);
    if (h !== location.hash) history.replaceState(null, '', h);
  }, 300);
}

/**
 * Sets view `m` to what `link` (parseLink's) says: the whole state of the
 * view, what the link does not name taking its default. A value the form
 * refuses takes its default too, and the link's other values stay (a link
 * with one mistyped value is still the link); only where they do not hold
 * together without it are all the defaults shown. Pushes what went wrong to
 * `notices`; returns true when the link was refused (the view then shows
 * its defaults).
 */
export function restoreView(m, link, notices) {
  m.form.reset();
  m.linkState = {};
  m.pendingParts = new Map();
  for (const f of m.subforms.values()) f.reset();
  if (link.bad) return true;
  let r = m.form.restore(link.fields);
  if (!r.ok) {
    const bad = r.errors;
    const good = new Map([...link.fields].filter(([key]) => !(key in bad)));
    m.form.reset();
    r = m.form.restore(good);
    if (r.ok) {
      notices.push(`Some of the link’s parameters are not valid for the ${m.view.title} view; their defaults are used, the others are the link’s:`);
    } else {
      m.form.reset();
      notices.push(`The link’s parameters are not valid for the ${m.view.title} view, so its defaults are shown:`);
    }
    for (const [key, msg] of Object.entries(bad).slice(0, 8)) notices.push(`${clip(key)}: ${msg}`);
  }
  if (r.unknown.length) notices.push(`The ${m.view.title} view has no parameter ${r.unknown.slice(0, 6).map((k) => `“${clip(k)}”`).join(', ')}; ignored.`);
  if (!r.ok) return true;
  for (const [prefix, values] of link.parts) {
    if (prefix === PIN_PART) continue; // pin.js's (restorePin)
    if (prefix === 'x') {
      for (const [k, v] of values) if (v.length <= 200) m.linkState[k] = v;
    } else if (m.subforms.has(prefix)) {
      applyPart(prefix, m.subforms.get(prefix), values, notices);
    } else {
      m.pendingParts.set(prefix, values); // a sub-form the view makes when it first renders
    }
  }
  return false;
}

/** Sets a sub-form from a link's part; invalid values leave its defaults, with a notice. */
export function applyPart(name, form, values, notices = null) {
  form.reset();
  const r = form.restore(values);
  if (r.ok) return;
  form.reset();
  const text = `The link’s ${name} parameters are not valid (${Object.entries(r.errors).slice(0, 4).map(([k, e]) => `${clip(k)}: ${e}`).join('; ')}); their defaults are used.`;
  if (notices) notices.push(text);
  else banner('notice', text);
}

/** Brings the panel the link names into view (embedded, markEmbed shows it). */
export function showPanel(m, initial) {
  markEmbed(m);
  if (!m.panel || embed) return;
  const card = m.section.querySelector(`[data-panel="${CSS.escape(m.panel)}"]`);
  if (!card) return;
  card.scrollIntoView({ block: 'start', behavior: initial ? 'auto' : 'smooth' });
  card.classList.add('focused');
  setTimeout(() => card.classList.remove('focused'), 1600);
}

/**
 * Embedded, marks the panels shown: the link's, else the first with a
 * chart, and the view's headline numbers (its first summary, e.g. the
 * torus's Cmax and phases), which a chart alone does not give.
 */
export function markEmbed(m) {
  if (!embed) return;
  const cards = [...m.section.querySelectorAll('.panels > .panel')];
  const chosen = cards.find((c) => c.dataset.panel === m.panel) ?? cards.find((c) => c.querySelector('.chart')) ?? cards[0];
  const numbers = cards.find((c) => !c.hidden && c.querySelector('dl.summary'));
  for (const c of cards) c.toggleAttribute('data-embed-shown', c === chosen || c === numbers);
}
