"""TVM's -fast-math / -fast-math-reassoc targets let float reductions be
reordered (--tir-reassociate-reductions): LLVM keeps partial sums in vector
lanes. The default keeps the program's order, bit for bit."""
import re

import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T


@T.prim_func
def row_sum(A: T.Buffer((64, 768), "float32"), B: T.Buffer((64,), "float32")):
    for i, k in T.grid(64, 768):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]


def _run(target):
    lib = tvm.build(row_sum, target=target)
    a = np.random.default_rng(5).uniform(-1, 1, (64, 768)).astype("float32")
    b = np.zeros(64, "float32")
    lib(a, b)
    return a, b, lib.get_source("asm")


def test_the_default_sums_in_the_programs_order():
    a, b, asm = _run("llvm")
    # The sequential sum in float32, term by term.
    sequential = np.cumsum(a, axis=1, dtype=np.float32)[:, -1]
    np.testing.assert_array_equal(b, sequential)
    assert not re.search(r"vaddps\s+%[yz]mm", asm)


@pytest.mark.parametrize("target", ["llvm -fast-math-reassoc", "llvm -fast-math"])
def test_fast_math_targets_vectorize_the_sum(target):
    a, b, asm = _run(target)
    np.testing.assert_allclose(b, a.astype(np.float64).sum(axis=1), rtol=1e-5, atol=1e-5)
    if "avx" in open("/proc/cpuinfo").read():
        assert re.search(r"vaddps\s+%[xyz]mm", asm), "no vector add in the reduction"
