"""tvm.tir.IndexMap: maps written as Python functions of the indices, as
the layout primitives take them."""
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir import IndexMap


def test_from_func_gives_an_affine_map():
    m = IndexMap.from_func(lambda i, j: (i // 16, j // 16, i % 16, j % 16))
    assert m.ndim == 2
    assert str(m._attribute()) == ("affine_map<(d0, d1) -> (d0 floordiv 16, d1 floordiv 16, "
                                   "d0 mod 16, d1 mod 16)>")
    assert m.map_indices([37, 5]) == [2, 0, 5, 5]
    assert repr(m) == "IndexMap(lambda i, j: (i // 16, j // 16, i % 16, j % 16))"


def test_maps_an_affine_map_cannot_hold_are_refused():
    # A product of two indices, a division by an index or by 0, T.min: the
    # primitives take affine maps.
    for func, rule in [(lambda i, j: (i * j,), "multiplies two expressions of the indices"),
                       (lambda i, j: (i // j,), "divides by an expression of the indices"),
                       (lambda i, j: (i % 0,), "constant below 1"),
                       (lambda i, j: (T.min(i, j),), "T.min is not an index"),
                       (lambda i, j: (i // (4 * T.vscale()),), r"T.vscale\(\) has no place")]:
        with pytest.raises(ValueError, match=rule):
            IndexMap.from_func(func)._attribute()
    sch_error = None
    try:
        @T.prim_func
        def copy(A: T.Buffer((4, 4), "float32"), B: T.Buffer((4, 4), "float32")):
            for i, j in T.grid(4, 4):
                with T.block("B"):
                    vi, vj = T.axis.remap("SS", [i, j])
                    B[vi, vj] = A[vi, vj]

        sch = tvm.tir.Schedule(copy)
        sch.transform_layout("B", ("write", 0), lambda i, j: (i * j, j))
    except ValueError as e:
        sch_error = str(e)
    assert sch_error is not None and "index map" in sch_error, sch_error


def test_var_args_and_keyword_only_indices():
    # *indices takes what ndim leaves after the named ones; keyword-only
    # indices come last, as in TVM.
    m = IndexMap.from_func(lambda *indices, k: [*indices, k // 4, k % 4], ndim=3)
    assert [v.name for v in m.initial_indices] == ["indices_0", "indices_1", "k"]
    assert m.map_indices([1, 2, 9]) == [1, 2, 2, 1]
    with pytest.raises(ValueError, match="needs the number of dimensions"):
        IndexMap.from_func(lambda *indices: indices)


def test_axis_separators():
    m, seps = IndexMap.from_func_with_separators(
        lambda i: [i // 4, IndexMap.AXIS_SEPARATOR, i % 4])
    assert seps == [1] and len(m.final_indices) == 2
    assert tvm.te.AXIS_SEPARATOR is IndexMap.AXIS_SEPARATOR
    with pytest.raises(ValueError, match="from_func_with_separators"):
        IndexMap.from_func(lambda i: [i // 4, IndexMap.AXIS_SEPARATOR, i % 4])


def test_non_index_results_are_refused():
    with pytest.raises(TypeError, match="returns index expressions"):
        IndexMap.from_func(lambda i: ["i"])
    with pytest.raises(TypeError, match="takes indices"):
        IndexMap.from_func(lambda **kw: [])
