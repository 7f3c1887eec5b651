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

import programs as p  # noqa: E402

# name -> (what it computes, the scheduled module)
PIPE = ([0, 0, 1], [0, 1, 2])

VARIANTS = {
    "vadd_scalar": lambda: p.schedule_vector_add(p.vector_add(1 << 26), lanes=1),
    "vadd_vec4": lambda: p.schedule_vector_add(p.vector_add(1 << 26), lanes=4),
    "vadd_vec4_cubin": lambda: p.schedule_vector_add(p.vector_add(1 << 26), lanes=4),
    "gemm_naive_2048": lambda: p.schedule_matmul_naive(p.matmul(2048, 2048, 2048)),
    "gemm_naive_4096": lambda: p.schedule_matmul_naive(p.matmul(4096, 4096, 4096)),
    "gemm_tiled_2048": lambda: p.schedule_matmul_tiled(p.matmul(2048, 2048, 2048)),
    "gemm_tiled_4096": lambda: p.schedule_matmul_tiled(p.matmul(4096, 4096, 4096)),
    "gemm_tiledk16_4096": lambda: p.schedule_matmul_tiled(p.matmul(4096, 4096, 4096), bk=16),
    "gemm_vec4_2048": lambda: p.schedule_matmul_tiled(p.matmul(2048, 2048, 2048), vec=4),
    "gemm_vec4_4096": lambda: p.schedule_matmul_tiled(p.matmul(4096, 4096, 4096), vec=4),
    "gemm_vec4k16_4096": lambda: p.schedule_matmul_tiled(p.matmul(4096, 4096, 4096),
                                                         bk=16, vec=4),
    "gemm_vec4k16_2048": lambda: p.schedule_matmul_tiled(p.matmul(2048, 2048, 2048),
                                                         bk=16, vec=4),
    # 64 x 128 tiles, 8 x 4 per thread: threadIdx.x runs along 32 columns
    # groups, so a warp reads a row of the B tile as one 512-byte line.
    "gemm_m64n128t8x4_4096": lambda: p.schedule_matmul_tiled(
        p.matmul(4096, 4096, 4096), bm=64, bn=128, tm=8, tn=4, bk=16, vec=4),
    "gemm_m64n128t8x4_2048": lambda: p.schedule_matmul_tiled(
        p.matmul(2048, 2048, 2048), bm=64, bn=128, tm=8, tn=4, bk=16, vec=4),
    "gemm_vec4k32_4096": lambda: p.schedule_matmul_tiled(p.matmul(4096, 4096, 4096),
                                                         bk=32, vec=4),
    "gemm_n64k16_4096": lambda: p.schedule_matmul_tiled(p.matmul(4096, 4096, 4096),
                                                        bn=64, bk=16, vec=4),
    "gemm_m64k16_4096": lambda: p.schedule_matmul_tiled(p.matmul(4096, 4096, 4096),
                                                        bm=64, tm=4, bk=16, vec=4),
    "gemm_tiled64_4096": lambda: p.schedule_matmul_tiled(p.matmul(4096, 4096, 4096),
                                                         bm=64, bn=128, tm=4, tn=8),
    # Software-pipelined (software_pipeline_stage [0, 0, 1]): the next k
    # tiles copied into second shared buffers while the current ones are
    # multiplied; "rev" puts the update first in a step (one buffer each).
    "gemm_m64n128t8x4_pipe_4096": lambda: p.schedule_matmul_tiled(
        p.matmul(4096, 4096, 4096), bm=64, bn=128, tm=8, tn=4, bk=16, vec=4,
        pipeline=PIPE),
    "gemm_m64n128t8x4_pipe_2048": lambda: p.schedule_matmul_tiled(
        p.matmul(2048, 2048, 2048), bm=64, bn=128, tm=8, tn=4, bk=16, vec=4,
        pipeline=PIPE),
    "gemm_m64n128t8x4_pipek8_4096": lambda: p.schedule_matmul_tiled(
        p.matmul(4096, 4096, 4096), bm=64, bn=128, tm=8, tn=4, bk=8, vec=4,
        pipeline=PIPE),
    "gemm_m64n128t8x4_piperev_4096": lambda: p.schedule_matmul_tiled(
        p.matmul(4096, 4096, 4096), bm=64, bn=128, tm=8, tn=4, bk=16, vec=4,
        pipeline=([0, 0, 1], [1, 2, 0])),
    "gemm_vec4k16_pipe_4096": lambda: p.schedule_matmul_tiled(
        p.matmul(4096, 4096, 4096), bk=16, vec=4, pipeline=PIPE),
    "gemm_vec4k16_pipe_2048": lambda: p.schedule_matmul_tiled(
        p.matmul(2048, 2048, 2048), bk=16, vec=4, pipeline=PIPE),
    "softmax_4096": lambda: p.schedule_softmax(p.softmax(4096, 4096)),
    "softmax1024_4096": lambda: p.schedule_softmax(p.softmax(4096, 4096), threads=1024),
}


def main():
    import tensorir as tvm
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, make in VARIANTS.items():
        if args.only and name not in args.only:
            continue
        # One library with a cubin (ptxas here) rather than PTX.
        fmt = " -format=bin" if name.endswith("_cubin") else ""
        lib = tvm.build(make(), target=f"cuda -arch={args.arch}{fmt}")
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
            ("softmax", p.schedule_softmax(p.softmax(256, 2048)), p.softmax(256, 2048))):
        tvm.build(gpu, target=f"cuda -arch={args.arch}").export_library(
            os.path.join(exec_dir, name + "_cuda.so"))
        # The GPU machine's CPU is another: a generic x86-64 build.
        tvm.build(cpu, target="llvm -mcpu=x86-64").export_library(
            os.path.join(exec_dir, name + "_cpu.so"))
        print("built", name, "for tir-exec")
    runtime = None
    with open("/proc/self/maps") as maps:
        for line in maps:
            if line.rstrip().endswith("/libTIRRuntime.so"):
                runtime = line.split()[-1]
    shutil.copy(runtime, os.path.join(args.out, "libTIRRuntime.so"))
    shutil.copy(runtime, os.path.join(exec_dir, "libTIRRuntime.so"))
    runner = os.path.join(os.path.dirname(runtime), "..", "bin", "tir-exec")
    if os.path.exists(runner):
        shutil.copy(runner, os.path.join(exec_dir, "tir-exec"))


if __name__ == "__main__":
    main()
