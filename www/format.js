// Number formatting in the manner of a scientific calculator: 6 significant
// digits, exponent notation when a number is very large or very small, and
// "—" (never NaN or undefined) when there is no number to show.

export const DASH = '—';

/** True for a finite JS number. */
export function isNum(x) {
  return typeof x === 'number' && Number.isFinite(x);
}

/**
 * Formats `x` with `digits` significant digits: plain notation for
 * 1e-4 <= |x| < 1e7, exponent notation ("1.23457e-7") otherwise; trailing
 * zeros are dropped. Returns DASH for anything that is not a finite number.
 */
export function fmt(x, digits = 6) {
  if (!isNum(x)) return DASH;
  if (x === 0) return '0';
  const ax = Math.abs(x);
  if (ax >= 1e-4 && ax < 1e7) {
    let s = x.toPrecision(digits);
    if (s.includes('e')) s = x.toExponential(digits - 1); // toPrecision may switch itself
    return stripZeros(s);
  }
  return stripZeros(x.toExponential(digits - 1));
}

/** Whole numbers as such (1 000 000 stays readable up to 1e7), others as fmt. */
export function fmtInt(x) {
  if (!isNum(x)) return DASH;
  if (Number.isInteger(x) && Math.abs(x) < 1e7) return String(x);
  return fmt(x);
}

/** A fraction as a percentage with 4 significant digits ("33.37 %"). */
export function fmtPct(x) {
  if (!isNum(x)) return DASH;
  return `${fmt(x * 100, 4)} %`;
}

/** Seconds (or time units) with a short unit, for chart axes. */
export function fmtAxis(x) {
  if (!isNum(x)) return '';
  return fmt(x, 3);
}

function stripZeros(s) {
  // "1.50000e-7" -> "1.5e-7", "2.00000" -> "2", "1.0e+21" -> "1e+21"
  const [mant, exp] = s.split('e');
  let m = mant;
  if (m.includes('.')) m = m.replace(/0+$/, '').replace(/\.$/, '');
  if (exp === undefined) return m;
  const e = exp.replace(/^\+/, '');
  return `${m}e${e}`;
}

/** Parses a number the way a user types it: "1e-4", " 2.5 ", "1,000" is not a number. */
export function parseNumber(text) {
  const t = String(text).trim();
  if (t === '') return undefined;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(t)) return NaN;
  return Number(t);
}
