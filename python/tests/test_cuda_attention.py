"""Fused attention (bench/gpu/attention_kernels.py: attention, schedule_attention,
schedule_attention_tensor_cores, flash_attention): the five stages of
softmax(Q K^T / sqrt(d)) V as one kernel, its products on CUDA cores or
on tensor cores (WMMA fragments, lowered to ldmatrix and mma.sync), or
streamed over the keys with an online softmax. Checked here
without a GPU: the unscheduled function and the scheduled one (its loops
bound to GPU threads run serially) on the CPU against numpy in float64;
the kernel's PTX (warp shuffles for the row reductions, no local memory)
assembled by ptxas for sm_80 and sm_90; shared memory over the chip's
limit refused. Run against numpy where there is a GPU."""
import os
import sys

import numpy as np
import pytest

import tensorir as tvm

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "bench", "gpu"))
import attention_kernels as kernels  # noqa: E402
from test_cuda import serial_on_cpu  # noqa: E402

HAVE_GPU = tvm.cuda(0).exist
HAVE_PTXAS = os.path.exists("/usr/local/cuda/bin/ptxas")


def inputs(heads, n, d, dtype, seed=0):
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((heads, n, d)).astype(dtype) for _ in range(3)]


def reference(q, k, v):
    d = q.shape[-1]
    scores = np.einsum("hid,hjd->hij", q.astype("float64"), k.astype("float64")) / np.sqrt(d)
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    weights /= weights.sum(-1, keepdims=True)
    return np.einsum("hij,hjd->hid", weights, v.astype("float64"))


def run(lib, q, k, v, dev=None):
    dev = dev or tvm.cpu(0)
    out = tvm.nd.array(np.full(q.shape, np.nan, q.dtype), dev)
    lib[lib.functions[0]](*(tvm.nd.array(x, dev) for x in (q, k, v)), out)
    return out.numpy()


def relative_error(got, expected):
    return np.linalg.norm(got.astype("float64") - expected) / np.linalg.norm(expected)


@pytest.mark.parametrize("dtype, tolerance", [("float16", 1e-3), ("float32", 1e-6)])
def test_unscheduled_attention_on_cpu(dtype, tolerance):
    q, k, v = inputs(2, 64, 32, dtype)
    lib = tvm.build(kernels.attention(2, 64, 32, dtype), target="llvm")
    assert relative_error(run(lib, q, k, v), reference(q, k, v)) < tolerance


@pytest.mark.parametrize("rows", [4, 8])
def test_scheduled_attention_runs_serially_on_cpu(rows):
    # The CPU build refuses loops bound to GPU threads; with the bindings
    # dropped, the kernel's stages run one thread after another, which
    # checks what the schedule computes (not the absence of races).
    sch = kernels.schedule_attention(kernels.attention(2, 64, 32), rows=rows)
    with pytest.raises(ValueError, match="thread-bound loops are lowered by the GPU pipeline"):
        tvm.build(sch.mod, target="llvm")
    serial = serial_on_cpu(sch.mod)
    q, k, v = inputs(2, 64, 32, "float16", seed=1)
    got = run(tvm.build(serial, target="llvm"), q, k, v)
    assert relative_error(got, reference(q, k, v)) < 1e-3


def test_attention_kernel_ptx():
    sch = kernels.schedule_attention(kernels.attention(32, 1024, 64))
    ptx = tvm.build(sch.mod, target="cuda -arch=sm_80").get_source("ll")
    # One kernel; the row max and sum each five butterfly shuffles (32
    # lanes), nothing through shared memory for them; the scores and
    # their exponentials in dynamic shared memory; no local memory.
    assert ptx.count(".entry") == 1
    assert ptx.count("shfl.sync.bfly.b32") == 10
    assert "__tir_dynamic_shared" in ptx
    assert "ld.local" not in ptx and "st.local" not in ptx
    assert "ex2.approx" in ptx


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas) for -format=bin")
@pytest.mark.parametrize("arch, n, rows", [("sm_80", 1024, 8), ("sm_90", 2048, 8),
                                           ("sm_80", 4096, 4)])
def test_attention_assembles(arch, n, rows):
    sch = kernels.schedule_attention(kernels.attention(8, n, 64), rows=rows)
    tvm.build(sch.mod, target=f"cuda -arch={arch} -format=bin")


def test_attention_rows_over_shared_memory_refused():
    # 8 rows of 8192 scores and exponentials: 512 KiB of shared memory.
    sch = kernels.schedule_attention(kernels.attention(8, 8192, 64), rows=8)
    with pytest.raises(ValueError, match="bytes of shared memory, over the 232448 bytes one "
                                         "block may hold on sm_90"):
        tvm.build(sch.mod, target="cuda -arch=sm_90")


def tensor_core_attention(heads, n, d, tensorize=True):
    func = kernels.attention(heads, n, d, weights="float16")
    return kernels.schedule_attention_tensor_cores(func, tensorize=tensorize)


def test_tensor_core_attention_schedule_runs_serially_on_cpu():
    # Up to the fragments' instructions (which only a GPU runs): the
    # products in 16 x 16 x 16 tiles, the operands staged in shared memory
    # and fragments, the weights in float16.
    sch = tensor_core_attention(2, 64, 64, tensorize=False)
    serial = serial_on_cpu(sch.mod)
    q, k, v = inputs(2, 64, 64, "float16", seed=3)
    got = run(tvm.build(serial, target="llvm"), q, k, v)
    assert relative_error(got, reference(q, k, v)) < 1e-3


@pytest.mark.parametrize("d", [64, 128])
def test_tensor_core_attention_ptx(d):
    ptx = tvm.build(tensor_core_attention(8, 1024, d).mod,
                    target="cuda -arch=sm_80").get_source("ll")
    assert ptx.count(".entry") == 1
    assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    assert "ldmatrix.sync.aligned.m8n8.x4" in ptx
    assert "shfl.sync.bfly.b32" in ptx
    assert "ld.local" not in ptx and "st.local" not in ptx


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas) for -format=bin")
@pytest.mark.parametrize("arch, n, d", [("sm_80", 1024, 64), ("sm_90", 2048, 128)])
def test_tensor_core_attention_assembles(arch, n, d):
    tvm.build(tensor_core_attention(8, n, d).mod, target=f"cuda -arch={arch} -format=bin")


def test_tensor_core_attention_rows_over_shared_memory_refused():
    # 16 rows of 2048 scores and weights with d = 128: 227456 bytes, over
    # what an A100's block holds (an H100's takes them).
    with pytest.raises(ValueError, match="227456 bytes of shared memory, over the 166912 "
                                         "bytes one block may hold on sm_80"):
        tvm.build(tensor_core_attention(8, 2048, 128).mod, target="cuda -arch=sm_80")


@pytest.mark.parametrize("rows, d", [(8, 64), (4, 96)])
def test_flash_attention_runs_serially_on_cpu(rows, d):
    # Each step between the kernel's barriers is a thread loop nest of its
    # own: run one after another, they compute what the GPU's threads do.
    func = kernels.flash_attention(2, 96, d, rows=rows)
    serial = serial_on_cpu(func)
    q, k, v = inputs(2, 96, d, "float16", seed=4)
    got = run(tvm.build(serial, target="llvm"), q, k, v)
    assert relative_error(got, reference(q, k, v)) < 1e-3


def test_flash_attention_shapes_refused():
    with pytest.raises(ValueError, match="are multiples of 32"):
        kernels.flash_attention(2, 100, 64)


def test_flash_attention_kernel_ptx():
    ptx = tvm.build(kernels.flash_attention(8, 16384, 128),
                    target="cuda -arch=sm_80").get_source("ll")
    # One kernel, its tile's maximum and sum by five shuffles each; a few
    # KiB of shared memory whatever the sequence (tiles and per-row state).
    assert ptx.count(".entry") == 1
    assert ptx.count("shfl.sync.bfly.b32") == 10
    assert "__tir_dynamic_shared" not in ptx
    assert "ld.local" not in ptx and "st.local" not in ptx


@pytest.mark.skipif(not HAVE_PTXAS, reason="no CUDA toolkit (ptxas) for -format=bin")
@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_flash_attention_assembles(arch):
    tvm.build(kernels.flash_attention(8, 4096, 64), target=f"cuda -arch={arch} -format=bin")


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
@pytest.mark.parametrize("kind", ["cuda-cores", "tensor-cores", "flash"])
def test_attention_on_gpu(kind):
    if kind == "flash":
        mod = tvm.IRModule({"main": kernels.flash_attention(4, 512, 64)})
    elif kind == "tensor-cores":
        mod = tensor_core_attention(4, 512, 64).mod
    else:
        mod = kernels.schedule_attention(kernels.attention(4, 512, 64)).mod
    lib = tvm.build(mod, target="cuda")
    q, k, v = inputs(4, 512, 64, "float16", seed=2)
    got = run(lib, q, k, v, tvm.cuda(0))
    assert relative_error(got, reference(q, k, v)) < 2e-3
