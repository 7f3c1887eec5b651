"""mod.script() prints TVMScript that parses back to the same IR."""
import os

import numpy as np
import pytest

from conftest import ROOT

import tensorir as tvm
from tensorir.script import from_source

EXAMPLES = ["vector_add", "vector_add_dynamic", "matmul", "matmul_relu",
            "concat", "conv2d"]


@pytest.mark.parametrize("name", EXAMPLES)
def test_examples_round_trip(name, example):
    mod = example(name)
    script = mod.script()
    reparsed = from_source(script, f"{name}.py")
    # The same IR (printed the same way), and a fixpoint for the script.
    assert reparsed.mlir() == mod.mlir()
    assert reparsed.script() == script


def test_scheduled_module_round_trips(example):
    sch = tvm.tir.Schedule(example("matmul"))
    i, j, k = sch.get_loops("C")
    i0, i1 = sch.split(i, [None, 5])            # predicate
    f = sch.fuse(i0, i1) if False else None
    j0, j1 = sch.split(j, [None, 16])
    sch.reorder(i0, j0, k, i1, j1)
    sch.parallel(i0)
    sch.vectorize(j1)
    sch.unroll(i1)
    sch.annotate(sch.get_block("C"), "note", "x")
    script = sch.mod.script()
    assert "T.parallel(" in script and "T.vectorized(" in script
    assert "T.where(" in script and "T.block_attr(" in script
    reparsed = from_source(script)
    assert reparsed.mlir() == sch.mod.mlir()


def test_module_prints_a_class_and_a_function_prints_itself(example):
    """As in TVM: IRModule.script() is an @I.ir_module class and parses back
    to an IRModule; PrimFunc.script() is one @T.prim_func and parses back to
    a PrimFunc."""
    mod = example("vector_add")
    script = mod.script()
    assert "@I.ir_module" in script and "class Module:" in script
    assert isinstance(from_source(script), tvm.IRModule)
    func = mod["main"]
    text = func.script()
    assert "@I.ir_module" not in text and text.count("@T.prim_func") == 1
    again = from_source(text)
    assert isinstance(again, tvm.tir.PrimFunc) and again.name == "main"
    tvm.ir.assert_structural_equal(again, func)


def test_every_construct_round_trips():
    text = '''
@T.prim_func
def f(a: T.handle, n: T.int32):
    A = T.match_buffer(a, (n,), "float32")
    S = T.alloc_buffer((4, 4), "float32", scope="shared")
    for i in T.serial(4, annotations={"k": 1}):
        for j in T.thread_binding(4, thread="threadIdx.x"):
            with T.block("S"):
                vi = T.axis.spatial(4, i)
                vj = T.axis.spatial(4, j)
                T.reads([A[vi * 4 + vj], A[vi]])
                T.writes(S[vi, vj])
                S[vi, vj] = T.if_then_else(vi < vj, T.exp(A[vi * 4 + vj]), T.sqrt(A[vi]))
    for k in T.unroll(4):
        with T.block("R"):
            vk = T.axis.reduce(4, k)
            with T.init():
                A[0] = T.float32("-inf")
            A[0] = T.max(A[0], T.Cast("float32", T.min(T.int32(3), T.int32(5))) + S[vk, 0])
'''
    mod = from_source(text, "constructs.py").mod
    again = from_source(mod.script(), "printed.py")
    assert again.mlir() == mod.mlir()


def test_printer_refuses_what_tvmscript_cannot_say():
    mod = tvm.IRModule.from_mlir("""
func.func @two_sizes(%n: index, %m: index, %A: memref<?x?xf32>) {
  return
}""")
    with pytest.raises(ValueError, match="dynamic dimension"):
        mod.script()
    assert "memref<?x?xf32>" in mod.mlir()


ALL_CONSTRUCTS = '''
@I.ir_module
class Module:
    @T.prim_func
    def kernels(a: T.handle, b: T.handle, n: T.int32) -> None:
        T.func_attr({"global_symbol": "kernels", "tir.noalias": True})
        A = T.match_buffer(a, (n, 16))
        B = T.match_buffer(b, (n, 16), "int32")
        L = T.alloc_buffer((16,), "float32", scope="local")
        for i in T.serial(n, annotations={"pragma": 1}):
            for j in T.vectorized(16):
                with T.block("cast"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    T.reads([A[vi, vj]])
                    T.writes([B[vi, vj]])
                    T.block_attr({"tag": "cast"})
                    B[vi, vj] = T.Cast("int32", A[vi, vj])
        for io in T.parallel(4):
            for ii in T.unroll(4):
                with T.block("local"):
                    v = T.axis.S(16, io * 4 + ii)
                    T.where(io * 4 + ii < 16)
                    L[v] = T.if_then_else(v % 2 == 0, T.exp(A[0, v]), T.sqrt(A[0, v]))
        for t in T.thread_binding(16, thread="threadIdx.x"):
            with T.block("div"):
                vt = T.axis.spatial(16, t)
                B[0, vt] = T.floordiv(B[0, vt], 3) + T.floormod(B[0, vt], T.int32(3)) + T.max(vt // 4, vt % 4) * 0

    @T.prim_func
    def reduce(A: T.Buffer((8, 8), "float64"), M: T.Buffer((8,), "float64")):
        for i, k in T.grid(8, 8):
            with T.block("M"):
                vi = T.axis.spatial(8, i)
                vk = T.axis.R(8, k)
                with T.init():
                    M[vi] = T.float64(-1e300)
                M[vi] = T.max(M[vi], T.min(A[vi, vk], T.float64(100)))
'''


def test_listed_constructs_round_trip():
    mod = from_source(ALL_CONSTRUCTS, "constructs.py")
    assert list(mod.functions) == ["kernels", "reduce"]
    printed = mod.script()
    assert "@I.ir_module" in printed
    again = from_source(printed, "printed.py")
    # Printing is a fixpoint. (The IR is the same up to the order of
    # independent ops: a value used twice is named where it is defined.)
    assert again.script() == printed
    # And it runs (on the CPU, so without the thread-bound loop): the
    # reduction against numpy.
    cpu = from_source(ALL_CONSTRUCTS.replace(
        'T.thread_binding(16, thread="threadIdx.x")', "range(16)"))
    lib = tvm.build(cpu)
    a = np.random.default_rng(5).uniform(-200, 200, (8, 8))
    m = np.zeros(8)
    lib["reduce"](a, m)
    np.testing.assert_array_equal(m, np.minimum(a, 100).max(axis=1))
