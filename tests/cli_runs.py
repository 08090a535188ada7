# clwarp-run's tests (tests/test-cli.py): runs that succeed.
# SPDX-License-Identifier: MIT
import json
import os
import struct
import tempfile

from cli_case import f32, splitmix64


class RunTests:
    """Runs: argument SPECs and their values, local memory, -D, the
    output in text and JSON, --repeat, //! run and //! expect lines with
    --check, warp kernels, --no-cache."""

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

    def test_check_per_width(self):
        # expect[K]@W holds at width W only; a line without @W elsewhere.
        for width, want in ((8, 8), (16, 16), (32, 0), (4, 4)):
            argv = ["--check", "-b", "local", "-w", str(width), "widths.cl"]
            rc, out, err = self.run_cli(*argv)
            if width == 4:
                # The line without @W says 0 0, the kernel 4 4.
                self.assertEqual(rc, 1, err)
                self.assertIn("check: FAIL arg0[0]: got 4, expected 0", out)
                continue
            self.assertEqual(rc, 0, err)
            self.assertEqual(out.splitlines()[-1], "check: pass", out)
            self.assertIn("arg0: %d %d" % (want, want), out)
        # A wrong @W line fails like any other.
        rc, out, _ = self.run_cli("--check", "-b", "local", "-w", "16", "widths-wrong.cl")
        self.assertEqual(rc, 1)
        self.assertIn("check: FAIL arg0[0]: got 16, expected 99", out)
        out, _ = self.ok("--check", "-b", "local", "-w", "8", "widths-wrong.cl")
        self.assertEqual(out.splitlines()[-1], "check: pass")
        # Only @W lines: a run at another width is a usage error naming the
        # file, the widths that have lines and the run's width.
        out, _ = self.ok("--check", "-b", "local", "-w", "8", "widths-only.cl")
        self.assertEqual(out.splitlines()[-1], "check: pass")
        err = self.usage_error("--check", "-b", "local", "-w", "64", "widths-only.cl",
                               pattern=r"widths-only\.cl has expect\[0\] lines for warp "
                                       r"widths 8, 16 only, none for this run's width 64")
        self.assertEqual(len(err.strip().splitlines()), 3, err)
        # Without --check the lines are not needed.
        out, _ = self.ok("-q", "-b", "local", "-w", "64", "widths-only.cl")
        self.assertEqual(out, "arg0: 64\n")

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

    def test_no_cache(self):
        cache = tempfile.mkdtemp(dir=self.tmp)
        out, _ = self.ok("--no-cache", "-a", "int[4]=iota", "-a", "out:int[4]", "-a", "int:0",
                         "plain.cl", cache=cache)
        self.assertIn("build: compiled", out)
        self.assertEqual(os.listdir(cache), [])

    def test_cuda_stdint_params(self):
        """Parameters typed int32_t, uint64_t, uint8_t (<clwarp/cuda.h>) and
        unsigned long long take the SPECs of int, ulong, uchar and ulong,
        and the stdint names in SPECs too."""
        want = [-3 * 1000000000 + 123456789 * 1000 + 200 + (1 << 40) * i for i in range(4)]
        for b, c, d in (("ulong", "uchar", "ulong"), ("uint64_t", "uint8_t", "uint64_t")):
            out, _ = self.ok("-q", "-a", "out:long[4]", "-a", "int32_t:-3",
                             "-a", b + ":123456789", "-a", c + ":200", "-a", d + ":0x10000000000",
                             "cuda-stdint.cl")
            self.assertEqual(self.ints(out, 0), want)
        err = self.usage_error("-a", "out:long[4]", "-a", "int:-3", "-a", "int:1", "-a", "uchar:2",
                               "-a", "ulong:3", "cuda-stdint.cl")
        self.assertIn("argument 2 of kernel stdint_params has type uint64_t; -a 'int:1' gives int", err)
