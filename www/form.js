// The shared form builder. A view describes its parameters as field specs;
// this module draws the labels (symbol, the paper's name, unit), checks each
// field as it is typed, and shows the core's own error message beside the
// field its `error.field` names. Its controls are form-controls.js (inputs,
// selects, checkboxes; parsing) and form-rows.js (tables of rows).
//
// Field spec:
//   { key, symbol, name, unit?, kind: 'number'|'integer'|'list'|'choice'|'bool'|'rows',
//     default?, optional?, min?, max?, gt? (exclusive minimum), core?, model?,
//     minItems?, maxItems?, choices?: [{value, label}], placeholder?, help?,
//     when?(values) }
// The range of a number, integer or list field (each entry's) is the core's
// where the core lists one for the field (`core`, by default `key`) in the
// model the form's request goes to (buildForm's `ranges`), or, for a field
// whose value goes to another request of the view, in its `model` (the
// isoefficiency map's levels: 'isoefficiency_map'); min, max and gt are for
// the fields the core lists none for.
// `bool` is a checkbox (value true/false). `rows` is a small table editor
// whose value is an array of objects, one per row:
//   { kind: 'rows', columns: [{key, label, title?, kind: 'number'|'integer'|'custom',
//     min?, max?, gt?, core?, parse?(text) -> {value}|{error}, format?(value) -> text,
//     wide?, placeholder?}], rowLabel?(i), minRows?, maxRows?, addLabel? }
// A column's range is the core's as a field's is: the core lists a field of
// a list's rows by its name in the row (memory's processors' S).
// A core error whose path names a row ("processors[1].pieces[0][1]") is
// shown at that row.
// `when` makes a field depend on others: while it returns false the field is
// disabled and left out of the request.
// `key` is the request's field name (API.md); `symbol` is the calculator's
// notation (NOTES.md); `name` keeps the paper's own name, e.g.
// "start-up (α in [001])".

import { el, rangeText, simpleControl, boolControl } from './form-controls.js';
import { rowsControl } from './form-rows.js';

export { el };

let uid = 0;

/** The field key a core error path names: "A[1]" -> "A", "processors[0].S" -> "processors". */
export function fieldKey(path) {
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(String(path ?? ''));
  return m ? m[0] : '';
}

/**
 * The core's range of `spec`'s field (a field's or a column's) in `about`
 * (a model's entry of the core's `models()`), as a spec's min, max, gt and magnitude;
 * null where it has none.
 */
function coreRange(spec, about) {
  const f = about?.fields.find((x) => x.name === (spec.core ?? spec.key));
  if (!f) return null;
  return { min: f.min_exclusive ? undefined : f.min, gt: f.min_exclusive ? f.min : undefined, max: f.max, magnitude: f.magnitude };
}

/**
 * Builds a form into `container`.
 * `ranges`: {models, model}, the core's `models()` and the model a request
 * of the form goes to, a name or a function of the form's values.
 * @returns {{form, values(): {ok, values, errors}, setValues(obj), showError(error): boolean,
 *           clearErrors(), onChange(fn), submitButton}}
 */
export function buildForm(container, viewFields, { submitLabel = 'Compute', onSubmit, extraCheck, testPrefix = '', ranges } = {}) {
  // The form's own copies (and their columns'): the core's ranges are set on them.
  const fields = viewFields.map((spec) => ({ ...spec, ...(spec.columns ? { columns: spec.columns.map((c) => ({ ...c })) } : {}) }));
  const rows = new Map();
  const changeListeners = new Set();
  const form = el('form', { class: 'calc-form', novalidate: true, autocomplete: 'off' });
  const list = el('div', { class: 'fields' });
  form.append(list);

  for (const spec of fields) {
    const id = `f${++uid}-${spec.key}`;
    const msgId = `${id}-msg`;
    const helpId = spec.help ? `${id}-help` : undefined;
    const describedBy = [msgId, helpId].filter(Boolean).join(' ');
    const control = spec.kind === 'bool' ? boolControl(spec, id, describedBy)
      : spec.kind === 'rows' ? rowsControl(spec, id, describedBy)
        : simpleControl(spec, id, describedBy);
    if (testPrefix) control.el.setAttribute('data-testid', `${testPrefix}field-${spec.key}`);
    const desc = el('span', { class: 'desc' },
      el('span', { class: 'pname', text: spec.name }),
      spec.unit ? el('span', { class: 'unit', text: `[${spec.unit}]` }) : null,
      spec.optional ? el('span', { class: 'opt', text: 'optional' }) : null);
    const sym = el('span', { class: 'sym', text: spec.symbol });
    const label = spec.kind === 'bool'
      ? el('label', { for: id, class: 'field-label check-label' }, sym, el('span', { class: 'check-box' }, control.el), desc)
      : el(spec.kind === 'rows' ? 'div' : 'label', { for: spec.kind === 'rows' ? undefined : id, class: 'field-label', id: `${id}-label` }, sym, desc);
    if (spec.kind === 'rows') control.el.setAttribute('aria-labelledby', `${id}-label`);
    // Its text follows the range of the model the request goes to (applyWhen).
    const range = ['choice', 'bool', 'rows'].includes(spec.kind) ? null : el('span', { class: 'range' });
    const help = spec.help ? el('div', { class: 'help', id: helpId }, spec.help, range) : (range ? el('div', { class: 'help' }, range) : null);
    const msg = el('div', { class: 'field-msg', id: msgId, role: 'alert', 'aria-live': 'polite', 'data-testid': `${testPrefix}error-${spec.key}` });
    const row = el('div', { class: `field field-${spec.kind}`, 'data-key': spec.key }, label, spec.kind === 'bool' ? null : control.el, help, msg);
    list.append(row);
    rows.set(spec.key, { spec, control, msg, row, range });

    const validate = () => {
      applyWhen();
      const r = control.read();
      setMsg(spec.key, r.error ?? '', 'client');
      for (const fn of changeListeners) fn(spec.key);
    };
    control.el.addEventListener('input', validate);
    control.el.addEventListener('change', validate);
  }

  const formMsg = el('div', { class: 'form-msg', role: 'alert', 'aria-live': 'polite', 'data-testid': `${testPrefix}form-error` });
  const submitButton = el('button', { type: 'submit', class: 'primary', 'data-testid': `${testPrefix}compute`, text: submitLabel });
  const resetButton = el('button', { type: 'button', class: 'ghost', text: 'Defaults', title: 'Restore the paper\'s parameters' });
  form.append(formMsg, el('div', { class: 'actions' }, submitButton, resetButton));
  container.append(form);
  applyWhen();

  function setMsg(key, text, source) {
    const r = rows.get(key);
    if (!r) return;
    // A client check clears only client messages; the core's message stays
    // until the next computation or until the user edits the field.
    if (source === 'client' && !text && r.msg.dataset.source === 'core' && !r.row.contains(document.activeElement)) return;
    r.msg.textContent = text;
    r.msg.dataset.source = text ? source : '';
    r.row.classList.toggle('invalid', !!text);
    if (source !== 'core') r.control.setInvalid(!!text);
  }

  /** The core's entry of the model a request of `values` goes to. */
  function modelOf(values) {
    const name = typeof ranges?.model === 'function' ? ranges.model(values) : ranges?.model;
    return ranges?.models.find((m) => m.name === name);
  }

  /**
   * Takes the ranges of the model the raw values' request goes to (the
   * choice that picks it has no range itself), and enables the fields
   * whose `when` holds for them.
   */
  function applyWhen() {
    const raw = {};
    for (const [key, { control }] of rows) {
      const r = control.read();
      raw[key] = r.error ? undefined : r.value;
    }
    const about = ranges && modelOf(raw);
    for (const { spec, range } of rows.values()) {
      const own = spec.model ? ranges?.models.find((m) => m.name === spec.model) : about;
      const r = own && coreRange(spec, own);
      if (r) Object.assign(spec, r);
      for (const col of (own && spec.columns) || []) Object.assign(col, coreRange(col, own));
      if (range) range.textContent = rangeText(spec) && `${spec.help ? ' · ' : ''}${rangeText(spec)}`;
    }
    for (const { spec, control, row } of rows.values()) {
      if (!spec.when) continue;
      const on = !!spec.when(raw);
      control.setDisabled(!on);
      row.classList.toggle('disabled', !on);
    }
  }

  function values() {
    applyWhen();
    const out = {};
    const errors = {};
    for (const [key, { control }] of rows) {
      if (control.disabled) continue;
      const r = control.read();
      if (r.error) errors[key] = r.error;
      else if (r.value !== undefined) out[key] = r.value;
    }
    if (extraCheck && Object.keys(errors).length === 0) Object.assign(errors, extraCheck(out) ?? {});
    for (const key of rows.keys()) setMsg(key, errors[key] ?? '', 'client');
    return { ok: Object.keys(errors).length === 0, values: out, errors };
  }

  function setValues(obj) {
    for (const [key, { control }] of rows) if (key in obj) control.write(obj[key]);
    applyWhen();
    for (const [key, { control }] of rows) if (key in obj) setMsg(key, control.read().error ?? '', 'client');
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
      const { control } = rows.get(key);
      const text = control.showPath ? control.showPath(error.field, error.message) : error.message;
      setMsg(key, text, 'core');
      if (!control.showPath) {
        control.setInvalid(true);
        control.focusEl.focus({ preventScroll: true });
      }
      return true;
    }
    formMsg.textContent = error?.message ?? 'the request was refused';
    formMsg.classList.add('shown');
    return false;
  }

  /** Every field's text (disabled ones too), by key: what a permalink keeps. */
  function texts() {
    const out = {};
    for (const [key, { control }] of rows) out[key] = control.text();
    return out;
  }

  /**
   * Sets fields from texts (a permalink's), through the same checks as
   * typing: returns {ok, errors: {key: message}, unknown: [keys]}. Nothing
   * here is interpreted but by the fields' parsers.
   */
  function restore(obj) {
    const errors = {};
    const unknown = [];
    for (const [key, t] of obj instanceof Map ? obj : Object.entries(obj)) {
      const r = rows.get(key);
      if (!r) {
        unknown.push(key);
        continue;
      }
      if (r.control.setText(String(t)) === false) errors[key] = 'not a table of this form';
    }
    applyWhen();
    for (const [key, { control }] of rows) {
      if (errors[key]) continue;
      const r = control.read();
      if (r.error) errors[key] = r.error;
    }
    if (Object.keys(errors).length === 0) {
      const v = values();
      Object.assign(errors, v.errors);
    }
    for (const key of rows.keys()) setMsg(key, errors[key] ?? '', 'client');
    return { ok: Object.keys(errors).length === 0, errors, unknown };
  }

  /** The paper's parameters (the fields' defaults) again. */
  function reset() {
    const d = {};
    for (const spec of fields) d[spec.key] = spec.default;
    setValues(d);
    clearErrors();
  }

  resetButton.addEventListener('click', () => {
    reset();
    for (const fn of changeListeners) fn('*');
    form.requestSubmit();
  });

  form.addEventListener('submit', (e) => {
    e.preventDefault();
    onSubmit?.();
  });

  applyWhen();

  return {
    form, values, setValues, showError, clearErrors, submitButton, texts, restore, reset, fields,
    onChange(fn) { changeListeners.add(fn); return () => changeListeners.delete(fn); },
    input(key) { return rows.get(key)?.control.focusEl; },
  };
}
