# clwarp-run's tests (tests/test-cli.py): guard zones after its buffers
# (tools/guard.c), files that are not regular files (tools/regular-file.c)
# and --sanitize (tools/sanitize.c).
# SPDX-License-Identifier: MIT
import json
import os
import shutil
import subprocess

from cli_case import BINARY, SOURCE_ROOT

# out[i] = i + 1 for every work-item i: past the end of a buffer of fewer
# than global-size elements.
EVERY = """\
kernel void every(global int *out)
{
	size_t i = get_global_id(0);
	out[i] = (int)i + 1;
}
"""
# Writes past the end of an input (not out:) buffer: in[i + SHIFT].
SHIFTED = """\
kernel void shifted(global int *in, global int *out)
{
	size_t i = get_global_id(0);
	out[i] = in[i];
	in[i + SHIFT] = 7;
}
"""
# Writes element 0 only: no overflow whatever the global size.
FIRST = """\
kernel void first(global int *out)
{
	if (get_global_id(0) == 0)
		out[0] = 42;
}
"""
INTS = 4  # sizeof(int)


class GuardTests:
    """A write past the end of a buffer: exit 3 and one message naming the
    argument and how far it went; special files refused at once."""

    def write_kernel(self, name, text):
        with open(self.path(name), "w", encoding="utf-8") as f:
            f.write(text)

    def run_quick(self, args, timeout=60):
        """Run with a timeout: a hang is a failure, not a stuck test."""
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLWARP_")}
        env["CLWARP_CACHE_DIR"] = self.cache
        proc = subprocess.run([BINARY] + list(args), cwd=self.tmp, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=timeout)
        return proc.returncode, proc.stdout, proc.stderr

    def overflow(self, args, arg, spec, count, written):
        """args overflow argument `arg` (SPEC `spec`, `count` ints) whose
        kernel writes ints [0, written): exit 3, nothing on stdout, one
        line giving the bytes and the last element past the end."""
        rc, out, err = self.run_quick(args)
        self.assertEqual(rc, 3, "exit status; stderr:\n" + err)
        self.assertEqual(out, "")
        past = (written - count) * INTS
        line = ("clwarp-run: argument %d ('%s'): the kernel wrote %d bytes past the end of the "
                "buffer (up to element [%d] of %d)\n" % (arg, spec, past, written - 1, count))
        self.assertEqual(err, line)

    def test_guard_out_overflow(self):
        self.write_kernel("every.cl", EVERY)
        for global_size, count in ((64, 60), (64, 1), (1024, 1), (256, 255)):
            with self.subTest(global_size=global_size, count=count):
                spec = "out:int[%d]" % count
                self.overflow(["-g", str(global_size), "-l", "64", "-a", spec, "every.cl"],
                              0, spec, count, global_size)

    def test_guard_input_overflow(self):
        self.write_kernel("shifted.cl", SHIFTED)
        self.overflow(["-D", "SHIFT=4", "-a", "int[8]=iota", "-a", "out:int[8]", "shifted.cl"],
                      0, "int[8]=iota", 8, 12)

    def test_guard_json(self):
        self.write_kernel("every.cl", EVERY)
        rc, out, err = self.run_quick(["--json", "-g", "64", "-l", "64", "-a", "out:int[1]",
                                       "every.cl"])
        self.assertEqual(rc, 3, err)
        doc = json.loads(out)
        self.assertEqual(doc["status"], 3)
        self.assertIn("argument 0 ('out:int[1]'): the kernel wrote 252 bytes past the end",
                      doc["error"])

    def test_guard_no_false_alarm(self):
        # Writes up to the last element, or one element of a one-element
        # buffer under 64 work-items: no overflow, the values as computed.
        self.write_kernel("every.cl", EVERY)
        self.write_kernel("first.cl", FIRST)
        out, err = self.ok("-q", "-g", "64", "-l", "64", "-a", "out:int[64]", "every.cl")
        self.assertEqual(self.ints(out, 0), list(range(1, 65)))
        self.assertEqual(err, "")
        out, err = self.ok("-q", "-g", "64", "-l", "64", "-a", "out:int[1]", "first.cl")
        self.assertEqual(self.ints(out, 0), [42])
        # An input buffer written inside its end, over repeated runs.
        self.write_kernel("shifted.cl", SHIFTED)
        out, _ = self.ok("-q", "--repeat", "3", "-D", "SHIFT=0", "-a", "int[8]=iota(5,1)",
                         "-a", "out:int[8]", "shifted.cl")
        self.assertEqual(self.ints(out, 1), list(range(5, 13)))

    def test_fifo_kernel_file(self):
        fifo = self.path("fifo.cl")
        if os.path.exists(fifo):
            os.unlink(fifo)
        os.mkfifo(fifo)
        try:
            rc, out, err = self.run_quick(["-a", "out:int[1]", "fifo.cl"], timeout=30)
            self.assertEqual(rc, 2, err)
            self.assertEqual(out, "")
            self.assertEqual(err.splitlines()[0],
                             "clwarp-run: fifo.cl is not a regular file (a FIFO)")
            # The same FIFO as @file INIT and as a quoted #include.
            self.write_kernel("every.cl", EVERY)
            rc, out, err = self.run_quick(["-a", "out:int[1]=@fifo.cl", "every.cl"], timeout=30)
            self.assertEqual(rc, 2, err)
            self.assertIn("fifo.cl is not a regular file (a FIFO)", err)
            self.write_kernel("include-fifo.cl", '#include "fifo.cl"\n' + EVERY)
            rc, out, err = self.run_quick(["-a", "out:int[1]", "include-fifo.cl"], timeout=30)
            self.assertEqual(rc, 1, err)
            self.assertIn('cannot read #include "fifo.cl": ', err)
            self.assertIn("fifo.cl is not a regular file (a FIFO)", err)
        finally:
            os.unlink(fifo)

    def test_dev_zero_include(self):
        self.write_kernel("include-zero2.cl", '#include "/dev/zero"\n' + EVERY)
        rc, out, err = self.run_quick(["-a", "out:int[1]", "include-zero2.cl"], timeout=30)
        self.assertEqual(rc, 1, err)
        self.assertEqual(out, "")
        self.assertIn('include-zero2.cl:1: cannot read #include "/dev/zero": /dev/zero is not a '
                      'regular file (a character device)', err)


# Every work-item of a group writes tmp[0]: a write-write race in local memory.
RACE = """\
kernel void race(global int *out, local int *tmp)
{
	size_t l = get_local_id(0);
	tmp[0] = (int)l;
	out[get_global_id(0)] = tmp[0];
}
"""


# A warp call that only the lanes below 16 of each warp make: a loop bound
# in capitals is taken as the same for every work-item and left as it is,
# so on the local backend the other lanes skip the call's barriers.
DIVERGENT = """\
#define TRIPS (get_local_id(0) % 32 < 16)

int swap_pairs(int v)
{
	for (int k = 0; k < TRIPS; k++)
		v = warp_shuffle_xor(v, 1);
	return v;
}

kernel void divergent(global int *out)
{
	int v = (int)get_local_id(0);
	for (int k = 0; k < TRIPS; k++)
		v = warp_broadcast(v, 3);
	out[get_global_id(0)] = swap_pairs(v);
}
"""
# Local memory never written, through a shuffle: Oclgrind sees the
# uninitialized value written to the warp exchange in the library's code.
UNINIT_SHUFFLE = """\
kernel void uninit_shuffle(global int *out, local int *tmp)
{
	int v = tmp[get_local_id(0)];
	v = warp_shuffle_xor(v, 1);
	out[get_global_id(0)] = v;
}
"""
# The same in CUDA's words.
DIVERGENT_CUDA = """\
#include <clwarp/cuda.h>
#define TRIPS (threadIdx.x % 32 < 16)

__global__ void divergent_cuda(global int *out) {
  int v = threadIdx.x;
  for (int k = 0; k < TRIPS; k++)
    v = __shfl_xor_sync(0xffffffff, v, 1);
  out[threadIdx.x] = v;
}
"""


def position(text, needle, column_of):
    """FILE:LINE:COLUMN as Oclgrind gives it: the line holding `needle`,
    the column (from 1, a tab counting 1) of `column_of` in it."""
    for number, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return number, line.index(column_of) + 1
    raise AssertionError(needle)


class SanitizeTests:
    """--sanitize: the run under Oclgrind, its reports with FILE:LINE."""

    def need_oclgrind(self):
        if not shutil.which("oclgrind"):
            self.skipTest("oclgrind is not installed")

    def test_sanitize_race(self):
        self.need_oclgrind()
        self.write_kernel("race.cl", RACE)
        rc, out, err = self.run_quick(["--sanitize", "-g", "8", "-l", "8", "-a", "out:int[8]",
                                       "-a", "local:int[1]", "race.cl"], timeout=300)
        self.assertEqual(rc, 3, err)
        self.assertEqual(out, "", "output printed although Oclgrind reported")
        line, col = position(RACE, "tmp[0] = (int)l;", "=")
        self.assertIn("clwarp-run: --sanitize: race.cl:%d:%d: Write-write data race at local memory "
                      "(kernel race" % (line, col), err)

    def test_sanitize_overflow(self):
        # Under Oclgrind the buffers have no guard zone: Oclgrind itself
        # reports the 4 writes past the end of a 60-element buffer.
        self.need_oclgrind()
        self.write_kernel("every.cl", EVERY)
        rc, out, err = self.run_quick(["--sanitize", "-g", "64", "-l", "64", "-a", "out:int[60]",
                                       "every.cl"], timeout=300)
        self.assertEqual(rc, 3, err)
        line, col = position(EVERY, "out[i] = ", "=")
        self.assertIn("every.cl:%d:%d: Invalid write of size 4 at global memory (kernel every, 4 times)"
                      % (line, col), err)

    def test_sanitize_clean(self):
        self.need_oclgrind()
        self.write_kernel("every.cl", EVERY)
        rc, out, err = self.run_quick(["--sanitize", "-q", "-g", "64", "-l", "64", "-a",
                                       "out:int[64]", "every.cl"], timeout=300)
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.ints(out, 0), list(range(1, 65)))
        self.assertNotIn("--sanitize", err)

    def test_sanitize_refused(self):
        self.write_kernel("every.cl", EVERY)
        self.usage_error("--sanitize", "-d", "cpu", "-a", "out:int[1]", "every.cl",
                         pattern="-d cannot be given")
        self.usage_error("--sanitize", "-b", "khr", "-a", "out:int[1]", "every.cl",
                         pattern="-b khr cannot be given")
        # No oclgrind on the PATH: one run-time error that says where it is.
        env = {k: v for k, v in os.environ.items() if not k.startswith("CLWARP_")}
        env["PATH"] = self.tmp
        proc = subprocess.run([BINARY, "--sanitize", "-a", "out:int[1]", "every.cl"], cwd=self.tmp,
                              env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True, timeout=60)
        self.assertEqual(proc.returncode, 1, proc.stderr)
        self.assertEqual(proc.stderr, "clwarp-run: --sanitize: cannot run oclgrind: No such file or "
                         "directory (it is in the Debian package oclgrind)\n")

    def reported(self, name, text, args):
        """Runs `text` as `name` under --sanitize: exit 3, no output, and the
        report lines (stderr)."""
        self.need_oclgrind()
        self.write_kernel(name, text)
        rc, out, err = self.run_quick(["--sanitize", "-g", "64", "-l", "64"] + args + [name],
                                      timeout=300)
        self.assertEqual(rc, 3, err)
        self.assertEqual(out, "", "output printed although Oclgrind reported")
        return err

    def test_sanitize_divergent_warp_call(self):
        # Oclgrind places the divergence at a barrier inside the library's
        # warp code; the report names the user's line of each call.
        err = self.reported("divergent.cl", DIVERGENT, ["-a", "out:int[64]"])
        # The helper swap_pairs is a function of its own in the IR (not
        # inlined): its call is found in its body, numbered as Oclgrind
        # prints it. The engine's rewrite of warp calls keeps lines, not
        # columns: a caller's position is FILE:LINE.
        for needle, call in (("v = warp_broadcast", "warp_broadcast"),
                             ("v = warp_shuffle_xor", "warp_shuffle_xor")):
            line, _ = position(DIVERGENT, needle, call)
            self.assertRegex(err, r"clwarp-run: --sanitize: divergent\.cl:%d: Work-group divergence "
                             r"detected \(barrier\) in the call of %s \(at clwarp/warp/[a-z]+\.cl:"
                             r"\d+:\d+\) \(kernel divergent(, \d+ times)?\)\n" % (line, call))
        self.assertNotRegex(err, r"--sanitize: clwarp/", "a report left in the library's code")
        self.assertEqual(len(err.splitlines()), 2, err)

    def test_sanitize_divergent_cuda(self):
        err = self.reported("divergent_cuda.cl", DIVERGENT_CUDA, ["-a", "out:int[64]"])
        line, _ = position(DIVERGENT_CUDA, "v = __shfl_xor_sync", "__shfl")
        self.assertRegex(err, r"^clwarp-run: --sanitize: divergent_cuda\.cl:%d: Work-group divergence "
                         r"detected \(barrier\) in the call of warp_shuffle_xor \(at clwarp/warp/"
                         r"[a-z]+\.cl:\d+:\d+\) \(kernel divergent_cuda(, \d+ times)?\)\n$" % line)

    def test_sanitize_cuda_clean(self):
        # A block scan with <clwarp/cuda.h> (its run line: 4 blocks of 64,
        # in[i] = (i*5)%11-5) runs clean under Oclgrind and gives the scan.
        self.need_oclgrind()
        kernel = os.path.join(os.path.abspath(SOURCE_ROOT), "tests", "corpus", "block_scan_warp0.cl")
        rc, out, err = self.run_quick(["--sanitize", "-q", kernel], timeout=300)
        self.assertEqual(rc, 0, err)
        self.assertEqual(err, "")
        values = [(i * 5) % 11 - 5 for i in range(256)]
        want = []
        for i, v in enumerate(values):
            want.append(v + (want[-1] if i % 64 else 0))
        self.assertEqual(self.ints(out, 1), want)

    def test_sanitize_uninitialized_warp_argument(self):
        err = self.reported("uninit.cl", UNINIT_SHUFFLE, ["-a", "out:int[64]", "-a", "local:int[64]"])
        line, _ = position(UNINIT_SHUFFLE, "v = warp_shuffle_xor", "w")
        self.assertIn("clwarp-run: --sanitize: uninit.cl:%d: Uninitialized value written to local memory "
                      "in the call of warp_shuffle_xor (at clwarp/warp/" % line, err)
        self.assertNotRegex(err, r"--sanitize: clwarp/", "a report left in the library's code")
