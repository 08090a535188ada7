#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The @code snippets of include/clwarp/algorithms.h run as they read
(test 'api-snippets'): each snippet's input lines fill device buffers, its
call runs on the default engine, and its output lines must be what the
buffers hold afterwards, value by value.

    check-api-snippets.py HEADER LIBCLWARP_SO CC [CFLAGS...]

A snippet reads:

    // NAME = {VALUES}        before the call: what buffer NAME holds
    C declaration;            e.g. cl_int lower = 0, upper = 10;
    clwarp_CALL(engine, ...); the call, over one or more lines
    // NAME = {VALUES}        after the call: what NAME must hold

NAME is an argument of the call. Every cl_mem argument gets a buffer of
its element type: the call's clwarp_type (key_type for keys, value_type
for values), cl_uint for the counts, float where the call has no type.
Every algorithm on one engine must have a snippet that checks an output.
"""
import os
import re
import subprocess
import sys
import tempfile

C_TYPES = {"CLWARP_TYPE_INT": "cl_int", "CLWARP_TYPE_UINT": "cl_uint",
           "CLWARP_TYPE_LONG": "cl_long", "CLWARP_TYPE_ULONG": "cl_ulong",
           "CLWARP_TYPE_FLOAT": "cl_float", "CLWARP_TYPE_DOUBLE": "cl_double",
           "CLWARP_TYPE_CHAR": "cl_char", "CLWARP_TYPE_UCHAR": "cl_uchar",
           "CLWARP_TYPE_SHORT": "cl_short", "CLWARP_TYPE_USHORT": "cl_ushort"}
COUNTERS = ("count", "num_selected", "num_runs", "counts_out", "counts")
KEYS = ("keys", "keys_in", "unique_keys_out")
VALUES = ("values", "values_in", "aggregates_out")
# Elements of every buffer a snippet gets (at least as many as it shows).
BUFFER_ELEMENTS = 64


def prototypes(code):
    """name -> [(type, parameter name)] of each CLWARP_EXPORT prototype."""
    code = re.sub(r"/\*.*?\*/", " ", code, flags=re.S)
    out = {}
    for m in re.finditer(r"\bCLWARP_EXPORT\s+[^;{}()]*?\b(clwarp_\w+)\s*\(([^;{}]*?)\)\s*;", code):
        params = []
        for p in m.group(2).split(","):
            p = " ".join(p.split())
            pm = re.match(r"(.*?)\s*(\w+)$", p)
            if pm and p != "void":
                params.append((pm.group(1).replace(" *", "*").replace("*", " *").strip(),
                               pm.group(2)))
        out[m.group(1)] = params
    return out


def snippets(text):
    """(line, lines) of each @code block in a doc comment."""
    out, lines = [], text.split("\n")
    i = 0
    while i < len(lines):
        if lines[i].strip() == "* @code":
            start, body = i + 1, []
            i += 1
            while lines[i].strip() != "* @endcode":
                body.append(re.sub(r"^\s*\* ?", "", lines[i]))
                i += 1
            out.append((start + 1, body))
        i += 1
    return out


def split_args(call):
    args, depth, cur = [], 0, ""
    for c in call[call.index("(") + 1:call.rindex(")")]:
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        if c == "," and depth == 0:
            args.append(cur.strip())
            cur = ""
        else:
            cur += c
    return args + [cur.strip()]


def parse(line, body):
    """The snippet as (inputs, statements, call, outputs); raises ValueError."""
    inputs, outputs, statements, call = [], [], [], None
    pending = ""
    for text in body:
        stripped = text.strip()
        if not stripped:
            continue
        if stripped.startswith("//"):
            m = re.fullmatch(r"//\s*(\w+) = \{(.*)\}", stripped)
            if not m:
                raise ValueError("a comment that is not `// NAME = {VALUES}`: %s" % stripped)
            (outputs if call else inputs).append((m.group(1), m.group(2)))
        elif pending or re.match(r"clwarp_\w+\s*\(", stripped):
            pending += " " + stripped
            if pending.rstrip().endswith(";"):
                if call:
                    raise ValueError("more than one call")
                call, pending = pending.strip(), ""
        else:
            statements.append(stripped)
    if not call:
        raise ValueError("no call")
    if not outputs:
        raise ValueError("no output line to check")
    return inputs, statements, call, outputs


def element_types(name, params, args):
    """Argument text -> C element type of each cl_mem argument."""
    by_name = {p[1]: a for p, a in zip(params, args)}
    out = {}
    for (ptype, pname), arg in zip(params, args):
        if ptype != "cl_mem":
            continue
        if pname in COUNTERS:
            t = "cl_uint"
        elif pname in KEYS and "key_type" in by_name:
            t = C_TYPES[by_name["key_type"]]
        elif pname in VALUES and "value_type" in by_name:
            t = C_TYPES[by_name["value_type"]]
        elif "type" in by_name:
            t = C_TYPES[by_name["type"]]
        else:
            t = "cl_float"
        out[arg] = t
    return out


def program(header, protos):
    """The C program that runs every snippet, and the algorithms covered."""
    parts, covered, index = [], set(), 0
    for line, body in snippets(open(header, encoding="utf-8").read()):
        inputs, statements, call, outputs = parse(line, body)
        name = re.match(r"(clwarp_\w+)", call).group(1)
        params = protos[name]
        args = split_args(call)
        if len(args) != len(params):
            raise ValueError("%s:%d: %s takes %d arguments, the snippet passes %d"
                             % (header, line, name, len(params), len(args)))
        types = element_types(name, params, args)
        for buf, _ in inputs + outputs:
            if buf not in types:
                raise ValueError("%s:%d: `%s` is not a buffer argument of the call"
                                 % (header, line, buf))
        index += 1
        covered.add(name)
        f = ["static int", "snippet%d(clwarp_engine *engine)" % index, "{",
             "\tint bad = 0;", "\tclwarp_status status;"]
        for buf, t in types.items():
            f.append("\tcl_mem %s = NULL;" % buf)
        for buf, values in inputs:
            f.append("\t%s %s_host[] = {%s};" % (types[buf], buf, values))
        f += ["\t%s" % s for s in statements]
        for buf, t in types.items():
            data = ("%s_host, sizeof(%s_host)" % (buf, buf)) if buf in dict(inputs) else "NULL, 0"
            f.append("\t%s = make(engine, %d * sizeof(%s), %s);" % (buf, BUFFER_ELEMENTS, t, data))
        f.append("\tstatus = %s" % call)
        f.append("\tif (status != CLWARP_OK) {")
        f.append("\t\tprintf(\"%s:%d: %s: %%s: %%s\\n\", clwarp_status_name(status), "
                 "clwarp_last_error());" % (os.path.basename(header), line, name))
        f.append("\t\tbad = 1;")
        f.append("\t}")
        for buf, values in outputs:
            t = types[buf]
            f.append("\tif (!bad) {")
            f.append("\t\t%s want[] = {%s}, got[sizeof(want) / sizeof(want[0])];" % (t, values))
            f.append("\t\tbad |= compare(engine, \"%s:%d: %s\", \"%s\", %s, want, got, "
                     "sizeof(want[0]), sizeof(want) / sizeof(want[0]), %d);"
                     % (os.path.basename(header), line, name, buf, buf,
                        1 if t in ("cl_float", "cl_double") else 0))
            f.append("\t}")
        for buf in types:
            f.append("\tif (%s)\n\t\tclReleaseMemObject(%s);" % (buf, buf))
        f.append("\tif (!bad)\n\t\tprintf(\"%s:%d: %s: as shown\\n\");"
                 % (os.path.basename(header), line, name))
        f += ["\treturn bad;", "}", ""]
        parts.append("\n".join(f))
    calls = "\n".join("\tfailed += snippet%d(engine);" % (i + 1) for i in range(index))
    return PRELUDE + "\n".join(parts) + MAIN % calls, covered


PRELUDE = r"""#include <clwarp/clwarp.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static cl_mem
make(clwarp_engine *engine, size_t bytes, const void *data, size_t data_bytes)
{
	cl_mem m = NULL;
	char zero[64 * 8] = { 0 };

	if (clwarp_buffer_new(engine, CL_MEM_READ_WRITE, bytes, zero, &m) != CLWARP_OK ||
	    (data_bytes && clwarp_buffer_write(engine, m, 0, data_bytes, data) != CLWARP_OK))
		printf("buffer: %s\n", clwarp_last_error());
	return m;
}

/* Element i of want and got as a double, for the message. */
static double
value(const void *p, size_t size, size_t i, int is_float)
{
	const char *c = (const char *)p + i * size;

	if (is_float)
		return size == 4 ? (double)*(const float *)c : *(const double *)c;
	switch (size) {
	case 1: return *(const signed char *)c;
	case 2: return *(const short *)c;
	case 4: return *(const int *)c;
	default: return (double)*(const long long *)c;
	}
}

static int
compare(clwarp_engine *engine, const char *where, const char *name, cl_mem m, const void *want,
	void *got, size_t size, size_t count, int is_float)
{
	if (clwarp_buffer_read(engine, m, 0, size * count, got) != CLWARP_OK) {
		printf("%s: reading %s: %s\n", where, name, clwarp_last_error());
		return 1;
	}
	for (size_t i = 0; i < count; i++) {
		double w = value(want, size, i, is_float), g = value(got, size, i, is_float);
		int same = is_float ? fabs(w - g) <= 1e-6 * (fabs(w) > 1 ? fabs(w) : 1)
				    : !memcmp((const char *)want + i * size, (char *)got + i * size, size);

		if (!same) {
			printf("%s: %s[%zu] is %.9g, the snippet shows %.9g\n", where, name, i, g, w);
			return 1;
		}
	}
	return 0;
}

"""

MAIN = r"""
int
main(void)
{
	clwarp_engine *engine = NULL;
	int failed = 0;

	if (clwarp_engine_new(NULL, &engine) != CLWARP_OK) {
		printf("engine: %%s\n", clwarp_last_error());
		return 1;
	}
%s
	clwarp_engine_free(engine);
	return failed != 0;
}
"""


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    header, lib, cc = argv[1], argv[2], argv[3:]
    text = open(header, encoding="utf-8").read()
    protos = prototypes(text)
    try:
        source, covered = program(header, protos)
    except (ValueError, KeyError) as e:
        print("%s: a snippet does not parse: %s" % (header, e))
        return 1
    algorithms = {n for n, p in protos.items() if p and p[0][0] == "clwarp_engine *"}
    missing = sorted(algorithms - covered)
    if missing:
        print("%s: no @code snippet for %s" % (header, ", ".join(missing)))
        return 1
    include = os.path.dirname(os.path.dirname(os.path.abspath(header)))
    with tempfile.TemporaryDirectory() as tmp:
        src, exe = os.path.join(tmp, "snippets.c"), os.path.join(tmp, "snippets")
        with open(src, "w", encoding="utf-8") as f:
            f.write(source)
        cmd = cc + ["-std=c11", "-Wall", "-Wextra", "-Werror", "-I", include, src, lib,
                    "-lOpenCL", "-lm", "-Wl,-rpath," + os.path.dirname(lib), "-o", exe]
        build = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               universal_newlines=True)
        if build.returncode != 0:
            print("the snippets do not build:\n%s\n%s" % (build.stdout, source))
            return 1
        run = subprocess.run([exe], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             universal_newlines=True, timeout=600)
        print(run.stdout, end="")
        print("%d snippets of %d algorithms: exit %d" % (source.count("static int\nsnippet"),
                                                         len(covered), run.returncode))
        return 1 if run.returncode else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
