"""compute_inline / reverse_compute_inline: scheduled and unscheduled
programs give the same numbers, the trace replays, and a refused primitive
leaves the IR as it was."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def chain(A: T.Buffer((8, 6), "float32"), D: T.Buffer((8, 6), "float32")):
    B = T.alloc_buffer((8, 6), "float32")
    C = T.alloc_buffer((8, 6), "float32")
    for i, j in T.grid(8, 6):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0
    for i, j in T.grid(8, 6):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + A[vi, vj]
    for i, j in T.grid(8, 6):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = C[vi, vj] * B[vi, vj]


@T.prim_func
def stencil(A: T.Buffer((10,), "float32"), C: T.Buffer((8,), "float32")):
    B = T.alloc_buffer((10,), "float32")
    for i in range(10):
        with T.block("B"):
            vi = T.axis.spatial(10, i)
            B[vi] = A[vi] * A[vi]
    for i in range(8):
        with T.block("C"):
            vi = T.axis.spatial(8, i)
            C[vi] = B[vi] + B[vi + 1] + B[vi + 2]


@T.prim_func
def reshape(A: T.Buffer((64,), "float32"), C: T.Buffer((3, 4, 4), "float32")):
    B = T.alloc_buffer((64,), "float32")
    for i in range(64):
        with T.block("B"):
            vi = T.axis.spatial(64, i)
            B[vi] = A[vi] + 1.0
    for i, j, k in T.grid(3, 4, 4):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSS", [i, j, k])
            C[vi, vj, vk] = B[vi * 16 + vj * 4 + vk] * 3.0


def run(func, name, *shapes_in, out_shape):
    lib = tvm.build(func, target="llvm")
    rng = np.random.default_rng(0)
    args = [rng.uniform(-1, 1, s).astype("float32") for s in shapes_in]
    out = np.zeros(out_shape, "float32")
    lib[name](*args, out)
    return out


def same_numbers(original, scheduled, name, *shapes_in, out_shape):
    expected = run(original, name, *shapes_in, out_shape=out_shape)
    got = run(scheduled, name, *shapes_in, out_shape=out_shape)
    np.testing.assert_allclose(got, expected, rtol=1e-6)


def test_compute_inline_chain_same_numbers():
    sch = tvm.tir.Schedule(chain)
    sch.compute_inline(sch.get_block("B"))
    sch.compute_inline(sch.get_block("C"))
    text = sch.mod["main"].script()
    assert "alloc_buffer" not in text and text.count("T.block") == 1
    same_numbers(chain, sch.mod["main"], "chain", (8, 6), out_shape=(8, 6))
    verify_trace_roundtrip(sch, mod=chain)


def test_compute_inline_stencil_reads_three_times():
    sch = tvm.tir.Schedule(stencil)
    sch.compute_inline("B")
    assert sch.mod["main"].script().count("A[") == 6
    same_numbers(stencil, sch.mod["main"], "stencil", (10,), out_shape=(8,))


def test_reverse_compute_inline_same_numbers():
    sch = tvm.tir.Schedule(chain)
    # D reads B and C; with B inlined it reads C alone, which C writes.
    sch.compute_inline(sch.get_block("B"))
    sch.reverse_compute_inline(sch.get_block("D"))
    assert sch.mod["main"].script().count("T.block") == 1
    same_numbers(chain, sch.mod["main"], "chain", (8, 6), out_shape=(8, 6))
    verify_trace_roundtrip(sch, mod=chain)


def test_reverse_compute_inline_fused_read_same_numbers():
    # C reads B at one fused index: the producer writes C at its split,
    # and only where the consumer's 48 of 64 elements are.
    sch = tvm.tir.Schedule(reshape)
    sch.reverse_compute_inline(sch.get_block("C"))
    assert "T.where" in sch.mod["main"].script()
    same_numbers(reshape, sch.mod["main"], "reshape", (64,), out_shape=(3, 4, 4))
    verify_trace_roundtrip(sch, mod=reshape)


def test_refused_inlines_leave_ir():
    sch = tvm.tir.Schedule(chain)
    before = str(sch.mod)
    # D writes an argument; B, which C reads, is also read by D.
    with pytest.raises(tvm.tir.ScheduleError, match="not an output block"):
        sch.compute_inline(sch.get_block("D"))
    with pytest.raises(tvm.tir.ScheduleError, match="only reader"):
        sch.reverse_compute_inline(sch.get_block("C"))
    sch2 = tvm.tir.Schedule(stencil)
    with pytest.raises(tvm.tir.ScheduleError, match="different indices"):
        sch2.reverse_compute_inline(sch2.get_block("C"))
    assert str(sch.mod) == before
    assert "compute_inline" not in "\n".join(sch.trace.as_python())


def test_handle_of_inlined_block_is_gone():
    sch = tvm.tir.Schedule(chain)
    b = sch.get_block("B")
    sch.compute_inline(b)
    with pytest.raises(tvm.tir.ScheduleError):
        sch.compute_inline(b)
    assert sch.get(sch.get_block("C")).name_hint == "C"


def test_trace_forms():
    sch = tvm.tir.Schedule(chain)
    sch.compute_inline(sch.get_block("B"))
    sch.reverse_compute_inline(sch.get_block("D"))
    python = "\n".join(sch.trace.as_python())
    assert "sch.compute_inline(block=b0)" in python
    assert "sch.reverse_compute_inline(block=b1)" in python
    script = sch.trace.as_transform_script()
    assert "transform.tir.compute_inline %" in script
    assert "transform.tir.reverse_compute_inline %" in script


@T.prim_func
def guarded(A: T.Buffer((8, 4), "float32"), D: T.Buffer((16, 4), "float32")):
    B = T.alloc_buffer((8, 4))
    for i, j in T.grid(8, 4):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0
    for i, j in T.grid(16, 4):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = T.if_then_else(vi >= 8, B[vi - 8, vj], T.float32(0), dtype="float32")


def test_compute_inline_into_a_guarded_read_same_numbers():
    # The load sits in the branch of T.if_then_else: the computation goes
    # there, and the reverse is refused (the producer does not cover C).
    sch = tvm.tir.Schedule(guarded)
    with pytest.raises(tvm.tir.ScheduleError, match="does not cover"):
        sch.reverse_compute_inline("C")
    sch.compute_inline("B")
    assert "A[vi - 8, vj] * T.float32(2.0)" in sch.mod["main"].script()
    same_numbers(guarded, sch.mod["main"], "guarded", (8, 4), out_shape=(16, 4))


def test_inlined_constant_producer_leaves_nothing_behind():
    # A producer of one element (TVM's compile_engine_const: one unit
    # iteration variable) inlined: its variable's value, 0, is no dead
    # constant in the consumer, which prints as the one store.
    @T.prim_func
    def add_const(A: T.Buffer((4, 4), "float32"), D: T.Buffer((4, 4), "float32")):
        c = T.alloc_buffer((), "float32")
        with T.block("const"):
            vi = T.axis.spatial(1, 0)
            c[()] = T.float32(1)
        for i, j in T.grid(4, 4):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = A[vi, vj] + c[()]

    sch = tvm.tir.Schedule(add_const)
    sch.compute_inline(sch.get_block("const"))
    assert "arith.constant 0 : index" not in sch.mod.mlir()
    assert "D[vi, vj] = A[vi, vj] + T.float32(1.0)" in sch.mod.script()
    a = np.random.rand(4, 4).astype("float32")
    d = np.zeros((4, 4), "float32")
    tvm.build(sch.mod)["add_const"](a, d)
    np.testing.assert_allclose(d, a + 1)
