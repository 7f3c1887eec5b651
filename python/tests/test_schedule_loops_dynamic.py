"""split and fuse of loops with runtime extents, of loops whose variables
are used outside block bindings (opaque blocks), scalable (vscale) factors
and disable_predication: the IR they produce, and the same numbers as the
unscheduled program."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T


@T.prim_func
def scale_rows(a: T.handle, b: T.handle, n: T.int32):
    A = T.match_buffer(a, (n, 24))
    B = T.match_buffer(b, (n, 24))
    for i, j in T.grid(n, 24):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0 + T.Cast("float32", vj)


@T.prim_func
def copy_opaque(A: T.Buffer((6, 8), "float32"), B: T.Buffer((6, 8), "float32")):
    for i, j in T.grid(6, 8):
        with T.block("opaque"):
            T.reads(A[i, j])
            T.writes(B[i, j])
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] + 1.0


def run_rows(mod, n):
    rng = np.random.default_rng(n)
    a = rng.uniform(-1, 1, (n, 24)).astype("float32")
    b = np.zeros((n, 24), "float32")
    tvm.build(mod)(a, b, n)
    return a, b


@pytest.mark.parametrize("n", [1, 16, 37])
def test_split_runtime_extent_matches(n):
    sch = tvm.tir.Schedule(scale_rows)
    i, j = sch.get_loops("B")
    i0, i1 = sch.split(i, [None, 16])
    text = sch.mod.mlir()
    assert "affine.apply" in text and " < %" in text  # ceildiv(n, 16) and the predicate
    a, expected = run_rows(scale_rows, n)
    _, got = run_rows(sch.mod, n)
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(got, a * 2 + np.arange(24, dtype="float32"))


@pytest.mark.parametrize("n", [3, 20])
def test_fuse_runtime_extent_then_split_matches(n):
    sch = tvm.tir.Schedule(scale_rows)
    i, j = sch.get_loops("B")
    f = sch.fuse(i, j)
    f0, f1 = sch.split(f, [None, 32])
    _, expected = run_rows(scale_rows, n)
    _, got = run_rows(sch.mod, n)
    np.testing.assert_array_equal(got, expected)


def test_split_needs_inferred_factor_for_runtime_extent():
    sch = tvm.tir.Schedule(scale_rows)
    i, _ = sch.get_loops("B")
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match="cannot prove that the factors multiply"):
        sch.split(i, [4, 8])
    assert sch.mod.mlir() == before


def run_copy(mod):
    a = np.arange(48, dtype="float32").reshape(6, 8)
    b = np.zeros((6, 8), "float32")
    tvm.build(mod)(a, b)
    return b


def test_split_and_fuse_opaque_block_match():
    expected = run_copy(copy_opaque)
    sch = tvm.tir.Schedule(copy_opaque)
    i, j = sch.get_loops("opaque")
    sch.split(i, [None, 4])          # does not divide 6: predicate on "opaque"
    np.testing.assert_array_equal(run_copy(sch.mod), expected)
    sch = tvm.tir.Schedule(copy_opaque)
    i, j = sch.get_loops("opaque")
    sch.fuse(i, j)
    assert "affine.apply" in sch.mod.mlir()
    np.testing.assert_array_equal(run_copy(sch.mod), expected)


def test_disable_predication_drops_the_predicate():
    sch = tvm.tir.Schedule(copy_opaque)
    _, j = sch.get_loops("opaque")
    sch.split(j, [2, 4], disable_predication=True)
    assert "where" not in sch.mod.mlir()
    assert "disable_predication = true" in sch.trace.as_transform_script()


def test_scalable_factors_need_a_scalable_target(capfd):
    sch = tvm.tir.Schedule(copy_opaque)
    _, j = sch.get_loops("opaque")
    with pytest.raises(tvm.tir.ScheduleError, match="cannot prove"):
        sch.split(j, [T.ceildiv(8, 4 * T.vscale()), 4 * T.vscale()])
    assert "scalable values" in capfd.readouterr().err
    with tvm.target.Target("llvm -mtriple=aarch64-linux-gnu -mattr=+sve"):
        sch.split(j, [T.ceildiv(8, 4 * T.vscale()), 4 * T.vscale()])
    text = sch.mod.mlir()
    assert "vector.vscale" in text and "where" in text


def roundtrip(func):
    """TVMScript printed from `func`, parsed back."""
    return tvm.script.from_source(func.script())


def test_split_results_print_and_parse_back():
    sch = tvm.tir.Schedule(scale_rows)
    i, j = sch.get_loops("B")
    sch.split(i, [None, 16])
    text = sch.mod["main"].script()
    assert "T.ceildiv" in text or "//" in text
    tvm.ir.assert_structural_equal(roundtrip(sch.mod["main"]), sch.mod["main"])
    sch = tvm.tir.Schedule(copy_opaque)
    _, j = sch.get_loops("opaque")
    with tvm.target.Target("llvm -mtriple=aarch64-linux-gnu -mattr=+sve"):
        sch.split(j, [T.ceildiv(8, 4 * T.vscale()), 4 * T.vscale()])
    assert "T.vscale()" in sch.mod["main"].script()
    tvm.ir.assert_structural_equal(roundtrip(sch.mod["main"]), sch.mod["main"])
