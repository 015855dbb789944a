// The response from its tape (crates/dlt-wasm/src/tape.rs): the value that
// JSON.parse would make of serde_json's text of it. `ops`, `nums` and `ids`
// are views of the module's memory, read before this returns; the strings'
// indices apart from the numbers, as integers: a double as an index cost
// a tenth more.

// The ops, as tape.rs numbers them.
const NULL = 0;
const FALSE = 1;
const TRUE = 2;
const NUMBER = 3;
const STRING = 4;
const ARRAY = 5;
const OBJECT = 6;
const END = 7;
const RECORD = 8;
const SHAPE = 9;

// A record from its names (k), its numbers (n, from a) and its stretch of
// `ids` (i, from b: each member's name, then a string's index), by the ops
// of its members. In Chromium an object literal, even with computed names,
// took a quarter of the time of members set one by one by a variable name;
// there is one per pattern of ops, for the two of a schedule's intervals:
// proc, kind, start, end, load and messages, with `from` before messages
// in a communication. Any other record is built member by member.
const LITERALS = new Map([
  [[NUMBER, STRING, NUMBER, NUMBER, NUMBER, NUMBER].join(),
    (k, n, a, t, i, b) => ({ [k[0]]: n[a], [k[1]]: t[i[b + 2]], [k[2]]: n[a + 1], [k[3]]: n[a + 2], [k[4]]: n[a + 3], [k[5]]: n[a + 4] })],
  [[NUMBER, STRING, NUMBER, NUMBER, NUMBER, NUMBER, NUMBER].join(),
    (k, n, a, t, i, b) => ({ [k[0]]: n[a], [k[1]]: t[i[b + 2]], [k[2]]: n[a + 1], [k[3]]: n[a + 2], [k[4]]: n[a + 3], [k[5]]: n[a + 4], [k[6]]: n[a + 5] })],
]);

// The same two, their names written out, for a record whose names are a
// schedule interval's (`INTERVALS`, dlt_core::schedule::Interval's members
// as serde names them): V8 builds such a literal from one template, where
// computed names are added one by one, and a binomial tree's 2,300
// intervals took 0.26 ms in node where these take 0.14. Another struct of
// the same ops, or an interval whose members are renamed, still goes by
// LITERALS (tests/browser/boundary.test.mjs checks that an answer's
// intervals are these).
export const INTERVALS = ['proc,kind,start,end,load,messages', 'proc,kind,start,end,load,from,messages'];
const NAMED = new Map([
  [INTERVALS[0], (k, n, a, t, i, b) => ({ proc: n[a], kind: t[i[b + 2]], start: n[a + 1], end: n[a + 2], load: n[a + 3], messages: n[a + 4] })],
  [INTERVALS[1], (k, n, a, t, i, b) => ({ proc: n[a], kind: t[i[b + 2]], start: n[a + 1], end: n[a + 2], load: n[a + 3], from: n[a + 4], messages: n[a + 5] })],
]);

function shape(names, kinds) {
  const build = (k, n, a, t, i, b) => {
    const members = {};
    for (let j = 0; j < kinds.length; j += 1) {
      const op = kinds[j];
      b += 1;
      members[k[j]] = op === NUMBER ? n[a++] : op === STRING ? t[i[b++]] : op === NULL ? null : op === TRUE;
    }
    return members;
  };
  const numbers = kinds.filter((op) => op === NUMBER).length;
  // A pattern of LITERALS has as many members as the names of NAMED it may go by.
  const literal = LITERALS.get(kinds.join());
  return {
    names,
    make: literal ? NAMED.get(names.join()) ?? literal : build,
    numbers,
    ids: kinds.length + kinds.filter((op) => op === STRING).length,
  };
}

// One loop over the ops, the containers being filled on a stack, where a
// function per value called itself: its counters, shared with it, lived
// in a context object, and every number read went through it.
export function read_tape(ops, nums, ids, text, lengths) {
  const strings = new Array(lengths.length);
  for (let i = 0, at = 0; i < lengths.length; at += lengths[i], i += 1) strings[i] = text.slice(at, at + lengths[i]);
  const shapes = [];
  let o = 0;
  let k = 0;
  let s = 0;
  // The innermost open container, whether it is an array, and the name it
  // goes under in its parent; the outer ones' on `open`, three entries each.
  let into = null;
  let inArray = false;
  let under;
  const open = [];
  for (;;) {
    const name = into === null || inArray || ops[o] === END ? undefined : strings[ids[s++]];
    const op = ops[o++];
    let value;
    switch (op) {
      case NULL: value = null; break;
      case FALSE: value = false; break;
      case TRUE: value = true; break;
      case NUMBER: value = nums[k++]; break;
      case STRING: value = strings[ids[s++]]; break;
      case ARRAY:
      case OBJECT:
        if (into !== null) open.push(into, inArray, under);
        into = op === ARRAY ? [] : {};
        inArray = op === ARRAY;
        under = name;
        continue;
      case END: {
        if (open.length === 0) return into;
        const closed = into;
        const closedUnder = under;
        under = open.pop();
        inArray = open.pop();
        into = open.pop();
        if (inArray) into.push(closed);
        else into[closedUnder] = closed;
        continue;
      }
      // The first record of a shape defines it (its members' names and
      // ops) and is then read as every record of the shape is.
      case SHAPE:
      case RECORD: {
        if (op === SHAPE) {
          const names = [];
          const kinds = [];
          for (let at = s, member = ops[o]; member !== END; member = ops[++o]) {
            // The name as a key holds it, the one copy V8 keeps of its text:
            // a literal given the slice of the tape's text looked it up again
            // (four times slower than setting members one by one).
            names.push(Object.keys({ [strings[ids[at]]]: 0 })[0]);
            kinds.push(member);
            at += member === STRING ? 2 : 1;
          }
          o += 1;
          shapes.push(shape(names, kinds));
        }
        const { names, make, numbers, ids: used } = shapes[op === SHAPE ? shapes.length - 1 : ops[o++]];
        value = make(names, nums, k, strings, ids, s);
        k += numbers;
        s += used;
        break;
      }
      default: throw new Error(`the response's tape has op ${op} at ${o - 1}`);
    }
    if (into === null) return value;
    if (inArray) into.push(value);
    else into[name] = value;
  }
}
