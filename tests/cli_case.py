# clwarp-run's tests (tests/test-cli.py): the test case they share, with
# the kernel files, the temporary folder and cache, and running the binary.
# SPDX-License-Identifier: MIT
"""The clwarp-run binary named by $CLWARP_RUN, run on small kernels.

The kernels are written to a temporary folder; every run gets
CLWARP_CACHE_DIR set to a temporary cache shared by the tests that do not
test caching, so each kernel is compiled once.
"""

import os
import re
import shutil
import struct
import subprocess
import tempfile
import unittest

from cli_bad_input import BAD_FILES

BINARY = os.path.abspath(os.environ["CLWARP_RUN"]) if os.environ.get("CLWARP_RUN") else ""
SOURCE_ROOT = os.environ.get("CLWARP_SOURCE_ROOT", os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
MASK64 = (1 << 64) - 1

KERNELS = {
    "plain.cl": """\
kernel void scale(global const int *in, global int *out, int s)
{
	size_t i = get_global_id(0);
	out[i] = in[i] * 2 + s;
}
""",
    "copy.cl": """\
#ifndef VALUE
#define VALUE 1
#endif
kernel void copy_int(global const int *in, global int *out)
{
	out[get_global_id(0)] = in[get_global_id(0)];
}
kernel void copy_float(global const float *in, global float *out)
{
	out[get_global_id(0)] = in[get_global_id(0)];
}
kernel void copy_uchar(global const uchar *in, global uchar *out)
{
	out[get_global_id(0)] = in[get_global_id(0)];
}
kernel void copy_long(global const long *in, global long *out)
{
	out[get_global_id(0)] = in[get_global_id(0)];
}
kernel void set_value(global int *out)
{
	out[get_global_id(0)] = VALUE;
}
""",
    "local.cl": """\
kernel void reverse(global const int *in, global int *out, local int *tmp, int bias)
{
	size_t lid = get_local_id(0), n = get_local_size(0);
	tmp[lid] = in[get_global_id(0)];
	barrier(CLK_LOCAL_MEM_FENCE);
	out[get_global_id(0)] = tmp[n - 1 - lid] + bias;
}
""",
    "defaults.cl": """\
//! run: -a 'int[4]=iota' -a out:int[4] -a int:10
//! expect[0]: 10 12 14 16
kernel void twice(global const int *in, global int *out, int s)
{
	size_t i = get_global_id(0);
	out[i] = in[i] * 2 + s;
}
""",
    "warp.cl": """\
kernel void wsum(global const int *in, global int *out)
{
	size_t i = get_global_id(0);
	out[i] = warp_reduce_add(in[i]);
}
""",
    # Per-width expect lines: a line without @W for 32 (and 4), @8 and
    # @16 lines for out: buffer 0, and out: buffer 1 the same at any width.
    "widths.cl": """\
//! run: -g 64 -l 64 -a out:uint[2] -a out:int[2]
//! expect[0]@16: 16 16
//! expect: 0 0
//! expect[0]@8: 8 8
//! expect[1]: 7 7
kernel void width(global uint *w, global int *seven)
{
	size_t i = get_global_id(0);
	if (i < 2) {
		w[i] = warp_size() == 32 ? 0 : warp_size();
		seven[i] = 7;
	}
}
""",
    "widths-only.cl": """\
//! run: -g 64 -l 64 -a out:uint[1]
//! expect@16: 16
//! expect@8: 8
kernel void width(global uint *w)
{
	if (get_global_id(0) == 0)
		w[0] = warp_size();
}
""",
    "widths-wrong.cl": """\
//! run: -g 64 -l 64 -a out:uint[1]
//! expect@16: 99
//! expect: 8
kernel void width(global uint *w)
{
	if (get_global_id(0) == 0)
		w[0] = warp_size();
}
""",
    "bad.cl": """\
kernel void broken(global int *x)
{
	x[0] = undefined_thing;
}
""",
    "cuda-stdint.cl": """\
#include <clwarp/cuda.h>
__global__ void stdint_params(global int64_t *o, int32_t a, uint64_t b, uint8_t c,
			      unsigned long long d)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;

	o[i] = a * 1000000000LL + (long long)b * 1000 + c + (long long)d * i;
}
""",
}


def splitmix64(seed, count):
    """The documented rand() generator: one splitmix64 output per element."""
    state = seed & MASK64
    out = []
    for _ in range(count):
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        out.append(z ^ (z >> 31))
    return out


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


class CliCase(unittest.TestCase):
    """The binary, the kernel files and the helpers; the tests are mixed in
    by tests/test-cli.py."""

    tmp = None
    cache = None

    @classmethod
    def setUpClass(cls):
        if not BINARY or not os.path.exists(BINARY):
            raise unittest.SkipTest("CLWARP_RUN does not name the clwarp-run binary")
        cls.tmp = tempfile.mkdtemp(prefix="clwarp-cli-")
        cls.cache = os.path.join(cls.tmp, "cache")
        os.mkdir(cls.cache)
        for name, text in KERNELS.items():
            with open(os.path.join(cls.tmp, name), "w", encoding="utf-8") as f:
                f.write(text)
        for name, data in BAD_FILES.items():
            with open(os.path.join(cls.tmp, name), "wb") as f:
                f.write(data)
        os.mkdir(os.path.join(cls.tmp, "adir.cl"))

    @classmethod
    def tearDownClass(cls):
        if cls.tmp:
            shutil.rmtree(cls.tmp, ignore_errors=True)

    # ------------------------------------------------------------ helpers

    def path(self, name):
        return os.path.join(self.tmp, name)

    def run_cli(self, *args, cache=None):
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLWARP_")}
        env["CLWARP_CACHE_DIR"] = cache or self.cache
        proc = subprocess.run([BINARY] + list(args), cwd=self.tmp, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=120)
        return proc.returncode, proc.stdout, proc.stderr

    def ok(self, *args, **kw):
        rc, out, err = self.run_cli(*args, **kw)
        self.assertEqual(rc, 0, "clwarp-run %s failed:\n%s" % (" ".join(args), err))
        return out, err

    def outputs(self, out):
        """{arg index: [value strings]} from text output."""
        result = {}
        for line in out.splitlines():
            m = re.match(r"^arg(\d+):(.*)$", line)
            if m:
                result[int(m.group(1))] = m.group(2).split()
        return result

    def ints(self, out, arg):
        return [int(v) for v in self.outputs(out)[arg]]

    def copy(self, kind, spec):
        """Run copy_KIND with an input SPEC; return the printed values."""
        n = int(re.search(r"\[(\d+)\]", spec).group(1))
        out, _ = self.ok("-q", "-k", "copy_" + kind, "-a", spec,
                         "-a", "out:%s[%d]" % (kind, n), "copy.cl")
        return self.outputs(out)[1]

    def usage_error(self, *args, status=2, pattern=None):
        rc, out, err = self.run_cli(*args)
        self.assertEqual(rc, status, "exit status of %s; stderr:\n%s" % (args, err))
        self.assertEqual(out, "", "an error printed on stdout")
        self.assertTrue(err.startswith("clwarp-run: ") or "\nclwarp-run: " in err, err)
        if status == 2:
            self.assertIn("Usage: clwarp-run [options] FILE.cl", err)
            self.assertIn("Try 'clwarp-run --help'.", err)
        if pattern:
            self.assertRegex(err, pattern)
        return err
