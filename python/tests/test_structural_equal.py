"""tvm.ir.structural_equal / assert_structural_equal / structural_hash:
programs equal up to the names of variables, buffers and functions; a
different structure, block name or constant is a mismatch."""
import textwrap

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
# `with T.block("root")` that says nothing more is the same function. One
# two-stage body, under each of the root block's headers.
STAGED_BODY = """\
tmp = T.alloc_buffer((8,), "float32")
for i in range(8):
    with T.block("double"):
        vi = T.axis.spatial(8, i)
        tmp[vi] = A[vi] * 2.0
for i in range(8):
    with T.block("inc"):
        vi = T.axis.spatial(8, i)
        B[vi] = tmp[vi] + 1.0
"""


def staged(root_header=None, before=""):
    """The staged function; inside `with T.block("root"):` opened by the
    statements `root_header` where that is given, after the statements
    `before`."""
    body = STAGED_BODY
    if root_header is not None:
        body = 'with T.block("root"):\n' + textwrap.indent(root_header + body, "    ")
    body = before + body
    return tvm.script.from_source(
        "@T.prim_func\n"
        'def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):\n'
        + textwrap.indent(body, "    "))


@needs_binding
@pytest.mark.parametrize("header", ["", "T.reads([])\nT.writes([])\n", "T.reads()\n"])
def test_written_root_block_is_the_implicit_one(header):
    implicit, written = staged(), staged(header)
    tvm.ir.assert_structural_equal(implicit, written)
    assert tvm.ir.structural_hash(implicit) == tvm.ir.structural_hash(written)
    # The same IR, printed without the root block (so printing and parsing
    # again gives it back exactly).
    assert written.mod.mlir() == implicit.mod.mlir()
    assert 'T.block("root")' not in written.script()


@needs_binding
def test_written_root_block_beside_docstring_and_attrs():
    before = '"""Doubles, then adds one."""\nT.func_attr({"tir.noalias": True})\n'
    tvm.ir.assert_structural_equal(staged(), staged("T.reads([])\n", before))
    assert 'T.block("root")' not in staged("", before).script()


@needs_binding
@pytest.mark.parametrize("header", ['T.block_attr({"note": 1})\n',
                                    "T.reads(A[0:8])\nT.writes([])\n"])
def test_root_block_saying_more_stays_a_block(header):
    # An annotation or a region is not implied: the block is kept, printed,
    # and parsed back to the same function.
    written = staged(header)
    assert not tvm.ir.structural_equal(staged(), written)
    text = written.script()
    assert 'T.block("root")' in text
    tvm.ir.assert_structural_equal(tvm.script.from_source(text), written)
