// Permalinks: the page's whole state in the URL hash, versioned.
//
//   #v=1&view=torus&k=2&S=0.0001&C=1e-7&A=0.000001&V=1000000&phases=
//
// `v` is the format's version, `view` the view's id; every other plain key
// is a field of that view's form, holding the text the field shows (blank =
// left blank); a key with a dot belongs to a part of the view: `x.KEY` is a
// view's own choice (ctx.linkState, e.g. `x.mode=diff`), `NAME.KEY` a field
// of a sub-form the view registered as NAME (ctx.linkForm), `pin.KEY` and
// `pin.NAME.KEY` the same of the result pinned for comparison (pin.js).
// `panel=KEY`
// names the results panel to show (scrolled to; in embed mode the only one
// shown) and `fig=ID` a gallery entry.
//
// Nothing read here is trusted: this module only splits the text into
// strings; the form's own checks (form.js) decide whether a value is valid,
// and the page writes values with .value / textContent, never as HTML.
//
// Versions. A link carries the version it was written in; `upgrade` brings
// it to the current one a step at a time, so a v=1 link still opens when
// v=2 exists: add UPGRADES[1] = (params) => params-in-v2 and raise VERSION.
// Version 0 is the hash of the first pages, a bare view id (`#torus`,
// `#/torus`), with no parameters.

export const VERSION = 1;

/** Longest hash read at all (a memory view of 200 processors needs ~12 000). */
export const MAX_HASH = 20000;
/** Longest single value. */
export const MAX_VALUE = 12000;
/** Most keys read. */
export const MAX_KEYS = 200;

/** Keys the link format itself uses; no view field may be named so. */
export const RESERVED = ['v', 'view', 'panel', 'fig'];

/** The prefix of the pinned result's keys (`pin.V=1e5`); no sub-form may be named so. */
export const PIN_PART = 'pin';

// A field, `part.field`, or `pin.part.field`.
const KEY = /^[A-Za-z_][A-Za-z0-9_]{0,39}(?:\.[A-Za-z_][A-Za-z0-9_]{0,39}){0,2}$/;
const ID = /^[a-z][a-z0-9_-]{0,39}$/;

/**
 * Each step takes the params (a Map of strings) of version N to N + 1.
 * 0 -> 1: `#torus` named only the view; everything else is the default.
 */
const UPGRADES = {
  0: (params) => params,
};

/** Characters left readable in a hash (all are allowed in a fragment). */
function encode(text) {
  return encodeURIComponent(text).replace(/%(2C|3A|5B|5D|2B|2F|40|21|24|28|29|2A)/gi, (m, h) => String.fromCharCode(parseInt(h, 16)));
}

function decode(text) {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * Reads a hash (with or without '#'). Never throws. Returns
 * {version, view, panel, fig, fields: Map, parts: Map(prefix -> Map), notices: [],
 *  bad: bool, empty: bool}; `bad` when the link as a whole could not be
 * read (the page then opens the defaults), `notices` what the user is told.
 */
export function parseLink(hash) {
  const out = { version: VERSION, view: undefined, panel: undefined, fig: undefined, fields: new Map(), parts: new Map(), notices: [], bad: false, empty: false };
  let text = String(hash ?? '');
  if (text.startsWith('#')) text = text.slice(1);
  if (text === '' || text === '/') {
    out.empty = true;
    return out;
  }
  if (text.length > MAX_HASH) {
    out.bad = true;
    out.notices.push(`The link is too long to be a link of this calculator (${text.length} characters, at most ${MAX_HASH}).`);
    return out;
  }
  let params = new Map();
  let version;
  if (!text.includes('=')) {
    // Version 0: a bare view id.
    version = 0;
    const id = decode(text.replace(/^\//, '').split(/[?&/]/)[0]);
    params.set('view', id ?? '');
  } else {
    const pairs = text.split('&').filter(Boolean);
    if (pairs.length > MAX_KEYS) {
      out.bad = true;
      out.notices.push(`The link has too many parameters (${pairs.length}).`);
      return out;
    }
    for (const pair of pairs) {
      const eq = pair.indexOf('=');
      const rawKey = eq < 0 ? pair : pair.slice(0, eq);
      const key = decode(rawKey);
      const value = eq < 0 ? '' : decode(pair.slice(eq + 1));
      if (key === null || value === null) {
        out.notices.push('A parameter of the link is not properly encoded and was ignored.');
        continue;
      }
      if (!KEY.test(key) || /(^|\.)(__proto__|constructor|prototype)$/.test(key)) {
        out.notices.push(`The link names a parameter that is not one (“${clip(key)}”); it was ignored.`);
        continue;
      }
      if (value.length > MAX_VALUE) {
        out.bad = true;
        out.notices.push(`The value of ${key} in the link is too long (${value.length} characters).`);
        return out;
      }
      if (params.has(key)) out.notices.push(`The link sets ${key} twice; the last one counts.`);
      params.set(key, value);
    }
    const v = params.get('v');
    params.delete('v');
    if (v === undefined) {
      version = VERSION;
      out.notices.push(`The link has no version (v=); it was read as version ${VERSION}.`);
    } else if (!/^\d{1,4}$/.test(v)) {
      out.bad = true;
      out.notices.push(`The link's version “${clip(v)}” is not a version of this calculator.`);
      return out;
    } else {
      version = Number(v);
    }
  }
  if (version > VERSION) {
    out.notices.push(`The link was made by a newer version of the calculator (v=${version}); it was read as version ${VERSION}, as far as it goes.`);
    version = VERSION;
  }
  for (let ver = version; ver < VERSION; ver++) params = UPGRADES[ver](params);
  out.version = version;

  const view = params.get('view');
  params.delete('view');
  if (view !== undefined) {
    if (ID.test(view)) out.view = view;
    else {
      out.bad = true;
      out.notices.push(`The link names a view that does not exist (“${clip(view)}”); the first view opens with its defaults.`);
    }
  }
  for (const name of ['panel', 'fig']) {
    const x = params.get(name);
    params.delete(name);
    if (x === undefined || x === '') continue;
    if (/^[A-Za-z0-9_.-]{1,60}$/.test(x)) out[name] = x;
    else out.notices.push(`The link's ${name} “${clip(x)}” is not a valid name; it was ignored.`);
  }
  for (const [key, value] of params) {
    const dot = key.indexOf('.');
    if (dot < 0) {
      out.fields.set(key, value);
    } else {
      const prefix = key.slice(0, dot);
      if (!out.parts.has(prefix)) out.parts.set(prefix, new Map());
      out.parts.get(prefix).set(key.slice(dot + 1), value);
    }
  }
  return out;
}

/**
 * Writes a link: `fields` and each part are {key: text} (or Maps), in
 * order; `extra` adds panel / fig.
 */
export function buildLink({ view, fields = {}, parts = {}, panel, fig }) {
  const pairs = [`v=${VERSION}`];
  if (view) pairs.push(`view=${encode(view)}`);
  const add = (key, value) => pairs.push(`${encode(key)}=${encode(String(value ?? ''))}`);
  for (const [k, v] of entries(fields)) add(k, v);
  for (const [prefix, part] of entries(parts)) for (const [k, v] of entries(part)) add(`${prefix}.${k}`, v);
  if (panel) add('panel', panel);
  if (fig) add('fig', fig);
  return `#${pairs.join('&')}`;
}

function entries(x) {
  if (!x) return [];
  return x instanceof Map ? [...x] : Object.entries(x);
}

/** A short, printable excerpt of untrusted text for a notice (shown with textContent). */
export function clip(text, n = 40) {
  const s = String(text).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '�');
  return s.length > n ? `${s.slice(0, n)}…` : s;
}
