"""tvm.dlight: default GPU schedules for the prim_funcs of a module (TVM's
ApplyDefaultSchedule with gpu.Matmul, GEMV, Reduction, GeneralReduction,
Fallback), checked by what each rule makes and by building the module for
CUDA (PTX; assembled by ptxas where the toolkit has it). No GPU runs here:
the kernels' numbers are checked where one is lent."""
import os

import pytest

import tensorir as tvm
from tensorir import dlight as dl
from tensorir import relax
from tensorir.script import ir as I
from tensorir.script import relax as R
from tensorir.script import tir as T

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
def matmul_relu_dynamic(a: T.handle, w: T.Buffer((16, 8), "float32"), b: T.handle):
    n = T.int64()
    A = T.match_buffer(a, (n, 16), "float32")
    B = T.match_buffer(b, (n, 8), "float32")
    C = T.alloc_buffer((n, 8), "float32")
    for i, j, k in T.grid(n, 8, 16):
        with T.block("matmul"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * w[vk, vj]
    for i, j in T.grid(n, 8):
        with T.block("relu"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T.max(C[vi, vj], T.float32(0))


def test_general_reduction_leaves_intermediates_of_dynamic_shape():
    """A row-wise function whose intermediate has a dynamic shape is not
    GeneralReduction's: a kernel's shared memory is of static size."""
    with tvm.target.Target("cuda"):
        assert dl.gpu.GeneralReduction().apply(matmul_relu_dynamic, tvm.target.Target("cuda"),
                                               False) is None


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
