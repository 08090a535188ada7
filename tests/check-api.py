#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The public headers follow docs/api-conventions.md (test 'api').

    check-api.py HEADER...      one line per problem: HEADER:LINE: NAME: rule
    check-api.py --self-test    every rule must fire on a crafted bad
                                declaration, and none on a good one

Rules:
- names: no clwarp_/CLWARP_ name ends in _to_str, _alloc or _clear, or
  holds _release or release_ (comments included: a stale name there is
  wrong too);
- new: a function that returns an object through a `**` out-parameter is a
  `_new`, `_new_from_*`, `*_build_file` or `*_build_source` call
  (OUT_PARAM_EXCEPTIONS lists the exceptions, none today);
- free: a void function that releases something ends in `_free`;
- algorithm calls (first parameter clwarp_engine * or clwarp_group *, name
  in ALGORITHMS, with or without group_): the clwarp_type parameters right
  after the first; every buffer (cl_mem, cl_mem *, const cl_mem *) and
  host result (result, out_offsets) before the sizes (n, rows, row_length,
  offsets, row_offsets); the operation's parameters (op, predicate, bins,
  lower, upper) after the sizes; `unsigned flags` just before
  `cl_event *event`, or last; `cl_event *event` last; no int or bool
  option parameter.
"""
import re
import sys

ALGORITHMS = ("reduce", "scan", "compact", "partition", "unique", "run_length_encode",
              "reduce_by_key", "histogram", "segmented_reduce", "segmented_scan",
              "softmax_rows", "sort_keys", "sort_pairs")
SIZES = ("n", "rows", "row_length", "offsets", "row_offsets")
OPERATION = ("op", "predicate", "bins", "lower", "upper")
HOST_RESULTS = ("result", "out_offsets")
# Functions allowed to return an object through `**` without a _new name,
# each with its reason. None today.
OUT_PARAM_EXCEPTIONS = {}
RELEASE_WORDS = re.compile(r"(free|release|destroy|delete|clear|dispose|unref)")


def blank_comments(text):
    """The text with comments and preprocessor lines as spaces (lines kept)."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    text = re.sub(r"/\*.*?\*/|//[^\n]*", blank, text, flags=re.S)
    text = re.sub(r"\\\n", " \n", text)
    return re.sub(r"^[ \t]*#[^\n]*", blank, text, flags=re.M)


def split_params(text, start):
    """(type, name, offset) of each parameter in text[start:], split at top-level commas."""
    params, depth, cur = [], 0, start
    for i in range(start, len(text) + 1):
        c = text[i] if i < len(text) else ","
        if c in "([":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "," and depth == 0:
            raw = text[cur:i]
            stripped = raw.strip()
            offset = cur + len(raw) - len(raw.lstrip())
            if stripped and stripped != "void":
                m = re.match(r"(.*?)(\w+)\s*$", stripped, re.S)
                ptype = re.sub(r"\s+", " ", m.group(1)).strip() if m else stripped
                ptype = re.sub(r"(?<!\*)\*", " *", re.sub(r"\s*\*\s*", "*", ptype)).strip()
                params.append((ptype, m.group(2) if m else "", offset))
            cur = i + 1
    return params


def functions(text):
    """Each CLWARP_EXPORT prototype: (offset of its name, return type, name, params)."""
    code = blank_comments(text)
    out = []
    for m in re.finditer(r"\bCLWARP_EXPORT\s+([^;{}()]*?)\b(clwarp_\w+)\s*\(", code):
        depth, i = 1, m.end()
        while i < len(code) and depth:
            depth += {"(": 1, ")": -1}.get(code[i], 0)
            i += 1
        ret = re.sub(r"\s+", " ", m.group(1)).strip()
        out.append((m.start(2), ret, m.group(2), split_params(code[:i - 1], m.end())))
    return out


def algorithm_of(name, params):
    if not params or params[0][0] not in ("clwarp_engine *", "clwarp_group *"):
        return None
    base = name[len("clwarp_"):]
    if base.startswith("group_"):
        base = base[len("group_"):]
    return base if base in ALGORITHMS else None


def check_algorithm(name, params, report):
    """The argument order of one algorithm call; report(offset, rule)."""
    types = [i for i, p in enumerate(params) if p[0] == "clwarp_type"]
    if types and types != list(range(1, 1 + len(types))):
        report(params[types[0]][2], "algo-types: the clwarp_type parameters come right after "
               "the %s" % params[0][1])
    sizes = [i for i, p in enumerate(params) if p[1] in SIZES]
    first_size = sizes[0] if sizes else None
    last_size = sizes[-1] if sizes else None
    for i, (ptype, pname, off) in enumerate(params):
        buffer = ptype in ("cl_mem", "cl_mem *", "const cl_mem *")
        if first_size is not None and i > first_size and (buffer or pname in HOST_RESULTS):
            report(off, "algo-buffers: %s `%s` after the size `%s`; inputs and outputs come "
                   "before the sizes" % ("buffer" if buffer else "result", pname,
                                         params[first_size][1]))
        if last_size is not None and i < last_size and pname in OPERATION:
            report(off, "algo-operation: `%s` before the size `%s`; the operation's "
                   "parameters come after the sizes" % (pname, params[last_size][1]))
        if ptype in ("int", "bool", "_Bool"):
            report(off, "algo-int-option: `%s %s`: options are an unsigned flags word, "
                   "never a bare %s" % (ptype, pname, ptype))
    events = [i for i, p in enumerate(params) if p[0] == "cl_event *"]
    if events and events[-1] != len(params) - 1:
        report(params[events[-1]][2], "algo-event: `cl_event *%s` must be the last parameter"
               % params[events[-1]][1])
    flags = [i for i, p in enumerate(params) if p[1] == "flags"]
    if flags:
        i = flags[0]
        if params[i][0] != "unsigned":
            report(params[i][2], "algo-flags: `flags` must be `unsigned`, not `%s`" % params[i][0])
        if i != len(params) - 1 and not (events and i == events[-1] - 1):
            report(params[i][2], "algo-flags: `unsigned flags` goes just before "
                   "`cl_event *event` (or last)")


def check_text(text):
    """Problems of one header's text, as (line, name, rule)."""
    problems = []

    def line_of(offset):
        return text.count("\n", 0, offset) + 1

    seen = set()
    for m in re.finditer(r"\b(?:clwarp|CLWARP)_\w+", text):
        word = m.group(0)
        low = word.lower()
        if word in seen:
            continue
        bad = None
        for suffix in ("_to_str", "_alloc", "_clear"):
            if low.endswith(suffix):
                bad = "names: `%s` ends in %s (docs/api-conventions.md, Names)" % (word, suffix)
        if "_release" in low or "release_" in low:
            bad = "names: `%s` says release; objects are released by _free" % word
        if bad:
            seen.add(word)
            problems.append((line_of(m.start()), word, bad))

    for start, ret, name, params in functions(text):
        def report(offset, rule, name=name):
            problems.append((line_of(offset), name, rule))

        if any(p[0].endswith("**") for p in params) and name not in OUT_PARAM_EXCEPTIONS:
            if not re.search(r"(_new|_new_from_\w+|_build_file|_build_source)$", name):
                report(start, "new: returns an object through `**` but is not named _new, "
                       "_new_from_*, *_build_file or *_build_source")
        if ret == "void" and RELEASE_WORDS.search(name) and not name.endswith("_free"):
            report(start, "free: a void release function ends in _free")
        if algorithm_of(name, params):
            check_algorithm(name, params, report)
    return sorted(problems)


def check_files(paths):
    failed = 0
    for path in paths:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for line, name, rule in check_text(text):
            print("%s:%d: %s: %s" % (path, line, name, rule))
            failed += 1
    return failed


# ------------------------------------------------------------ self-test

GOOD = """
typedef struct clwarp_engine clwarp_engine;
/** A good header: nothing fires. */
CLWARP_EXPORT const char *clwarp_status_name(clwarp_status status);
CLWARP_EXPORT clwarp_status clwarp_engine_new(const clwarp_engine_options *options,
                                              clwarp_engine **engine);
CLWARP_EXPORT clwarp_status clwarp_thing_new_from_cl(cl_context c, clwarp_thing **thing);
CLWARP_EXPORT clwarp_status clwarp_program_build_file(clwarp_engine *engine, const char *path,
                                                      clwarp_program **program);
CLWARP_EXPORT void clwarp_engine_free(clwarp_engine *engine);
CLWARP_EXPORT clwarp_status clwarp_reduce(clwarp_engine *engine, clwarp_type type, cl_mem in,
                                          cl_mem result, size_t n, clwarp_op op, cl_event *event);
CLWARP_EXPORT clwarp_status clwarp_scan(clwarp_engine *engine, clwarp_type type, cl_mem in,
                                        cl_mem out, size_t n, clwarp_op op, unsigned flags,
                                        cl_event *event);
CLWARP_EXPORT clwarp_status clwarp_reduce_by_key(clwarp_engine *engine, clwarp_type key_type,
        clwarp_type value_type, cl_mem keys_in, cl_mem values_in, cl_mem keys_out,
        cl_mem aggregates_out, cl_mem num_runs, size_t n, clwarp_op op, cl_event *event);
CLWARP_EXPORT clwarp_status clwarp_group_sort_keys(clwarp_group *group, clwarp_type type,
        const cl_mem *keys, cl_mem *out_keys, size_t *out_offsets, const size_t *offsets,
        unsigned flags);
CLWARP_EXPORT clwarp_status clwarp_group_reduce(clwarp_group *group, clwarp_type type,
        const cl_mem *in, void *result, const size_t *offsets, clwarp_op op);
CLWARP_EXPORT clwarp_status clwarp_softmax_rows(clwarp_engine *engine, cl_mem in, cl_mem out,
        size_t rows, size_t row_length, cl_event *event);
"""

# (rule that must fire, crafted declaration)
BAD = [
    ("names", "CLWARP_EXPORT const char *clwarp_status_to_str(clwarp_status status);"),
    ("names", "CLWARP_EXPORT clwarp_status clwarp_host_alloc(clwarp_engine *e, size_t n);"),
    ("names", "CLWARP_EXPORT void clwarp_build_info_clear(clwarp_build_info *info);"),
    ("names", "CLWARP_EXPORT void clwarp_group_release_buffers(clwarp_group *g, cl_mem *b);"),
    ("names", "CLWARP_EXPORT void clwarp_buffers_release(clwarp_group *g, cl_mem *b);"),
    ("names", "/* free it with clwarp_release_thing() */"),
    ("names", "#define CLWARP_RELEASE_ALL 1u"),
    ("new", "CLWARP_EXPORT clwarp_status clwarp_device_list(clwarp_device_info **list, size_t *n);"),
    ("new", "CLWARP_EXPORT clwarp_status clwarp_program_kernel(clwarp_program *p, const char *name,\n"
            "                                                  clwarp_kernel **kernel);"),
    ("free", "CLWARP_EXPORT void clwarp_kernel_destroy(clwarp_kernel *kernel);"),
    ("free", "CLWARP_EXPORT void clwarp_engine_unref(clwarp_engine *engine);"),
    ("algo-types", "CLWARP_EXPORT clwarp_status clwarp_sort_pairs(clwarp_engine *e, clwarp_type kt,\n"
                   "    cl_mem keys, clwarp_type vt, cl_mem values, size_t n, unsigned flags,\n"
                   "    cl_event *event);"),
    ("algo-types", "CLWARP_EXPORT clwarp_status clwarp_reduce(clwarp_engine *e, cl_mem in,\n"
                   "    clwarp_type type, cl_mem result, size_t n, clwarp_op op, cl_event *event);"),
    ("algo-buffers", "CLWARP_EXPORT clwarp_status clwarp_unique(clwarp_engine *e, clwarp_type t,\n"
                     "    cl_mem in, size_t n, cl_mem out, cl_mem num, cl_event *event);"),
    ("algo-buffers", "CLWARP_EXPORT clwarp_status clwarp_group_scan(clwarp_group *g, clwarp_type t,\n"
                     "    const cl_mem *in, const size_t *offsets, const cl_mem *out, clwarp_op op,\n"
                     "    unsigned flags);"),
    ("algo-buffers", "CLWARP_EXPORT clwarp_status clwarp_group_reduce(clwarp_group *g, clwarp_type t,\n"
                     "    const cl_mem *in, const size_t *offsets, void *result, clwarp_op op);"),
    ("algo-operation", "CLWARP_EXPORT clwarp_status clwarp_reduce(clwarp_engine *e, clwarp_type t,\n"
                       "    clwarp_op op, cl_mem in, cl_mem result, size_t n, cl_event *event);"),
    ("algo-operation", "CLWARP_EXPORT clwarp_status clwarp_compact(clwarp_engine *e, clwarp_type t,\n"
                       "    cl_mem in, cl_mem out, cl_mem count, const char *predicate, size_t n,\n"
                       "    cl_event *event);"),
    ("algo-flags", "CLWARP_EXPORT clwarp_status clwarp_sort_keys(clwarp_engine *e, clwarp_type t,\n"
                   "    cl_mem keys, unsigned flags, size_t n, cl_event *event);"),
    ("algo-flags", "CLWARP_EXPORT clwarp_status clwarp_group_sort_keys(clwarp_group *g,\n"
                   "    clwarp_type t, const cl_mem *keys, unsigned flags, const size_t *offsets);"),
    ("algo-flags", "CLWARP_EXPORT clwarp_status clwarp_scan(clwarp_engine *e, clwarp_type t,\n"
                   "    cl_mem in, cl_mem out, size_t n, clwarp_op op, int flags, cl_event *ev);"),
    ("algo-event", "CLWARP_EXPORT clwarp_status clwarp_sort_keys(clwarp_engine *e, clwarp_type t,\n"
                   "    cl_mem keys, size_t n, cl_event *event, unsigned flags);"),
    ("algo-int-option", "CLWARP_EXPORT clwarp_status clwarp_scan(clwarp_engine *e, clwarp_type t,\n"
                        "    cl_mem in, cl_mem out, size_t n, clwarp_op op, int inclusive,\n"
                        "    cl_event *event);"),
    ("algo-int-option", "CLWARP_EXPORT clwarp_status clwarp_group_segmented_scan(clwarp_group *g,\n"
                        "    clwarp_type t, const cl_mem *in, const cl_mem *out,\n"
                        "    const size_t *row_offsets, size_t row_length, clwarp_op op,\n"
                        "    bool inclusive);"),
]


def self_test():
    failures = []
    good = check_text(GOOD)
    for line, name, rule in good:
        failures.append("the good header fires: %d: %s: %s" % (line, name, rule))
    for rule, decl in BAD:
        fired = [p for p in check_text("\n" + decl + "\n")
                 if p[2].startswith(rule + ":")]
        if not fired:
            failures.append("rule %s does not fire on:\n%s" % (rule, decl))
        elif fired[0][0] < 2:
            failures.append("rule %s fires at line %d, before the declaration" % (rule, fired[0][0]))
    # Not a vacuous pass on the real thing either: the parser finds prototypes.
    if len(functions(GOOD)) != 11:
        failures.append("the parser found %d prototypes in the good header, not 11"
                        % len(functions(GOOD)))
    for f in failures:
        print("check-api self-test: " + f)
    print("check-api self-test: %d rules on %d bad declarations, %d failures"
          % (len({r for r, _ in BAD}), len(BAD), len(failures)))
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) < 2:
        print(__doc__)
        return 2
    count = sum(len(functions(open(p, encoding="utf-8").read())) for p in argv[1:])
    if count == 0:
        print("check-api: no CLWARP_EXPORT prototype found in %s" % " ".join(argv[1:]))
        return 1
    failed = check_files(argv[1:])
    print("check-api: %d prototypes checked, %d problems" % (count, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
