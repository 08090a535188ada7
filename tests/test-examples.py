#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The example kernels of kernels/examples/, run through clwarp-run.

Environment: CLWARP_RUN is the clwarp-run binary, CLWARP_SOURCE_ROOT the
source tree (default: the parent of this folder); CLWARP_CACHE_DIR and
CLWARP_BACKEND, when set, pass through to clwarp-run.

- every example passes 'clwarp-run --check' against its //! expect lines
  on whatever backend and width the engine picks (the expect[K]@W lines
  hold the results at 8, 16 and 64 where they differ from W = 32), and
  gives the reference's results for that width; an example whose result
  is undefined at that width (ref.Undefined) agrees with the local backend;
- tests/examples-reference.py --verify: the expect lines equal the plain
  Python reference, so they cannot drift;
- the README demo (neighbor_difference.cl with no options) prints 1 3 ... 61 0
  (at width 32; the reference's line at another native width);
- every example at warp width 16 on the local backend (which every device
  has; every other one in quick runs) gives the reference's results for
  W = 16 and passes --check there:
  the examples stay correct when the width changes, and none of them breaks
  the warp contract.
"""

import importlib.util
import json
import os
import subprocess
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.environ.get("CLWARP_SOURCE_ROOT") or os.path.dirname(HERE)
EXAMPLES_DIR = os.path.join(ROOT, "kernels", "examples")
REFERENCE = os.path.join(ROOT, "tests", "examples-reference.py")
TIMEOUT = 300


def load_reference():
    spec = importlib.util.spec_from_file_location("examples_reference", REFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


ref = load_reference()


def example_names():
    return sorted(f[:-3] for f in os.listdir(EXAMPLES_DIR) if f.endswith(".cl"))


def clwarp_run(*args):
    exe = os.environ.get("CLWARP_RUN")
    if not exe:
        raise unittest.SkipTest("CLWARP_RUN is not set")
    return subprocess.run([exe] + list(args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          universal_newlines=True, timeout=TIMEOUT)


def describe(proc):
    return "exit %d\nstdout:\n%s\nstderr:\n%s" % (proc.returncode, proc.stdout, proc.stderr)


class Examples(unittest.TestCase):
    maxDiff = None

    _engine_width = None
    _platform = None

    def engine_width(self):
        # The width the engine picks on this device with the environment's backend.
        if Examples._engine_width is None:
            path = os.path.join(EXAMPLES_DIR, "neighbor_difference.cl")
            proc = clwarp_run("--json", path)
            self.assertEqual(proc.returncode, 0, describe(proc))
            doc = json.loads(proc.stdout)
            Examples._engine_width = doc["warp_size"]
            Examples._platform = doc["platform"]
        return Examples._engine_width

    def check_example(self, name):
        path = os.path.join(EXAMPLES_DIR, name + ".cl")
        if self.engine_width() != 32:
            try:
                ref.reference(name, self.engine_width())
            except ref.Undefined:
                self.undefined_example(name, self.engine_width())
                return
            self.width_example(name, self.engine_width(), [])
        proc = clwarp_run("--check", path)
        self.assertEqual(proc.returncode, 0, describe(proc))
        self.assertIn("check: pass", proc.stdout.splitlines(), describe(proc))
        self.assertNotIn("FAIL", proc.stdout, describe(proc))

    def width_example(self, name, width, backend=("-b", "local", "-w")):
        path = os.path.join(EXAMPLES_DIR, name + ".cl")
        args = list(backend) + [str(width)] if backend else []
        proc = clwarp_run(*(args + ["--json", path]))
        self.assertEqual(proc.returncode, 0, describe(proc))
        report = json.loads(proc.stdout)
        self.assertEqual(report["warp_size"], width, describe(proc))
        want = ref.reference(name, width)
        outs = report["outputs"]
        self.assertEqual(len(outs), len(want), describe(proc))
        for k, ((t, values), out) in enumerate(zip(want, outs)):
            got = [str(v) for v in out["values"]]
            self.assertEqual(len(got), len(values), "%s out %d" % (name, k))
            bad = [(j, got[j], ref.fmt(t, values[j])) for j in range(len(values))
                   if not self.float_close(t, got[j], values[j])]
            self.assertEqual(bad, [], "%s at width %d, out %d: (index, got, want)\n%s"
                             % (name, width, k, describe(proc)))
        # The file's expect lines for this width (@W, or the line without).
        proc = clwarp_run(*(args + ["--check", path]))
        self.assertEqual(proc.returncode, 0, describe(proc))
        self.assertIn("check: pass", proc.stdout.splitlines(), describe(proc))

    def undefined_example(self, name, width):
        # No single reference result at this width (ref.Undefined). The
        # engine's backend must still agree with the local backend at the
        # same width, value by value; where the order of the warps' atomics
        # decides the layout (aggregated_atomic_cuda), as a multiset.
        path = os.path.join(EXAMPLES_DIR, name + ".cl")
        runs = []
        for args in ([], ["-b", "local", "-w", str(width)]):
            proc = clwarp_run(*(args + ["--json", path]))
            self.assertEqual(proc.returncode, 0, describe(proc))
            report = json.loads(proc.stdout)
            self.assertEqual(report["warp_size"], width, describe(proc))
            runs.append([out["values"] for out in report["outputs"]])
        native, local = runs
        if name == "aggregated_atomic_cuda":
            native = [sorted(native[0]), native[1]]
            local = [sorted(local[0]), local[1]]
        self.assertEqual(native, local, "%s at width %d: the engine's backend and local differ"
                         % (name, width))

    @staticmethod
    def float_close(t, text, want):
        # clwarp-run's own tolerance: 1e-5 relative + 1e-6 absolute.
        if t not in ref.FLOAT_TYPES:
            return int(text) == want
        return abs(float(text) - want) <= 1e-6 + 1e-5 * abs(want)

    def test_reference_verify(self):
        proc = subprocess.run([sys.executable, REFERENCE, "--verify", "--examples", EXAMPLES_DIR],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=TIMEOUT)
        self.assertEqual(proc.returncode, 0, describe(proc))

    def test_readme_demo(self):
        # README: clwarp-run kernels/examples/neighbor_difference.cl prints 1 3 5 ... 61 0.
        proc = clwarp_run(os.path.join(EXAMPLES_DIR, "neighbor_difference.cl"))
        self.assertEqual(proc.returncode, 0, describe(proc))
        want = "arg1: " + " ".join([str(2 * k + 1) for k in range(31)] + ["0"])
        width = self.engine_width()
        if width != 32:
            # The README's line is for width 32; at a native width W the
            # reference's (a 0 at every warp's last lane).
            self.assertIn("warp size %d" % width, proc.stdout, describe(proc))
            (t, values), = ref.reference("neighbor_difference", width)
            want = "arg1: " + " ".join(ref.fmt(t, v) for v in values)
        self.assertIn(want, proc.stdout.splitlines(), describe(proc))

    def test_every_file_has_a_test(self):
        self.assertEqual(example_names(), sorted(ref.EXAMPLES))


def quick():
    """The reduced sizes of tests/test-env.h: CLWARP_TEST_QUICK, else the
    setup's CLWARP_TEST_QUICK_DEFAULT; unset, empty or 0 is a full run."""
    level = os.environ.get("CLWARP_TEST_QUICK") or os.environ.get("CLWARP_TEST_QUICK_DEFAULT")
    return bool(level) and level != "0"


def add_tests():
    # Quick runs take every other example at width 16 (each is a build of
    # its own); full runs take them all.
    for i, name in enumerate(example_names()):
        def check(self, name=name):
            self.check_example(name)

        def width16(self, name=name):
            self.width_example(name, 16)

        setattr(Examples, "test_check_" + name, check)
        if not quick() or i % 2 == 0:
            setattr(Examples, "test_width16_" + name, width16)


add_tests()

if __name__ == "__main__":
    unittest.main(verbosity=2)
