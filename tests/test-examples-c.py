#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The C programs of examples/, run as programs; their printed results checked here.

    test-examples-c.py FIRST_KERNEL_CL FIRST_KERNEL ALGORITHMS OWN_CONTEXT DEVICE_GROUP PINNED_COPIES

Each example checks itself against a host loop and exits 1 on a mismatch;
this test does not trust that: it parses what each one prints and
recomputes the expected values from the inputs, in Python. The warp width
is read from the output (it depends on the device and backend), and the
reference is computed for that width.

device-group gets two devices where POCL_DEVICES is "pthread pthread"
(tests/meson.build's group_env), and must then report two.
"""

import os
import random
import re
import subprocess
import sys
import tempfile
import unittest

TIMEOUT = 300
CL_FILE, FIRST_KERNEL, ALGORITHMS, OWN_CONTEXT, DEVICE_GROUP, PINNED_COPIES = sys.argv[1:7]


def run(exe, *args, stdin=None):
    return subprocess.run([exe] + list(args), input=stdin, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, universal_newlines=True, timeout=TIMEOUT)


def describe(proc):
    return "exit %d\nstdout:\n%s\nstderr:\n%s" % (proc.returncode, proc.stdout, proc.stderr)


def field(out, name):
    """The text after 'name: ' on its own line."""
    m = re.search(r"^%s:(.*)$" % re.escape(name), out, re.M)
    if not m:
        raise AssertionError("no '%s:' line in:\n%s" % (name, out))
    return m.group(1).strip()


def ints(text):
    return [int(x) for x in text.split()]


def int32(x):
    """x wrapped as cl_int wraps."""
    return (x + 2**31) % 2**32 - 2**31


class ExamplesC(unittest.TestCase):
    def ok(self, exe, *args, stdin=None):
        proc = run(exe, *args, stdin=stdin)
        self.assertEqual(proc.returncode, 0, describe(proc))
        self.assertIn("the host agrees", proc.stdout, describe(proc))
        print(proc.stdout, end="")
        return proc.stdout

    def test_first_kernel(self):
        out = self.ok(FIRST_KERNEL, CL_FILE)
        width = int(field(out, "warp width").split()[0])
        values = list(range(1, 257))
        expect = [sum(values[w * width:(w + 1) * width]) for w in range(256 // width)]
        self.assertEqual(ints(field(out, "sums")), expect)

    def test_first_kernel_build_error(self):
        # The build log names the user's file and line, and the exit status is 1.
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "broken.cl")
            with open(path, "w") as f:
                f.write("kernel void warp_sum(global const int *in, global int *out)\n{\n"
                        "\tout[0] = no_such_name;\n}\n")
            proc = run(FIRST_KERNEL, path)
        self.assertEqual(proc.returncode, 1, describe(proc))
        self.assertIn("build log:", proc.stderr, describe(proc))
        self.assertIn("broken.cl:3:", proc.stderr, describe(proc))
        self.assertIn("no_such_name", proc.stderr, describe(proc))

    def test_first_kernel_missing_file(self):
        proc = run(FIRST_KERNEL, "/nonexistent/first-kernel.cl")
        self.assertEqual(proc.returncode, 1, describe(proc))
        self.assertIn("/nonexistent/first-kernel.cl", proc.stderr, describe(proc))

    def test_algorithms(self):
        rng = random.Random(28)
        # Large values: the sum and the scan wrap around, as cl_int does.
        data = [rng.randint(-2**31, 2**31 - 1) for _ in range(3000)] + [0, -1, 2**31 - 1, -2**31]
        out = self.ok(ALGORITHMS, stdin=" ".join(map(str, data)) + "\n")
        self.assertEqual(int(field(out, "n")), len(data))
        self.assertEqual(int(field(out, "sum")), int32(sum(data)))
        self.assertEqual(int(field(out, "min")), min(data))
        self.assertEqual(int(field(out, "max")), max(data))
        scan, total = [], 0
        for x in data:
            total = int32(total + x)
            scan.append(total)
        self.assertEqual(ints(field(out, "inclusive scan")), scan)
        self.assertEqual(ints(field(out, "sorted")), sorted(data))

    def test_algorithms_empty_and_bad_input(self):
        out = self.ok(ALGORITHMS, stdin="")
        self.assertEqual(int(field(out, "n")), 0)
        self.assertEqual(int(field(out, "sum")), 0)
        proc = run(ALGORITHMS, stdin="1 2 three\n")
        self.assertEqual(proc.returncode, 1, describe(proc))
        self.assertIn("not an integer after 2 numbers", proc.stderr)

    def test_own_context(self):
        out = self.ok(OWN_CONTEXT)
        width = int(field(out, "warp width").split()[0])
        data = [i % 7 - 3 for i in range(128)]
        expect = [sum(data[i - i % width:i + 1]) for i in range(128)]
        self.assertEqual(ints(field(out, "warp prefix sums")), expect)
        self.assertEqual(int(field(out, "sum")), sum(data))

    def test_pinned_copies(self):
        out = self.ok(PINNED_COPIES)
        self.assertIn(field(out, "host memory").strip(), ["pinned", "ordinary (the fallback)"])
        n = int(field(out, "n"))
        self.assertEqual(n, (1 << 20) + 5)
        result = [2 * (i % 1000 - 500) + 1 for i in range(n)]
        self.assertEqual(ints(field(out, "first")), result[:8])
        self.assertEqual(int(field(out, "sum")), sum(result))

    def test_device_group(self):
        out = self.ok(DEVICE_GROUP)
        count = int(field(out, "devices"))
        # The slices cover the array, in order, one per device.
        slices = re.findall(r"^device (\d+): .* \((GPU|CPU|other)\), elements (\d+) to (\d+)$", out, re.M)
        self.assertEqual([int(s[0]) for s in slices], list(range(count)))
        # The default group: every GPU where there is one, else every device
        # (two PoCL devices under meson).
        kinds = {s[1] for s in slices}
        if "GPU" in kinds:
            self.assertEqual(kinds, {"GPU"})
        elif os.environ.get("POCL_DEVICES", "").split() == ["pthread", "pthread"]:
            self.assertEqual(count, 2)
        self.assertEqual(int(slices[0][2]), 0)
        self.assertEqual(int(slices[-1][3]), 10000)
        for a, b in zip(slices, slices[1:]):
            self.assertEqual(a[3], b[2])
        squares = [(i % 101 - 50) ** 2 for i in range(10000)]
        shown = ints(field(out, "squares").replace("...", ""))
        self.assertEqual(shown, squares[:8] + squares[-4:])
        self.assertEqual(int(field(out, "sum of squares")), sum(squares))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
