"""sample_perfect_tile: seeded, perfect, the innermost factor bounded, a
fixed decision checked; its factors feed split and the trace replays."""
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def copy(A: T.Buffer((96, 64), "float32"), B: T.Buffer((96, 64), "float32")):
    for i, j in T.grid(96, 64):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj]


def sample(seed, **kwargs):
    sch = tvm.tir.Schedule(copy, seed=seed)
    i, _ = sch.get_loops("B")
    return sch, i, sch.sample_perfect_tile(i, **kwargs)


def test_perfect_and_bounded():
    for seed in range(20):
        _, _, factors = sample(seed, n=3, max_innermost_factor=4)
        assert len(factors) == 3 and factors[0] * factors[1] * factors[2] == 96
        assert factors[-1] <= 4


def test_same_seed_same_tile():
    assert sample(7, n=3)[2] == sample(7, n=3)[2]


def test_decision_is_checked():
    _, _, factors = sample(0, n=3, decision=[4, 8, 3])
    assert factors == [4, 8, 3]
    with pytest.raises(tvm.tir.ScheduleError, match="decision"):
        sample(0, n=3, decision=[4, 8, 4])


def test_factors_feed_split_and_trace_replays():
    sch, i, factors = sample(3, n=2)
    sch.split(i, factors=factors)
    assert "sample_perfect_tile" in sch.trace.as_python()
    verify_trace_roundtrip(sch, mod=copy)
