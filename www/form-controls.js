// The form's one-value controls: a text input or a select, and a checkbox;
// parsing and checking a field's text against its spec. Each control offers
// read/write/text/setText, disabled and invalid states (form.js builds the
// form from them; form-rows.js is the table-of-rows control).

import { parseNumber, fmt } from './format.js';

/** An element with attributes (`text`, `class`, `on…` listeners) and children: the page's one DOM builder. */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c != null) e.append(c);
  return e;
}

/**
 * What a field accepts, in the core's words (validate.rs `Field::accepts`):
 * a number field carries the core's nonzero magnitudes, a whole number its
 * bounds.
 */
export function rangeText(spec) {
  if (spec.magnitude) {
    const [lo, hi] = spec.magnitude;
    const top = fmt(spec.max ?? hi);
    if (spec.gt !== undefined) return `from ${fmt(lo)} to ${top}`;
    if (spec.min !== undefined) return `0 or from ${fmt(lo)} to ${top}`;
    return `0 or of magnitude ${fmt(lo)} to ${top}, either sign`;
  }
  const parts = [];
  if (spec.gt !== undefined) parts.push(`> ${fmt(spec.gt)}`);
  if (spec.min !== undefined) parts.push(`≥ ${fmt(spec.min)}`);
  if (spec.max !== undefined) parts.push(`≤ ${fmt(spec.max)}`);
  return parts.join(' and ');
}

/** Checks one number against a spec; returns an error message or ''. */
function checkNumber(spec, x, what) {
  if (Number.isNaN(x)) return `${what} is not a number (write e.g. 1e-4 or 0.25)`;
  if (!Number.isFinite(x)) return `${what} must be finite`;
  if (spec.kind === 'integer' || spec.integer) {
    if (!Number.isInteger(x)) return `${what} must be a whole number`;
  }
  const bad = (spec.gt !== undefined && !(x > spec.gt))
    || (spec.min !== undefined && x < spec.min)
    || (spec.max !== undefined && x > spec.max)
    || (spec.magnitude && x !== 0 && (Math.abs(x) < spec.magnitude[0] || Math.abs(x) > spec.magnitude[1]));
  if (bad) return `${what} must be ${rangeText(spec)}`;
  return '';
}

/** Parses and checks a field's text: {value} or {error}; value undefined = left blank. */
export function parseField(spec, text) {
  if (spec.kind === 'bool') return { value: text === true || text === 'true' };
  const t = String(text ?? '').trim();
  if (spec.kind === 'choice') {
    if (!spec.choices.some((c) => String(c.value) === t)) return { error: `choose one of ${spec.choices.map((c) => c.value).join(', ')}` };
    return { value: t };
  }
  if (t === '') return spec.optional ? { value: undefined } : { error: `${spec.symbol} is required` };
  if (spec.kind === 'list') {
    const parts = t.split(/[\s,;]+/).filter(Boolean);
    const values = [];
    for (let i = 0; i < parts.length; i++) {
      const x = parseNumber(parts[i]);
      const err = checkNumber(spec, x, `entry ${i + 1} (${parts[i]})`);
      if (err) return { error: err };
      values.push(x);
    }
    if (spec.minItems !== undefined && values.length < spec.minItems) return { error: `list at least ${spec.minItems} value${spec.minItems > 1 ? 's' : ''}, separated by commas` };
    if (spec.maxItems !== undefined && values.length > spec.maxItems) return { error: `list at most ${spec.maxItems} values` };
    return { value: values };
  }
  const x = parseNumber(t);
  const err = checkNumber(spec, x, spec.symbol);
  return err ? { error: err } : { value: x };
}

/** A text input or a select: the field kinds that hold one value as text. */
export function simpleControl(spec, id, describedBy) {
  let input;
  if (spec.kind === 'choice') {
    input = el('select', { id, name: spec.key, 'data-testid': `field-${spec.key}`, 'aria-describedby': describedBy },
      spec.choices.map((c) => el('option', { value: c.value, text: c.label })));
  } else {
    input = el('input', {
      id, name: spec.key, type: 'text', spellcheck: 'false',
      inputmode: spec.kind === 'list' ? 'text' : 'decimal',
      placeholder: spec.placeholder ?? (spec.kind === 'list' ? 'e.g. 1, 2.5, 3' : ''),
      'data-testid': `field-${spec.key}`,
      'aria-describedby': describedBy,
    });
  }
  const write = (v) => { input.value = v === undefined || v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v); };
  write(spec.default);
  return {
    el: input, focusEl: input,
    read: () => parseField(spec, input.value),
    write,
    // The text a permalink keeps; lists without their spaces.
    text: () => (spec.kind === 'list' ? input.value.trim().replace(/\s*([,;])\s*/g, '$1').replace(/\s+/g, ',') : input.value.trim()),
    setText(t) {
      if (spec.kind === 'choice') {
        // An option that does not exist leaves the select empty: read() then refuses it.
        input.value = spec.choices.some((c) => String(c.value) === t) ? t : '';
        if (input.value !== t) input.selectedIndex = -1;
      } else input.value = spec.kind === 'list' ? t.replace(/\s*,\s*/g, ', ') : t;
    },
    get disabled() { return input.disabled; },
    setDisabled(on) { input.disabled = on; },
    setInvalid(on) { input.setAttribute('aria-invalid', on ? 'true' : 'false'); },
  };
}

/** A checkbox. */
export function boolControl(spec, id, describedBy) {
  const input = el('input', { id, name: spec.key, type: 'checkbox', 'data-testid': `field-${spec.key}`, 'aria-describedby': describedBy });
  let bad = false;
  const write = (v) => { bad = false; input.checked = v === undefined || v === null ? !!spec.default : v === true || v === 'true'; };
  write(spec.default);
  input.addEventListener('change', () => { bad = false; });
  return {
    el: input, focusEl: input,
    read: () => (bad ? { error: `${spec.symbol} is on (1) or off (0)` } : { value: input.checked }),
    write,
    text: () => (input.checked ? '1' : '0'),
    setText(t) {
      bad = !['1', '0', 'true', 'false'].includes(t);
      input.checked = t === '1' || t === 'true';
    },
    get disabled() { return input.disabled; },
    setDisabled(on) { input.disabled = on; },
    setInvalid(on) { input.setAttribute('aria-invalid', on ? 'true' : 'false'); },
  };
}
