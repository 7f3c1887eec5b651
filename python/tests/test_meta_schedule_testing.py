"""tvm.meta_schedule.testing: the benchmark workloads (create_te_workload
builds TVM's functions: block, buffer and variable names, shapes and index
expressions) and the design-space checks (check_sketches replays a
sketch's trace with the expected decisions), with the te / tir helpers
they are written with."""
import pytest

import tensorir as tvm
from tensorir import meta_schedule as ms
from tensorir import te, tir, topi
from tensorir.meta_schedule.schedule_rule import PyScheduleRule
from tensorir.meta_schedule.testing import te_workload
from tensorir.meta_schedule.testing.space_generation import (check_sketches,
                                                             generate_design_space, get_rules)
from tensorir.meta_schedule.testing.te_workload import CONFIGS, create_te_workload
from tensorir.meta_schedule.utils import derived_object
from tensorir.script import tir as T


@T.prim_func
def c1d_expected(inputs: T.Buffer((1, 256, 64), "float32"),
                 weight: T.Buffer((3, 64, 128), "float32"),
                 conv1d_nlc: T.Buffer((1, 128, 128), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    PadInput = T.alloc_buffer((1, 258, 64))
    for i0, i1, i2 in T.grid(1, 258, 64):
        with T.block("PadInput"):
            v_i0, v_i1, v_i2 = T.axis.remap("SSS", [i0, i1, i2])
            PadInput[v_i0, v_i1, v_i2] = T.if_then_else(
                1 <= v_i1 and v_i1 < 257, inputs[v_i0, v_i1 - 1, v_i2], T.float32(0))
    for n, l, co, rl, rc in T.grid(1, 128, 128, 3, 64):
        with T.block("conv1d_nlc"):
            v_n, v_l, v_co, v_rl, v_rc = T.axis.remap("SSSRR", [n, l, co, rl, rc])
            with T.init():
                conv1d_nlc[v_n, v_l, v_co] = T.float32(0)
            conv1d_nlc[v_n, v_l, v_co] = conv1d_nlc[v_n, v_l, v_co] + \
                PadInput[v_n, v_l * 2 + v_rl, v_co // 128 * 64 + v_rc] * weight[v_rl, v_rc, v_co]


@T.prim_func
def dep_expected(placeholder: T.Buffer((1, 112, 112, 32), "float32"),
                 placeholder_1: T.Buffer((1, 3, 3, 32), "float32"),
                 depth_conv2d_nhwc: T.Buffer((1, 112, 112, 32), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    PadInput = T.alloc_buffer((1, 114, 114, 32))
    for i0, i1, i2, i3 in T.grid(1, 114, 114, 32):
        with T.block("PadInput"):
            v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
            PadInput[v_i0, v_i1, v_i2, v_i3] = T.if_then_else(
                1 <= v_i1 and v_i1 < 113 and 1 <= v_i2 and v_i2 < 113,
                placeholder[v_i0, v_i1 - 1, v_i2 - 1, v_i3], T.float32(0))
    for n, h, w, c, rh, rw in T.grid(1, 112, 112, 32, 3, 3):
        with T.block("depth_conv2d_nhwc"):
            v_n, v_h, v_w, v_c, v_rh, v_rw = T.axis.remap("SSSSRR", [n, h, w, c, rh, rw])
            with T.init():
                depth_conv2d_nhwc[v_n, v_h, v_w, v_c] = T.float32(0)
            depth_conv2d_nhwc[v_n, v_h, v_w, v_c] = depth_conv2d_nhwc[v_n, v_h, v_w, v_c] + \
                PadInput[v_n, v_h + v_rh, v_w + v_rw, v_c] * placeholder_1[0, v_rh, v_rw, v_c]


@T.prim_func
def sfm_expected(A: T.Buffer((4, 8), "float32"), T_softmax_norm: T.Buffer((4, 8), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    T_softmax_maxelem = T.alloc_buffer((4,))
    T_softmax_exp = T.alloc_buffer((4, 8))
    T_softmax_expsum = T.alloc_buffer((4,))
    for i0, k in T.grid(4, 8):
        with T.block("T_softmax_maxelem"):
            v_i0, v_k = T.axis.remap("SR", [i0, k])
            with T.init():
                T_softmax_maxelem[v_i0] = T.float32(-3.4028234663852886e+38)
            T_softmax_maxelem[v_i0] = T.max(T_softmax_maxelem[v_i0], A[v_i0, v_k])
    for i0, i1 in T.grid(4, 8):
        with T.block("T_softmax_exp"):
            v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
            T_softmax_exp[v_i0, v_i1] = T.exp(A[v_i0, v_i1] - T_softmax_maxelem[v_i0])
    for i0, k in T.grid(4, 8):
        with T.block("T_softmax_expsum"):
            v_i0, v_k = T.axis.remap("SR", [i0, k])
            with T.init():
                T_softmax_expsum[v_i0] = T.float32(0)
            T_softmax_expsum[v_i0] = T_softmax_expsum[v_i0] + T_softmax_exp[v_i0, v_k]
    for i0, i1 in T.grid(4, 8):
        with T.block("T_softmax_norm"):
            v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
            T.block_attr({"axis": 1})
            T_softmax_norm[v_i0, v_i1] = T_softmax_exp[v_i0, v_i1] / T_softmax_expsum[v_i0]


def _blocks(func):
    names = []
    tir.stmt_functor.post_order_visit(
        func.body, lambda n: names.append(n.name_hint) if isinstance(n, tir.Block) else None)
    return names


def test_workloads_are_tvms_functions():
    tvm.ir.assert_structural_equal(create_te_workload("C1D", 0), c1d_expected)
    # The depthwise weight's channel multiplier (1) folds away: c % 1 is 0.
    tvm.ir.assert_structural_equal(create_te_workload("DEP", 0), dep_expected)
    tvm.ir.assert_structural_equal(te.create_prim_func(te_workload.softmax_mn(4, 8)),
                                   sfm_expected)


def test_every_configuration_builds():
    assert sorted(CONFIGS) == sorted(["C1D", "C2D", "C3D", "CAP", "CBR", "DEP", "DIL", "GMM",
                                      "GRP", "NRM", "SFM", "T2D", "TBG"])
    for name, (_, params) in CONFIGS.items():
        assert len(params) == 4
        func = create_te_workload(name, 0)
        assert isinstance(func, tir.PrimFunc)
    assert _blocks(create_te_workload("CBR", 0)) == [
        "PaddedInput", "Conv2dOutput", "bias_add", "bn_mul", "bn_add", "compute", "root"]
    assert _blocks(create_te_workload("T2D", 1)) == [
        "PadInput", "conv2d_transpose_nhwc", "root"]
    assert [b.name for b in create_te_workload("TBG", 2).buffer_map.values()] == [
        "query", "value", "C"]
    with pytest.raises(KeyError, match="unknown workload 'XYZ'"):
        create_te_workload("XYZ", 0)


def test_tir_expression_helpers():
    i = tir.Var("i", "int32")
    x = tir.Var("x", "float32")
    call = tir.if_then_else(i < 4, x, 0.0)
    assert isinstance(call, tir.Call) and call.op.name == "tir.if_then_else"
    assert call.dtype == "float32"
    # A constant condition picks its side; the helpers fold constants as TVM.
    assert tir.if_then_else(tir.const(True), x, 0.0) is x
    cond = tir.all(i >= 1, i < 9, i != 3)
    assert isinstance(cond, tir.And) and isinstance(cond.a, tir.And)  # ((a and b) and c)
    assert isinstance(tir.all(tir.const(True), i < 2), tir.LT)
    assert isinstance(tir.any(tir.const(False), i < 2), tir.LT)
    assert isinstance(tir.any(tir.const(True), i < 2), tir.IntImm)
    assert tir.exp(x).op.name == "tir.exp" and te.sqrt(x).op.name == "tir.sqrt"
    with pytest.raises(TypeError, match="floating-point"):
        tir.exp(i)
    assert i // 1 is i and (i % 1).value == 0
    assert isinstance(i.equal(0), tir.EQ)
    assert isinstance(te.indexmod(i, 2), tir.FloorMod)
    # te.max / te.min reduce over a reduce axis, else compare two values.
    assert isinstance(te.max(x, tir.const(0.0)), tir.Max)


def test_pad_and_get_pad_tuple():
    assert topi.nn.get_pad_tuple(1, (3, 3)) == (1, 1, 1, 1)
    assert topi.nn.get_pad_tuple((1, 2), (3, 3)) == (1, 2, 1, 2)
    assert topi.nn.get_pad_tuple("SAME", (4, 4)) == (2, 2, 1, 1)
    data = te.placeholder((2, 3), name="data")
    out = topi.nn.pad(data, [0, 1], [0, 2], name="P")
    assert out.shape == (2, 6)
    with pytest.raises(ValueError, match="2-D data"):
        topi.nn.pad(data, [1])


@derived_object
class _TileMatmul(PyScheduleRule):
    """Splits C's i loop in two by a sampled perfect tile."""

    def _initialize_with_tune_context(self, context):
        pass

    def apply(self, sch, block):
        if sch.get(block).name_hint != "C":
            return [sch]
        i = sch.get_loops(block)[0]
        factors = sch.sample_perfect_tile(i, n=2)
        sch.split(i, factors=factors)
        return [sch]


def test_check_sketches_replays_the_expected_decisions():
    mod = te.create_prim_func(te_workload.matmul(16, 16, 16))
    sketches = generate_design_space("llvm", mod, tvm.target.Target("llvm"), None,
                                     sch_rules=[_TileMatmul()])
    assert len(sketches) == 1

    def tiled(outer):
        sch = tir.Schedule(mod)
        sch.split(sch.get_loops(sch.get_block("C"))[0], factors=[outer, 16 // outer])
        return sch.mod["main"]

    # Whatever the sketch drew, the expected decisions are replayed.
    check_sketches(mod, sketches, [tiled(4)], [[("SamplePerfectTile", [4, 4])]])
    check_sketches(mod, sketches, [tiled(2)], [[("SamplePerfectTile", [2, 8])]])
    with pytest.raises(AssertionError, match="Expected sketch #0"):
        check_sketches(mod, sketches, [tiled(2)], [[("SamplePerfectTile", [8, 2])]])
    with pytest.raises(AssertionError):
        check_sketches(mod, sketches, [tiled(2), tiled(4)], [[], []])


def test_get_rules_filters_by_type():
    try:
        rules = get_rules("llvm", ms.schedule_rule.MultiLevelTiling)
    except NotImplementedError:
        pytest.skip("the library has no default rules yet")
    assert rules and all(isinstance(r, ms.schedule_rule.MultiLevelTiling) for r in rules)


def test_tensor_arithmetic_broadcasts_through_topi():
    a = te.placeholder((4, 4), name="A")
    b = te.placeholder((4,), name="B")
    assert (a + b).name == "T_add" and (a + b).shape == (4, 4)
    assert (2 * a).name == "T_multiply" and (a - 1.0).name == "T_subtract"
    assert _blocks(te.create_prim_func([a, b, a / b])) == ["T_divide", "root"]
