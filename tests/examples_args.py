# The argument SPECs and INIT values of clwarp-run, for
# tests/examples-reference.py: the inputs of the example kernels from their
# '//! run:' options, evaluated with C semantics.
# SPDX-License-Identifier: MIT
"""clwarp-run's argument SPECs and INIT values, as clwarp-run documents them."""

import ast
import math
import shlex
import struct

FLOAT_TYPES = ("float", "double")
INT_TYPES = {
    "char": (8, True), "uchar": (8, False), "short": (16, True), "ushort": (16, False),
    "int": (32, True), "uint": (32, False), "long": (64, True), "ulong": (64, False),
}

# ---------------------------------------------------------------------------
# Argument SPECs and INIT values, as clwarp-run documents them.


def c_div(a, b):
    """C integer division: truncates toward zero."""
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


def c_mod(a, b):
    """C remainder: takes the sign of the dividend."""
    return a - c_div(a, b) * b


def eval_expr(text, i, floating):
    """An INIT expression in i: + - * / %, unary minus, parentheses."""

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
            if isinstance(node.value, float) and not floating:
                raise ValueError("a float literal in an integer expression: " + text)
            return float(node.value) if floating else node.value
        if isinstance(node, ast.Name) and node.id == "i":
            return float(i) if floating else i
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            v = ev(node.operand)
            return -v if isinstance(node.op, ast.USub) else v
        if isinstance(node, ast.BinOp):
            a, b = ev(node.left), ev(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Sub):
                return a - b
            if isinstance(node.op, ast.Mult):
                return a * b
            if isinstance(node.op, ast.Div):
                return a / b if floating else c_div(a, b)
            if isinstance(node.op, ast.Mod):
                return math.fmod(a, b) if floating else c_mod(a, b)
        raise ValueError("unsupported INIT expression: " + text)

    return ev(ast.parse(text, mode="eval"))


def to_type(t, v):
    """Stores v in an element of type t (float: rounded to single precision)."""
    if t == "float":
        return struct.unpack("f", struct.pack("f", float(v)))[0]
    if t == "double":
        return float(v)
    bits, signed = INT_TYPES[t]
    lo, hi = (-(1 << (bits - 1)), (1 << (bits - 1)) - 1) if signed else (0, (1 << bits) - 1)
    if not lo <= v <= hi:
        raise ValueError("%r is out of range for %s" % (v, t))
    return int(v)


def literal(t, text):
    return to_type(t, float(text) if t in FLOAT_TYPES else int(text, 0))


def init_values(t, n, init):
    floating = t in FLOAT_TYPES
    if init is None:
        return [to_type(t, 0)] * n
    if init == "iota":
        return [to_type(t, i) for i in range(n)]
    if init.startswith("iota("):
        start, step = (literal(t, s) for s in init[5:-1].split(","))
        return [to_type(t, start + i * step) for i in range(n)]
    if init.startswith("fill("):
        return [literal(t, init[5:-1])] * n
    if init.startswith(("rand(", "@")):
        raise ValueError("the reference cannot reproduce INIT " + init + "; use an expression")
    if "," in init:
        vals = [literal(t, s) for s in init.split(",")]
        if len(vals) != n:
            raise ValueError("INIT %s has %d values for %d elements" % (init, len(vals), n))
        return vals
    return [to_type(t, eval_expr(init, i, floating)) for i in range(n)]


class Arg:
    """One kernel argument: a buffer (values; out says it is printed) or a scalar."""

    def __init__(self, spec):
        self.spec = spec
        self.out = spec.startswith("out:")
        body = spec[4:] if self.out else spec
        if body.startswith("local:"):   # local memory: no host values
            self.type, rest = body[6:].split("[", 1)
            self.count = int(rest.rstrip("]"))
            self.value = None
        elif "[" in body:
            self.type, rest = body.split("[", 1)
            count, _, init = rest.partition("]")
            self.count = int(count)
            init = init[1:] if init.startswith("=") else None
            self.value = init_values(self.type, self.count, init)
        else:
            self.type, _, text = body.partition(":")
            self.count = None
            self.value = literal(self.type, text)


def parse_run(run):
    """The -a SPECs of a run line, in order, and the rest of its options."""
    tokens = shlex.split(run)
    specs, rest = [], []
    k = 0
    while k < len(tokens):
        if tokens[k] == "-a":
            specs.append(tokens[k + 1])
            k += 2
        else:
            rest.append(tokens[k])
            k += 1
    return specs, rest
