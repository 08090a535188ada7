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


# ------------------------------------------------------------- bad input
#
# Issue #12, "Bad input, all of it" (docs/reliability.md, "Bad input"): every
# case is (name, argv, exit status, a text the one error line must hold,
# environment). The status is the one docs/clwarp-run.md gives; a case of
# status 0 is a documented fallback (its text, if any, is the one warning).
# argv items may be bytes (file names and SPECs that are not UTF-8).

RUN3 = ["-q", "-a", "int[4]=iota", "-a", "out:int[4]", "-a", "int:1", "plain.cl"]
NOP = ["-a", "out:int[4]", "nop.cl"]

BAD_FILES = {
    "nop.cl": b"kernel void nop(global int *x)\n"
              b"{\n\tif (get_global_id(0) + get_global_id(1) + get_global_id(2) == 0)\n\t\tx[0] = 1;\n}\n",
    "scalar.cl": b"kernel void only_scalar(int s) { }\n",
    "image.cl": b"kernel void im(read_only image2d_t img, global int *out) { out[0] = 1; }\n",
    "sampler.cl": b"kernel void sm(sampler_t s, global int *out) { out[0] = 1; }\n",
    "struct.cl": b"typedef struct { int a; float b; } pair;\n"
                 b"kernel void st(pair p, global int *out) { out[0] = p.a; }\n",
    "vecval.cl": b"kernel void vv(float4 v, global float *out) { out[0] = v.x; }\n",
    "vector.cl": b"kernel void v4(global const float4 *p, global float *out)\n"
                 b"{ out[get_global_id(0)] = p[get_global_id(0)].x; }\n",
    "vector3.cl": b"kernel void v3(global const float3 *p, global float *out)\n"
                  b"{ out[get_global_id(0)] = p[get_global_id(0)].x; }\n",
    "empty.cl": b"",
    "nokernel.cl": b"int helper(int x) { return x + 1; }\n",
    "nul.cl": b"kernel void k(global int *x)\n{\n\0\tx[0] = 1;\n}\n",
    "binary.cl": b"\x7fELF\x02\x01\x01\x00" + bytes(range(256)),
    "latin1.cl": b"kernel void k(global int *x)\n{\n\tx[0] = caf\xe9;\n}\n",
    "include.cl": b"#include \"nowhere.h\"\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-unknown.cl": b"//! frob: 1\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-quote.cl": b"//! run: -a 'int[4]\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-help.cl": b"//! run: --help\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-file.cl": b"//! run: -a out:int[4] other.cl\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-option.cl": b"\n//! run: -g 0\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-expect-k.cl": b"//! expect[x]: 1\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-expect-colon.cl": b"//! expect[0] 1 2\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-expect-twice.cl": b"//! expect: 1\n//! expect[0]: 1\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-no-expect.cl": b"//! run: -a out:int[1]\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-expect-out.cl": b"//! run: -a out:int[1]\n//! expect[1]: 1\nkernel void k(global int *x) { x[0] = 1; }\n",
    "d-expect-value.cl": b"//! run: -a out:int[1]\n//! expect: abc\nkernel void k(global int *x) { x[0] = 1; }\n",
    "empty.bin": b"",
}


def bad(name, argv, status, message, env=None):
    return (name, argv, status, message, env)


BAD_INPUT = [
    # Options.
    bad("option without its value", ["plain.cl", "-a"], 2, "option '-a' needs a value"),
    bad("long option without its value", ["plain.cl", "--repeat"], 2, "option '--repeat' needs a value"),
    bad("two FILEs", ["plain.cl", "copy.cl"], 2, "one FILE.cl at a time"),
    bad("--list-devices with a FILE", ["--list-devices", "plain.cl"], 2, "--list-devices takes no FILE.cl"),
    bad("-w 0", ["-w", "0"] + RUN3, 2, "bad warp size '0'"),
    bad("-w 128", ["-w", "128"] + RUN3, 2, "bad warp size '128'"),
    bad("-w not a number", ["-w", "abc"] + RUN3, 2, "bad warp size 'abc'"),
    bad("--repeat over 1000000", ["--repeat", "1000001"] + RUN3, 2, "bad --repeat count '1000001'"),
    bad("--repeat negative", ["--repeat", "-1"] + RUN3, 2, "bad --repeat count '-1'"),
    bad("-b empty", ["-b", ""] + RUN3, 2, "unknown backend ''"),
    bad("-D empty", ["-D", ""] + RUN3, 2, "-D needs NAME[=VALUE]"),
    bad("-D without a name", ["-D", "=1"] + RUN3, 2, "-D needs NAME[=VALUE]"),
    bad("-k empty", ["-k", ""] + RUN3, 2, "plain.cl has no kernel ''"),
    bad("-d matching nothing", ["-d", "no such device"] + RUN3, 1, "no OpenCL device matches \"no such device\""),
    # Global and local sizes.
    bad("-g 0", ["-g", "0"] + NOP, 2, "bad global size '0'"),
    bad("-l 0", ["-g", "4", "-l", "0"] + NOP, 2, "bad local size '0'"),
    bad("-g negative", ["-g", "-1"] + NOP, 2, "bad global size '-1'"),
    bad("-g trailing junk", ["-g", "4x"] + NOP, 2, "bad global size '4x'"),
    bad("-g empty", ["-g", ""] + NOP, 2, "bad global size ''"),
    bad("-g trailing comma", ["-g", "4,"] + NOP, 2, "bad global size '4,'"),
    bad("-g 4 dimensions", ["-g", "4,4,4,4"] + NOP, 2, "at most 3 dimensions"),
    bad("-g over size_t", ["-g", "99999999999999999999"] + NOP, 2, "99999999999999999999 is more than size_t holds"),
    bad("-g product over size_t", ["-g", "4294967296,4294967296"] + NOP, 2, "overflow size_t"),
    bad("-l with more dimensions than -g", ["-g", "8", "-l", "2,2"] + NOP, 2,
        "the local size has 2 dimensions, the global size 1"),
    bad("-l in 2 dimensions without -g", ["-l", "2,2"] + NOP, 2, "a 2-dimensional local size needs -g"),
    bad("-l larger than -g", ["-g", "8", "-l", "16"] + NOP, 2, "the local size 16 does not divide the global size 8"),
    bad("-l not dividing dimension 1", ["-g", "4,6", "-l", "4,4"] + NOP, 2, "(dimension 1)"),
    bad("-l over the device", ["-g", "1048576", "-l", "1048576"] + NOP, 1,
        "exceeds the device's maximum work-group size"),
    bad("2^32 work-groups", ["-g", "1099511627776"] + NOP, 1, "work-groups in one launch; at most 4294967295"),
    bad("2^64-1 work-items, no local size", ["-g", "18446744073709551615"] + NOP, 1,
        "18446744073709551615 work-items without a local size"),
    bad("no global size to default to", ["-a", "int:1", "scalar.cl"], 2,
        "no -g given and no buffer argument"),
    # Argument SPECs.
    bad("SPEC empty", ["-a", ""] + RUN3[3:], 2, "bad argument SPEC '': expected a type"),
    bad("SPEC int[]", ["-a", "int[]"] + RUN3[3:], 2, "expected an element count inside [ ]"),
    bad("SPEC negative count", ["-a", "int[-1]"] + RUN3[3:], 2, "'int[-1]': expected an element count"),
    bad("SPEC fractional count", ["-a", "int[1.5]"] + RUN3[3:], 2, "'int[1.5]': expected ']'"),
    bad("SPEC hexadecimal count", ["-a", "int[0x4]"] + RUN3[3:], 2, "'int[0x4]': expected ']'"),
    bad("SPEC type in capitals", ["-a", "INT[4]"] + RUN3[3:], 2, "unknown type 'INT'"),
    bad("SPEC half", ["-a", "half[4]"] + RUN3[3:], 2, "unknown type 'half'"),
    bad("SPEC vector type", ["-a", "int4[4]"] + RUN3[3:], 2, "'int4[4]': expected [N] or :VALUE"),
    bad("SPEC empty INIT", ["-a", "int[4]="] + RUN3[3:], 2, "empty INIT after '='"),
    bad("SPEC fill()", ["-a", "int[4]=fill()"] + RUN3[3:], 2, "'int[4]=fill()': empty int value"),
    bad("SPEC fill( unclosed", ["-a", "int[4]=fill(1"] + RUN3[3:], 2, "fill(...) needs its closing ')'"),
    bad("SPEC iota( unclosed", ["-a", "int[4]=iota(1,2"] + RUN3[3:], 2, "iota(...) needs its closing ')'"),
    bad("SPEC rand) trailing", ["-a", "int[4]=rand(1)x"] + RUN3[3:], 2, "rand(...) needs its closing ')'"),
    bad("SPEC iota with one value", ["-a", "int[4]=iota(1)"] + RUN3[3:], 2, "iota takes two values"),
    bad("SPEC rand()", ["-a", "int[4]=rand()"] + RUN3[3:], 2, "'int[4]=rand()': empty ulong value"),
    bad("SPEC rand lo > hi", ["-a", "int[4]=rand(1,5,2)"] + RUN3[3:], 2, "rand needs lo <= hi"),
    bad("SPEC rand with two values", ["-a", "int[4]=rand(1,2)"] + RUN3[3:], 2, "rand takes rand(seed) or"),
    bad("SPEC list too long", ["-a", "int[4]=1,2,3,4,5"] + RUN3[3:], 2, "the list has 5 values, the buffer 4"),
    bad("SPEC list with a hole", ["-a", "int[4]=1,,2,3"] + RUN3[3:], 2, "'int[4]=1,,2,3': empty int value"),
    bad("SPEC uchar -1", ["-a", "uchar[4]=-1"] + RUN3[3:], 2, "-1, out of range for uchar"),
    bad("SPEC unclosed parenthesis", ["-a", "int[4]=(i"] + RUN3[3:], 2, "expression '(i': expected ')'"),
    bad("SPEC stray parenthesis", ["-a", "int[4]=i)"] + RUN3[3:], 2, "expression 'i)': unexpected text"),
    bad("SPEC **", ["-a", "int[4]=i**2"] + RUN3[3:], 2, "expected a number, i or '(' at '*2'"),
    bad("SPEC overflow in the expression", ["-a", "int[4]=9223372036854775807*(i+2)"] + RUN3[3:], 2,
        "integer overflow at i = 0"),
    bad("SPEC % 0", ["-a", "int[4]=i%0"] + RUN3[3:], 2, "division by zero at i = 0"),
    bad("SPEC expression out of range", ["-a", "int[4]=i*2147483648"] + RUN3[3:], 2,
        "element 1 is 2147483648, out of range for int"),
    bad("SPEC out:local:", ["-a", "out:local:int[4]"] + RUN3[3:], 2, "unknown type 'local'"),
    bad("SPEC local scalar", ["-a", "local:int:3"] + RUN3[3:], 2, "a scalar cannot be out: or local:"),
    bad("SPEC trailing blank", ["-a", "int[4] "] + RUN3[3:], 2, "expected '=INIT' or nothing after [N]"),
    bad("SPEC float literal for int", ["-a", "int[4]=i+1e3"] + RUN3[3:], 2,
        "a float literal in an integer expression"),
    bad("SPEC not UTF-8", ["-a", b"int[4]=\xff"] + RUN3[3:], 2, "expected a number, i or '('"),
    bad("SPEC N*size over size_t", ["-a", "int[18446744073709551615]"] + RUN3[3:], 2,
        "'int[18446744073709551615]': the buffer size overflows"),
    bad("scalar empty", ["-a", "int[4]", "-a", "out:int[4]", "-a", "int:", "plain.cl"], 2,
        "'int:': empty int value"),
    bad("scalar trailing junk", ["-a", "int[4]", "-a", "out:int[4]", "-a", "int:5x", "plain.cl"], 2,
        "'5x' is not an integer"),
    bad("scalar over int", ["-a", "int[4]", "-a", "out:int[4]", "-a", "int:99999999999", "plain.cl"], 2,
        "99999999999 is out of range for int"),
    bad("scalar uint -1", ["-a", "int[4]", "-a", "out:int[4]", "-a", "uint:-1", "plain.cl"], 2,
        "-1 is out of range for uint"),
    bad("scalar float 1e999", ["-a", "int[4]", "-a", "out:int[4]", "-a", "float:1e999", "plain.cl"], 2,
        "1e999 is out of range for float"),
    bad("scalar double 0x", ["-a", "int[4]", "-a", "out:int[4]", "-a", "double:0x", "plain.cl"], 2,
        "'0x' is not a double value"),
    bad("scalar char -129", ["-a", "int[4]", "-a", "out:int[4]", "-a", "char:-129", "plain.cl"], 2,
        "-129 is out of range for char"),
    bad("scalar without a type", ["-a", "int[4]", "-a", "out:int[4]", "-a", ":5", "plain.cl"], 2,
        "bad argument SPEC ':5': expected a type"),
    bad("scalar long 2^63", ["-a", "int[4]", "-a", "out:int[4]", "-a", "long:9223372036854775808",
                             "plain.cl"], 2, "9223372036854775808 is out of range for long"),
    bad("@ without a file", ["-a", "int[4]=@"] + RUN3[3:], 2, "@ needs a file name"),
    bad("@ a directory", ["-a", "int[4]=@adir.cl"] + RUN3[3:], 2, "adir.cl is not a regular file"),
    bad("@ an empty file", ["-a", "int[4]=@empty.bin"] + RUN3[3:], 2, "empty.bin has 0 bytes; int[4] needs exactly 16"),
    bad("@ /dev/null", ["-a", "int[4]=@/dev/null"] + RUN3[3:], 2, "/dev/null is not a regular file"),
    bad("local memory over the device", ["-g", "4", "-l", "4", "-a", "int[4]", "-a", "out:int[4]",
                                         "-a", "local:int[1000000000]", "-a", "int:1", "local.cl"], 1,
        "exceed the device's local memory"),
    # The kernel's parameters.
    bad("image parameter", ["-a", "int[4]", "-a", "out:int[4]", "image.cl"], 2, "is an image (image2d_t)"),
    bad("image parameter given a scalar", ["-a", "int:1", "-a", "out:int[4]", "image.cl"], 2,
        "argument 0 of kernel im is an image"),
    bad("sampler parameter", ["-a", "int:1", "-a", "out:int[4]", "sampler.cl"], 2, "is a sampler (sampler_t)"),
    bad("struct parameter", ["-a", "int[4]", "-a", "out:int[4]", "struct.cl"], 2,
        "is a struct or another type that is not one of the ten (pair)"),
    bad("vector parameter", ["-a", "float:1", "-a", "out:float[4]", "vecval.cl"], 2, "is a vector (float4)"),
    bad("float4* buffer not whole vectors", ["-a", "float[6]", "-a", "out:float[1]", "vector.cl"], 2,
        "holds whole vectors of 4 floats, but -a 'float[6]' has 6 elements"),
    bad("float3* buffer not whole vectors", ["-a", "float[6]", "-a", "out:float[1]", "vector3.cl"], 2,
        "holds whole vectors of 4 floats"),
    bad("float4* given int", ["-a", "int[8]", "-a", "out:float[2]", "vector.cl"], 2, "-a 'int[8]' gives int"),
    bad("local pointer given a buffer", ["-g", "4", "-a", "int[4]", "-a", "out:int[4]", "-a", "int[4]",
                                         "-a", "int:1", "local.cl"], 2, "argument 2 of kernel reverse is local memory"),
    bad("local pointer of another type", ["-g", "4", "-l", "4", "-a", "int[4]", "-a", "out:int[4]",
                                          "-a", "local:float[4]", "-a", "int:1", "local.cl"], 2,
        "-a 'local:float[4]' gives float"),
    bad("more -a than parameters", RUN3[:7] + ["-a", "int:2", "plain.cl"], 2,
        "kernel scale takes 3 arguments, but 4 -a were given"),
    bad("no -a at all", ["plain.cl"], 2, "kernel scale takes 3 arguments, but 0 -a were given"),
    # FILE.
    bad("empty FILE", NOP[:2] + ["empty.cl"], 2, "empty.cl defines no kernel"),
    bad("FILE without kernels", NOP[:2] + ["nokernel.cl"], 2, "nokernel.cl defines no kernel"),
    bad("FILE with a NUL byte", NOP[:2] + ["nul.cl"], 2, "nul.cl:3: not OpenCL C source: a NUL byte"),
    bad("binary FILE", NOP[:2] + ["binary.cl"], 2, "binary.cl:1: not OpenCL C source"),
    bad("FILE not UTF-8", NOP[:2] + ["latin1.cl"], 1, "latin1.cl:3:"),
    bad("FILE a directory", NOP[:2] + ["adir.cl"], 2, "cannot read adir.cl: Is a directory"),
    bad("FILE /dev/null", NOP[:2] + ["/dev/null"], 2, "/dev/null defines no kernel"),
    bad("FILE name too long", NOP[:2] + ["x" * 5000 + ".cl"], 2, "File name too long"),
    bad("FILE name not UTF-8", NOP[:2] + [b"caf\xe9.cl"], 2, "No such file or directory"),
    bad("#include of a missing file", NOP[:2] + ["include.cl"], 1, "cannot read #include \"nowhere.h\""),
    # //! directives.
    bad("unknown directive", NOP[:2] + ["d-unknown.cl"], 2, "unknown directive '//! frob: 1'"),
    bad("run: unterminated quote", ["d-quote.cl"], 2, "d-quote.cl:1: //! run: unterminated ' quote"),
    bad("run: --help", ["d-help.cl"], 2, "--help is not allowed in a kernel file"),
    bad("run: names a file", ["d-file.cl"], 2, "unexpected 'other.cl'"),
    bad("run: bad option value", ["d-option.cl"], 2, "d-option.cl:2: //! run: bad global size '0'"),
    bad("expect[x]", NOP[:2] + ["d-expect-k.cl"], 2, "expected a number in expect[K]"),
    bad("expect without ':'", NOP[:2] + ["d-expect-colon.cl"], 2, "expected ':' after expect[K]"),
    bad("expect twice", NOP[:2] + ["d-expect-twice.cl"], 2, "a second expect line for out: buffer 0"),
    bad("--check without expect", ["--check", "d-no-expect.cl"], 2, "d-no-expect.cl has no //! expect lines"),
    bad("expect for a missing out:", ["--check", "d-expect-out.cl"], 2, "expect[1], but there is only 1 out: argument"),
    bad("expect value not a literal", ["--check", "d-expect-value.cl"], 2, "'abc' is not an integer"),
    # --json: the error as a JSON object on stdout as well.
    bad("--json unknown option", ["--json", "--bogus", "plain.cl"], 2, "unknown option '--bogus'"),
    bad("--js abbreviation, after the error", ["-g", "0", "--js"] + NOP, 2, "bad global size '0'"),
    bad("--json bad SPEC", ["--json", "-a", "int[4"] + RUN3[3:], 2, "bad argument SPEC 'int[4'"),
    bad("--json SPEC not UTF-8", ["--json", "-a", b"\xff[4]"] + RUN3[3:], 2, "expected a type"),
    bad("--json kernel name not UTF-8", ["--json", "-k", b"caf\xe9"] + NOP, 2, "nop.cl has no kernel"),
    bad("--json argument type", ["--json", "-a", "int[4]", "-a", "out:int[4]", "image.cl"], 2, "is an image"),
    bad("--json build failure", ["--json"] + NOP[:2] + ["latin1.cl"], 1, "latin1.cl:3:"),
    bad("--json buffer over the device", ["--json", "-a", "out:char[1099511627776]"] + NOP[2:], 1,
        "exceed the device's largest buffer"),
    bad("--json --check without expect", ["--json", "--check", "d-no-expect.cl"], 2, "has no //! expect lines"),
    bad("--json from a run: line", ["d-option.cl", "--json"], 2, "bad global size '0'"),
]

# Garbage in every CLWARP_* variable the library and the tool read (src/engine.c,
# src/diskcache.c): empty (the same as unset), not a number, negative, huge,
# trailing junk. CLWARP_ALGO_TUNING (the algorithms only) is in test-bad-input.c.
ENV_OK = ("", 0, None)
BAD_ENV = {
    "CLWARP_DEVICE": [ENV_OK, ("no such device", 1, "CLWARP_DEVICE=\"no such device\" matches no OpenCL device"),
                      ("-1:0", 1, "CLWARP_DEVICE=\"-1:0\""), ("99999999999999999999:0", 1, "CLWARP_DEVICE=\"9999"),
                      ("0:0junk", 1, "CLWARP_DEVICE=\"0:0junk\"")],
    "CLWARP_BACKEND": [ENV_OK, ("cuda", 2, "CLWARP_BACKEND=\"cuda\": expected auto"),
                       ("-1", 2, "CLWARP_BACKEND=\"-1\""), ("99999999999999999999", 2, "CLWARP_BACKEND=\"9999"),
                       ("local2", 2, "CLWARP_BACKEND=\"local2\""), ("LOCAL", 2, "CLWARP_BACKEND=\"LOCAL\"")],
    "CLWARP_WARP_SIZE": [ENV_OK, ("abc", 2, "CLWARP_WARP_SIZE=\"abc\" is not a number"),
                         ("-1", 2, "CLWARP_WARP_SIZE=\"-1\" is not a number"),
                         ("99999999999999999999", 2, "CLWARP_WARP_SIZE=\"99999999999999999999\" is out of range"),
                         ("32x", 2, "CLWARP_WARP_SIZE=\"32x\" is not a number"),
                         (" 16", 2, "CLWARP_WARP_SIZE=\" 16\" is not a number"),
                         ("0", 2, "CLWARP_WARP_SIZE=\"0\": the width must be a power of two"),
                         ("48", 2, "CLWARP_WARP_SIZE=\"48\": the width must be a power of two"),
                         ("4096", 2, "CLWARP_WARP_SIZE=\"4096\": the width must be a power of two")],
    "CLWARP_NATIVE_WIDTH": [ENV_OK, ("yes", 2, "CLWARP_NATIVE_WIDTH=\"yes\": expected 0 or 1"),
                            ("-1", 2, "CLWARP_NATIVE_WIDTH=\"-1\""),
                            ("99999999999999999999", 2, "CLWARP_NATIVE_WIDTH=\"9999"),
                            ("1x", 2, "CLWARP_NATIVE_WIDTH=\"1x\"")],
    "CLWARP_CACHE": [ENV_OK, ("off", 2, "CLWARP_CACHE=\"off\": expected 0 (disk cache off) or 1"),
                     ("-1", 2, "CLWARP_CACHE=\"-1\""), ("99999999999999999999", 2, "CLWARP_CACHE=\"9999"),
                     ("0x", 2, "CLWARP_CACHE=\"0x\""), (" 0", 2, "CLWARP_CACHE=\" 0\"")],
    # The documented fallback: one warning, then the memory cache only.
    "CLWARP_CACHE_DIR": [ENV_OK, ("/dev/null", 0, "cannot use folder /dev/null: Not a directory"),
                         ("/dev/null/sub", 0, "cannot use folder /dev/null/sub: Not a directory"),
                         ("/" + "x" * 5000, 0, "File name too long")],
    "CLWARP_CACHE_MAX_BYTES": [ENV_OK, ("abc", 2, "CLWARP_CACHE_MAX_BYTES=\"abc\" is not a number"),
                               ("-1", 2, "CLWARP_CACHE_MAX_BYTES=\"-1\" is not a number"),
                               (" -1", 2, "CLWARP_CACHE_MAX_BYTES=\" -1\" is not a number"),
                               ("99999999999999999999", 2, "CLWARP_CACHE_MAX_BYTES=\"99999999999999999999\" is out of range"),
                               ("256M", 2, "CLWARP_CACHE_MAX_BYTES=\"256M\" is not a number"),
                               ("0", 2, "CLWARP_CACHE_MAX_BYTES=0: the bound must be at least 1 byte")],
    "CLWARP_LOG_LEVEL": [ENV_OK, ("verbose", 2, "CLWARP_LOG_LEVEL=\"verbose\": expected error, warning"),
                         ("-1", 2, "CLWARP_LOG_LEVEL=\"-1\""), ("4", 2, "CLWARP_LOG_LEVEL=\"4\""),
                         ("99999999999999999999", 2, "CLWARP_LOG_LEVEL=\"9999"),
                         ("debugx", 2, "CLWARP_LOG_LEVEL=\"debugx\"")],
}
for _var, _values in BAD_ENV.items():
    for _value, _status, _message in _values:
        BAD_INPUT.append(bad("%s=%r" % (_var, _value[:24]), RUN3, _status, _message, {_var: _value}))
BAD_INPUT += [
    bad("--list-devices, CLWARP_WARP_SIZE=abc", ["--list-devices"], 2, "CLWARP_WARP_SIZE=\"abc\"",
        {"CLWARP_WARP_SIZE": "abc"}),
    bad("--list-devices --json, CLWARP_LOG_LEVEL=loud", ["--list-devices", "--json"], 2,
        "CLWARP_LOG_LEVEL=\"loud\"", {"CLWARP_LOG_LEVEL": "loud"}),
    bad("--json, CLWARP_CACHE=no", ["--json"] + RUN3, 2, "CLWARP_CACHE=\"no\"", {"CLWARP_CACHE": "no"}),
]


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
