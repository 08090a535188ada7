# clwarp-run's tests (tests/test-cli.py): what it says besides a run's
# outputs.
# SPDX-License-Identifier: MIT
import json
import os

from cli_case import SOURCE_ROOT


class InfoTests:
    """Devices (--list-devices), the warp width and whether it is the
    device's own, --version and --help."""

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
        doc = json.loads(self.ok("--json", warp_sum)[0])
        if doc["backend"] != "local":
            # a width other than the native one (16 on Intel's runtime)
            other = "8" if doc["warp_size"] == 16 else "16"
            self.usage_error("-w", other, warp_sum, pattern=r"add -b local")
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
