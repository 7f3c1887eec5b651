"""Sampling as TVM samples: a seed gives TVM's draws, factors are ExprRVs
that feed split, a stale decision is repaired, a copy's random state is
forked, and a trace replays with other decisions (with_decision, a
decision provider) or without its dead steps (simplified)."""
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule import ExprRV
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def copy(A: T.Buffer((96, 64), "float32"), B: T.Buffer((96, 64), "float32")):
    for i, j in T.grid(96, 64):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj]


@T.prim_func
def wide(A: T.Buffer((128, 257, 1470), "float32"), B: T.Buffer((128, 257, 1470), "float32")):
    for i, j, k in T.grid(128, 257, 1470):
        with T.block("B"):
            vi, vj, vk = T.axis.remap("SSS", [i, j, k])
            B[vi, vj, vk] = A[vi, vj, vk]


def sample(seed, **kwargs):
    sch = tvm.tir.Schedule(copy, seed=seed)
    i, _ = sch.get_loops("B")
    return sch, i, sch.sample_perfect_tile(i, **kwargs)


def values(sch, rvs):
    return [sch.get(v) for v in rvs]


def test_seed_gives_tvms_draws():
    # The draws of TVM's wheel (apache-tvm 0.27) for seed 42: the same
    # calls, in the same order.
    sch = tvm.tir.Schedule(wide, seed=42)
    i, j, k = sch.get_loops("B")
    assert values(sch, sch.sample_perfect_tile(i, n=4, max_innermost_factor=16)) == [1, 8, 2, 8]
    assert values(sch, sch.sample_perfect_tile(j, n=4, max_innermost_factor=16)) == [1, 257, 1, 1]
    assert values(sch, sch.sample_perfect_tile(k, n=4, max_innermost_factor=64)) == [7, 1, 10, 21]
    assert values(sch, sch.sample_perfect_tile(k, n=2, max_innermost_factor=-1)) == [6, 245]


def test_perfect_bounded_and_expr_rvs():
    for seed in range(1, 21):
        sch, _, factors = sample(seed, n=3, max_innermost_factor=4)
        assert all(isinstance(f, ExprRV) for f in factors)
        a, b, c = values(sch, factors)
        assert a * b * c == 96 and c <= 4


def test_same_seed_same_tile():
    first, _, f1 = sample(7, n=3)
    second, _, f2 = sample(7, n=3)
    assert values(first, f1) == values(second, f2)


def test_stale_decision_is_repaired_and_a_wrong_one_refused():
    sch, _, factors = sample(1, n=3, decision=[4, 8, 3])
    assert values(sch, factors) == [4, 8, 3]
    # 4 divides 96, 8 divides the 24 left, the outermost takes the rest.
    sch, _, factors = sample(1, n=3, decision=[4, 8, 4])
    assert values(sch, factors) == [3, 8, 4]
    with pytest.raises(tvm.tir.ScheduleError, match="decision"):
        sample(1, n=3, decision=[4, 8])


def test_categorical_follows_weights_and_replays():
    sch = tvm.tir.Schedule(copy, seed=5)
    drawn = [sch.get(sch.sample_categorical([1, 2, 3], [0.0, 1.0, 0.0])) for _ in range(5)]
    assert drawn == [2] * 5
    decisions = list(sch.trace.decisions.values())
    assert [int(d) for d in decisions] == [1] * 5
    verify_trace_roundtrip(sch, mod=copy)


def test_factors_feed_split_and_trace_replays():
    sch, i, factors = sample(3, n=2)
    sch.split(i, factors=factors)
    text = "\n".join(sch.trace.as_python())
    assert "sch.split(loop=l1, factors=[v3, v4]" in text, text
    verify_trace_roundtrip(sch, mod=copy)


def test_with_decision_replays_another_tiling():
    sch, i, factors = sample(3, n=2)
    sch.split(i, factors=factors)
    trace = sch.trace
    (inst,) = [x for x in trace.insts if x.kind.name == "SamplePerfectTile"]
    changed = trace.with_decision(inst, [12, 8], remove_postproc=True)
    assert [int(v) for v in changed.get_decision(inst)] == [12, 8]
    fresh = tvm.tir.Schedule(copy)
    changed.apply_to_schedule(fresh)
    assert [l.extent for l in [fresh.get(x) for x in fresh.get_loops("B")][:2]] == [12, 8]


def test_decision_provider_chooses_decisions():
    sch, i, factors = sample(3, n=2)
    sch.split(i, factors=factors)
    seen = []

    def provider(inst, inputs, attrs, decision):
        if inst.kind.name != "SamplePerfectTile":
            return decision
        seen.append([int(d) for d in decision])
        return [2, 48]

    fresh = tvm.tir.Schedule(copy)
    sch.trace.apply_to_schedule(fresh, remove_postproc=False, decision_provider=provider)
    assert len(seen) == 1
    outer, inner = fresh.get_loops("B")[:2]
    assert (fresh.get(outer).extent, fresh.get(inner).extent) == (2, 48)


def test_simplified_drops_unused_pure_steps():
    sch = tvm.tir.Schedule(copy, seed=2)
    i, _ = sch.get_loops("B")
    sch.sample_perfect_tile(i, n=2)  # unused
    factors = sch.sample_perfect_tile(i, n=2)
    sch.split(i, factors=factors)
    kinds = [x.kind.name for x in sch.trace.simplified(remove_postproc=True).insts]
    assert kinds == ["GetBlock", "GetLoops", "SamplePerfectTile", "Split"]


def test_copy_forks_the_random_state_and_keeps_random_variables():
    sch = tvm.tir.Schedule(copy, seed=9)
    block = sch.get_block("B")
    twin = sch.copy()
    assert len(twin.trace.insts) == len(sch.trace.insts) == 1
    i, _ = twin.get_loops(block)  # the original's random variable, in the copy
    assert twin.get(block).name_hint == "B"
    assert twin.get(i).extent == 96
    assert sch._native.random_state != twin._native.random_state
    assert len(twin.trace.insts) == 2 and len(sch.trace.insts) == 1


@T.prim_func
def two_stage(A: T.Buffer((16, 64), "float32"), C: T.Buffer((16, 64), "float32")):
    B = T.alloc_buffer((16, 64), "float32")
    for i, j in T.grid(16, 64):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0
    for i, j in T.grid(16, 64):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + 1.0


def test_compute_location_is_uniform_over_tvms_places():
    # B can be inlined (-2), stay (-1), or go under C's i (0) or j (1).
    from collections import Counter
    sch = tvm.tir.Schedule(two_stage, seed=3)
    for _ in range(2000):
        sch.sample_compute_location("B")
    counts = Counter(int(d) for d in sch.trace.decisions.values())
    assert set(counts) == {-2, -1, 0, 1}
    # Pearson's statistic against 500 each; 16.27 is the 0.1% critical
    # value for 3 degrees of freedom.
    assert sum((n - 500) ** 2 / 500 for n in counts.values()) < 16.27


@pytest.mark.parametrize("decision, extents", [
    (-2, [16, 64]),          # inlined: C's loops only
    (-1, [16, 64, 16, 64]),  # left where it is
    (0, [16, 64, 64]),       # under C's i
    (1, [16, 64]),           # under C's j
])
def test_compute_at_a_sampled_place(decision, extents):
    sch = tvm.tir.Schedule(two_stage)
    place = sch.sample_compute_location("B", decision=decision)
    sch.compute_at(sch.get_block("B"), place)
    loops = [l for l in sch.mod["main"].script().splitlines() if " in T.grid" in l or
             " in range" in l]
    assert len(sch.trace.decisions) == 1
    verify_trace_roundtrip(sch, mod=two_stage)
    sizes = []
    for line in loops:
        sizes += [int(x) for x in line.split("(")[-1].rstrip("):").split(",")]
    assert sizes == extents, sch.mod["main"].script()


def test_stale_compute_location_takes_the_place_before():
    sch = tvm.tir.Schedule(two_stage)
    sch.sample_compute_location("B", decision=5)
    assert [int(d) for d in sch.trace.decisions.values()] == [1]
