"""TVM's IRModule / PrimFunc surface: mod[name], IRModule({name: f}),
from_expr, global symbols, Schedule(prim_func) working on "main", typed
constants as split factors, the schedule's TVM keyword arguments."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import te
from tensorir.script import tir as T
from tensorir.tir.expr import FloatImm, IntImm


@T.prim_func
def double(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, (32, 48))
    B = T.match_buffer(b, (32, 48))
    for x, y in T.grid(32, 48):
        with T.block("twice"):
            vx, vy = T.axis.remap("SS", [x, y])
            B[vx, vy] = A[vx, vy] * 2.0


@T.prim_func
def negate(a: T.handle, b: T.handle) -> None:
    A = T.match_buffer(a, (16,))
    B = T.match_buffer(b, (16,))
    for x in range(16):
        with T.block("neg"):
            vx = T.axis.spatial(16, x)
            B[vx] = A[vx] * -1.0


def test_prim_func_is_tir_prim_func():
    assert isinstance(double, tvm.tir.PrimFunc)
    assert double.attrs["global_symbol"] == "double"


def test_schedule_of_a_prim_func_works_on_main():
    sch = tvm.tir.Schedule(double)
    assert list(sch.mod.functions) == ["main"]
    main = sch.mod["main"]
    # As in TVM, the unscheduled module's function is the PrimFunc given.
    assert main is double
    # As in TVM, the function keeps its global symbol: it is built as "double".
    assert main.attrs["global_symbol"] == "double"
    a = np.arange(32 * 48, dtype="float32").reshape(32, 48)
    b = np.zeros_like(a)
    tvm.build(sch.mod)["double"](a, b)
    np.testing.assert_array_equal(b, a * 2)


def test_missing_function_is_a_key_error():
    with pytest.raises(KeyError, match="no function named 'other'"):
        tvm.tir.Schedule(double).mod["other"]


def test_module_from_a_dict_names_functions_by_their_keys():
    mod = tvm.IRModule({"main": double, "flip": negate})
    assert list(mod.functions) == ["main", "flip"]
    assert "flip" in mod and len(mod) == 2
    flip = mod["flip"]
    assert flip.name == "flip" and flip.attrs["global_symbol"] == "negate"
    # A function taken out of a module of several is a module of one.
    assert list(flip.mod.functions) == ["flip"]
    assert "tir.block \"neg\"" in flip.mod.mlir()


def test_module_setitem_replaces_a_function():
    mod = tvm.IRModule({"main": double})
    mod["main"] = negate
    assert list(mod) == ["main"]
    assert 'tir.block "neg"' in mod.mlir()
    mod["extra"] = double
    assert list(mod) == ["main", "extra"]


def test_from_expr_keys_by_global_symbol():
    assert list(tvm.IRModule.from_expr(double).functions) == ["double"]
    renamed = double.with_attr("global_symbol", "main")
    assert renamed.attrs["global_symbol"] == "main"
    assert double.attrs["global_symbol"] == "double"  # with_attr copies
    mod = tvm.IRModule.from_expr(renamed)
    assert list(mod.functions) == ["main"]
    assert mod["main"].attrs["global_symbol"] == "main"


def test_other_attributes_are_kept_on_the_function():
    f = double.with_attr({"tir.noalias": True})
    assert f.attrs == {"global_symbol": "double", "tir.noalias": True}
    assert "tir.noalias" not in f.without_attr("tir.noalias").attrs


def test_prim_func_script_prints_tvmscript():
    text = tvm.tir.Schedule(double).mod["main"].script()
    assert "@T.prim_func" in text and 'T.block("twice")' in text


def test_intimm_factors_split_as_ints():
    by_int = tvm.tir.Schedule(double)
    x, _ = by_int.get_loops("twice")
    by_int.split(x, factors=[None, 8])
    by_imm = tvm.tir.Schedule(double)
    x, _ = by_imm.get_loops("twice")
    by_imm.split(x, factors=[IntImm("int64", -1), IntImm(dtype="int32", value=8)])
    assert by_imm.mod.mlir() == by_int.mod.mlir()
    assert "factors=[None, 8]" in "\n".join(by_imm.trace.as_python())


def test_split_refuses_non_integer_factors():
    sch = tvm.tir.Schedule(double)
    x, _ = sch.get_loops("twice")
    with pytest.raises(TypeError, match="integers"):
        sch.split(x, factors=[None, 8.0])
    with pytest.raises(TypeError, match="integers"):
        sch.split(x, factors=[None, FloatImm("float32", 8)])



def test_constants():
    assert int(IntImm("int64", 10)) == 10 and IntImm("int64", 10).dtype == "int64"
    assert IntImm("int32", 3) == 3 and IntImm("int32", 3) != IntImm("int64", 3)
    assert float(FloatImm("float32", 1.5)) == 1.5
    assert isinstance(tvm.tir.const(2), IntImm) and tvm.tir.const(2).dtype == "int32"
    assert tvm.tir.const(2.0).dtype == "float32"
    assert te.const(384, "int64") == IntImm("int64", 384)
    with pytest.raises(ValueError):
        IntImm("float32", 1)
    with pytest.raises(ValueError):
        IntImm("int32", 1.5)


def test_te_const_extents_and_values():
    n = te.const(24, "int64")
    A = te.placeholder((n,), name="A", dtype="float32")
    B = te.compute((n,), lambda i: A[i] + te.const(1.0, "float32"), name="B")
    func = te.create_prim_func([A, B])
    a = np.arange(24, dtype="float32")
    b = np.zeros_like(a)
    tvm.build(func)(a, b)
    np.testing.assert_array_equal(b, a + 1)


def test_schedule_takes_tvm_keyword_arguments():
    sch = tvm.tir.Schedule(double, seed=7, debug_mask="all", error_render_level="fast",
                           enable_check=False)
    assert sch.debug_mask == -1
    mask = tvm.tir.schedule.state.ScheduleDebugMask.VERIFY_SREF_TREE
    assert tvm.tir.schedule.Schedule(double, debug_mask=mask).debug_mask == 1
    with pytest.raises(ValueError):
        tvm.tir.Schedule(double, debug_mask="some")
    with pytest.raises(ValueError):
        tvm.tir.Schedule(double, error_render_level="loud")
    with pytest.raises(TypeError):
        tvm.tir.Schedule(42)


def test_schedule_error_under_tvm_names():
    from tensorir.tir.schedule.schedule import ScheduleError
    assert tvm.tir.ScheduleError is tvm.tir.schedule.ScheduleError is ScheduleError
    assert tvm.tir.Schedule is tvm.tir.schedule.Schedule


def test_compile_and_runtime_tensor():
    a = tvm.runtime.tensor(np.ones((32, 48), "float32"))
    b = tvm.runtime.tensor(np.zeros((32, 48), "float32"))
    tvm.compile(double)(a, b)
    np.testing.assert_array_equal(b.numpy(), np.full((32, 48), 2, "float32"))


def test_tensor_intrin_registry():
    assert tvm.tir.TensorIntrin.get("no such intrinsic", allow_missing=True) is None
    with pytest.raises(ValueError):
        tvm.tir.TensorIntrin.get("no such intrinsic")
    tvm.tir.TensorIntrin.register("test.double", double, double)
    assert tvm.tir.TensorIntrin.get("test.double").desc is double
    with pytest.raises(ValueError):
        tvm.tir.TensorIntrin.register("test.double", double, double)
    tvm.tir.TensorIntrin.register("test.double", negate, negate, override=True)
    assert tvm.tir.TensorIntrin.get("test.double").impl is negate
