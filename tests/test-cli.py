#!/usr/bin/env python3
# clwarp-run: tests of the command-line tool as a program (stdlib unittest).
# SPDX-License-Identifier: MIT
"""Run the clwarp-run binary named by $CLWARP_RUN on small kernels.

The kernels are written to a temporary folder; every run gets
CLWARP_CACHE_DIR set to a temporary cache shared by the tests that do not
test caching, so each kernel is compiled once.
"""

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import unittest

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
    "bad.cl": """\
kernel void broken(global int *x)
{
	x[0] = undefined_thing;
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


class CliTest(unittest.TestCase):
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

    # -------------------------------------------------------------- runs

    def test_plain_kernel(self):
        out, _ = self.ok("-a", "int[20]=(i%7)-3", "-a", "out:int[20]", "-a", "int:5",
                         "plain.cl")
        lines = out.splitlines()
        self.assertRegex(lines[0], r"^device: .+ \(.+\), backend \w+, warp size \d+( \(the device's own width\))?$")
        self.assertRegex(lines[1], r"^build: (compiled|disk hit|memory hit) in [\d.]+ ms$")
        got = self.ints(out, 1)
        self.assertEqual(len(got), 20)
        for i, v in enumerate(got):
            self.assertEqual(v, ((i % 7) - 3) * 2 + 5, "element %d" % i)
        self.assertEqual(list(self.outputs(out)), [1], "only out: buffers are printed")

    def test_init_iota(self):
        self.assertEqual(self.copy("int", "int[6]=iota"), ["0", "1", "2", "3", "4", "5"])
        self.assertEqual(self.copy("int", "int[4]=iota(10,-3)"), ["10", "7", "4", "1"])
        self.assertEqual([float(v) for v in self.copy("float", "float[3]=iota(0.5,0.25)")],
                         [0.5, 0.75, 1.0])

    def test_init_fill_list_expr(self):
        self.assertEqual(self.copy("int", "int[3]=fill(42)"), ["42", "42", "42"])
        self.assertEqual(self.copy("int", "int[4]=5,-6,7,0x10"), ["5", "-6", "7", "16"])
        self.assertEqual(self.copy("int", "int[5]=i*i"), ["0", "1", "4", "9", "16"])
        self.assertEqual(self.copy("int", "int[8]=(i%7)-3"),
                         [str((i % 7) - 3) for i in range(8)])
        self.assertEqual(self.copy("int", "int[4]=7/2+i"), ["3", "4", "5", "6"])
        self.assertEqual(self.copy("uchar", "uchar[3]=255,0,128"), ["255", "0", "128"])
        self.assertEqual(self.copy("long", "long[2]=-9223372036854775808,9223372036854775807"),
                         ["-9223372036854775808", "9223372036854775807"])

    def test_init_float_format(self):
        vals = [0.1, 1e10, -2.5, 3.0]
        got = self.copy("float", "float[4]=" + ",".join(repr(v) for v in vals))
        self.assertEqual(got, ["%.9g" % f32(v) for v in vals])
        self.assertEqual(self.copy("float", "float[3]=nan,inf,-inf"), ["nan", "inf", "-inf"])
        got = self.copy("float", "float[4]=i/2.0")
        self.assertEqual([float(v) for v in got], [0.0, 0.5, 1.0, 1.5])

    def test_init_rand(self):
        a = self.copy("int", "int[64]=rand(9,-5,5)")
        b = self.copy("int", "int[64]=rand(9,-5,5)")
        self.assertEqual(a, b, "rand is deterministic")
        ints = [int(v) for v in a]
        self.assertTrue(all(-5 <= v <= 5 for v in ints), ints)
        self.assertGreater(len(set(ints)), 5)
        # The documented formula: lo + z mod (hi - lo + 1).
        self.assertEqual(ints, [-5 + z % 11 for z in splitmix64(9, 64)])
        ints = [int(v) for v in self.copy("int", "int[50]=rand(1)")]
        self.assertTrue(all(0 <= v <= 99 for v in ints), ints)
        self.assertNotEqual(ints, [int(v) for v in self.copy("int", "int[50]=rand(2)")])
        floats = [float(v) for v in self.copy("float", "float[64]=rand(3,2,4)")]
        self.assertTrue(all(2.0 <= v < 4.0 for v in floats), floats)
        self.assertEqual(floats, [float(v) for v in self.copy("float", "float[64]=rand(3,2,4)")])
        floats = [float(v) for v in self.copy("float", "float[32]=rand(4)")]
        self.assertTrue(all(0.0 <= v < 1.0 for v in floats), floats)

    def test_init_file(self):
        data = [3, -1, 1 << 20, 77]
        with open(self.path("in.bin"), "wb") as f:
            f.write(struct.pack("<4i", *data))
        self.assertEqual([int(v) for v in self.copy("int", "int[4]=@in.bin")], data)
        err = self.usage_error("-k", "copy_int", "-a", "int[5]=@in.bin", "-a", "out:int[5]",
                               "copy.cl")
        self.assertIn("16", err)
        self.assertIn("20", err)
        self.usage_error("-k", "copy_int", "-a", "int[4]=@missing.bin", "-a", "out:int[4]",
                         "copy.cl", pattern="missing.bin")

    def test_scalar_and_local(self):
        out, _ = self.ok("-q", "-g", "8", "-l", "4", "-a", "int[8]=iota", "-a", "out:int[8]",
                         "-a", "local:int[4]", "-a", "int:100", "local.cl")
        self.assertEqual(self.ints(out, 1), [103, 102, 101, 100, 107, 106, 105, 104])

    def test_build_define(self):
        out, _ = self.ok("-q", "-k", "set_value", "-D", "VALUE=7", "-a", "out:int[3]", "copy.cl")
        self.assertEqual(self.ints(out, 0), [7, 7, 7])

    def test_quiet(self):
        out, _ = self.ok("-q", "-a", "int[4]=iota", "-a", "out:int[4]", "-a", "int:1",
                         "plain.cl")
        self.assertEqual(out, "arg1: 1 3 5 7\n")

    def test_json(self):
        out, _ = self.ok("--json", "-g", "8", "-l", "4", "-a", "int[8]=iota", "-a",
                         "out:int[8]", "-a", "local:int[4]", "-a", "int:1", "local.cl")
        doc = json.loads(out)
        for key in ("device", "platform", "backend", "warp_size", "kernel", "global", "local",
                    "build", "outputs"):
            self.assertIn(key, doc)
        self.assertNotIn("time_ns", doc)
        self.assertNotIn("check", doc)
        self.assertEqual(doc["kernel"], "reverse")
        self.assertEqual(doc["global"], [8])
        self.assertEqual(doc["local"], [4])
        self.assertIsInstance(doc["warp_size"], int)
        self.assertIn(doc["build"]["source"], ("compiled", "disk", "memory"))
        self.assertIsInstance(doc["build"]["ms"], (int, float))
        self.assertEqual(doc["outputs"], [{"arg": 1, "type": "int",
                                           "values": [4, 3, 2, 1, 8, 7, 6, 5]}])
        # Too small for a warp-sized group: no default local size.
        doc = json.loads(self.ok("--json", "-a", "int[4]=iota", "-a", "out:int[4]",
                                 "-a", "int:0", "plain.cl")[0])
        self.assertIsNone(doc["local"])
        doc = json.loads(self.ok("--json", "-k", "copy_float", "-a", "float[4]=nan,inf,-inf,0.5",
                                 "-a", "out:float[4]", "copy.cl")[0])
        self.assertEqual(doc["outputs"][0]["values"], ["nan", "inf", "-inf", 0.5])
        self.assertEqual(doc["outputs"][0]["type"], "float")

    def test_repeat(self):
        out, _ = self.ok("--repeat", "3", "-a", "int[4]=iota", "-a", "out:int[4]",
                         "-a", "int:0", "plain.cl")
        self.assertRegex(out, r"(?m)^time: min [\d.]+ us, median [\d.]+ us, "
                              r"max [\d.]+ us over 3 runs$")
        self.assertEqual(self.ints(out, 1), [0, 2, 4, 6])
        doc = json.loads(self.ok("--json", "--repeat", "4", "-a", "int[4]=iota", "-a",
                                 "out:int[4]", "-a", "int:0", "plain.cl")[0])
        t = doc["time_ns"]
        self.assertLessEqual(t["min"], t["median"])
        self.assertLessEqual(t["median"], t["max"])

    def test_defaults_and_check(self):
        out, _ = self.ok("defaults.cl")
        self.assertEqual(self.ints(out, 1), [10, 12, 14, 16])
        out, _ = self.ok("--check", "defaults.cl")
        self.assertEqual(out.splitlines()[-1], "check: pass")
        doc = json.loads(self.ok("--check", "--json", "defaults.cl")[0])
        self.assertEqual(doc["check"], "pass")
        # Command-line -a replaces every -a of the file.
        out, _ = self.ok("-q", "-a", "int[2]=fill(1)", "-a", "out:int[2]", "-a", "int:0",
                         "defaults.cl")
        self.assertEqual(out, "arg1: 2 2\n")

    def test_check_fail(self):
        rc, out, err = self.run_cli("--check", "-a", "int[4]=fill(1)", "-a", "out:int[4]",
                                    "-a", "int:10", "defaults.cl")
        self.assertEqual(rc, 1)
        self.assertIn("check: FAIL arg1[0]: got 12, expected 10", out)
        self.assertIn("check: FAIL arg1[3]: got 12, expected 16", out)
        self.assertNotIn("arg1[1]", out)
        self.assertIn("clwarp-run: check failed", err)
        rc, out, err = self.run_cli("--check", "-q", "-a", "int[3]=iota", "-a", "out:int[3]",
                                    "-a", "int:10", "defaults.cl")
        self.assertEqual(rc, 1)
        self.assertRegex(out, r"check: FAIL arg1: the expect line has 4 values, the buffer 3")
        rc, out, _ = self.run_cli("--check", "--json", "-a", "int[4]=fill(1)", "-a",
                                  "out:int[4]", "-a", "int:10", "defaults.cl")
        self.assertEqual(rc, 1)
        self.assertEqual(json.loads(out)["check"], "fail")

    def test_several_kernels(self):
        err = self.usage_error("-a", "out:int[4]", "copy.cl")
        for name in ("copy_int", "copy_float", "copy_uchar", "copy_long", "set_value"):
            self.assertIn(name, err)
        err = self.usage_error("-k", "nope", "-a", "out:int[4]", "copy.cl")
        self.assertIn("nope", err)
        self.assertIn("copy_int", err)

    def test_warp_kernel(self):
        out, _ = self.ok("-q", "-a", "int[64]=fill(1)", "-a", "out:int[64]", "warp.cl")
        got = self.ints(out, 1)
        self.assertEqual(len(got), 64)
        self.assertTrue(all(v > 1 for v in got), got)
        doc = json.loads(self.ok("--json", "-a", "int[64]=fill(1)", "-a", "out:int[64]",
                                 "warp.cl")[0])
        self.assertEqual(doc["outputs"][0]["values"], [doc["warp_size"]] * 64)
        self.assertEqual(doc["local"][0] % doc["warp_size"], 0)

    def test_warp_contract(self):
        self.usage_error("-w", "32", "-b", "local", "-g", "96", "-l", "48",
                         "-a", "int[96]=fill(1)", "-a", "out:int[96]", "warp.cl",
                         status=1, pattern=r"warp")

    # ------------------------------------------------------------ errors

    def test_unknown_option(self):
        self.usage_error("--bogus", "plain.cl", pattern=r"unknown option '--bogus'")
        self.usage_error("-Z", "plain.cl", pattern=r"unknown option '-Z'")
        self.usage_error("--backend", "warpdrive", "plain.cl", pattern="warpdrive")
        self.usage_error("-w", "3", "plain.cl", pattern="warp size")
        self.usage_error("--repeat", "0", "plain.cl", pattern="repeat")
        self.usage_error("-g", "4,,4", "plain.cl", pattern="global")

    def test_malformed_spec(self):
        for spec in ("int[4", "integer[4]", "out:int:3", "int[0]", "int[4]=1,2,3",
                     "char[2]=300", "int[4]=i+", "int[4]=frob(1)", "local:int[4]=1",
                     "float:abc", "int[4]=1.5*i",
                     # tests/fuzz/regressions/argspec: no float in [lo, hi); hi - lo overflows.
                     "float[4]=rand(1,1.0,1.00000001)", "double[4]=rand(1,-1e308,1e308)"):
            self.usage_error("-a", spec, "-a", "out:int[4]", "-a", "int:1", "plain.cl",
                             pattern=re.escape(spec))
        self.usage_error("-a", "int[4]=i/(i-2)", "-a", "out:int[4]", "-a", "int:1",
                         "plain.cl", pattern="division by zero")

    def test_deep_expression(self):
        # tests/fuzz/regressions/argspec: a chain of a million operators (a
        # //! run: line has no length limit) overflowed the stack when it
        # was evaluated; more than 1000 levels are refused.
        with open(self.path("deep.cl"), "w", encoding="utf-8") as f:
            f.write("//! run: -a int[4]=" + "1+" * 1000000 + "i -a out:int[4] -a int:1\n" +
                    KERNELS["plain.cl"])
        self.usage_error("deep.cl", pattern="bad argument SPEC")
        self.usage_error("-a", "int[4]=" + "i+" * 1001 + "i", "-a", "out:int[4]", "-a", "int:1",
                         "plain.cl")
        out, _ = self.ok("-q", "-a", "int[4]=" + "1+" * 1000 + "i", "-a", "out:int[4]",
                         "-a", "int:1", "plain.cl")
        self.assertEqual(out, "arg1: 2001 2003 2005 2007\n")

    def test_wrong_arg_count(self):
        self.usage_error("-a", "int[4]", "-a", "out:int[4]", "plain.cl",
                         pattern=r"takes 3 arguments")

    def test_wrong_arg_type(self):
        self.usage_error("-a", "float[4]", "-a", "out:int[4]", "-a", "int:1", "plain.cl",
                         pattern=r"argument 0 .*int\*")
        self.usage_error("-a", "int[4]", "-a", "out:int[4]", "-a", "float:1", "plain.cl",
                         pattern=r"argument 2")
        self.usage_error("-a", "int:4", "-a", "out:int[4]", "-a", "int:1", "plain.cl",
                         pattern=r"argument 0")

    def test_local_not_dividing(self):
        self.usage_error("-g", "10", "-l", "4", "-a", "int[10]", "-a", "out:int[10]",
                         "-a", "int:1", "plain.cl", pattern=r"does not divide")

    def test_missing_file(self):
        self.usage_error("-a", "out:int[4]", "nothere.cl", pattern=r"nothere\.cl")
        self.usage_error(pattern=r"no FILE")

    def test_build_failure(self):
        err = self.usage_error("-a", "out:int[4]", "bad.cl", status=1)
        self.assertRegex(err, r"bad\.cl:3:")
        # Said once, and only clwarp-run's own lines: the compiler's log and
        # whatever the driver printed itself ("1 error generated.") wait for -v.
        self.assertEqual(err.count("undefined_thing"), 1, err)
        for line in err.splitlines():
            self.assertTrue(line.startswith("clwarp-run: "), "a line not clwarp-run's: %r" % line)
        self.assertIn("-v adds the compiler's log", err)
        # -v: the compiler's log too.
        rc, _, err = self.run_cli("-v", "-a", "out:int[4]", "bad.cl")
        self.assertEqual(rc, 1)
        self.assertGreaterEqual(err.count("undefined_thing"), 2, err)
        # --json: the message, the log and the driver's output as fields.
        rc, out, _ = self.run_cli("--json", "-a", "out:int[4]", "bad.cl")
        self.assertEqual(rc, 1)
        doc = json.loads(out)
        self.assertIn("bad.cl:3:", doc["error"])
        self.assertIn("undefined_thing", doc["build_log"])
        self.assertIn("driver_output", doc)

    def test_buffer_too_large(self):
        # Over 1 TiB (or overflowing): a usage error.
        self.usage_error("-a", "out:int[999999999999]", "-k", "set_value", "copy.cl",
                         pattern=r"too large")
        self.usage_error("-a", "out:long[99999999999999999999]", "-k", "set_value", "copy.cl",
                         pattern=r"overflow")
        # Possible on paper but over the device's largest allocation: a run-time error.
        self.usage_error("-a", "out:int[200000000000]", "-k", "set_value", "copy.cl",
                         status=1, pattern=r"largest buffer")

    # ------------------------------------------------------------- misc

    def test_list_devices(self):
        out, _ = self.ok("--list-devices")
        lines = out.splitlines()
        self.assertGreater(len(lines), 0)
        for line in lines:
            self.assertRegex(line, r"^\d+:\d+  .+  \(.+, OpenCL C [\d.]+\)  "
                                   r"(backend \w+, warp size \d+( \(the device's own width\))?|backend unavailable: .+)$")
        doc = json.loads(self.ok("--list-devices", "--json")[0])
        self.assertEqual(len(doc), len(lines))
        self.assertIn("backend", doc[0])
        self.assertRegex(doc[0]["index"], r"^\d+:\d+$")

    def test_warp_size_option_is_never_silently_ignored(self):
        # -w is the local backend's width: where the device runs a native
        # backend, a different -w must be refused, not ignored.
        warp_sum = os.path.join(SOURCE_ROOT, "kernels", "examples", "warp_sum.cl")
        native = json.loads(self.ok("--json", warp_sum)[0])["backend"] != "local"
        if native:
            self.usage_error("-w", "16", warp_sum, pattern=r"add -b local")
        out, _ = self.ok("-b", "local", "-w", "16", "--json", warp_sum)
        self.assertEqual(json.loads(out)["warp_size"], 16)

    def test_native_width_is_reported(self):
        # Text and JSON say when the warp width is the device's own (khr
        # without a pin) rather than one libclwarp chose; CI runs this where
        # it must be (rusticl: CLWARP_TEST_EXPECT_BACKEND=khr-native) and
        # where it must not.
        warp_sum = os.path.join(SOURCE_ROOT, "kernels", "examples", "warp_sum.cl")
        doc = json.loads(self.ok("--json", warp_sum)[0])
        self.assertIn(doc["native_width"], (True, False))
        if doc["backend"] != "khr":
            self.assertFalse(doc["native_width"], "only khr runs at a width it did not choose")
        want = os.environ.get("CLWARP_TEST_EXPECT_BACKEND")
        if want:
            got = doc["backend"] + ("-native" if doc["native_width"] else "")
            self.assertEqual(got, want)
        first = self.ok(warp_sum)[0].splitlines()[0]
        self.assertEqual(first.endswith(" (the device's own width)"), doc["native_width"], first)
        self.assertFalse(json.loads(self.ok("-b", "local", "--json", warp_sum)[0])["native_width"])
        for dev in json.loads(self.ok("--list-devices", "--json")[0]):
            self.assertIn("native_width", dev)

    def test_version_and_help(self):
        out, _ = self.ok("--version")
        self.assertRegex(out, r"^clwarp-run \d+\.\d+\.\d+\n$")
        out, _ = self.ok("--help")
        self.assertIn("Usage: clwarp-run [options] FILE.cl", out)
        self.assertIn("--list-devices", out)
        out, _ = self.ok("-h")
        self.assertIn("Argument SPEC", out)

    def test_no_cache(self):
        cache = tempfile.mkdtemp(dir=self.tmp)
        out, _ = self.ok("--no-cache", "-a", "int[4]=iota", "-a", "out:int[4]", "-a", "int:0",
                         "plain.cl", cache=cache)
        self.assertIn("build: compiled", out)
        self.assertEqual(os.listdir(cache), [])


if __name__ == "__main__":
    unittest.main(verbosity=2)
