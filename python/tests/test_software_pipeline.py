"""Software pipelining (TVM's software_pipeline_stage / software_pipeline_order
loop annotations, lowered by --tir-inject-software-pipeline and, in GPU
kernels, by convert-tir-to-gpu): pipelined programs compute what the
unpipelined ones do (built for the CPU and run), pipelines that would
reorder dependent accesses are refused at build time with the rule, and the
GPU build gives the shared tiles two copies (its PTX read here; run where a
GPU is)."""
import itertools
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import tensorir as tvm

from conftest import ROOT, tool

sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
import programs  # noqa: E402

HAVE_GPU = tvm.cuda(0).exist


def cached_matmul(n, stage, order, k_tile=8):
    """C = A @ B with tiles of A and B copied (cache_read) at the k loop,
    the loop's three statements (copy A, copy B, update) pipelined."""
    sch = tvm.tir.Schedule(programs.matmul(n, n, n))
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    k0, k1 = sch.split(k, factors=[None, k_tile])
    sch.reorder(i, k0, j, k1)
    for index in (0, 1):
        sch.compute_at(sch.cache_read(block, index, "global"), k0)
    sch.decompose_reduction(block, k0)
    sch.annotate(k0, "software_pipeline_stage", list(stage))
    sch.annotate(k0, "software_pipeline_order", list(order))
    return sch.mod


def run_matmul(mod, n, seed=0):
    rng = np.random.default_rng(seed)
    a, b = (rng.standard_normal((n, n)).astype("float32") for _ in range(2))
    c = tvm.nd.array(np.full((n, n), np.nan, "float32"))
    tvm.build(mod)["gemm"](tvm.nd.array(a), tvm.nd.array(b), c)
    return c.numpy(), a.astype("float64") @ b


def legal(stage, order):
    """The rule for this program: each copy runs in an earlier stage than
    the update, or in the same stage with an earlier order (the tiles are
    disjoint between iterations, so nothing else is constrained)."""
    return all(stage[x] < stage[2] or (stage[x] == stage[2] and order[x] < order[2])
               for x in (0, 1))


PIPELINES = ([(s, (0, 1, 2)) for s in itertools.product(range(3), repeat=3)]
             + [((0, 0, 1), o) for o in itertools.permutations(range(3)) if o != (0, 1, 2)]
             + [((1, 0, 1), (2, 0, 1)), ((0, 1, 0), (2, 0, 1))])


@pytest.mark.parametrize("stage,order", PIPELINES, ids=str)
def test_pipelines_compute_the_same_or_are_refused(stage, order):
    n = 24  # three k tiles: prologue, steady loop and epilogue all run
    mod = cached_matmul(n, stage, order)
    if legal(stage, order):
        got, want = run_matmul(mod, n)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    else:
        with pytest.raises(ValueError, match="cannot be software-pipelined: statement 2 "
                                             r"\('C_update'.*after statement [01]"):
            tvm.build(mod)


def test_fewer_iterations_than_stages():
    # One k tile, stages up to 2: the steady loop never runs.
    got, want = run_matmul(cached_matmul(8, (0, 1, 2), (0, 1, 2)), 8)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_malformed_annotations_are_refused():
    sch = tvm.tir.Schedule(cached_matmul(16, (0, 0, 1), (0, 1, 2)))
    (loop,) = [lp for lp in sch.get_loops(sch.get_block("C_update")) if
               "software_pipeline_stage" in sch.get(lp).annotations]
    sch.unannotate(loop, "software_pipeline_order")
    with pytest.raises(ValueError, match="has 'software_pipeline_stage' but no "
                                         "'software_pipeline_order'"):
        tvm.build(sch.mod)
    sch.annotate(loop, "software_pipeline_order", [0, 1])
    with pytest.raises(ValueError, match="'software_pipeline_order' has 2 entries, but the "
                                         "loop's body has 3 statements"):
        tvm.build(sch.mod)


# A loop whose buffers are one iteration's (memref.alloca in its body, as
# convert-tir-to-gpu's compaction leaves a kernel's shared tiles): T1 is
# read two stages after it is written (three copies), T2 one stage after
# (two copies): the steady loop is unrolled by 6; 11 iterations make a
# round of 6 and 3 steps written out after it.
COPIES = """
func.func @main(%A: memref<44xf32> {tir.name = "A"}, %B: memref<44xf32> {tir.name = "B"},
                %C: memref<44xf32> {tir.name = "C"}) {
  tir.for %k = 0 to 11 annotations {PIPELINE} {
    %T1 = memref.alloca() : memref<4xf32>
    %T2 = memref.alloca() : memref<4xf32>
    tir.for %x = 0 to 4 {
      tir.block "load1"(%v = spatial(44, %k * 4 + %x), %w = spatial(4, %x)) {
        %0 = tir.load %A[%v] : memref<44xf32>
        tir.store %0, %T1[%w] : memref<4xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "load2"(%v = spatial(44, %k * 4 + %x), %w = spatial(4, %x)) {
        %0 = tir.load %B[%v] : memref<44xf32>
        %1 = arith.mulf %0, %0 : f32
        tir.store %1, %T2[%w] : memref<4xf32>
      }
    }
    tir.for %x = 0 to 4 {
      tir.block "use"(%v = spatial(44, %k * 4 + %x), %w = spatial(4, %x)) {
        %0 = tir.load %T1[%w] : memref<4xf32>
        %1 = tir.load %T2[%w] : memref<4xf32>
        %2 = arith.addf %0, %1 : f32
        tir.store %2, %C[%v] : memref<44xf32>
      }
    }
  }
  return
}
"""


@pytest.mark.parametrize("stage,order", [((0, 1, 2), (0, 1, 2)), ((0, 0, 1), (0, 1, 2)),
                                         ((0, 1, 2), (2, 1, 0)), ((0, 0, 0), (0, 1, 2))],
                         ids=str)
def test_buffers_of_one_iteration_get_copies(stage, order):
    pipeline = (f"software_pipeline_order = {list(order)}, "
                f"software_pipeline_stage = {list(stage)}")
    mod = tvm.IRModule.from_mlir(COPIES.replace("PIPELINE", pipeline))
    rng = np.random.default_rng(2)
    a, b = (rng.standard_normal(44).astype("float32") for _ in range(2))
    c = tvm.nd.array(np.full(44, np.nan, "float32"))
    tvm.build(mod)["main"](tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a + b * b, rtol=1e-6)


def test_copies_in_the_lowered_loop():
    pipeline = "software_pipeline_order = [0, 1, 2], software_pipeline_stage = [0, 1, 2]"
    text = tvm.IRModule.from_mlir(COPIES.replace("PIPELINE", pipeline)).mlir()
    lowered = tvm.ir.transform.mlir_pass("tir-inject-software-pipeline")(
        tvm.IRModule.from_mlir(text)).mlir()
    # Three copies of T1 and two of T2 before the pipeline, one steady
    # round of six steps.
    assert len(re.findall(r"memref\.alloca\(\) : memref<4xf32>", lowered)) == 5
    assert re.search(r"tir\.for %\w+ = 0 to 1 \{", lowered)
    assert lowered.count('tir.block "use"') == 11


def check_gemm_on_gpu(mod, n, seed):
    """The n x n fp32 GEMM `mod` on the GPU against numpy in float64."""
    dev = tvm.cuda(0)
    lib = tvm.build(mod, target="cuda")
    rng = np.random.default_rng(seed)
    x, y = (rng.standard_normal((n, n)).astype("float32") for _ in range(2))
    c = tvm.nd.array(np.full((n, n), np.nan, "float32"), dev)
    lib["gemm"](tvm.nd.array(x, dev), tvm.nd.array(y, dev), c)
    np.testing.assert_allclose(c.numpy(), x.astype("float64") @ y, rtol=1e-4, atol=1e-4)


def pipelined_gemm(n=256):
    return programs.schedule_matmul_tiled(programs.matmul(n, n, n), bm=64, bn=128, tm=8,
                                          tn=4, bk=16, vec=4,
                                          pipeline=([0, 0, 1], [0, 1, 2]))


def test_gpu_build_double_buffers_the_tiles(tmp_path):
    mod = pipelined_gemm()
    assert tvm.build(mod, target="cuda -arch=sm_90").target == "cuda"
    source = tmp_path / "gemm.mlir"
    source.write_text(mod.mlir())
    ptx = subprocess.run([tool("tir-translate"), "--tir-to-ptx", "--cuda-chip=sm_90",
                          str(source)], capture_output=True, text=True, check=True).stdout
    shared = re.findall(r"\.shared \.align 16 \.b8 \w+\[(\d+)\]", ptx)
    assert sorted(shared) == ["4096", "4096", "8192", "8192"]
    assert ".local" not in ptx


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
@pytest.mark.parametrize("order", [(0, 1, 2), (1, 2, 0)], ids=str)
def test_pipelined_gemm_on_gpu(order):
    n = 256
    mod = programs.schedule_matmul_tiled(programs.matmul(n, n, n), bm=64, bn=128, tm=8,
                                         tn=4, bk=16, vec=4, pipeline=([0, 0, 1], order))
    check_gemm_on_gpu(mod, n, seed=3)


def async_gemm(n=256):
    """The fp32 GEMM's k loop in three stages, its copies cp.async's."""
    return programs.schedule_matmul_tiled(programs.matmul(n, n, n), bm=64, bn=128, tm=8,
                                          tn=4, bk=16, vec=4,
                                          pipeline=([0, 0, 2], [0, 1, 2]), async_copies=True)


def test_gpu_build_async_three_stages():
    # Three copies of each tile (A's 4 KiB, B's 8 KiB); every copy a 16-byte
    # cp.async (.cg), none through registers; the steady steps wait for all
    # but the newest two groups; assembles for sm_80 and sm_90.
    lib = tvm.build(async_gemm(), target="cuda -arch=sm_80")
    source = lib.get_source()
    start = source.index(".version")
    ptx = source[start:source.index('\\00"', start)].replace("\\0A", "\n").replace("\\09", "\t")
    shared = re.findall(r"\.shared \.align 16 \.b8 \w+\[(\d+)\]", ptx)
    assert sorted(shared) == ["4096"] * 3 + ["8192"] * 3
    assert "ld.global" not in ptx and "cp.async.cg.shared.global" in ptx
    waits = [int(w) for w in re.findall(r"cp\.async\.wait_group\s+(\d+);", ptx)]
    assert max(waits) == 2 and min(waits) == 0
    assert ".local" not in ptx
    if os.path.exists("/usr/local/cuda/bin/ptxas"):
        for arch in ("sm_80", "sm_90"):
            tvm.build(async_gemm(), target=f"cuda -arch={arch} -format=bin")


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
def test_async_gemm_on_gpu():
    n = 256
    check_gemm_on_gpu(async_gemm(n), n, seed=6)


def test_async_copies_need_a_pipeline():
    with pytest.raises(ValueError, match="async_copies makes a pipeline's copies "
                                         "asynchronous: give pipeline"):
        programs.schedule_matmul_tiled(programs.matmul(256, 256, 256), async_copies=True)


def staged_gemm(n=256):
    """The fastest GEMM of bench/gpu on an H100: 64 x 128 tiles, 8 x 8 per
    thread, B's shared tile spread, the copies staged through registers."""
    return programs.schedule_matmul_tiled(programs.matmul(n, n, n), bm=64, bk=16, vec=4,
                                          spread_b=True, staged=True)


def test_gpu_build_stages_the_copies_in_registers(tmp_path):
    mod = staged_gemm()
    source = tmp_path / "gemm.mlir"
    source.write_text(mod.mlir())
    ptx = subprocess.run([tool("tir-translate"), "--tir-to-ptx", "--cuda-chip=sm_90",
                          str(source)], capture_output=True, text=True, check=True).stdout
    # One shared buffer each (the stores follow the update in a step), the
    # thread's staged elements in registers (no local memory), the copies
    # stored into shared memory 4 floats at a time only, and the update's
    # reads nearly all 4 at a time. (tir-translate does not assume the
    # runtime's 16-byte aligned parameters: its global loads may be
    # scalar.)
    shared = re.findall(r"\.shared \.align 16 \.b8 \w+\[(\d+)\]", ptx)
    assert sorted(shared) == ["4096", "8192"]
    assert ".local" not in ptx
    assert "st.shared.v4" in ptx and "st.shared.b32" not in ptx
    assert ptx.count("ld.shared.v4") > 10 * ptx.count("ld.shared.b32")
    if os.path.exists("/usr/local/cuda/bin/ptxas"):
        (tmp_path / "gemm.ptx").write_text(ptx)
        subprocess.run(["/usr/local/cuda/bin/ptxas", "-arch=sm_90", str(tmp_path / "gemm.ptx"),
                        "-o", str(tmp_path / "gemm.cubin")], check=True)


@pytest.mark.skipif(not HAVE_GPU, reason="no CUDA GPU here (tvm.cuda(0).exist is False)")
def test_staged_gemm_on_gpu():
    n = 256
    check_gemm_on_gpu(staged_gemm(n), n, seed=4)
