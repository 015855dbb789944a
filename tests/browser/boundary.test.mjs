// The wasm's answers are the CLI's. The wasm hands an answer to JavaScript
// as a tape (crates/dlt-wasm/src/tape.rs, read by crates/dlt-wasm/js/tape.js);
// here, for every model's example (its answer, plan and explanation), the
// benchmark's binomial trees and refused requests, the value the page gets
// is the one JSON.parse makes of `dlt`'s text: the same members in the same
// order, every number the same to the bit (0 and -0 apart).
//
//   node --test tests/browser/boundary.test.mjs   (after scripts/build.sh;
//   DLT_BIN: a dlt binary, else target/release/dlt, built first)

import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness.mjs';
import { initSync, solve, plan, explain, models } from '../../www/pkg/dlt_wasm.js';
import { binomial } from '../bench/cases.mjs';
import { INTERVALS } from '../../crates/dlt-wasm/js/tape.js';

const DLT = process.env.DLT_BIN || path.join(ROOT, 'target/release/dlt');

before(() => {
  if (!process.env.DLT_BIN) {
    const build = spawnSync('cargo', ['build', '--quiet', '--release', '-p', 'dlt-cli'], { cwd: ROOT, stdio: 'inherit' });
    assert.equal(build.status, 0, 'cargo build --release -p dlt-cli failed');
  }
  assert.ok(existsSync(DLT), `no dlt binary at ${DLT}`);
  initSync({ module: readFileSync(path.join(ROOT, 'www/pkg/dlt_wasm_bg.wasm')) });
});

/** `dlt COMMAND -` on the request: the parsed answer, or {error} where it refuses. */
function cli(command, request) {
  const run = spawnSync(DLT, [command, '-'], { input: JSON.stringify(request), encoding: 'utf8', maxBuffer: 1 << 28 });
  assert.ok(run.status === 0 || run.status === 2, `dlt ${command} exited with ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

/** The wasm's answer, or {error} where it throws the contract's error. */
function wasm(fn, request) {
  try {
    return fn(request);
  } catch (e) {
    assert.ok(e.error, `the wasm threw ${e} without the contract's error`);
    return { error: e.error };
  }
}

/** The same value: members in order (JSON.stringify), numbers by Object.is. */
function same(got, want, what) {
  assert.equal(JSON.stringify(got), JSON.stringify(want), `${what}: another value or order`);
  assert.deepStrictEqual(got, want, what);
}

test('every model\'s example: the answer, plan and explanation are the CLI\'s', () => {
  const all = models();
  assert.ok(all.length >= 10, `${all.length} models`);
  for (const about of all) {
    const request = JSON.parse(about.example);
    for (const [command, fn] of [['solve', solve], ['plan', plan], ['explain', explain]]) {
      same(wasm(fn, request), cli(command, request), `${command} ${about.name}`);
    }
  }
});

test('the benchmark\'s binomial trees (2,300 intervals) and refused requests are the CLI\'s', () => {
  const requests = [
    binomial(1, 'NLF'), binomial(10, 'NLF'), binomial(10, 'LLF'),
    { model: 'star', m: -1 },
    { model: 'binomial', p: 2, h: 10, S: 1e-3, C: 1e-6, A: 1e-3, V: 1e6, D: 0 },
    { model: 'no such model' },
  ];
  const answers = requests.map((request) => {
    const got = wasm(solve, request);
    same(got, cli('solve', request), JSON.stringify(request));
    return got;
  });
  assert.equal(answers[1].schedule.length, 2300);
  assert.ok(answers[3].error.field);
});

test('a schedule\'s intervals have the members whose literals tape.js writes out', () => {
  // Renamed, they would still be read right, by the slower literals.
  const patterns = new Set(solve(binomial(1, 'NLF')).schedule.map((i) => Object.keys(i).join()));
  assert.deepStrictEqual([...patterns].sort(), [...INTERVALS].sort());
});
