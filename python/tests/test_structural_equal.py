"""tvm.ir.structural_equal / assert_structural_equal / structural_hash:
programs equal up to the names of variables, buffers and functions; a
different structure, block name or constant is a mismatch."""
import pytest

import tensorir as tvm
from tensorir.script import tir as T

HAS_BINDING = hasattr(tvm._ext.ext, "structural_equal")
needs_binding = pytest.mark.skipif(not HAS_BINDING,
                                   reason="the extension has no structural equality yet")


@T.prim_func
def add_one(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, (8, 8))
    B = T.match_buffer(b, (8, 8))
    for i, j in T.grid(8, 8):
        with T.block("inc"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] + 1.0


@T.prim_func
def add_one_renamed(x: T.handle, y: T.handle) -> None:
    X = T.match_buffer(x, (8, 8))
    Y = T.match_buffer(y, (8, 8))
    for p, q in T.grid(8, 8):
        with T.block("inc"):
            vp, vq = T.axis.remap("SS", [p, q])
            Y[vp, vq] = X[vp, vq] + 1.0


@T.prim_func
def add_two(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, (8, 8))
    B = T.match_buffer(b, (8, 8))
    for i, j in T.grid(8, 8):
        with T.block("inc"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] + 2.0


@T.prim_func
def add_one_other_block(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, (8, 8))
    B = T.match_buffer(b, (8, 8))
    for i, j in T.grid(8, 8):
        with T.block("increment"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] + 1.0


def test_missing_binding_is_a_clear_error():
    if HAS_BINDING:
        pytest.skip("the extension has structural equality")
    with pytest.raises(NotImplementedError, match="structural_equal binding"):
        tvm.ir.structural_equal(add_one, add_one)
    with pytest.raises(NotImplementedError, match="structural_hash binding"):
        tvm.ir.structural_hash(add_one)


def test_only_modules_and_functions_compare():
    with pytest.raises(TypeError):
        tvm.ir.structural_equal(add_one, 3)


@needs_binding
def test_names_are_free():
    # Variables, buffers and (as in TVM, where a block's name is a hint)
    # blocks may be named differently.
    assert tvm.ir.structural_equal(add_one, add_one_other_block)
    assert tvm.ir.structural_equal(add_one, add_one_renamed)
    tvm.ir.assert_structural_equal(add_one, add_one_renamed)
    assert tvm.ir.structural_hash(add_one) == tvm.ir.structural_hash(add_one_renamed)


@needs_binding
@pytest.mark.parametrize("other", [add_two])
def test_mismatch(other):
    assert not tvm.ir.structural_equal(add_one, other)
    with pytest.raises(ValueError):
        tvm.ir.assert_structural_equal(add_one, other)


@needs_binding
def test_modules_match_functions_by_name():
    a = tvm.IRModule({"main": add_one})
    assert tvm.ir.structural_equal(a, tvm.IRModule({"main": add_one_renamed}))
    assert not tvm.ir.structural_equal(a, tvm.IRModule({"other": add_one}))
    assert not tvm.ir.structural_equal(a, add_one)  # a module is not a function


@needs_binding
def test_schedule_result_against_its_source():
    sch = tvm.tir.Schedule(add_one)
    tvm.ir.assert_structural_equal(sch.mod["main"], add_one)  # nothing done yet
    i, _ = sch.get_loops("inc")
    sch.split(i, factors=[2, None])
    assert not tvm.ir.structural_equal(sch.mod["main"], add_one)


@needs_binding
def test_hash_unchanged_by_scheduling_a_copy():
    mod = tvm.IRModule.from_expr(add_one.with_attr("global_symbol", "main"))
    before = tvm.ir.structural_hash(mod)
    sch = tvm.tir.Schedule(mod["main"])
    sch.split(sch.get_loops("inc")[0], factors=[None, 4])
    assert tvm.ir.structural_hash(mod) == before
    assert tvm.ir.structural_hash(sch.mod) != before


# TVM's root block written out: the function body is the root block, so a
# `with T.block("root")` that says nothing more is the same function.
@T.prim_func
def staged(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    tmp = T.alloc_buffer((8,), "float32")
    for i in range(8):
        with T.block("double"):
            vi = T.axis.spatial(8, i)
            tmp[vi] = A[vi] * 2.0
    for i in range(8):
        with T.block("inc"):
            vi = T.axis.spatial(8, i)
            B[vi] = tmp[vi] + 1.0


@T.prim_func
def staged_root_written(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    with T.block("root"):
        T.reads([])
        T.writes([])
        tmp = T.alloc_buffer((8,), "float32")
        for i in range(8):
            with T.block("double"):
                vi = T.axis.spatial(8, i)
                tmp[vi] = A[vi] * 2.0
        for i in range(8):
            with T.block("inc"):
                vi = T.axis.spatial(8, i)
                B[vi] = tmp[vi] + 1.0


@T.prim_func
def staged_root_annotated(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    with T.block("root"):
        T.block_attr({"note": 1})
        tmp = T.alloc_buffer((8,), "float32")
        for i in range(8):
            with T.block("double"):
                vi = T.axis.spatial(8, i)
                tmp[vi] = A[vi] * 2.0
        for i in range(8):
            with T.block("inc"):
                vi = T.axis.spatial(8, i)
                B[vi] = tmp[vi] + 1.0


@needs_binding
def test_written_root_block_is_the_implicit_one():
    tvm.ir.assert_structural_equal(staged, staged_root_written)
    assert tvm.ir.structural_hash(staged) == tvm.ir.structural_hash(staged_root_written)
    # The same IR, printed without the root block (so printing and parsing
    # again gives it back exactly), and scheduled alike.
    assert staged_root_written.mod.mlir().replace("staged_root_written", "staged") \
        == staged.mod.mlir()
    assert 'T.block("root")' not in staged_root_written.script()


@needs_binding
def test_root_block_saying_more_stays_a_block():
    # An annotation is not implied: the block is kept, printed, and parsed
    # back to the same function.
    assert not tvm.ir.structural_equal(staged, staged_root_annotated)
    text = staged_root_annotated.script()
    assert 'T.block("root")' in text and '"note"' in text
    again = tvm.script.from_source(text)
    tvm.ir.assert_structural_equal(again, staged_root_annotated.mod)
