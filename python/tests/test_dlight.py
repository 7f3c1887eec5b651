"""tvm.dlight: default GPU schedules for the prim_funcs of a module (TVM's
ApplyDefaultSchedule with gpu.Matmul, GEMV, Reduction, GeneralReduction,
Fallback), checked by what each rule makes and by building the module for
CUDA (PTX; assembled by ptxas where the toolkit has it). No GPU runs here:
the kernels' numbers are checked where one is lent."""
import os

import numpy as np
import pytest

import tensorir as tvm
from tensorir import dlight as dl
from tensorir import relax
from tensorir.script import ir as I
from tensorir.script import relax as R
from tensorir.script import tir as T

from test_cuda import check_matmul_serially, serial_on_cpu

RULES = (dl.gpu.Matmul(), dl.gpu.GEMV(), dl.gpu.Reduction(), dl.gpu.GeneralReduction(),
         dl.gpu.Fallback())


@I.ir_module
class Model:
    @T.prim_func(private=True)
    def normalize(x: T.Buffer((128, 512), "float32"), y: T.Buffer((128, 512), "float32")):
        total = T.alloc_buffer((128,), "float32")
        for i, j in T.grid(128, 512):
            with T.block("total"):
                vi, vj = T.axis.remap("SR", [i, j])
                with T.init():
                    total[vi] = T.float32(0)
                total[vi] = total[vi] + x[vi, vj]
        for i, j in T.grid(128, 512):
            with T.block("divide"):
                vi, vj = T.axis.remap("SS", [i, j])
                y[vi, vj] = x[vi, vj] / total[vi]

    @R.function
    def main(x: R.Tensor((128, 256), "float32"), w: R.Tensor((512, 256), "float32"),
             b: R.Tensor((512,), "float32"), v: R.Tensor((1, 256), "float32")):
        cls = Model
        with R.dataflow():
            h = R.nn.relu(R.matmul(x, R.permute_dims(w)) + b)   # a tiled matmul
            s = R.sum(R.exp(h), axis=1)                           # a reduction
            p = R.nn.softmax(h, axis=1)                           # row by row
            g = R.matmul(v, R.permute_dims(w)) + b                # too small to tile
            n = R.call_tir(cls.normalize, (h,), out_sinfo=R.Tensor((128, 512), "float32"))
            R.output(s, p, g, n)
        return (s, p, g, n)


def _scheduled():
    mod = relax.get_pipeline("zero")(Model)
    with tvm.target.Target("cuda"):
        return mod, dl.ApplyDefaultSchedule(*RULES)(mod)


def test_each_rule_schedules_what_it_fits():
    mod, gpu = _scheduled()
    text = {name: gpu[name].script() for name in gpu.function_names()
            if name != "main"}
    matmul = text["fused_matmul_add_relu"]
    # Matmul: tiles of A and B in shared memory, C in registers, the bias
    # and ReLU done in the write back.
    assert 'scope="shared"' in matmul and 'scope="local"' in matmul
    assert "= T.max((matmul_local[v0, v1] + B_1[v1]), T.float32(0.0))" in matmul
    # Reduction: the sum across a block's threads, exp inlined into it.
    reduction = text["fused_exp_sum"]
    assert 'T.thread_binding(256, thread="threadIdx.x")' in reduction
    assert "T.exp(" in reduction and "exp = T.alloc_buffer" not in reduction
    # GeneralReduction: one block per row, intermediates in shared memory.
    rows = text["normalize"]
    assert 'scope="shared"' in rows and 'thread="blockIdx.x"' in rows
    # A softmax (one prim_func of four blocks, as TVM legalizes it): one
    # block of threads per row, its maximum and sum in shared memory, the
    # exponentials inlined where they are read.
    softmax = text["softmax"]
    assert 'thread="blockIdx.x"' in softmax and 'scope="shared"' in softmax
    assert 'T.block("softmax_exp")' not in softmax
    # Fallback: the small matmul's bias added by the thread that computed
    # its element, in registers.
    small = text["fused_matmul1_add1"]
    assert 'scope="local"' in small
    # The graph function is left alone; every kernel builds.
    assert gpu["main"].script() == mod["main"].script()
    lib = tvm.compile(gpu, target="cuda")
    assert lib.target == "cuda"


@pytest.mark.skipif(not os.path.exists("/usr/local/cuda/bin/ptxas"),
                    reason="no CUDA toolkit (ptxas)")
def test_the_kernels_assemble_with_ptxas():
    _, gpu = _scheduled()
    for arch in ("sm_80", "sm_90"):
        tvm.compile(gpu, target=f"cuda -arch={arch} -format=bin")


def test_scheduled_functions_and_other_targets_are_left_alone():
    mod, gpu = _scheduled()
    with tvm.target.Target("cuda"):
        again = dl.ApplyDefaultSchedule(*RULES)(gpu)
    assert again.script() == gpu.script()
    with tvm.target.Target("llvm"):
        assert dl.ApplyDefaultSchedule(*RULES)(mod).script() == mod.script()


def test_bad_arguments_are_refused():
    with pytest.raises(ValueError, match="inside `with tvm.target.Target"):
        dl.ApplyDefaultSchedule(dl.gpu.Fallback())(relax.get_pipeline("zero")(Model))
    with pytest.raises(TypeError, match="takes dlight rules"):
        dl.ApplyDefaultSchedule("matmul")


@T.prim_func
def softmax_dynamic_rows(a: T.handle, b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, 256), "float32")
    B = T.match_buffer(b, (n, 256), "float32")
    mx = T.alloc_buffer((n,), "float32")
    den = T.alloc_buffer((n,), "float32")
    for i, j in T.grid(n, 256):
        with T.block("max"):
            vi, vj = T.axis.remap("SR", [i, j])
            with T.init():
                mx[vi] = T.float32(-3.4e38)
            mx[vi] = T.max(mx[vi], A[vi, vj])
    for i, j in T.grid(n, 256):
        with T.block("sum"):
            vi, vj = T.axis.remap("SR", [i, j])
            with T.init():
                den[vi] = T.float32(0)
            den[vi] = den[vi] + T.exp(A[vi, vj] - mx[vi])
    for i, j in T.grid(n, 256):
        with T.block("out"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.exp(A[vi, vj] - mx[vi]) / den[vi]


def test_general_reduction_on_rows_of_a_dynamic_count():
    """A softmax over n rows (a shape variable): a block per row, its
    maximum and sum in shared memory, which the GPU lowering compacts from
    (n,) to the block's one element each. The schedule's values are
    checked on the CPU, its thread loops run one after another."""
    target = tvm.target.Target("cuda")
    with target:
        sch = dl.gpu.GeneralReduction().apply(softmax_dynamic_rows, target, False)
    assert sch is not None
    ptx = tvm.build(sch.mod, target="cuda").get_source("ll")
    assert "__wg_softmax_dynamic_rows_kernel_0_$_0" in ptx  # one float: the row's maximum
    serial = serial_on_cpu(sch.mod)
    lib = tvm.build(serial, target="llvm")
    for n in (1, 7):
        a = np.random.default_rng(n).standard_normal((n, 256)).astype("float32")
        b = np.full_like(a, np.nan)
        lib[lib.functions[0]](a, b)
        e = np.exp(a - a.max(axis=1, keepdims=True))
        np.testing.assert_allclose(b, e / e.sum(axis=1, keepdims=True), rtol=1e-5)


def test_general_reduction_gives_each_row_a_block():
    """A softmax over the last axis of (4, 128, 128) (attention's scores of
    four heads, batch 1): a block per row of the leading axes, 512 of them,
    not one per head."""
    bb = relax.BlockBuilder()
    x = relax.Var("x", relax.TensorStructInfo((4, 128, 128), "float32"))
    with bb.function("main", [x]):
        with bb.dataflow():
            gv = bb.emit_output(bb.emit(relax.op.nn.softmax(x, axis=-1)))
        bb.emit_func_output(gv)
    mod = relax.transform.LegalizeOps()(bb.get())
    target = tvm.target.Target("cuda")
    with target:
        sch = dl.gpu.GeneralReduction().apply(mod["softmax"], target, False)
    text = sch.mod.script()
    assert 'T.thread_binding(512, thread="blockIdx.x")' in text
    assert 'scope="shared"' in text
    assert tvm.build(sch.mod, target="cuda").target == "cuda"


@T.prim_func
def matmul_dynamic_rows(a: T.handle, b: T.handle, c: T.handle):
    m = T.int32()
    A = T.match_buffer(a, (m, 128), "float32")
    B = T.match_buffer(b, (128, 256), "float32")
    C = T.match_buffer(c, (m, 256), "float32")
    for i, j, k in T.grid(m, 256, 128):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


def _scheduled_for_cuda(rule, func):
    """`rule`'s schedule of `func` under target cuda, which builds for it."""
    target = tvm.target.Target("cuda")
    with target:
        sch = rule.apply(func, target, False)
    assert sch is not None
    assert tvm.build(sch.mod, target="cuda").target == "cuda"
    return sch


def test_matmul_takes_a_runtime_row_count():
    """A prefill's matmul over m rows (a shape variable): the tiles of A in
    shared memory of m rows, the last row tile predicated. Values checked
    serially on the CPU for m below, at and past a tile."""
    sch = _scheduled_for_cuda(dl.gpu.Matmul(), matmul_dynamic_rows)
    text = sch.mod.script()
    assert 'A_shared = T.alloc_buffer((m, 128), "float32", scope="shared")' in text
    assert 'C_local = T.alloc_buffer((m, 256), "float32", scope="local")' in text
    check_matmul_serially(sch.mod, [(m, 128, 256) for m in (1, 64, 70)])


@T.prim_func
def sum_dynamic_columns(a: T.handle, b: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (4, n, 512), "float32")
    B = T.match_buffer(b, (4, n), "float32")
    for i, j, k in T.grid(4, n, 512):
        with T.block("S"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                B[vi, vj] = T.float32(0)
            B[vi, vj] = B[vi, vj] + A[vi, vj, vk]


def test_reduction_takes_a_runtime_row_count():
    """Rows (4, n) fused on blockIdx.x: the block's bindings divide the
    fused loop by n, which the reduction across threads takes."""
    sch = _scheduled_for_cuda(dl.gpu.Reduction(), sum_dynamic_columns)
    text = sch.mod.script()
    assert 'T.thread_binding((n * 4), thread="blockIdx.x")' in text
    assert "i_j_fused // n" in text
    lib = tvm.build(serial_on_cpu(sch.mod), target="llvm")
    for n in (1, 7):
        a = np.random.default_rng(n).standard_normal((4, n, 512)).astype("float32")
        b = np.full((4, n), np.nan, "float32")
        lib[lib.functions[0]](a, b)
        np.testing.assert_allclose(b, a.astype("float64").sum(-1), rtol=1e-4, atol=1e-4)
