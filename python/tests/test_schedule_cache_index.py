"""cache_index: the index arithmetic of a block is precomputed into
buffers indexed by the variables it uses. Which computations are cached
(every largest one, or with cse_thresh those occurring that often after
the rarer ones gave way to what they contain), the buffers' order, shapes
and types, the loads in the block and its listed reads, the result against
the unscheduled program (built and run), later primitives seeing the
stages as producers, trace replay in every text form, and the refusals."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import tir
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def upsample(A: T.Buffer((2, 6, 6), "float32"), B: T.Buffer((2, 12, 12), "float32")):
    for c, i, j in T.grid(2, 12, 12):
        with T.block("up"):
            vc, vi, vj = T.axis.remap("SSS", [c, i, j])
            T.reads(A[vc, (vi + vj) // 4, vj // 2])
            T.writes(B[vc, vi, vj])
            B[vc, vi, vj] = A[vc, (vi + vj) // 4, vj // 2]


@T.prim_func
def stencil(A: T.Buffer((14,), "float32"), B: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[(vi * 3 + 1) // 2] + A[(vi * 3 + 1) // 2 + 1] + A[vi // 2]


@T.prim_func
def lerp(A: T.Buffer((9,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("lerp"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi // 2] * (T.float32(1) - T.Cast("float32", vi % 2) * T.float32(0.5)) \
                + A[vi // 2 + 1] * (T.Cast("float32", vi % 2) * T.float32(0.5))


@T.prim_func
def window_sum(A: T.Buffer((20,), "float32"), S: T.Buffer((8,), "float32")):
    for i, k in T.grid(8, 4):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + A[vi // 2 * 4 + vk]


def run(mod, *arrays):
    args = [tvm.nd.array(a) for a in arrays]
    tvm.build(mod, target="llvm")(*args)
    return [a.numpy() for a in args]


def same_result(before, after, shapes, seed=0):
    rng = np.random.default_rng(seed)
    arrays = [rng.random(s).astype("float32") for s in shapes]
    want = run(before, *[a.copy() for a in arrays])
    got = run(after, *[a.copy() for a in arrays])
    for w, g in zip(want, got):
        np.testing.assert_array_equal(w, g)


def test_each_index_computation_gets_a_buffer():
    sch = tir.Schedule(upsample, debug_mask="all")
    stages = sch.cache_index("up", "global")
    # The more complex computation first: (vi + vj) // 4 over (vi, vj),
    # then vj // 2 over vj; each buffer spans its variables' domains.
    assert [sch.get(s).name_hint for s in stages] == ["index_0", "index_1"]
    text = sch.mod.script()
    assert 'index_var_0 = T.alloc_buffer((12, 12), "int32")' in text
    assert 'index_var_1 = T.alloc_buffer((12,), "int32")' in text
    assert "A[vc, index_var_0[vi, vj], index_var_1[vj]]" in text
    # The stages come before the block's nest, in buffer order.
    assert text.index('T.block("index_0")') < text.index('T.block("index_1")') \
        < text.index('T.block("up")')
    same_result(upsample, sch.mod, [(2, 6, 6), (2, 12, 12)])
    verify_trace_roundtrip(sch, mod=upsample)
    assert 'b1, b2 = sch.cache_index(block=b0, storage_scope="global", cse_thresh=0)' \
        in str(sch.trace)


def test_the_block_lists_the_buffers_it_reads_so_stages_are_producers():
    sch = tir.Schedule(upsample, debug_mask="all")
    idx0, idx1 = sch.cache_index("up", "global")
    up = sch.get_block("up")
    # The listed reads keep A's region (the values loaded are the same
    # computations) and gain one point of each buffer.
    reads = [str(r.buffer.name) for r in sch.get(up).reads]
    assert reads == ["A", "index_var_0", "index_var_1"]
    assert "T.reads(A[vc, (vi + vj) // 4, vj // 2], index_var_0[vi, vj], index_var_1[vj])" \
        in sch.mod.script()
    assert [sch.get(b).name_hint for b in sch.get_producers(up)] == ["index_0", "index_1"]
    # So compute_at finds what the block needs of each buffer: one row of
    # the first per channel-row, and the whole of the second.
    c, i, j = sch.get_loops(up)
    sch.compute_at(idx0, i)
    sch.compute_at(idx1, c)
    same_result(upsample, sch.mod, [(2, 6, 6), (2, 12, 12)])
    verify_trace_roundtrip(sch, mod=upsample)


@pytest.mark.parametrize("thresh, cached", [
    # Every largest computation: (vi*3+1)//2, its successor, vi//2.
    (0, 3), (1, 3),
    # (vi*3+1)//2 + 1 occurs once: it gives way to (vi*3+1)//2, which then
    # occurs twice; vi//2 occurs once and holds nothing larger than a node.
    (2, 1),
    # Twice is not enough: (vi*3+1)//2 gives way to vi*3+1 (twice), which
    # gives way to vi*3 (twice): nothing is cached.
    (3, 0),
])
def test_cse_thresh_counts_occurrences(thresh, cached):
    sch = tir.Schedule(stencil, debug_mask="all")
    stages = sch.cache_index("B", "global", cse_thresh=thresh)
    assert len(stages) == cached
    if cached == 0:
        tvm.ir.assert_structural_equal(sch.mod["main"], stencil)
    if thresh == 2:
        assert "A[index_var_0[vi]] + A[index_var_0[vi] + 1]" in sch.mod.script()
    same_result(stencil, sch.mod, [(14,), (8,)])
    verify_trace_roundtrip(sch, mod=stencil)


def test_float_weights_are_cached_in_their_type():
    sch = tir.Schedule(lerp, debug_mask="all")
    stages = sch.cache_index("lerp", "global")
    # The weights (1 - w and w, float32) are the most complex; then the
    # two source indices (int32).
    dtypes = []
    text = sch.mod.script()
    for k in range(len(stages)):
        line = next(l for l in text.splitlines() if f"index_var_{k} = T.alloc_buffer" in l)
        dtypes.append(line.split('"')[1])
    assert dtypes == ["float32", "float32", "int32", "int32"]
    same_result(lerp, sch.mod, [(9,), (16,)])
    verify_trace_roundtrip(sch, mod=lerp)


def test_a_reduction_and_its_init_and_a_local_scope():
    sch = tir.Schedule(window_sum, debug_mask="all")
    (stage,) = sch.cache_index("S", "local")
    # One computation over both variables, the reduction one included.
    assert 'index_var_0 = T.alloc_buffer((8, 4), "int32", scope="local")' in sch.mod.script()
    assert sch.get(stage).name_hint == "index_0"
    same_result(window_sum, sch.mod, [(20,), (8,)])
    verify_trace_roundtrip(sch, mod=window_sum)


def test_names_taken_get_a_suffix():
    sch = tir.Schedule(stencil, debug_mask="all")
    (first,) = sch.cache_index("B", "global", cse_thresh=2)
    # What is left to cache: vi // 2 (the rest reads index_var_0).
    (second,) = sch.cache_index("B", "global")
    assert sch.get(first).name_hint == "index_0"
    assert sch.get(second).name_hint == "index_0_1"
    assert "index_var_0_1 = T.alloc_buffer((8,)" in sch.mod.script()
    assert sch.cache_index("B", "global") == []
    same_result(stencil, sch.mod, [(14,), (8,)])
    verify_trace_roundtrip(sch, mod=stencil)


def test_nothing_to_cache_leaves_the_block():
    @T.prim_func
    def copy(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("B"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] + T.float32(1)

    sch = tir.Schedule(copy, debug_mask="all")
    assert sch.cache_index("B", "global") == []
    tvm.ir.assert_structural_equal(sch.mod["main"], copy)
    assert "sch.cache_index(block=b0" in str(sch.trace)


def test_refusals_leave_the_program():
    sch = tir.Schedule(upsample, debug_mask="all")
    with pytest.raises(tvm.tir.ScheduleError, match="'texture' is not a storage scope"):
        sch.cache_index("up", "texture")
    with pytest.raises(tvm.tir.ScheduleError, match="cse_thresh must be >= 0, got -2"):
        sch.cache_index("up", "global", cse_thresh=-2)
    tvm.ir.assert_structural_equal(sch.mod["main"], upsample)


@T.prim_func
def twice(A: T.Buffer((24, 8), "float32"), B: T.Buffer((8, 8), "float32")):
    for i, j in T.grid(8, 8):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            a = A[vi * 2 + vj // 2, vi]
            B[vi, vj] = a + a


def test_a_load_used_twice_is_rewritten_once():
    sch = tir.Schedule(twice, debug_mask="all")
    (stage,) = sch.cache_index("B", "global")
    # The load's other index stays the variable it was.
    assert "A[index_var_0[vi, vj], vi]" in sch.mod.script()
    same_result(twice, sch.mod, [(24, 8), (8, 8)])
    verify_trace_roundtrip(sch, mod=twice)


@T.prim_func
def guarded_division(A: T.Buffer((16,), "float32"), B: T.Buffer((8, 8), "float32")):
    for i, j in T.grid(8, 8):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            if vj > 0:
                B[vi, vj] = A[vi // vj + 1]
            else:
                B[vi, vj] = T.float32(0)


def test_a_division_by_a_variable_is_not_computed_ahead():
    # The stage would run it where the guard keeps the block from it
    # (vj = 0): it stays in the block.
    sch = tir.Schedule(guarded_division, debug_mask="all")
    assert sch.cache_index("B", "global") == []
    tvm.ir.assert_structural_equal(sch.mod["main"], guarded_division)


@T.prim_func
def index_in_value(A: T.Buffer((8,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi // 2] * T.Cast("float32", vi // 2) + T.Cast("float32", vi // 2)


def test_an_index_and_the_same_value_count_together():
    # vi // 2 as an index and as a value (cast to float) is one
    # computation occurring three times.
    sch = tir.Schedule(index_in_value, debug_mask="all")
    (stage,) = sch.cache_index("B", "global", cse_thresh=3)
    assert 'index_var_0 = T.alloc_buffer((16,), "int32")' in sch.mod.script()
    same_result(index_in_value, sch.mod, [(8,), (16,)])
