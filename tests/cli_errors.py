# clwarp-run's tests (tests/test-cli.py): errors, each with its exit status
# and one message.
# SPDX-License-Identifier: MIT
import json
import os
import re
import subprocess

from cli_bad_input import BAD_INPUT
from cli_case import BINARY, KERNELS


class ErrorTests:
    """Errors: options, SPECs, arguments, sizes, files, builds, and every
    case of BAD_INPUT (cli_bad_input.py)."""

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

    def test_flow_refusals(self):
        # Warps built from work-group barriers (local) need every work-item
        # at every warp call; what the engine's flow rewrite cannot follow is
        # refused at the user's line, never run with a wrong answer.
        head = "#include <clwarp/cuda.h>\n"
        sources = {
            "sw.cl": (head + "kernel void sw(global const int *in, global int *out)\n{\n"
                      "\tint v = in[get_global_id(0)];\n"
                      "\tswitch (get_local_id(0) / warpSize) {\n"
                      "\tcase 1: v = __reduce_add_sync(0xffffffff, v); break;\n"
                      "\t}\n\tout[get_global_id(0)] = v;\n}\n",
                      r"sw\.cl:5: a warp call or return inside a switch"),
            "smacro.cl": (head + "#define SUM(v) for (int o_ = warpSize / 2; o_ > 0; o_ /= 2) "
                          "v += __shfl_xor_sync(0xffffffff, v, o_)\n"
                          "kernel void smacro(global const int *in, global int *out)\n{\n"
                          "\tint v = in[get_global_id(0)];\n"
                          "\tif (get_local_id(0) / warpSize == 1)\n\t\tSUM(v);\n"
                          "\tout[get_global_id(0)] = v;\n}\n",
                          r"smacro\.cl:7: macro `SUM` makes warp calls in statements"),
        }
        for name, (text, pattern) in sources.items():
            with open(self.path(name), "w", encoding="utf-8") as f:
                f.write(text)
            self.usage_error("-b", "local", "-g", "64", "-l", "64", "-a", "int[64]=iota",
                             "-a", "out:int[64]", name, status=1, pattern=pattern)

    def test_buffer_too_large(self):
        # Over 1 TiB (or overflowing): a usage error.
        self.usage_error("-a", "out:int[999999999999]", "-k", "set_value", "copy.cl",
                         pattern=r"too large")
        self.usage_error("-a", "out:long[99999999999999999999]", "-k", "set_value", "copy.cl",
                         pattern=r"overflow")
        # Possible on paper but over the device's largest allocation: a run-time error.
        self.usage_error("-a", "out:int[200000000000]", "-k", "set_value", "copy.cl",
                         status=1, pattern=r"largest buffer")

    def check_bad_input(self, argv, status, message, env):
        """One case of BAD_INPUT: its status, one error line saying `message`
        once, stdout empty (with --json: one JSON object with the error),
        the usage lines for status 2, no crash."""
        run_env = {k: v for k, v in os.environ.items() if not k.startswith("CLWARP_")}
        run_env["CLWARP_CACHE_DIR"] = self.cache
        run_env.update(env or {})
        args = [a if isinstance(a, bytes) else a.encode() for a in argv]
        proc = subprocess.run([BINARY.encode()] + args, cwd=self.tmp, env=run_env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        rc = proc.returncode
        err = proc.stderr.decode("utf-8", "surrogateescape")
        self.assertTrue(0 <= rc < 128, "crashed (status %d):\n%s" % (rc, err))
        self.assertNotIn("Traceback", err)
        self.assertEqual(rc, status, "exit status; stderr:\n" + err)
        if status == 0:
            self.assertEqual(err.count(message), 1, err) if message else self.assertEqual(err, "")
            self.assertLessEqual(len(err.splitlines()), 1, "more than the one warning:\n" + err)
            return
        if any(a in (b"--json", b"--js") for a in args):
            doc = json.loads(proc.stdout)  # bytes: invalid UTF-8 fails here
            self.assertIn(message.replace('"', ""), doc["error"].replace('"', ""))
            self.assertEqual(doc["status"], status)
        else:
            self.assertEqual(proc.stdout, b"", "an error printed on stdout")
        lines = err.splitlines()
        usage = ["Usage: clwarp-run [options] FILE.cl", "Try 'clwarp-run --help'."]
        if status == 2:
            self.assertEqual(lines[-2:], usage, err)
            lines = lines[:-2]
        self.assertNotIn("Usage:", "\n".join(lines))
        # One line of clwarp-run's, none of the driver's; a build failure
        # adds the line that says what -v would show.
        lines = [line for line in lines if not line.startswith("clwarp-run: -v adds ")]
        self.assertEqual(len(lines), 1, "not one error line:\n" + err)
        self.assertTrue(lines[0].startswith("clwarp-run: "), err)
        self.assertEqual(err.count(message), 1, "%r not said exactly once:\n%s" % (message, err))

    def test_bad_input(self):
        names = [case[0] for case in BAD_INPUT]
        self.assertEqual(len(names), len(set(names)), "two cases of one name")
        self.assertGreaterEqual(len(BAD_INPUT), 60)
        for name, argv, status, message, env in BAD_INPUT:
            with self.subTest(name):
                self.check_bad_input(argv, status, message, env)

    def test_byte_order_mark(self):
        # A UTF-8 byte-order mark neither hides a first-line directive nor
        # reaches the compiler (which would stop at it after the prelude).
        with open(self.path("bom.cl"), "wb") as f:
            f.write(b"\xef\xbb\xbf//! run: -a out:int[2]\n"
                    b"kernel void k(global int *x) { x[get_global_id(0)] = 7; }\n")
        out, _ = self.ok("-q", "bom.cl")
        self.assertEqual(out, "arg0: 7 7\n")
