"""tvm.tir.schedule.testing.verify_trace_roundtrip: the trace, its Python and
its transform script each replay to the schedule's module; a trace that
does not describe the schedule is caught."""
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import (_tir_opt,
                                           assert_structural_equal_ignore_global_symbol,
                                           verify_trace_roundtrip)


@T.prim_func
def scale(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, (64, 32, 16))
    B = T.match_buffer(b, (64, 32, 16))
    for x, y, z in T.grid(64, 32, 16):
        with T.block("scaled"):
            vx, vy, vz = T.axis.remap("SSS", [x, y, z])
            B[vx, vy, vz] = A[vx, vy, vz] * 3.0


def tiled():
    sch = tvm.tir.Schedule(scale, debug_mask="all")
    x, y, z = sch.get_loops(sch.get_block("scaled"))
    x0, x1 = sch.split(x, factors=[None, 8])
    y0, y1 = sch.split(y, factors=[4, 8])
    sch.reorder(x0, y0, x1, y1, z)
    sch.fuse(x0, y0)
    sch.parallel(sch.get_loops("scaled")[0])
    return sch


needs_tir_opt = pytest.mark.skipif(_tir_opt() is None, reason="no tir-opt built")


def test_roundtrip_of_split_reorder_fuse():
    sch = tiled()
    replayed = verify_trace_roundtrip(sch, mod=scale)
    assert isinstance(replayed, tvm.tir.Schedule)
    assert replayed.mod.mlir() == sch.mod.mlir()
    assert "\n".join(replayed.trace.as_python()) == "\n".join(sch.trace.as_python())


@pytest.mark.parametrize("text_format", ["python", ["python"], "transform"])
def test_roundtrip_in_one_format(text_format):
    if "transform" in text_format and _tir_opt() is None:
        pytest.skip("no tir-opt built")
    verify_trace_roundtrip(tiled(), mod=scale, text_format=text_format)


def test_roundtrip_from_a_module():
    mod = tvm.IRModule({"main": scale})
    sch = tvm.tir.Schedule(mod)
    (x, _, _) = sch.get_loops("scaled")
    sch.split(x, factors=[2, None])
    verify_trace_roundtrip(sch, mod)


def tamper(sch):
    """The schedule with a trace whose first split has other factors than
    the schedule used: the trace no longer describes the schedule."""
    script = sch.trace.as_transform_script()
    assert "[?, 8]" in script
    tampered = tvm.tir.schedule.Trace.from_transform_script(script.replace("[?, 8]", "[?, 16]", 1))

    class Tampered(tvm.tir.Schedule):
        trace = property(lambda self: tampered)

    sch.__class__ = Tampered
    return sch


def test_tampered_trace_fails():
    sch = tiled()
    tamper(sch)
    with pytest.raises(ValueError, match="does not give the schedule's module"):
        verify_trace_roundtrip(sch, mod=scale)


def test_tampered_python_fails():
    sch = tiled()
    tamper(sch)
    with pytest.raises(ValueError, match="as Python"):
        tvm.tir.schedule.testing._replay_python(sch, scale, "all")


@needs_tir_opt
def test_tampered_transform_script_fails():
    sch = tiled()
    tamper(sch)
    with pytest.raises(ValueError, match="transform script"):
        tvm.tir.schedule.testing._replay_transform_script(sch, scale, "all", required=True)


def test_trace_from_another_module_fails():
    sch = tiled()
    other = tvm.tir.Schedule(scale)
    other.get_loops("scaled")
    with pytest.raises(ValueError):
        verify_trace_roundtrip(other, mod=sch.mod)  # the tiled module, not the original


def test_unknown_text_format():
    with pytest.raises(ValueError, match="text_format"):
        verify_trace_roundtrip(tiled(), mod=scale, text_format="yaml")


def test_apply_to_schedule_replays_the_steps():
    sch = tiled()
    fresh = tvm.tir.Schedule(scale)
    sch.trace.apply_to_schedule(fresh, remove_postproc=False)
    assert fresh.mod.mlir() == sch.mod.mlir()
    assert "\n".join(fresh.trace.as_python()) == "\n".join(sch.trace.as_python())


@pytest.mark.skipif(not hasattr(tvm._ext.ext, "structural_equal"),
                    reason="the extension has no structural equality yet")
def test_ignore_global_symbol_compares_functions():
    sch = tiled()
    assert_structural_equal_ignore_global_symbol(sch.mod["main"], sch.mod["main"])
    with pytest.raises(ValueError):
        assert_structural_equal_ignore_global_symbol(sch.mod["main"], scale)
