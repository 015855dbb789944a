// The form's table of rows (e.g. processors): a few text cells a row, rows
// added (copying the last) and removed, each cell parsed like a field; a
// core error path naming a row ("processors[1].pieces[0][1]") marks its cell.

import { el, parseField } from './form-controls.js';

/** The row and column a core error path names: "processors[1].pieces[0][1]" -> {row: 1, col: 'pieces'}. */
function rowPath(path) {
  const m = /^[A-Za-z_][A-Za-z0-9_]*\[(\d+)\](?:\.([A-Za-z_][A-Za-z0-9_]*))?/.exec(String(path ?? ''));
  return m ? { row: Number(m[1]), col: m[2] } : null;
}

/** A table of rows (e.g. processors), each a few text cells; add and remove rows. */
export function rowsControl(spec, id, describedBy) {
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
    // Rows of short numbers only sit on one line; a wide column gets a line of its own.
    const flat = !columns.some((col) => col.wide);
    const row = el('div', { class: `rows-row${flat ? ' flat' : ''}`, style: flat ? `--cols: ${columns.length}` : undefined }, label, ...cellEls, remove);
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
