// The shared form builder. A view describes its parameters as field specs;
// this module draws the labels (symbol, the paper's name, unit), checks each
// field as it is typed, and shows the core's own error message beside the
// field its `error.field` names.
//
// Field spec:
//   { key, symbol, name, unit?, kind: 'number'|'integer'|'list'|'choice',
//     default?, optional?, min?, max?, gt? (exclusive minimum),
//     minItems?, maxItems?, choices?: [{value, label}], placeholder?, help?,
//     when?(values) }
// `when` makes a field depend on others: while it returns false the field is
// disabled and left out of the request.
// `key` is the request's field name (API.md); `symbol` is the calculator's
// notation (NOTES.md); `name` keeps the paper's own name, e.g.
// "start-up (α in [001])".

import { parseNumber, fmt } from './format.js';

let uid = 0;

function el(tag, attrs = {}, ...children) {
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
export { el };

/** The value a spec's default shows as in its input. */
function defaultText(spec) {
  const d = spec.default;
  if (d === undefined || d === null) return '';
  if (Array.isArray(d)) return d.join(', ');
  return String(d);
}

function rangeText(spec) {
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
    || (spec.max !== undefined && x > spec.max);
  if (bad) return `${what} must be ${rangeText(spec)}`;
  return '';
}

/** Parses and checks a field's text: {value} or {error}; value undefined = left blank. */
export function parseField(spec, text) {
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

/** The field key a core error path names: "A[1]" -> "A", "processors[0].S" -> "processors". */
export function fieldKey(path) {
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(String(path ?? ''));
  return m ? m[0] : '';
}

/**
 * Builds a form into `container`.
 * @returns {{form, values(): {ok, values, errors}, setValues(obj), showError(error): boolean,
 *           clearErrors(), onChange(fn), submitButton}}
 */
export function buildForm(container, fields, { submitLabel = 'Compute', onSubmit, extraCheck } = {}) {
  const rows = new Map();
  const changeListeners = new Set();
  const form = el('form', { class: 'calc-form', novalidate: true, autocomplete: 'off' });
  const list = el('div', { class: 'fields' });
  form.append(list);

  for (const spec of fields) {
    const id = `f${++uid}-${spec.key}`;
    const msgId = `${id}-msg`;
    const helpId = spec.help ? `${id}-help` : undefined;
    const label = el('label', { for: id, class: 'field-label' },
      el('span', { class: 'sym', text: spec.symbol }),
      el('span', { class: 'desc' },
        el('span', { class: 'pname', text: spec.name }),
        spec.unit ? el('span', { class: 'unit', text: `[${spec.unit}]` }) : null,
        spec.optional ? el('span', { class: 'opt', text: 'optional' }) : null));
    let input;
    if (spec.kind === 'choice') {
      input = el('select', { id, name: spec.key, 'data-testid': `field-${spec.key}`, 'aria-describedby': [msgId, helpId].filter(Boolean).join(' ') },
        spec.choices.map((c) => el('option', { value: c.value, text: c.label })));
      input.value = defaultText(spec);
    } else {
      input = el('input', {
        id, name: spec.key, type: 'text', spellcheck: 'false',
        inputmode: spec.kind === 'list' ? 'text' : 'decimal',
        placeholder: spec.placeholder ?? (spec.kind === 'list' ? 'e.g. 1, 2.5, 3' : ''),
        'data-testid': `field-${spec.key}`,
        'aria-describedby': [msgId, helpId].filter(Boolean).join(' '),
      });
      input.value = defaultText(spec);
    }
    const range = spec.kind !== 'choice' && rangeText(spec) ? el('span', { class: 'range', text: rangeText(spec) }) : null;
    const help = spec.help ? el('div', { class: 'help', id: helpId }, spec.help, range ? ' · ' : '', range) : (range ? el('div', { class: 'help' }, range) : null);
    const msg = el('div', { class: 'field-msg', id: msgId, role: 'alert', 'aria-live': 'polite', 'data-testid': `error-${spec.key}` });
    const row = el('div', { class: `field field-${spec.kind}`, 'data-key': spec.key }, label, input, help, msg);
    list.append(row);
    rows.set(spec.key, { spec, input, msg, row });

    const validate = () => {
      applyWhen();
      const r = parseField(spec, input.value);
      setMsg(spec.key, r.error ?? '', 'client');
      for (const fn of changeListeners) fn(spec.key);
    };
    input.addEventListener('input', validate);
    input.addEventListener('change', validate);
  }

  const formMsg = el('div', { class: 'form-msg', role: 'alert', 'aria-live': 'polite', 'data-testid': 'form-error' });
  const submitButton = el('button', { type: 'submit', class: 'primary', 'data-testid': 'compute', text: submitLabel });
  const resetButton = el('button', { type: 'button', class: 'ghost', text: 'Defaults', title: 'Restore the paper\'s parameters' });
  form.append(formMsg, el('div', { class: 'actions' }, submitButton, resetButton));
  container.append(form);

  function setMsg(key, text, source) {
    const r = rows.get(key);
    if (!r) return;
    // A client check clears only client messages; the core's message stays
    // until the next computation or until the user edits the field.
    if (source === 'client' && !text && r.msg.dataset.source === 'core' && document.activeElement !== r.input) return;
    r.msg.textContent = text;
    r.msg.dataset.source = text ? source : '';
    r.row.classList.toggle('invalid', !!text);
    r.input.setAttribute('aria-invalid', text ? 'true' : 'false');
  }

  /** Enables the fields whose `when` holds for the current raw values. */
  function applyWhen() {
    const raw = {};
    for (const [key, { spec, input }] of rows) {
      const r = parseField(spec, input.value);
      raw[key] = r.error ? undefined : r.value;
    }
    for (const { spec, input, row } of rows.values()) {
      if (!spec.when) continue;
      const on = !!spec.when(raw);
      input.disabled = !on;
      row.classList.toggle('disabled', !on);
    }
  }

  function values() {
    applyWhen();
    const out = {};
    const errors = {};
    for (const [key, { spec, input }] of rows) {
      if (input.disabled) continue;
      const r = parseField(spec, input.value);
      if (r.error) errors[key] = r.error;
      else if (r.value !== undefined) out[key] = r.value;
    }
    if (extraCheck && Object.keys(errors).length === 0) Object.assign(errors, extraCheck(out) ?? {});
    for (const key of rows.keys()) setMsg(key, errors[key] ?? '', 'client');
    return { ok: Object.keys(errors).length === 0, values: out, errors };
  }

  function setValues(obj) {
    for (const [key, { spec, input }] of rows) {
      if (!(key in obj)) continue;
      const v = obj[key];
      input.value = v === undefined || v === null ? '' : Array.isArray(v) ? v.join(', ') : String(v);
      setMsg(key, parseField(spec, input.value).error ?? '', 'client');
    }
  }

  function clearErrors() {
    for (const key of rows.keys()) setMsg(key, '', 'core-clear');
    formMsg.textContent = '';
    formMsg.classList.remove('shown');
  }

  /** Shows a contract error beside its field; returns true if a field took it. */
  function showError(error) {
    const key = fieldKey(error?.field);
    if (rows.has(key)) {
      setMsg(key, error.message, 'core');
      rows.get(key).input.focus({ preventScroll: true });
      return true;
    }
    formMsg.textContent = error?.message ?? 'the request was refused';
    formMsg.classList.add('shown');
    return false;
  }

  resetButton.addEventListener('click', () => {
    const d = {};
    for (const spec of fields) d[spec.key] = spec.default;
    setValues(d);
    clearErrors();
    form.requestSubmit();
  });

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    onSubmit?.();
  });

  applyWhen();

  return {
    form, values, setValues, showError, clearErrors, submitButton,
    onChange(fn) { changeListeners.add(fn); return () => changeListeners.delete(fn); },
    input(key) { return rows.get(key)?.input; },
  };
}
