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

export function read_tape(ops, nums, ids, text, lengths) {
  const strings = new Array(lengths.length);
  for (let i = 0, at = 0; i < lengths.length; at += lengths[i], i += 1) strings[i] = text.slice(at, at + lengths[i]);
  let o = 0;
  let k = 0;
  let s = 0;
  const value = () => {
    switch (ops[o++]) {
      case NULL: return null;
      case FALSE: return false;
      case TRUE: return true;
      case NUMBER: return nums[k++];
      case STRING: return strings[ids[s++]];
      // A member or item that is a number or a string read in place: a
      // call less for most of them (a seventh of the time).
      case ARRAY: {
        const items = [];
        for (let op = ops[o]; op !== END; op = ops[o]) {
          if (op === NUMBER) {
            o += 1;
            items.push(nums[k++]);
          } else {
            items.push(value());
          }
        }
        o += 1;
        return items;
      }
      case OBJECT: {
        const members = {};
        for (let op = ops[o]; op !== END; op = ops[o]) {
          const name = strings[ids[s++]];
          if (op === NUMBER) {
            o += 1;
            members[name] = nums[k++];
          } else if (op === STRING) {
            o += 1;
            members[name] = strings[ids[s++]];
          } else {
            members[name] = value();
          }
        }
        o += 1;
        return members;
      }
      default: throw new Error(`the response's tape has op ${ops[o - 1]} at ${o - 1}`);
    }
  };
  return value();
}
