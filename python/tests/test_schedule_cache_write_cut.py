"""cache_write of a block whose predicate stops its variable at the edge of
the buffer it writes (reverse_compute_inline of a slice leaves `c < 12` over
16 channels writing a buffer of 12): the instances cut off would write
outside the buffer, so the block writes the whole box and the copy back is
exact. A predicate that stops short of the edge leaves holes the copy back
would overwrite: refused."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T


def sliced(stop):
    @T.prim_func
    def func(x: T.Buffer((16, 7), "float32"), y: T.Buffer((12, 7), "float32")):
        for c, w in T.grid(16, 7):
            with T.block("add"):
                vc, vw = T.axis.remap("SS", [c, w])
                T.where(c < stop)
                y[vc, vw] = x[vc, vw] + T.float32(1)
    return func


def test_a_cut_at_the_buffer_edge_writes_the_whole_box():
    sch = tvm.tir.Schedule(sliced(12))
    sch.cache_write(sch.get_block("add"), 0, "global")
    text = sch.mod.script()
    assert 'y_global = T.alloc_buffer((12, 7), "float32")' in text
    lib = tvm.build(sch.mod, target="llvm")
    x = np.random.default_rng(0).standard_normal((16, 7)).astype("float32")
    y = np.full((12, 7), np.nan, "float32")
    lib["func"](x, y)
    np.testing.assert_array_equal(y, x[:12] + 1)


def test_a_cut_inside_the_buffer_is_refused():
    sch = tvm.tir.Schedule(sliced(10))
    with pytest.raises(tvm.tir.ScheduleError, match="to write a dense box of buffer 'y'"):
        sch.cache_write(sch.get_block("add"), 0, "global")
