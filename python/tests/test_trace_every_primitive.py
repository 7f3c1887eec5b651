"""For every schedule primitive (every transform.tir op the extension
registers), a schedule that uses it replays to the same module from its
trace, from the trace printed as Python, and from the trace as a transform
script run by tir-opt. A primitive added without a case here fails
test_every_primitive_has_a_case."""
import pytest

import tensorir as tvm
from tensorir._ext import ext
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import _tir_opt, verify_trace_roundtrip


@T.prim_func
def two_stage(A: T.Buffer((16, 8), "float32"), C: T.Buffer((16, 8), "float32")):
    B = T.alloc_buffer((16, 8), "float32")
    for i, j in T.grid(16, 8):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0
    for i, j in T.grid(16, 8):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + 1.0


def _loops(sch, name):
    return sch.get_loops(sch.get_block(name))


CASES = {
    "get_block": lambda sch: sch.get_block("C", func_name="main"),
    "get_loops": lambda sch: _loops(sch, "B"),
    "get_child_blocks": lambda sch: sch.get_child_blocks(_loops(sch, "C")[0]),
    "get_producers": lambda sch: sch.get_producers(sch.get_block("C")),
    "get_consumers": lambda sch: sch.get_consumers(sch.get_block("B")),
    "sample_perfect_tile": lambda sch: sch.split(
        _loops(sch, "B")[0], sch.sample_perfect_tile(_loops(sch, "B")[0], n=2, decision=[4, 4])),
    "split": lambda sch: sch.split(_loops(sch, "B")[1], factors=[None, 3],
                                   preserve_unit_iters=False),
    "fuse": lambda sch: sch.fuse(*_loops(sch, "C")),
    "reorder": lambda sch: sch.reorder(*reversed(_loops(sch, "C"))),
    "add_unit_loop": lambda sch: sch.add_unit_loop(sch.get_block("B")),
    "compute_at": lambda sch: sch.compute_at("B", _loops(sch, "C")[0]),
    "reverse_compute_at": lambda sch: sch.reverse_compute_at("C", _loops(sch, "B")[0],
                                                             preserve_unit_loops=True),
    "parallel": lambda sch: sch.parallel(_loops(sch, "B")[0]),
    "vectorize": lambda sch: sch.vectorize(_loops(sch, "C")[1]),
    "unroll": lambda sch: sch.unroll(_loops(sch, "C")[1]),
    "bind": lambda sch: sch.bind(_loops(sch, "B")[0], "blockIdx.x"),
    "annotate": lambda sch: sch.annotate(sch.get_block("B"), "note", 3),
    "unannotate": lambda sch: (sch.annotate(_loops(sch, "B")[0], "pragma", "x"),
                               sch.unannotate(_loops(sch, "B")[0], "pragma")),
}


def test_every_primitive_has_a_case():
    assert sorted(ext.primitive_names()) == sorted(CASES)


@pytest.mark.parametrize("kind", sorted(CASES))
def test_trace_and_transform_script_agree(kind):
    sch = tvm.tir.Schedule(two_stage, debug_mask="all")
    CASES[kind](sch)
    assert f"sch.{kind}(" in sch.trace.as_python()
    assert f"transform.tir.{kind}" in sch.trace.as_transform_script()
    formats = ["python", "transform"] if _tir_opt() else ["python"]
    verify_trace_roundtrip(sch, mod=two_stage, text_format=formats)


def test_a_refused_step_leaves_module_and_trace_alone():
    sch = tvm.tir.Schedule(two_stage)
    i, _ = _loops(sch, "B")
    before_mod, before_trace = sch.mod.mlir(), sch.trace.as_transform_script()
    with pytest.raises(tvm.tir.ScheduleError, match="factors multiply to 6"):
        sch.split(i, factors=[2, 3])
    assert sch.mod.mlir() == before_mod
    assert sch.trace.as_transform_script() == before_trace


def test_unknown_primitive_and_bad_arguments():
    sch = tvm.tir.Schedule(two_stage)
    with pytest.raises(AttributeError, match="no attribute 'no_such_primitive'"):
        sch.no_such_primitive
    with pytest.raises(TypeError, match="unexpected argument 'colour'"):
        sch.parallel(_loops(sch, "B")[0], colour=1)
    with pytest.raises(tvm.tir.ScheduleError, match="expects handles to tir.for ops"):
        sch.parallel(sch.get_block("B"))
