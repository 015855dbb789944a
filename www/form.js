// The shared form builder. A view describes its parameters as field specs;
// this module draws the labels (symbol, the paper's name, unit), checks each
// field as it is typed, and shows the core's own error message beside the
// field its `error.field` names.
//
// Field spec:
//   { key, symbol, name, unit?, kind: 'number'|'integer'|'list'|'choice'|'bool'|'rows',
//     default?, optional?, min?, max?, gt? (exclusive minimum),
//     minItems?, maxItems?, choices?: [{value, label}], placeholder?, help?,
//     when?(values) }
// `bool` is a checkbox (value true/false). `rows` is a small table editor
// whose value is an array of objects, one per row:
//   { kind: 'rows', columns: [{key, label, title?, kind: 'number'|'integer'|'custom',
//     min?, max?, gt?, parse?(text) -> {value}|{error}, format?(value) -> text,
//     wide?, placeholder?}], rowLabel?(i), minRows?, maxRows?, addLabel? }
// A core error whose path names a row ("processors[1].pieces[0][1]") is
// shown at that row.
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

/** The field key a core error path names: "A[1]" -> "A", "processors[0].S" -> "processors". */
export function fieldKey(path) {
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(String(path ?? ''));
  return m ? m[0] : '';
}

/** A text input or a select: the field kinds that hold one value as text. */
function simpleControl(spec, id, describedBy) {
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
function boolControl(spec, id, describedBy) {
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

/** The row and column a core error path names: "processors[1].pieces[0][1]" -> {row: 1, col: 'pieces'}. */
function rowPath(path) {
  const m = /^[A-Za-z_][A-Za-z0-9_]*\[(\d+)\](?:\.([A-Za-z_][A-Za-z0-9_]*))?/.exec(String(path ?? ''));
  return m ? { row: Number(m[1]), col: m[2] } : null;
}

/** A table of rows (e.g. processors), each a few text cells; add and remove rows. */
function rowsControl(spec, id, describedBy) {
  const columns = spec.columns;
  const minRows = spec.minRows ?? 1;
  const maxRows = spec.maxRows ?? 100;
  const rowLabel = spec.rowLabel ?? ((i) => `${i + 1}`);
  const body = el('div', { class: 'rows-body', 'data-testid': `field-${spec.key}` });
  const addButton = el('button', { type: 'button', class: 'ghost small', 'data-testid': `add-${spec.key}`, text: spec.addLabel ?? 'Add a row' });
  const root = el('div', { class: 'rows-editor', id, role: 'group', 'aria-describedby': describedBy }, body, el('div', { class: 'rows-actions' }, addButton));
  let lines = []; // [{row, cells: {key: input}, label}]
  let disabled = false;

  const textOf = (col, v) => {
    if (v === undefined || v === null) return '';
    if (col.format) return col.format(v);
    return String(v);
  };
  const parseCell = (col, text) => {
    if (col.parse) return col.parse(text);
    return parseField({ ...col, symbol: col.label, kind: col.kind ?? 'number' }, text);
  };
  const changed = () => root.dispatchEvent(new Event('change', { bubbles: true }));

  function relabel() {
    lines.forEach((line, i) => {
      line.label.textContent = rowLabel(i);
      line.row.setAttribute('data-testid', `${spec.key}-row-${i}`);
      for (const col of columns) {
        const input = line.cells[col.key];
        input.setAttribute('data-testid', `field-${spec.key}-${i}-${col.key}`);
        input.setAttribute('aria-label', `${rowLabel(i)} ${col.title ?? col.label}`);
      }
      line.remove.setAttribute('aria-label', `remove ${rowLabel(i)}`);
      line.remove.disabled = disabled || lines.length <= minRows;
    });
    addButton.disabled = disabled || lines.length >= maxRows;
  }

  function addLine(values = {}, at = lines.length) {
    const cells = {};
    const label = el('span', { class: 'row-label' });
    const remove = el('button', { type: 'button', class: 'ghost small row-remove', text: '✕', title: 'remove this row' });
    const cellEls = columns.map((col) => {
      const input = el('input', { type: 'text', spellcheck: 'false', inputmode: col.parse ? 'text' : 'decimal', placeholder: col.placeholder ?? '' });
      input.value = textOf(col, values[col.key]);
      input.disabled = disabled;
      cells[col.key] = input;
      return el('label', { class: `row-cell${col.wide ? ' wide' : ''}`, 'data-col': col.key },
        el('span', { class: 'cell-name', title: col.title, text: col.label }), input);
    });
    const row = el('div', { class: 'rows-row' }, label, ...cellEls, remove);
    const line = { row, cells, label, remove };
    remove.addEventListener('click', () => {
      if (lines.length <= minRows) return;
      lines = lines.filter((l) => l !== line);
      row.remove();
      relabel();
      changed();
    });
    if (at >= lines.length) body.append(row);
    else body.insertBefore(row, lines[at].row);
    lines.splice(at, 0, line);
    relabel();
    return line;
  }

  addButton.addEventListener('click', () => {
    if (lines.length >= maxRows) return;
    // A new row copies the last one: homogeneous systems take one click a processor.
    const last = lines[lines.length - 1];
    const line = addLine({});
    if (last) for (const col of columns) line.cells[col.key].value = last.cells[col.key].value;
    line.cells[columns[0].key].focus();
    changed();
  });

  function markCell(line, colKey, on) {
    const input = line?.cells[colKey];
    if (!input) return;
    input.setAttribute('aria-invalid', on ? 'true' : 'false');
    input.closest('.row-cell')?.classList.toggle('invalid', on);
  }

  function clearMarks() {
    for (const line of lines) for (const col of columns) markCell(line, col.key, false);
  }

  function write(value) {
    body.replaceChildren();
    lines = [];
    const list = Array.isArray(value) && value.length ? value : (spec.default ?? []);
    for (const v of list) addLine(v);
    while (lines.length < minRows) addLine({});
    relabel();
  }

  function read() {
    clearMarks();
    const out = [];
    let first = null;
    lines.forEach((line, i) => {
      const obj = {};
      for (const col of columns) {
        const r = parseCell(col, line.cells[col.key].value);
        if (r.error) {
          markCell(line, col.key, true);
          if (!first) first = `${rowLabel(i)}, ${col.label}: ${r.error}`;
        } else if (r.value !== undefined) obj[col.key] = r.value;
      }
      out.push(obj);
    });
    if (first) return { error: first };
    if (out.length < minRows) return { error: `list at least ${minRows} row${minRows > 1 ? 's' : ''}` };
    return { value: out };
  }

  /** The cells' texts, row by row in column order, as JSON: what a permalink keeps. */
  function text() {
    return JSON.stringify(lines.map((line) => columns.map((col) => line.cells[col.key].value.trim())));
  }

  /** Sets the cells from such text; false if it is not that shape (the caller reports it). */
  function setText(t) {
    let data;
    try {
      data = JSON.parse(t);
    } catch {
      return false;
    }
    const ok = Array.isArray(data) && data.length >= minRows && data.length <= maxRows
      && data.every((r) => Array.isArray(r) && r.length === columns.length && r.every((c) => typeof c === 'string' || typeof c === 'number'));
    if (!ok) return false;
    body.replaceChildren();
    lines = [];
    for (const r of data) {
      const line = addLine({});
      columns.forEach((col, j) => { line.cells[col.key].value = String(r[j]); });
    }
    relabel();
    return true;
  }

  write(spec.default);
  return {
    el: root,
    text,
    setText,
    get focusEl() { return lines[0]?.cells[columns[0].key] ?? addButton; },
    read, write,
    get disabled() { return disabled; },
    setDisabled(on) {
      disabled = on;
      for (const line of lines) for (const input of Object.values(line.cells)) input.disabled = on;
      relabel();
    },
    setInvalid(on) { if (!on) clearMarks(); },
    /** Marks the row a core error path names; returns the message to show. */
    showPath(path, message) {
      const at = rowPath(path);
      if (!at || !lines[at.row]) return message;
      const col = columns.some((c) => c.key === at.col) ? at.col : columns[0].key;
      markCell(lines[at.row], col, true);
      lines[at.row].cells[col].focus({ preventScroll: true });
      return `${rowLabel(at.row)}: ${message}`;
    },
  };
}

/**
 * Builds a form into `container`.
 * @returns {{form, values(): {ok, values, errors}, setValues(obj), showError(error): boolean,
 *           clearErrors(), onChange(fn), submitButton}}
 */
export function buildForm(container, fields, { submitLabel = 'Compute', onSubmit, extraCheck, testPrefix = '' } = {}) {
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
    const range = !['choice', 'bool', 'rows'].includes(spec.kind) && rangeText(spec) ? el('span', { class: 'range', text: rangeText(spec) }) : null;
    const help = spec.help ? el('div', { class: 'help', id: helpId }, spec.help, range ? ' · ' : '', range) : (range ? el('div', { class: 'help' }, range) : null);
    const msg = el('div', { class: 'field-msg', id: msgId, role: 'alert', 'aria-live': 'polite', 'data-testid': `${testPrefix}error-${spec.key}` });
    const row = el('div', { class: `field field-${spec.kind}`, 'data-key': spec.key }, label, spec.kind === 'bool' ? null : control.el, help, msg);
    list.append(row);
    rows.set(spec.key, { spec, control, msg, row });

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

  /** Enables the fields whose `when` holds for the current raw values. */
  function applyWhen() {
    const raw = {};
    for (const [key, { control }] of rows) {
      const r = control.read();
      raw[key] = r.error ? undefined : r.value;
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
    for (const [key, { control }] of rows) {
      if (!(key in obj)) continue;
      control.write(obj[key]);
      setMsg(key, control.read().error ?? '', 'client');
    }
    applyWhen();
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
