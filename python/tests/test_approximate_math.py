"""exp, log, log2, tanh and erf on the CPU are inline polynomials
(--tir-approximate-math, on by default): vectorized, and within a few units
in the last place of the correctly rounded result over all of f32."""
import math
import re

import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import from_source

N = 1 << 18
SOURCE = '''
@T.prim_func
def f(A: T.Buffer(({n},), "float32"), B: T.Buffer(({n},), "float32")):
    for i in range({n}):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = T.{fn}(A[vi])
'''
REFERENCE = {"exp": np.exp, "log": np.log, "log2": np.log2, "tanh": np.tanh,
             "erf": np.vectorize(math.erf, otypes=[np.float64])}
# Measured: exp 5.2 (near overflow), log 1.0, log2 1.7, tanh 4.5, erf 4.3.
MAX_ULP = {"exp": 6, "log": 2, "log2": 2, "tanh": 5, "erf": 5}
SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-40, 1.17e-38,
                    88.72, 88.73, 89.0, -87.3, -87.34, -95.0, -103.0, -104.0, -200.0, 1.0,
                    -1.0, 3.4e38, -3.4e38, 0.5, 2.0, 1e-7, -1e-7], np.float32)


def _build(fn, n, vector_lanes):
    sch = tvm.tir.Schedule(from_source(SOURCE.format(n=n, fn=fn)))
    if vector_lanes:
        (i,) = sch.get_loops(sch.get_block("B"))
        sch.vectorize(sch.split(i, [None, vector_lanes])[1])
    return tvm.build(sch.mod)


def _ulps(got, exact):
    """|got - exact| in units of the last place of exact rounded to f32
    (subnormal units below the smallest normal)."""
    rounded = exact.astype(np.float32)
    unit = np.maximum(np.spacing(np.abs(rounded)), np.float32(2.0 ** -149)).astype(np.float64)
    return np.abs(got.astype(np.float64) - exact) / unit


@pytest.mark.parametrize("fn", sorted(MAX_ULP))
@pytest.mark.parametrize("lanes", [16, 0], ids=["vector", "scalar"])
def test_within_a_few_ulp_over_all_of_f32(fn, lanes):
    rng = np.random.default_rng(7)
    inputs = {
        "any bit pattern": rng.integers(0, 2 ** 32, N, dtype=np.uint64).astype(np.uint32)
        .view(np.float32),
        "[-10, 10]": rng.uniform(-10, 10, N).astype(np.float32),
        "[-104, 89]": rng.uniform(-104, 89, N).astype(np.float32),
    }
    lib = _build(fn, N, lanes)
    for name, a in inputs.items():
        a = a.copy()
        a[:SPECIAL.size] = SPECIAL
        b = np.empty_like(a)
        lib(a, b)
        with np.errstate(all="ignore"):
            exact = REFERENCE[fn](a.astype(np.float64))
            rounded = exact.astype(np.float32)
        # NaN where libm gives NaN, the same infinities, and within
        # MAX_ULP where the result is finite.
        np.testing.assert_array_equal(np.isnan(b), np.isnan(rounded), err_msg=name)
        inf = np.isinf(rounded)
        np.testing.assert_array_equal(b[inf], rounded[inf], err_msg=name)
        finite = np.isfinite(rounded)
        ulps = _ulps(b[finite], exact[finite])
        worst = int(np.argmax(ulps))
        assert ulps[worst] <= MAX_ULP[fn], (
            f"{fn} on {name}: {ulps[worst]:.2f} ulp at x={a[finite][worst]!r} "
            f"(got {b[finite][worst]!r}, exact {exact[finite][worst]!r})")


def test_no_libm_call_is_left_in_a_vectorized_loop():
    for fn in MAX_ULP:
        asm = _build(fn, 256, 16).get_source("asm")
        calls = re.findall(r"call\w*\s+(\S+)", asm)
        assert calls == [], (fn, calls)
