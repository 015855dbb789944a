// Keyboard moves inside a composite widget with one Tab stop (WAI-ARIA's
// roving tabindex): the tab bar (tabs.js) and radio groups such as the
// gallery's filter.

/**
 * The index the key `key` moves to from `i` among `n` items (wrapping),
 * or undefined for any other key. Tabs in a row take Left/Right only
 * (`upDown: false`); a radio group takes Up/Down too.
 */
export function moveTo(key, i, n, { upDown = true } = {}) {
  const steps = { ArrowRight: 1, ArrowLeft: -1, ...(upDown ? { ArrowDown: 1, ArrowUp: -1 } : {}) };
  if (key === 'Home') return 0;
  if (key === 'End') return n - 1;
  return key in steps ? (i + steps[key] + n) % n : undefined;
}

/**
 * Makes `buttons` (role=radio, inside a role=radiogroup) one radio group:
 * only the checked one is in the tab order; click, Space, the arrows, Home
 * and End check a button, and `select(button)` acts on it.
 */
export function radioGroup(buttons, select) {
  const check = (b) => {
    for (const x of buttons) {
      x.setAttribute('aria-checked', String(x === b));
      x.tabIndex = x === b ? 0 : -1;
    }
    select(b);
  };
  buttons.forEach((b, i) => {
    b.addEventListener('click', () => check(b));
    b.addEventListener('keydown', (e) => {
      const j = moveTo(e.key, i, buttons.length);
      if (j === undefined) return;
      e.preventDefault();
      check(buttons[j]);
      buttons[j].focus();
    });
  });
  check(buttons.find((b) => b.getAttribute('aria-checked') === 'true') ?? buttons[0]);
}
