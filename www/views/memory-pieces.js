// The memory view's computing-time pieces: "1+1x, -9+10x" as text and back
// ([[1, 1], [-9, 10]]), and the time they give x units.

import { fmt, parseNumber } from '../format.js';

const NUM = String.raw`(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?`;
const PIECE = new RegExp(String.raw`^(?:([+-]?${NUM})(?:([+-])(${NUM})?\*?x)?|([+-]?)(${NUM})?\*?x)$`, 'i');

/** Parses one piece "a+bx", "-9+10x", "0.001x", "2" into [a, b]. */
function parsePiece(text) {
  const t = text.replace(/\s+/g, '').replace(/·/g, '*');
  const m = PIECE.exec(t);
  if (!m) return null;
  if (m[1] !== undefined) {
    const a = parseNumber(m[1]);
    if (m[2] === undefined) return [a, 0];
    const b = m[3] === undefined ? 1 : parseNumber(m[3]);
    return [a, m[2] === '-' ? -b : b];
  }
  const b = m[5] === undefined ? 1 : parseNumber(m[5]);
  return [0, m[4] === '-' ? -b : b];
}

/** Parses the pieces of one processor: "a+bx, a+bx" or JSON "[[a, b], [a, b]]". */
export function parsePieces(text) {
  const t = String(text ?? '').trim();
  if (!t) return { error: 'list at least one piece a+bx' };
  let pieces;
  if (t.startsWith('[')) {
    try {
      pieces = JSON.parse(t);
    } catch {
      return { error: 'write pieces as a+bx, separated by commas, or as [[a, b], …]' };
    }
    if (!Array.isArray(pieces) || !pieces.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'number'))) {
      return { error: 'write pieces as [[a, b], …] with two numbers each' };
    }
  } else {
    pieces = [];
    for (const part of t.split(/[,;]/).map((x) => x.trim()).filter(Boolean)) {
      const p = parsePiece(part);
      if (!p) return { error: `“${part}” is not a piece a+bx (e.g. 1+1x, -9+10x, 0.001x)` };
      pieces.push(p);
    }
  }
  if (pieces.length === 0) return { error: 'list at least one piece a+bx' };
  for (const [a, b] of pieces) {
    if (!Number.isFinite(a) || !Number.isFinite(b)) return { error: 'every coefficient must be a finite number' };
    if (!(b > 0)) return { error: `the rate b of a+bx must be > 0 (got ${fmt(b)})` };
  }
  return { value: pieces };
}

/** A coefficient as short text that parses back to the same number. */
function num(x) {
  const ax = Math.abs(x);
  if (x !== 0 && (ax >= 1e5 || ax < 1e-3)) return x.toExponential().replace('e+', 'e');
  return String(x);
}

export function formatPieces(pieces) {
  if (!Array.isArray(pieces)) return '';
  return pieces.map(([a, b]) => {
    if (a === 0) return `${num(b)}x`;
    return `${num(a)}${b < 0 ? '-' : '+'}${num(Math.abs(b))}x`;
  }).join(', ');
}

/** Computing time of x units under `pieces` (max over the lines; 0 for no load). */
export function timeOf(pieces, x) {
  if (!(x > 0)) return 0;
  return Math.max(...pieces.map(([a, b]) => a + b * x));
}

/** Index of the piece that sets the time of x units. */
export function activePiece(pieces, x) {
  let best = 0;
  pieces.forEach(([a, b], j) => {
    const [a0, b0] = pieces[best];
    if (a + b * x > a0 + b0 * x) best = j;
  });
  return best;
}
