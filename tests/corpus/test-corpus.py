#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The CUDA-style corpus of tests/corpus/, run through clwarp-run and
compared value by value with tests/corpus/reference.py.

Environment: CLWARP_RUN is the clwarp-run binary; CLWARP_BACKEND and
CLWARP_CACHE_DIR, when set, pass through to clwarp-run.

- test_native_NAME: the kernel on the backend and width the engine picks
  (Intel's CPU runtime: intel at its sub-group width), when the reference
  allows that width;
- test_local_W_NAME: the kernel on the local backend at W = 8, 16 and 32
  (quick runs: one width per kernel, in turn).

Many kernels call warp functions in divergent control flow (an early
return, a branch by warp id, a loop whose trip count differs by warp, a
helper called under a branch, break and continue): every one must give
CUDA's answer on every backend, the barrier-based ones (local, and khr on
PoCL) included.
"""

import importlib.util
import json
import os
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TIMEOUT = 300


def load_reference():
    spec = importlib.util.spec_from_file_location("corpus_reference",
                                                  os.path.join(HERE, "reference.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = load_reference()


def quick():
    level = os.environ.get("CLWARP_TEST_QUICK") or os.environ.get("CLWARP_TEST_QUICK_DEFAULT")
    return bool(level) and level != "0"


def clwarp_run(*args):
    exe = os.environ.get("CLWARP_RUN")
    if not exe:
        raise unittest.SkipTest("CLWARP_RUN is not set")
    return subprocess.run([exe] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=TIMEOUT)


def describe(proc):
    return "exit %d\nstdout:\n%s\nstderr:\n%s" % (proc.returncode, proc.stdout, proc.stderr)


class Corpus(unittest.TestCase):
    maxDiff = None
    _engine = None

    def engine(self):
        # The backend and width the engine picks here, from a kernel without
        # divergent warp calls.
        if Corpus._engine is None:
            proc = clwarp_run("--json", os.path.join(HERE, "bitonic_warp_sort.cl"))
            self.assertEqual(proc.returncode, 0, describe(proc))
            Corpus._engine = json.loads(proc.stdout)
        return Corpus._engine

    def run_kernel(self, name, width, args):
        path = os.path.join(HERE, name + ".cl")
        proc = clwarp_run(*(args + ["--json", path]))
        self.assertEqual(proc.returncode, 0, describe(proc))
        report = json.loads(proc.stdout)
        self.assertEqual(report["warp_size"], width, describe(proc))
        want = ref.reference(name, width)
        unordered = ref.KERNELS[name][1]
        outs = report["outputs"]
        self.assertEqual(len(outs), len(want), describe(proc))
        for k, ((t, values), out) in enumerate(zip(want, outs)):
            got = [float(v) if t in ref.FLOAT_TYPES else int(v) for v in out["values"]]
            if k in unordered:
                got = sorted(got[:len(values)])
                values = sorted(values)
            self.assertEqual(len(got), len(values), "%s out %d" % (name, k))
            bad = [(j, got[j], values[j]) for j in range(len(values))
                   if not close(t, got[j], values[j])]
            self.assertEqual(bad, [], "%s at width %d (%s), out %d: (index, got, want)"
                             % (name, width, report["backend"], k))

    def native(self, name):
        engine = self.engine()
        if engine["warp_size"] not in ref.WIDTHS:
            self.skipTest("%s: width %d is not one of %s" % (name, engine["warp_size"], ref.WIDTHS))
        self.run_kernel(name, engine["warp_size"], [])

    def local(self, name, width):
        self.run_kernel(name, width, ["-b", "local", "-w", str(width)])

    def test_every_file_has_a_reference(self):
        files = sorted(f[:-3] for f in os.listdir(HERE) if f.endswith(".cl"))
        self.assertEqual(files, sorted(ref.KERNELS))


def close(t, got, want):
    # clwarp-run's own tolerance: 1e-5 relative + 1e-6 absolute.
    if t not in ref.FLOAT_TYPES:
        return got == want
    return abs(got - want) <= 1e-6 + 1e-5 * abs(want)


def add_tests():
    for i, name in enumerate(sorted(ref.KERNELS)):
        setattr(Corpus, "test_native_" + name, lambda self, name=name: self.native(name))
        for j, width in enumerate(ref.WIDTHS):
            if quick() and j != i % len(ref.WIDTHS):
                continue
            setattr(Corpus, "test_local_%d_%s" % (width, name),
                    lambda self, name=name, width=width: self.local(name, width))


add_tests()

if __name__ == "__main__":
    unittest.main(verbosity=2)
