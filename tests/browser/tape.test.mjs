// js/tape.js on tapes written by hand: a record with a null, false and
// true among its members (built member by member), which no model's answer
// holds, and a schedule's two interval patterns (built as literals, named
// as an interval's members or otherwise), each record reading its own
// values. The tapes as crates/dlt-wasm/src/tape.rs
// writes them; the wasm's own tapes are read in boundary.test.mjs.
//
//   node --test tests/browser/tape.test.mjs

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { read_tape } from '../../crates/dlt-wasm/js/tape.js';

// tape.rs's ops.
const [NULL, FALSE, TRUE, NUMBER, STRING, ARRAY, END, RECORD, SHAPE] = [0, 1, 2, 3, 4, 5, 7, 8, 9];

/** The tape's strings: their text and UTF-16 lengths. */
function texts(list) {
  return [list.join(''), Uint32Array.from(list, (t) => t.length)];
}

/** The same value, its members in the same order. */
function same(got, want) {
  assert.equal(JSON.stringify(got), JSON.stringify(want));
  assert.deepStrictEqual(got, want);
}

test('a record of every scalar: its shape, then its values alone', () => {
  const [text, lengths] = texts(['a', 'b', 'c', 'd', 'e', 'x', 'y']);
  const ops = Uint8Array.of(ARRAY, SHAPE, NUMBER, NULL, FALSE, TRUE, STRING, END, RECORD, 0, END);
  // Each member's name, then a string's index; a record keeps its names.
  const ids = Uint32Array.of(0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 6);
  same(read_tape(ops, Float64Array.of(1, 2), ids, text, lengths), [
    { a: 1, b: null, c: false, d: true, e: 'x' },
    { a: 2, b: null, c: false, d: true, e: 'y' },
  ]);
});

// By the literals with the interval's names written out, and, for any other
// names, by those that compute them.
for (const names of [['proc', 'kind', 'start', 'end', 'load', 'from', 'messages'], ['p', 'k', 's', 'e', 'l', 'f', 'm']]) {
  test(`an interval's two patterns, named ${names.join()}: each literal reads its record's own values`, () => {
    const [text, lengths] = texts([...names, 'comm', 'compute']);
    const ops = Uint8Array.of(
      ARRAY,
      SHAPE, NUMBER, STRING, NUMBER, NUMBER, NUMBER, NUMBER, NUMBER, END,
      SHAPE, NUMBER, STRING, NUMBER, NUMBER, NUMBER, NUMBER, END,
      RECORD, 0, RECORD, 1, END,
    );
    // A communication's names and its kind's string, a computation's (no `from`).
    const comm = [0, 1, 7, 2, 3, 4, 5, 6];
    const compute = [0, 1, 8, 2, 3, 4, 6];
    const ids = Uint32Array.from([...comm, ...compute, ...comm, ...compute]);
    const nums = Float64Array.from({ length: 22 }, (_, i) => i + 0.5);
    const [proc, kind, start, end, load, from, messages] = names;
    const communication = (at) => ({ [proc]: at + 0.5, [kind]: 'comm', [start]: at + 1.5, [end]: at + 2.5, [load]: at + 3.5, [from]: at + 4.5, [messages]: at + 5.5 });
    const computation = (at) => ({ [proc]: at + 0.5, [kind]: 'compute', [start]: at + 1.5, [end]: at + 2.5, [load]: at + 3.5, [messages]: at + 4.5 });
    same(read_tape(ops, nums, ids, text, lengths), [communication(0), computation(6), communication(11), computation(17)]);
  });
}
