#!/usr/bin/env python3
"""Solves MPS files with native HiGHS (presolve on, one thread) and prints,
per file, one JSON line: seconds, simplex iterations, objective, status.
The bar dlt-bench compares the calculator's own LP solves against.
Usage: python3 scripts/highs_native.py FILE.mps [FILE.mps ...]"""
import json
import sys
import time

import highspy


def solve(path):
    h = highspy.Highs()
    h.setOptionValue("output_flag", False)
    h.setOptionValue("presolve", "on")
    h.setOptionValue("threads", 1)
    h.readModel(path)
    start = time.perf_counter()
    h.run()
    seconds = time.perf_counter() - start
    info = h.getInfo()
    return {
        "file": path,
        "seconds": seconds,
        "iterations": info.simplex_iteration_count,
        "objective": info.objective_function_value,
        "status": h.modelStatusToString(h.getModelStatus()),
    }


if __name__ == "__main__":
    for path in sys.argv[1:]:
        print(json.dumps(solve(path)), flush=True)
