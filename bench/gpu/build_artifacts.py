"""Builds the GPU benchmark's libraries here (no GPU needed) for run.py to
run on a GPU machine, which needs only the runtime library, numpy and
(for the peer) PyTorch:

    python3 bench/gpu/build_artifacts.py build/gpu [--arch sm_90]

writes build/gpu/<name>.so for each program in VARIANTS, with
libTIRRuntime.so beside them (each library finds it there: rpath $ORIGIN).
"""
import argparse
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import attention_kernels as att  # noqa: E402
import programs as p  # noqa: E402
from build_models import loaded_runtime  # noqa: E402

PIPE = ([0, 0, 1], [0, 1, 2])  # next tiles into second buffers during the update
PIPE3 = ([0, 0, 2], [0, 1, 2])  # two tiles ahead, three buffers each
REV = ([0, 0, 1], [1, 2, 0])   # the update first, then the next tiles


def gemm(size, **schedule):
    return lambda: p.schedule_matmul_tiled(p.matmul(size, size, size), **schedule)


# The GEMM schedules, by name: tile of C per block (m x n), per thread
# (t), k step (k), and how the copies overlap the update. "s" tiles have
# 8 x 8 per thread with B's shared tile spread (spread_b).
T8X4 = dict(bm=64, bn=128, tm=8, tn=4, vec=4)
S128 = dict(bk=16, vec=4, spread_b=True)
S64N128 = dict(bm=64, vec=4, spread_b=True)
GEMMS = {
    "tiled": dict(),  # 128 x 128, 8 x 8 per thread, k step 8, scalar copies
    "vec4k16": dict(bk=16, vec=4),
    "m64n128t8x4": dict(T8X4, bk=16),
    "m64n128t8x4_pipe": dict(T8X4, bk=16, pipeline=PIPE),
    "m64n128t8x4_piperev": dict(T8X4, bk=16, pipeline=REV),
    "m64n128t8x4_pipek32": dict(T8X4, bk=32, pipeline=PIPE),
    "m64n128t8x4_piperevk32": dict(T8X4, bk=32, pipeline=REV),
    "m64n128t8x4_piperevk32g8": dict(T8X4, bk=32, pipeline=REV, group=8),
    "m64n128t8x4_pipek32w48": dict(T8X4, bk=32, pipeline=PIPE, warp=(4, 8)),
    "m64n128t16x4_pipek16": dict(T8X4, tm=16, bk=16, pipeline=PIPE),
    "m64n128t8x4_stagedk32": dict(T8X4, bk=32, staged=True),
    "s128k16": dict(S128),
    "s128k16_piperev": dict(S128, pipeline=REV),
    "s128k16_staged": dict(S128, staged=True),
    "s128n64k16_staged": dict(S128, bn=64, staged=True),
    "s64n128k16_staged": dict(S64N128, bk=16, staged=True),
    "s64n128k8_staged": dict(S64N128, bk=8, staged=True),
    "s64n256k16_staged": dict(S64N128, bn=256, bk=16, staged=True),
    # The pipelined copies by cp.async ("a"): no registers, no wait for
    # the loads before the update.
    "m64n128t8x4_apipek32": dict(T8X4, bk=32, pipeline=PIPE, async_copies=True),
    "m64n128t8x4_apipe3k16": dict(T8X4, bk=16, pipeline=PIPE3, async_copies=True),
    "m64n128t8x4_apipe3k32": dict(T8X4, bk=32, pipeline=PIPE3, async_copies=True),
    "s64n128k16_apipe3": dict(S64N128, bk=16, pipeline=PIPE3, async_copies=True),
}
# Sizes each is measured at (4096 only unless listed).
AT_2048 = {"tiled", "vec4k16", "m64n128t8x4", "m64n128t8x4_pipek32",
           "m64n128t8x4_stagedk32", "s64n128k16_staged", "s64n128k8_staged"}

VARIANTS = {
    "vadd_scalar": lambda: p.schedule_vector_add(p.vector_add(1 << 26), lanes=1),
    "vadd_vec4": lambda: p.schedule_vector_add(p.vector_add(1 << 26), lanes=4),
    "vadd_vec4_cubin": lambda: p.schedule_vector_add(p.vector_add(1 << 26), lanes=4),
    "gemm_naive_2048": lambda: p.schedule_matmul_naive(p.matmul(2048, 2048, 2048)),
    "gemm_naive_4096": lambda: p.schedule_matmul_naive(p.matmul(4096, 4096, 4096)),
    **{f"gemm_{name}_{size}": gemm(size, **schedule)
       for name, schedule in GEMMS.items()
       for size in ((2048, 4096) if name in AT_2048 else (4096,))},
    # Tensor cores (mma.sync), f16 x f16 -> f32: warps per block, 16 x 16
    # tiles per warp.
    **{f"tcgemm_w{w[0]}x{w[1]}t{t[0]}x{t[1]}_{size}": (
        lambda size=size, w=w, t=t: p.schedule_matmul_mma(
            p.matmul_mixed(size), warps=w, tiles=t).mod)
       for w, t, sizes in (((2, 2), (2, 2), (1024, 4096)), ((2, 2), (4, 4), (4096, 8192)),
                           ((2, 4), (4, 2), (4096,)))
       for size in sizes},
    # The same, k steps software-pipelined with cp.async (two copies of
    # each tile; 4 x 4 tiles per warp with k steps of 64 take 64 KiB, dynamic
    # shared memory).
    **{f"tcgemm_async_w{w[0]}x{w[1]}t{t[0]}x{t[1]}k{k}_{size}": (
        lambda size=size, w=w, t=t, k=k: p.schedule_matmul_mma(
            p.matmul_mixed(size), warps=w, tiles=t, k_tiles=k, pipeline="async").mod)
       for w, t, k in (((2, 2), (4, 4), 2), ((2, 2), (4, 4), 4), ((2, 4), (4, 2), 2))
       for size in (4096, 8192)},
    # The same with the shared tiles' rows padded (storage_align): ldmatrix
    # without bank conflicts.
    **{f"tcgemm_asyncpad_w{w[0]}x{w[1]}t{t[0]}x{t[1]}k{k}_{size}": (
        lambda size=size, w=w, t=t, k=k: p.schedule_matmul_mma(
            p.matmul_mixed(size), warps=w, tiles=t, k_tiles=k, pipeline="async",
            pad=True).mod)
       for w, t, k in (((2, 2), (4, 4), 2), ((2, 2), (4, 4), 4), ((2, 4), (4, 2), 2))
       for size in (4096, 8192)},
    # Warpgroup tensor cores (sm_90a's wgmma), C = A B^T in f16 -> f32: the
    # product's N, warpgroups per block, k steps of 16 per shared tile;
    # the tiles copied by cp.async one k tile ahead.
    # "s3": three stages (the copies two k tiles ahead); "g8": the blocks
    # 8 rows of tiles at a time (L2 reuse).
    **{f"wggemm_n{n}w{w}k{k}{'s3' if s == 3 else ''}{f'g{g}' if g else ''}_{size}": (
        lambda size=size, n=n, w=w, k=k, s=s, g=g: p.schedule_matmul_wgmma(
            p.matmul_mixed(size, b_transposed=True), n_tile=n, warpgroups=w,
            k_tiles=k, stages=s, group=g).mod)
       for n, w, k, s, g in ((128, 2, 4, 2, None), (256, 2, 4, 2, None), (256, 1, 4, 2, None),
                             (128, 2, 2, 2, None), (128, 2, 4, 3, None), (256, 2, 4, 3, None),
                             (128, 2, 4, 3, 8), (256, 2, 4, 3, 8))
       for size in (4096, 8192)},
    # Fused attention (one kernel, f16 in and out, float32 inside): heads,
    # sequence length, head size; `rows` queries per block, bounded by the
    # shared memory that holds their scores.
    **{f"attention_h{h}_n{n}_d{d}": lambda h=h, n=n, d=d, r=r: att.schedule_attention(
        att.attention(h, n, d), rows=r).mod
       for h, n, d, r in ((32, 1024, 64, 8), (16, 2048, 128, 8), (8, 4096, 64, 4))},
    # The same with its two products on tensor cores (WMMA), the weights in f16.
    **{f"tcattention_h{h}_n{n}_d{d}": lambda h=h, n=n, d=d: att.schedule_attention_tensor_cores(
        att.attention(h, n, d, weights="float16")).mod
       for h, n, d in ((32, 1024, 64), (16, 1024, 128))},
    # Streamed over the keys (online softmax): no bound on the sequence.
    **{f"flashattention_h{h}_n{n}_d{d}": lambda h=h, n=n, d=d: att.flash_attention(h, n, d)
       for h, n, d in ((32, 1024, 64), (8, 4096, 64), (8, 8192, 128))},
    "softmax_4096": lambda: p.schedule_softmax(p.softmax(4096, 4096)),
    "softmax1024_4096": lambda: p.schedule_softmax(p.softmax(4096, 4096), threads=1024),
}


def meta_schedule_candidates(count, arch, seed=7):
    """{name: scheduled function}: `count` schedules each of MetaSchedule's
    CUDA design space (TVM's default cuda rules and postprocessors, sampled
    by ReplayTrace: no measurement here) for a 1024^3 GEMM and a 4096 x 4096
    softmax, named as run.py checks and times them (gemm_ms<i>_1024,
    softmax_ms<i>_4096)."""
    from tensorir import meta_schedule as ms
    from tensorir.target import Target
    target = Target({"kind": "cuda", "arch": arch, "max_threads_per_block": 1024,
                     "max_shared_memory_per_block": 49152, "thread_warp_size": 32,
                     "registers_per_block": 65536})
    out = {}
    for kind, func, size in (("gemm", p.matmul(1024, 1024, 1024), 1024),
                             ("softmax", p.softmax(4096, 4096), 4096)):
        context = ms.TuneContext(func, target=target, space_generator="post-order-apply",
                                 search_strategy="replay-trace", rand_state=seed,
                                 task_name=kind)
        context.pre_tuning(count, count)
        for i, candidate in enumerate(context.generate_measure_candidates() or []):
            out[f"{kind}_ms{i}_{size}"] = candidate.sch.mod["main"]
        context.post_tuning()
    return out


def main():
    import tensorir as tvm
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--ms-candidates", type=int, default=12,
                        help="schedules of MetaSchedule's CUDA space per workload")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    variants = dict(VARIANTS)
    sampled = meta_schedule_candidates(args.ms_candidates, args.arch) \
        if args.ms_candidates else {}
    variants.update({name: (lambda f=f: f) for name, f in sampled.items()})
    for name, make in variants.items():
        if args.only and name not in args.only:
            continue
        # One library with a cubin (ptxas here) rather than PTX.
        fmt = " -format=bin" if name.endswith("_cubin") else ""
        arch = args.arch
        if name.startswith("wggemm"):
            # wgmma is Hopper's architecture-specific instruction (sm_90a).
            if not arch.startswith("sm_90"):
                print("not built", name, f"(wgmma needs sm_90a, the GPU is {arch})")
                continue
            arch = "sm_90a"
        try:
            lib = tvm.build(make(), target=f"cuda -arch={arch}{fmt}")
        except ValueError as e:
            if name not in sampled:
                raise
            # A sampled schedule the GPU lowering refuses (MetaSchedule's
            # builder records it as failed the same way).
            print("not built", name, str(e).splitlines()[0][-160:])
            continue
        lib.export_library(os.path.join(args.out, name + ".so"))
        print("built", name, lib.functions)
    # For tir-exec (the runner linking only the runtime): small GPU programs
    # with CPU builds of the same functions as references.
    exec_dir = os.path.join(args.out, "exec")
    os.makedirs(exec_dir, exist_ok=True)
    for name, gpu, cpu in (
            ("vadd", p.schedule_vector_add(p.vector_add(1 << 20)), p.vector_add(1 << 20)),
            ("gemm", p.schedule_matmul_tiled(p.matmul(512, 512, 512), bk=16, vec=4),
             p.matmul(512, 512, 512)),
            ("gemm_pipe", p.schedule_matmul_tiled(p.matmul(512, 512, 512), bm=64, bn=128,
                                                  tm=8, tn=4, bk=16, vec=4, pipeline=PIPE),
             p.matmul(512, 512, 512)),
            ("gemm_staged", p.schedule_matmul_tiled(p.matmul(512, 512, 512), bm=64, bk=16,
                                                    vec=4, spread_b=True, staged=True),
             p.matmul(512, 512, 512)),
            ("softmax", p.schedule_softmax(p.softmax(256, 2048)), p.softmax(256, 2048)),
            # tir-exec takes 32- and 64-bit floats: attention in float32.
            ("attention", att.schedule_attention(att.attention(4, 256, 64, "float32")).mod,
             att.attention(4, 256, 64, "float32")),
            # The streamed attention against the five stages on the CPU.
            ("flash_attention", att.flash_attention(4, 256, 64, "float32"),
             att.attention(4, 256, 64, "float32").with_attr("global_symbol",
                                                           "flash_attention"))):
        tvm.build(gpu, target=f"cuda -arch={args.arch}").export_library(
            os.path.join(exec_dir, name + "_cuda.so"))
        # The GPU machine's CPU is another: a generic x86-64 build.
        tvm.build(cpu, target="llvm -mcpu=x86-64").export_library(
            os.path.join(exec_dir, name + "_cpu.so"))
        print("built", name, "for tir-exec")
    runtime = loaded_runtime()
    shutil.copy(runtime, os.path.join(args.out, "libTIRRuntime.so"))
    shutil.copy(runtime, os.path.join(exec_dir, "libTIRRuntime.so"))
    runner = os.path.join(os.path.dirname(runtime), "..", "bin", "tir-exec")
    if os.path.exists(runner):
        shutil.copy(runner, os.path.join(exec_dir, "tir-exec"))


if __name__ == "__main__":
    main()
