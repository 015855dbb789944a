#!/usr/bin/env python3
"""Solves MPS files with native HiGHS (presolve on, one thread) and prints,
per file, one JSON line: seconds, simplex iterations, objective, status.
The bar dlt-bench compares the calculator's own LP solves against.
With --prune EMPTY TIE FEWEST, the file is a tree's pruning LP
(`dlt_core::buffers::pruning_lp`) and HiGHS prunes it as the
calculator does (000 Sec. 3; crates/dlt-core/src/buffers/stages.rs,
`solve_pruned`), each LP solved again from the basis of the one before:
the same sequence of LPs, timed in all.
Usage: python3 scripts/highs_native.py [--prune EMPTY TIE FEWEST] FILE.mps [FILE.mps ...]"""
import json
import re
import sys
import time

import highspy


def highs(path):
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "on")
    h.setOptionValue("threads", 1)
    h.readModel(path)
    return h


def answer(h, path, seconds, **more):
    info = h.getInfo()
    return {
        "file": path,
        "seconds": seconds,
        "iterations": info.simplex_iteration_count,
        "objective": info.objective_function_value,
        "status": h.modelStatusToString(h.getModelStatus()),
        **more,
    }


def solve(path):
    h = highs(path)
    start = time.perf_counter()
    h.run()
    return answer(h, path, time.perf_counter() - start)


def prune(path, empty, tie, fewest):
    """Stages an optimum leaves empty switched off from the last back;
    where every stage has load and fewer than them still carry the load
    (fewest), the last one emptied and switched off where that costs
    nothing (within tie), else its bounds restored."""
    h = highs(path)
    names = list(h.getLp().col_names_)
    chunks, switch = {}, {}
    for j, name in enumerate(names):
        if m := re.fullmatch(r"alpha_\d+_(\d+)", name):
            chunks.setdefault(int(m[1]), []).append(j)
        elif m := re.fullmatch(r"on_(\d+)", name):
            switch[int(m[1])] = j
    cmax = names.index("Cmax")
    stages, lps, iterations = len(switch), 0, 0

    def run():
        nonlocal lps, iterations
        h.run()
        lps += 1
        iterations += h.getInfo().simplex_iteration_count
        return list(h.getSolution().col_value)

    def fix(cols, bounds):
        for j, (lo, hi) in zip(cols, bounds):
            h.changeColBounds(j, lo, hi)

    start = time.perf_counter()
    x = run()
    while True:
        loaded = sum(any(x[j] > empty for j in chunks[k]) for k in range(1, stages + 1))
        if loaded < stages:
            off = [j for k in range(loaded + 1, stages + 1) for j in chunks[k] + [switch[k]]]
            fix(off, [(0.0, 0.0)] * len(off))
            x, stages = run(), loaded
            continue
        if stages - 1 < fewest:
            break
        last = chunks[stages]
        lp = h.getLp()
        first = [(lp.col_lower_[j], lp.col_upper_[j]) for j in last]
        fix(last, [(0.0, 0.0)] * len(last))
        emptied = run()
        if emptied[cmax] <= x[cmax] * (1 + tie):
            x = emptied
            continue
        fix(last, first)
        x = run()
        break
    seconds = time.perf_counter() - start
    return answer(h, path, seconds, iterations=iterations, lps=lps, stages=stages)


if __name__ == "__main__":
    args = sys.argv[1:]
    if args[:1] == ["--prune"]:
        empty, tie, fewest = float(args[1]), float(args[2]), int(args[3])
        for path in args[4:]:
            print(json.dumps(prune(path, empty, tie, fewest)), flush=True)
    else:
        for path in args:
            print(json.dumps(solve(path)), flush=True)
