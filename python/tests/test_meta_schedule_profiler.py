"""meta_schedule.Profiler: scopes add their seconds to the current profiler
(nested scopes each count their own time, a scope repeated adds up),
"Total" is the time it was entered, nothing is recorded without a current
profiler, and profilers nest."""
import time

from tensorir import meta_schedule as ms


def test_scopes_add_to_the_current_profiler():
    with ms.Profiler() as profiler:
        assert ms.Profiler.current() is profiler
        with ms.Profiler.timeit("outer"):
            time.sleep(0.05)
            with ms.Profiler.timeit("inner"):
                time.sleep(0.05)
        for _ in range(2):
            with ms.Profiler.timeit("twice"):
                time.sleep(0.02)
    assert ms.Profiler.current() is None
    got = profiler.get()
    assert set(got) == {"Total", "outer", "inner", "twice"}
    assert 0.1 <= got["outer"] < 0.5 and 0.05 <= got["inner"] < got["outer"]
    assert 0.04 <= got["twice"] < 0.4
    assert got["Total"] >= got["outer"] + got["twice"]
    table = profiler.table()
    assert table.splitlines()[0].split() == ["Name", "Time", "(s)", "Share"]
    assert table.splitlines()[1].startswith("Total")


def test_nothing_is_recorded_without_a_profiler():
    with ms.Profiler.timeit("alone"):
        assert ms.Profiler.current() is None


def test_profilers_nest():
    with ms.Profiler() as outer:
        with ms.Profiler() as inner:
            with ms.Profiler.timeit("x"):
                pass
            assert ms.Profiler.current() is inner
        assert ms.Profiler.current() is outer
    assert "x" in inner.get() and "x" not in outer.get()
