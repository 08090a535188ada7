#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""docs/status.md: where each implementation is verified, and the last GPU check.

    python3 tools/status-page.py [--out FILE]

Reads CI_MATRIX below (each row names the step of .ci/run that runs it;
the script fails when .ci/run has no such step) and the recorded summary
of the GPU check, docs/status/gpu-check.json, which tools/gpu-check.sh
writes (tools/gpu-check-summary.py). tools/gpu-check.sh runs this script
after the check; the unit test status-page fails while docs/status.md
differs from its output.
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# CI (.ci/run, 2 CPU cores): (step, implementation, backend, warp width,
# what the step verifies there).
CI_MATRIX = [
    ("test", "PoCL 3.1 (Debian 12), CPU", "local", "32 (1, 8, 64 forced)",
     "the whole suite, quick sizes (README's command) and full sizes; the sort's look-back passes and `nv`'s pairs tiles"),
    ("sanitizers", "PoCL 3.1, CPU", "local", "32", "every test under ASan and UBSan, quick sizes"),
    ("threads", "PoCL 3.1, CPU", "local", "32", "the threads suite (test-staging among them) under ThreadSanitizer"),
    ("valgrind", "PoCL 3.1, CPU", "local", "32", "the unit suite under memcheck"),
    ("oclgrind", "Oclgrind (Debian 12)", "local", "32",
     "warp, algorithm, sort, runs, histogram, copies and staging checks with `--data-races --uninitialized`"),
    ("intel", "Intel's CPU runtime 2026.2 (PyPI)", "intel", "16",
     "engine, warp conformance, CUDA table, clwarp-run, examples, corpus, threads, bad input, look-back stress; algorithms, runs, histogram, sort"),
    ("intel", "Intel's CPU runtime 2026.2", "khr (pinned)", "32", "warp, width, CUDA table, corpus"),
    ("intel", "Intel's CPU runtime 2026.2", "local", "32", "warp, warp-ops, warp-sort"),
    ("trixie", "PoCL 6.0 (Debian 13), CPU", "khr (pinned)", "32",
     "every suite but sort, torture, threads and multidevice, quick sizes; sort checks; the multidevice suite"),
    ("trixie", "PoCL 6.0, `CLWARP_NATIVE_WIDTH=1`", "local (khr refused)", "32", "engine, program, warp at full sizes"),
    ("trixie", "Mesa rusticl (llvmpipe, Debian 13)", "khr (native)", "8",
     "every suite but sort, torture, threads and multidevice; sort checks"),
    ("trixie", "Mesa rusticl (llvmpipe)", "local", "32", "warp, warp-ops, examples"),
    ("poclr", "PoCL-R 6.0, two remote CPU devices", "local", "32", "the multidevice suite through PoCL-R"),
]

# The GPU check's parts (tools/gpu-check.sh, ALL_PARTS, in its order):
# (part, implementation on the GPU machine, backend, warp width, what the
# part verifies).
NV = ("NVIDIA OpenCL", "nv", "32")
LOCAL = ("NVIDIA OpenCL", "local", "32")
POCL = ("PoCL 5.0 on the GPU machine's CPU", "automatic (khr)", "32")
GPU_PARTS = [
    ("nv-kernels",) + NV + ("every test not named by another part, full sizes",),
    ("nv-engine",) + NV + ("the engine suites, full sizes",),
    ("nv-tools",) + NV + ("clwarp-run, examples and the group suites (the first GPU and the first CPU device)",),
    ("nv-torture",) + NV + ("the cache torture test",),
    ("threads-nv",) + NV + ("test-threads 5 times in a row",),
    ("stress-0",) + NV + ("look-back stress, calls 0-4999",),
    ("stress-5000",) + NV + ("look-back stress, calls 5000-9999",),
    ("stress-naps-0",) + NV + ("look-back stress with the run-length naps, calls 0-4999",),
    ("stress-naps-5000",) + NV + ("look-back stress with the run-length naps, calls 5000-9999",),
    ("local",) + LOCAL + ("warp, warp-ops, warp-sort, CUDA table, algorithms, sort, runs, histogram",),
    ("local-examples",) + LOCAL + ("the example kernels with `clwarp-run --check`",),
    ("threads-local",) + LOCAL + ("test-threads 5 times in a row",),
    ("pocl-kernels",) + POCL + ("every test not named by another part, quick sizes",),
    ("pocl-engine",) + POCL + ("the engine suites, quick sizes",),
    ("pocl-tools",) + POCL + ("clwarp-run, examples and the group suites, quick sizes",),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "status.md"))
    ap.add_argument("--summary", default=os.path.join(ROOT, "docs", "status", "gpu-check.json"))
    args = ap.parse_args()

    run = open(os.path.join(ROOT, ".ci", "run")).read()
    steps = re.search(r'ALL_STEPS="([^"]*)"', run).group(1).split()
    missing = sorted({row[0] for row in CI_MATRIX} - set(steps))
    if missing:
        print("status-page.py: CI_MATRIX names steps .ci/run does not have: %s" % ", ".join(missing))
        return 1
    check = open(os.path.join(ROOT, "tools", "gpu-check.sh")).read()
    parts = re.search(r'ALL_PARTS="([^"]*)"', check).group(1).split()
    if parts != [g[0] for g in GPU_PARTS]:
        print("status-page.py: GPU_PARTS differs from tools/gpu-check.sh's ALL_PARTS: %s" % " ".join(parts))
        return 1
    summary = json.load(open(args.summary))

    md = ["# Status", "",
          "<!-- Generated by tools/status-page.py from .ci/run's steps and "
          "docs/status/gpu-check.json; do not edit. -->", "",
          "Where each OpenCL implementation, backend and warp width is verified,",
          "and by what. CI runs `.ci/run` on every change (2 CPU cores, no GPU);",
          "the GPU check, `bash tools/gpu-check.sh` on the GPU machine, records its",
          "summary in `docs/status/gpu-check.json` and makes this page again.", "",
          "## In CI", "",
          "| implementation | backend | warp width | verified | CI step |",
          "| --- | --- | --- | --- | --- |"]
    for step, impl, backend, width, what in CI_MATRIX:
        md.append("| %s | %s | %s | %s | `%s` |" % (impl, backend, width, what, step))

    md += ["", "## In the last GPU check", "",
           "| implementation | backend | warp width | verified | part | tests | date, commit | GPU, driver |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    failures = []
    for part, impl, backend, width, what in GPU_PARTS:
        if part not in summary["parts"]:
            md.append("| %s | %s | %s | %s | `%s` | not run | | |" % (impl, backend, width, what, part))
            failures.append((part, ("every test", "not run")))
            continue
        entry = summary["parts"][part]
        tests = entry["tests"]
        ok = sum(1 for t in tests if t[1] == "OK")
        skipped = sum(1 for t in tests if t[1] == "SKIP")
        bad = [t for t in tests if t[1] not in ("OK", "SKIP")]
        failures += [(part, t) for t in bad]
        result = "%d passed, %d failed, %d skipped" % (ok, len(bad), skipped) if tests else "no result"
        md.append("| %s | %s | %s | %s | `%s` | %s | %s, %s | %s, %s |" % (
            impl, backend, width, what, part, result, entry["date"], entry["commit"],
            entry["gpu"], entry["driver"]))
    md.append("")
    if failures:
        md += ["Failed or not run:", ""] + ["- `%s`: %s (%s)" % (p, t[0], t[1]) for p, t in failures]
    else:
        md.append("Every test of every part passed.")
    md += ["", "Each part's tests and their times are in `docs/status/gpu-check.json`."]
    with open(args.out, "w") as f:
        f.write("\n".join(md) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
