"""fp32 GEMM and batch matmul on the CPU, tir beside its peers, in one run:
the host's FMA peak (bench/fma_peak.cpp), OpenBLAS at its best here (its core
type chosen by measuring; GEMM only), PyTorch (Debian's python3-torch),
Apache TVM (the apache-tvm wheel from PyPI in a virtual environment under
the build folder, never a dependency of the package) building the same
schedule as tir (bench/gemm_schedule.py's schedule_packed), the GEMM through
upstream MLIR (linalg and a transform schedule, bench/mlir_peer.py; sizes its
tiles divide), and tir; at 1 and 2 threads, for square and odd GEMMs and attention's batch matmuls; then
what scheduling and building cost.

    /usr/bin/python3 bench/cpu_peers.py [--sizes 1024,2048,1000,127x255x63]
        [--bmm 12x128x128x64,16x512x512x64] [--threads 1,2] [--no-tvm] [--no-mlir] [--naive]
        [--rounds 2]

Every peer runs in a process of its own (TVM's `tvm` is not tensorir's;
OpenBLAS reads its core type when it loads), the processes one after
another, all of them `--rounds` times (2) in turn; each problem is timed
as the best of at least 5 calls and 0.3 s, and each peer keeps its best
round (the FMA peak too), so that a moment when the host's other tenants
are busy does not decide a ratio.
tir and TVM build a small GEMM first, so that compile times are a
problem's, not the process's start. Ratios are within this run only. TVM 0.27, the wheel PyPI has, spells
blocks `T.sblock` and takes `s_tir=True` prim functions; the schedule is
the same calls."""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, "bench")

# What each peer's process runs: PROBLEMS (a list of [M, N, K]) and
# THREADS are set before it; it prints one JSON object per problem.
COMMON = r'''
import json, os, sys, time
import numpy as np
sys.path.insert(0, BENCH)
import gemm_schedule

def best_of(call, flop):
    call()
    times, total = [], 0.0
    while len(times) < 5 or total < 0.3:
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
        total += times[-1]
    return flop / min(times) / 1e9

def data(shape):
    """A and B of a problem (M, N, K) or, batched, (batch, M, N, K); C's
    shape; the flop count."""
    *batch, m, n, k = shape
    rng = np.random.default_rng(0)
    return (rng.standard_normal((*batch, m, k)).astype("float32"),
            rng.standard_normal((*batch, k, n)).astype("float32"),
            (*batch, m, n), 2.0 * np.prod(shape))

def conv_data(shape):
    """Input, weights, output shape and flop count of conv2d NCHW
    (n, c, h, w, f, kh, kw), stride 1, padding kh // 2."""
    n, c, h, w, f, kh, kw = shape
    rng = np.random.default_rng(0)
    return (rng.standard_normal((n, c, h, w)).astype("float32"),
            rng.standard_normal((f, c, kh, kw)).astype("float32"),
            (n, f, h, w), 2.0 * n * f * h * w * c * kh * kw)

def conv_report(shape, gflops, out, i, w, **extra):
    ph, pw = shape[5] // 2, shape[6] // 2
    windows = np.lib.stride_tricks.sliding_window_view(
        np.pad(i, ((0, 0), (0, 0), (ph, ph), (pw, pw))), shape[5:], axis=(2, 3))
    ref = np.einsum("nchwij,fcij->nfhw", windows, w, optimize=True)
    print(json.dumps(dict(conv=list(shape), gflops=gflops, err=float(np.abs(out - ref).max()),
                          **extra)), flush=True)

def report(shape, gflops, c, a, b, **extra):
    err = float(np.abs(c - a.astype("float64") @ b).max())
    print(json.dumps(dict(shape=list(shape), gflops=gflops, err=err, **extra)), flush=True)
'''

TIR = r'''
import tensorir as tvm
sys.path.insert(0, os.path.join(BENCH, "gpu"))
import programs
# One build first: what the process pays once (loading LLVM's targets, the
# first parse) is not the GEMM's compile time.
tvm.build(gemm_schedule.schedule_packed(tvm, programs.matmul(8, 8, 8), "get_block", (8, 8, 8),
                                        threads=THREADS), target="llvm -mcpu=" + CPU)
for shape in PROBLEMS:
    a, b, c_shape, flop = data(shape)
    name = "bmm" if len(shape) == 4 else "gemm"
    func = programs.batch_matmul(*shape) if len(shape) == 4 else programs.matmul(*shape)
    t0 = time.perf_counter()
    mod = gemm_schedule.schedule_packed(tvm, func, "get_block", shape, threads=THREADS)
    t1 = time.perf_counter()
    lib = tvm.build(mod, target="llvm -mcpu=" + CPU)
    t2 = time.perf_counter()
    A, B = tvm.nd.array(a), tvm.nd.array(b)
    C = tvm.nd.array(np.zeros(c_shape, "float32"))
    f = lib[name]
    gflops = best_of(lambda: f(A, B, C), flop)
    report(shape, gflops, C.numpy(), a, b, schedule_s=t1 - t0, build_s=t2 - t1,
           phases=lib.compile_times, tiles=list(gemm_schedule.packed_tiles(shape, THREADS)),
           order=gemm_schedule.packed_order(shape, threads=THREADS))
import conv_schedule
from tensorir.script import tir as T
for shape in CONVS:
    i, w, o_shape, flop = conv_data(shape)
    t0 = time.perf_counter()
    mod = conv_schedule.schedule_conv(tvm, conv_schedule.conv2d_nchw(T, *shape), "get_block",
                                      shape)
    t1 = time.perf_counter()
    lib = tvm.build(mod, target="llvm -mcpu=" + CPU)
    t2 = time.perf_counter()
    f = lib["conv"]
    I, W = tvm.nd.array(i), tvm.nd.array(w)
    O = tvm.nd.array(np.zeros(o_shape, "float32"))
    gflops = best_of(lambda: f(I, W, O), flop)
    conv_report(shape, gflops, O.numpy(), i, w, schedule_s=t1 - t0, build_s=t2 - t1,
                phases=lib.compile_times)
if NAIVE:
    shape = (1024, 1024, 1024)
    a, b, c_shape, flop = data(shape)
    lib = tvm.build(programs.matmul(*shape), target="llvm -mcpu=" + CPU)
    A, B = tvm.nd.array(a), tvm.nd.array(b)
    C = tvm.nd.array(np.zeros(c_shape, "float32"))
    start = time.perf_counter()
    lib["gemm"](A, B, C)
    report(shape, flop / (time.perf_counter() - start) / 1e9, C.numpy(), a, b, naive=True)
'''

TVM = r'''
import tvm
from tvm.script import tirx as T

def matmul(M, N, K):
    @T.prim_func(s_tir=True)
    def gemm(A: T.Buffer((M, K), "float32"), B: T.Buffer((K, N), "float32"),
             C: T.Buffer((M, N), "float32")):
        T.func_attr({"global_symbol": "gemm", "tir.noalias": True})
        for i, j, r in T.grid(M, N, K):
            with T.sblock("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    return gemm

def batch_matmul(NB, M, N, K):
    @T.prim_func(s_tir=True)
    def bmm(A: T.Buffer((NB, M, K), "float32"), B: T.Buffer((NB, K, N), "float32"),
            C: T.Buffer((NB, M, N), "float32")):
        T.func_attr({"global_symbol": "bmm", "tir.noalias": True})
        for bb, i, j, r in T.grid(NB, M, N, K):
            with T.sblock("C"):
                vb, vi, vj, vk = T.axis.remap("SSSR", [bb, i, j, r])
                with T.init():
                    C[vb, vi, vj] = T.float32(0)
                C[vb, vi, vj] = C[vb, vi, vj] + A[vb, vi, vk] * B[vb, vk, vj]
    return bmm

def conv2d_nchw(n, c, h, w, f, kh, kw):
    ph, pw = kh // 2, kw // 2
    @T.prim_func(s_tir=True)
    def conv(I: T.Buffer((n, c, h, w), "float32"), W: T.Buffer((f, c, kh, kw), "float32"),
             O: T.Buffer((n, f, h, w), "float32")):
        T.func_attr({"global_symbol": "conv", "tir.noalias": True})
        P = T.alloc_buffer((n, c, h + 2 * ph, w + 2 * pw), "float32")
        for b, ci, y, x in T.grid(n, c, h + 2 * ph, w + 2 * pw):
            with T.sblock("pad"):
                vb, vc, vy, vx = T.axis.remap("SSSS", [b, ci, y, x])
                P[vb, vc, vy, vx] = T.if_then_else(
                    vy >= ph and vy < h + ph and vx >= pw and vx < w + pw,
                    I[vb, vc, vy - ph, vx - pw], T.float32(0))
        for b, fo, y, x, rc, ry, rx in T.grid(n, f, h, w, c, kh, kw):
            with T.sblock("conv"):
                vb, vf, vy, vx, vc, vry, vrx = T.axis.remap("SSSSRRR", [b, fo, y, x, rc, ry, rx])
                with T.init():
                    O[vb, vf, vy, vx] = T.float32(0)
                O[vb, vf, vy, vx] = O[vb, vf, vy, vx] + P[vb, vc, vy + vry, vx + vrx] * W[vf, vc, vry, vrx]
    return conv

dev = tvm.cpu()
target = tvm.target.Target({"kind": "llvm", "mcpu": CPU, "num-cores": THREADS})
tvm.compile(gemm_schedule.schedule_packed(tvm, matmul(8, 8, 8), "get_sblock", (8, 8, 8),
                                          threads=THREADS), target=target)
for shape in PROBLEMS:
    a, b, c_shape, flop = data(shape)
    name = "bmm" if len(shape) == 4 else "gemm"
    func = batch_matmul(*shape) if len(shape) == 4 else matmul(*shape)
    t0 = time.perf_counter()
    mod = gemm_schedule.schedule_packed(tvm, func, "get_sblock", shape, threads=THREADS)
    t1 = time.perf_counter()
    lib = tvm.compile(mod, target=target)
    t2 = time.perf_counter()
    A, B = tvm.runtime.tensor(a, dev), tvm.runtime.tensor(b, dev)
    C = tvm.runtime.tensor(np.zeros(c_shape, "float32"), dev)
    f = lib.mod[name]
    gflops = best_of(lambda: f(A, B, C), flop)
    report(shape, gflops, C.numpy(), a, b, schedule_s=t1 - t0, build_s=t2 - t1)
import conv_schedule
for shape in CONVS:
    i, w, o_shape, flop = conv_data(shape)
    t0 = time.perf_counter()
    mod = conv_schedule.schedule_conv(tvm, conv2d_nchw(*shape), "get_sblock", shape)
    t1 = time.perf_counter()
    lib = tvm.compile(mod, target=target)
    t2 = time.perf_counter()
    I, W = tvm.runtime.tensor(i, dev), tvm.runtime.tensor(w, dev)
    O = tvm.runtime.tensor(np.zeros(o_shape, "float32"), dev)
    f = lib.mod["conv"]
    gflops = best_of(lambda: f(I, W, O), flop)
    conv_report(shape, gflops, O.numpy(), i, w, schedule_s=t1 - t0, build_s=t2 - t1)
'''

MLIR = r'''
import mlir_peer
for shape in PROBLEMS:
    if len(shape) == 4:
        continue
    tiles = mlir_peer.schedule_tiles(*shape, threads=THREADS)
    if tiles is None:  # the schedule needs tiles that divide the problem
        continue
    a, b, c_shape, flop = data(shape)
    g = mlir_peer.Gemm(*shape, tiles, threads=THREADS, cpu=CPU)
    c = np.zeros(c_shape, "float32")
    gflops = best_of(lambda: g(a, b, c), flop)
    report(shape, gflops, c, a, b, build_s=g.build_seconds, tiles=list(tiles))
'''

TORCH = r'''
import torch
torch.set_num_threads(THREADS)
for shape in PROBLEMS:
    a, b, c_shape, flop = data(shape)
    A, B = torch.from_numpy(a), torch.from_numpy(b)
    C = torch.empty(c_shape)
    gflops = best_of(lambda: torch.matmul(A, B, out=C), flop)
    report(shape, gflops, C.numpy(), a, b, version=torch.__version__)
for shape in CONVS:
    i, w, o_shape, flop = conv_data(shape)
    I, W = torch.from_numpy(i), torch.from_numpy(w)
    pad = shape[5] // 2
    gflops = best_of(lambda: torch.nn.functional.conv2d(I, W, padding=pad), flop)
    out = torch.nn.functional.conv2d(I, W, padding=pad).numpy()
    conv_report(shape, gflops, out, i, w)
'''


def run_peer(python, code, problems, convs, threads, cpu, env_extra, naive=False,
             timeout=1800):
    prologue = (f"BENCH = {BENCH!r}\nPROBLEMS = {problems!r}\nCONVS = {convs!r}\n"
                f"THREADS = {threads}\n"
                f"CPU = {cpu!r}\nNAIVE = {naive!r}\n")
    env = dict(os.environ, TVM_NUM_THREADS=str(threads), OMP_NUM_THREADS=str(threads),
               OPENBLAS_NUM_THREADS=str(threads), **env_extra)
    # A file: TVMScript parses the function's source.
    with tempfile.NamedTemporaryFile("w", suffix=".py", delete=False) as f:
        f.write(prologue + COMMON + code)
    try:
        out = subprocess.run([python, f.name], env=env, capture_output=True, text=True,
                             timeout=timeout)
    finally:
        os.unlink(f.name)
    if out.returncode != 0:
        sys.exit(f"{python} failed:\n{out.stderr[-3000:]}")
    results = [json.loads(line) for line in out.stdout.splitlines() if line.startswith("{")]
    for r in results:
        depth = r["shape"][-1] if "shape" in r else math.prod(r["conv"][1:2] + r["conv"][5:])
        if r["err"] > 1e-2 * max(1, depth / 256):
            sys.exit(f"{python}: wrong result for {r.get('shape', r.get('conv'))} "
                     f"(max abs error {r['err']})")
    return results


def fma_peak(build_dir, rounds=1):
    """GFLOP/s at 1 and 2 threads, the faster of zmm and ymm, each the best
    of `rounds` runs of tir-fma-peak; and those bests as its lines."""
    best = {}
    for _ in range(rounds):
        out = subprocess.run([os.path.join(build_dir, "bin", "tir-fma-peak")],
                             capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            name, width, one, two = line.split()[:4]
            old = best.get((name, width), (0.0, 0.0))
            best[(name, width)] = (max(old[0], float(one)), max(old[1], float(two)))
    peak = {1: max(v[0] for v in best.values()), 2: max(v[1] for v in best.values())}
    text = "\n".join(f"{name} {width} {one:.1f} {two:.1f}"
                     for (name, width), (one, two) in best.items())
    return peak, text


def openblas_core(build_dir):
    """OpenBLAS's core type chosen by measuring (1024^3, 1 thread), and what
    each measured; None where tir-blas-probe is not built."""
    probe = os.path.join(build_dir, "bin", "tir-blas-probe")
    if not os.path.exists(probe):
        return None, "tir-blas-probe is not built (libopenblas-dev missing)"
    choice, best, lines = os.environ.get("OPENBLAS_CORETYPE"), 0.0, []
    if choice is None:
        for core in ("", "Haswell", "SkylakeX", "Cooperlake", "Zen"):
            line = subprocess.run([probe], env=dict(os.environ, OPENBLAS_CORETYPE=core,
                                                     OPENBLAS_NUM_THREADS="1"),
                                  capture_output=True, text=True, check=True).stdout.strip()
            lines.append(f"core type '{core or 'detected'}': {line}")
            if float(line.split()[1]) > best:
                best, choice = float(line.split()[1]), core
    return choice, "; ".join(lines)


def openblas(build_dir, choice, problems, t):
    """GFLOP/s of each GEMM of `problems` on `t` threads with OpenBLAS's
    core type `choice`, and the name of the kernels it ran."""
    probe = os.path.join(build_dir, "bin", "tir-blas-probe")
    results, core_name = {}, None
    for shape in problems:
        if len(shape) == 4:  # no batched sgemm in Debian's OpenBLAS 0.3.21
            continue
        line = subprocess.run([probe, *map(str, shape)],
                              env=dict(os.environ, OPENBLAS_CORETYPE=choice,
                                       OPENBLAS_NUM_THREADS=str(t)),
                              capture_output=True, text=True, check=True).stdout.split()
        results[(tuple(shape), t)] = float(line[1])
        core_name = line[2]
    return results, core_name


def best_of_rounds(rounds):
    """Per problem, the result with the most GFLOP/s among the rounds'
    (lists of results in the same order; None where a peer left the
    problem out)."""
    return [max(results, key=lambda r: r["gflops"]) if all(results) else results[0]
            for results in zip(*rounds)]


def parse_sizes(text):
    shapes = []
    for item in filter(None, text.split(",")):
        dims = [int(x) for x in item.split("x")]
        shapes.append(dims * 3 if len(dims) == 1 else dims)
    return shapes


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", default="1024,2048,1000,127x255x63",
                        help="GEMMs: N (square) or MxNxK")
    parser.add_argument("--bmm", default="12x128x128x64,16x512x512x64",
                        help="batch matmuls: BATCHxMxNxK ('' for none)")
    parser.add_argument("--conv", default="1x64x56x56x64x3x3",
                        help="conv2d NCHW: NxCxHxWxFxKHxKW, stride 1, same padding ('' for none)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--cpu", default="native")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--no-tvm", action="store_true", help="leave TVM out")
    parser.add_argument("--no-mlir", action="store_true",
                        help="leave upstream MLIR (bench/mlir_peer.py) out")
    parser.add_argument("--naive", action="store_true",
                        help="also time the unscheduled 1024^3 kernel once (about 5 s)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="runs of every peer, one after another in turn; each keeps "
                             "its best (default 2)")
    args = parser.parse_args()
    problems = parse_sizes(args.sizes) + [
        [int(x) for x in item.split("x")] for item in args.bmm.split(",") if item]
    convs = [[int(x) for x in item.split("x")] for item in args.conv.split(",") if item]
    threads = [int(t) for t in args.threads.split(",")]
    cpu = args.cpu
    if cpu == "native":
        cpu = subprocess.run(["/usr/lib/llvm-22/bin/llc", "--version"], capture_output=True,
                             text=True).stdout.split("Host CPU:")[-1].split()[0]
    tir_env = {"PYTHONPATH": os.pathsep.join([os.path.join(ROOT, "python"),
                                              os.path.join(args.build_dir, "python")])}
    rounds = max(1, args.rounds)
    peak, peak_text = fma_peak(args.build_dir, rounds)
    blas_core, blas_note = openblas_core(args.build_dir)
    blas, blas_kernels = {}, None
    tvm_python, tvm_version = None, None
    if not args.no_tvm:
        venv = os.path.join(args.build_dir, "peers-venv")
        tvm_python = os.path.join(venv, "bin", "python")
        if not os.path.exists(tvm_python):
            subprocess.run(["/usr/bin/python3", "-m", "venv", venv], check=True)
            subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet",
                            "apache-tvm"], check=True)
        tvm_version = subprocess.run([tvm_python, "-c", "import tvm; print(tvm.__version__)"],
                                     capture_output=True, text=True).stdout.strip()

    rows, conv_rows, compile_rows, naive_row = [], [], [], None
    split = lambda results: ([r for r in results if "shape" in r],  # noqa: E731
                             [r for r in results if "conv" in r])
    for t in threads:
        # The peers in turn, `rounds` times: each keeps its best, so that a
        # busy moment of the host does not decide a ratio.
        runs = {"tir": [], "torch": [], "tvm": [], "mlir": []}
        for turn in range(rounds):
            if blas_core is not None:
                times, blas_kernels = openblas(args.build_dir, blas_core, problems, t)
                for key, gflops in times.items():
                    blas[key] = max(blas.get(key, 0.0), gflops)
            mine = run_peer("/usr/bin/python3", TIR, problems, convs, t, cpu, tir_env,
                            naive=args.naive and t == 1 and turn == 0)
            if mine and mine[-1].get("naive"):
                naive_row = mine.pop()
            runs["tir"].append(mine)
            runs["torch"].append(run_peer("/usr/bin/python3", TORCH, problems, convs, t, cpu,
                                          {}))
            runs["tvm"].append(run_peer(tvm_python, TVM, problems, convs, t, cpu, {})
                               if tvm_python else [None] * (len(problems) + len(convs)))
            if not args.no_mlir:
                runs["mlir"].append(run_peer("/usr/bin/python3", MLIR, problems, [], t, cpu,
                                             {}))
        mine, mine_conv = split(best_of_rounds(runs["tir"]))
        torch_results, torch_conv = split(best_of_rounds(runs["torch"]))
        tvm_best = best_of_rounds(runs["tvm"])
        tvm_results, tvm_conv = (split(tvm_best) if tvm_python else
                                 (tvm_best[:len(problems)], tvm_best[len(problems):]))
        mlir = ({tuple(r["shape"]): r for r in best_of_rounds(runs["mlir"])}
                if not args.no_mlir else {})
        for shape, r, p, v in zip(problems, mine, torch_results, tvm_results):
            u = mlir.get(tuple(shape))
            peers = {"OpenBLAS": blas.get((tuple(shape), t)),
                     "PyTorch": p["gflops"], "TVM": v["gflops"] if v else None,
                     "MLIR": u["gflops"] if u else None}
            rows.append((shape, t, r, peers))
            if t == threads[0]:
                compile_rows.append((shape, r, v, u))
        for shape, r, p, v in zip(convs, mine_conv, torch_conv, tvm_conv):
            conv_rows.append((shape, t, r, {"OpenBLAS": None, "PyTorch": p["gflops"],
                                            "TVM": v["gflops"] if v else None, "MLIR": None}))
            if t == threads[0]:
                compile_rows.append((["conv"] + shape, r, v, None))

    import conv_schedule  # bench/, this script's directory
    print(f"CPU {cpu}; {peak_text.replace(chr(10), '; ')}")
    if blas_core is not None:
        blas_note += f"; chosen: '{blas_core or 'detected'}' ({blas_kernels} kernels)"
    print(f"OpenBLAS: {blas_note}")
    tiles = ", ".join(f"{'x'.join(map(str, shape))} {t}T: {tuple(r['tiles'])} {r['order']}"
                      for shape, t, r, _ in rows if "tiles" in r)
    print(f"PyTorch {torch_results[0].get('version')}; Apache TVM "
          f"{tvm_version or '(left out)'}; tir tiles (mr, nr, mc, nc, kc, lanes) and order: "
          f"{tiles}; conv2d tiles (fr, yr, xr, lanes): "
          + ", ".join(f"{'x'.join(map(str, shape))}: {conv_schedule.conv_tiles(shape)}"
                      for shape in convs))
    fmt = lambda x: "-" if x is None else f"{x:.1f}"  # noqa: E731
    for title, table in (("(batch x) M x N x K", rows),
                         ("conv2d N x C x H x W x F x KH x KW", conv_rows)):
        if not table:
            continue
        print(f"\n| {title} | threads | FMA peak | OpenBLAS | PyTorch | TVM | upstream MLIR | "
              "tir | tir / fastest peer | tir of peak |")
        print("|---|---|---|---|---|---|---|---|---|---|")
        for shape, t, r, peers in table:
            fastest = max(v for v in peers.values() if v is not None)
            print(f"| {'x'.join(map(str, shape))} | {t} | {peak[t]:.1f} | "
                  f"{fmt(peers['OpenBLAS'])} | {fmt(peers['PyTorch'])} | {fmt(peers['TVM'])} | "
                  f"{fmt(peers['MLIR'])} | "
                  f"{r['gflops']:.1f} | {r['gflops'] / fastest:.2f}x | "
                  f"{100 * r['gflops'] / peak[t]:.0f}% |")
    if naive_row:
        print(f"\ntir unscheduled 1024^3, 1 thread, one call: {naive_row['gflops']:.2f} GFLOP/s")
    print("\nGFLOP/s, best of at least 5 calls and 0.3 s. Scheduling and building, "
          "seconds; tir's build in its phases: lowering to the llvm dialect, "
          "translation to LLVM IR, LLVM's optimizer, code generation:")
    print("\n| problem | tir schedule | tir lower + translate | tir schedule + lower + "
          "translate | tir optimize + codegen | tir build | TVM schedule | TVM build | "
          "upstream MLIR build |")
    print("|---|---|---|---|---|---|---|---|---|")
    secs = lambda x: "-" if x is None else f"{x:.3f}"  # noqa: E731
    for shape, r, v, u in compile_rows:
        ph = r["phases"]
        front = ph["lower"] + ph["translate"]
        print(f"| {'x'.join(map(str, shape))} | {secs(r['schedule_s'])} | {secs(front)} | "
              f"{secs(r['schedule_s'] + front)} | {secs(ph['optimize'] + ph['codegen'])} | "
              f"{secs(r['build_s'])} | {secs(v and v['schedule_s'])} | "
              f"{secs(v and v['build_s'])} | {secs(u and u['build_s'])} |")


if __name__ == "__main__":
    main()
