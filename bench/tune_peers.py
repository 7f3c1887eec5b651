"""Auto-scheduling on the CPU, tir's MetaSchedule beside Apache TVM's, in one
run: each workload tuned by `ms.tune_tir` with the same number of trials,
the same target and TVM's default CPU space and cost model, by tir and by
TVM (the apache-tvm wheel from PyPI with apache-tvm-ffi 0.1.14.post1, in a
virtual environment under the build folder, never a dependency of the
package); the best program of each timed, with PyTorch (Debian's
python3-torch) on the same computation; at each thread count.

    /usr/bin/python3 bench/tune_peers.py [--trials 512] [--threads 1,2]
        [--workloads gemm,gemm_w,conv,bmm,softmax_ln] [--cost-model xgb] [--no-tvm]
        [--fast-math] [--keep DIR]

Reported per workload and thread count: GFLOP/s of the tuned program
(best of at least 5 calls and 0.3 s), the tuning wall time, tir's
hand-written schedule of the computation where bench/ has one, PyTorch,
tir / TVM and tir / the better of the hand-written schedule and PyTorch,
tir's tuning time / TVM's, and each tuned program's share of the host's
fp32 FMA peak (bench/fma_peak.cpp, measured first; not for softmax +
layer norm, which memory bounds).
Every tuner runs in a process of its own (TVM's `tvm` is not
tensorir's), one after the other. Ratios hold within this run only.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The workloads, written for both packages' te (`te` is the module).
WORKLOADS = r'''
def gemm(te):
    a = te.placeholder((1024, 1024), name="A")
    b = te.placeholder((1024, 1024), name="B")
    k = te.reduce_axis((0, 1024), name="k")
    c = te.compute((1024, 1024), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    return [a, b, c], 2.0 * 1024 ** 3

def gemm_w(te):
    # The GEMM of a dense layer: B is its weight, layout-free (topi's dense
    # marks it so): RewriteLayout may store it in the order the tuned
    # loops read it, in a nest of its own that runs in every call.
    a = te.placeholder((1024, 1024), name="A")
    b = te.placeholder((1024, 1024), name="B")
    k = te.reduce_axis((0, 1024), name="k")
    c = te.compute((1024, 1024), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C",
                   attrs={"layout_free_placeholders": [b]})
    return [a, b, c], 2.0 * 1024 ** 3

def conv(te):
    # ResNet-50's 3x3 convolution of 64 channels at 56x56, NHWC.
    n, h, w, ci, co, kh = 1, 56, 56, 64, 64, 3
    x = te.placeholder((n, h, w, ci), name="X")
    wt = te.placeholder((kh, kh, ci, co), name="W")
    pad = te.compute((n, h + 2, w + 2, ci), lambda b, y, z, c: te.if_then_else(
        te.all(y >= 1, y < h + 1, z >= 1, z < w + 1), x[b, y - 1, z - 1, c], 0.0),
        name="pad")
    ry = te.reduce_axis((0, kh), name="ry")
    rx = te.reduce_axis((0, kh), name="rx")
    rc = te.reduce_axis((0, ci), name="rc")
    out = te.compute((n, h, w, co), lambda b, y, z, f: te.sum(
        pad[b, y + ry, z + rx, rc] * wt[ry, rx, rc, f], axis=[ry, rx, rc]), name="conv")
    return [x, wt, out], 2.0 * n * h * w * co * ci * kh * kh

def bmm(te):
    b, m, n, k = 12, 128, 128, 64
    x = te.placeholder((b, m, k), name="X")
    y = te.placeholder((b, k, n), name="Y")
    r = te.reduce_axis((0, k), name="k")
    z = te.compute((b, m, n), lambda p, i, j: te.sum(x[p, i, r] * y[p, r, j], axis=r),
                   name="Z")
    return [x, y, z], 2.0 * b * m * n * k

def softmax_ln(te):
    # Softmax over the rows of a 128 x 768 matrix, then layer norm.
    m, n = 128, 768
    x = te.placeholder((m, n), name="X")
    r1 = te.reduce_axis((0, n), name="r1")
    mx = te.compute((m,), lambda i: te.max(x[i, r1], axis=r1), name="max")
    e = te.compute((m, n), lambda i, j: te.exp(x[i, j] - mx[i]), name="exp")
    r2 = te.reduce_axis((0, n), name="r2")
    s = te.compute((m,), lambda i: te.sum(e[i, r2], axis=r2), name="sum")
    p = te.compute((m, n), lambda i, j: e[i, j] / s[i], name="softmax")
    r3 = te.reduce_axis((0, n), name="r3")
    total = te.compute((m,), lambda i: te.sum(p[i, r3], axis=r3), name="total")
    mean = te.compute((m,), lambda i: total[i] / n, name="mean")
    r4 = te.reduce_axis((0, n), name="r4")
    sq = te.compute((m,), lambda i: te.sum((p[i, r4] - mean[i]) * (p[i, r4] - mean[i]),
                                           axis=r4), name="squares")
    y = te.compute((m, n), lambda i, j: (p[i, j] - mean[i]) / te.sqrt(sq[i] / n + 1e-5),
                   name="norm")
    return [x, y], 8.0 * m * n
'''

# What each tuner's process runs: NAME, TRIALS, THREADS, COST_MODEL, WORK
# are set before it; it prints one JSON object.
TUNE = r'''
import json, os, sys, time
import numpy as np
exec(WORKLOADS)
tensors, flop = globals()[NAME](te)
mod = tvm.IRModule({"main": te.create_prim_func(tensors)})
target = TARGET
start = time.perf_counter()
db = ms.tune_tir(mod, target, WORK, TRIALS, num_trials_per_iter=64, cost_model=COST_MODEL)
tuning = time.perf_counter() - start
sch = ms.tir_integration.compile_tir(db, mod, target)
lib = tvm.compile(sch.mod, target=target) if hasattr(tvm, "compile") else tvm.build(sch.mod, target=target)
rng = np.random.default_rng(0)
args = [rng.standard_normal([int(d) for d in t.shape]).astype("float32") for t in tensors]
dev = tvm.cpu()
arrays = [tvm.runtime.tensor(a, dev) if hasattr(tvm.runtime, "tensor") else tvm.nd.array(a)
          for a in args]
f = lib["main"]
def call():
    f(*arrays)
call()
times, total = [], 0.0
while len(times) < 5 or total < 0.3:
    t0 = time.perf_counter(); call(); times.append(time.perf_counter() - t0); total += times[-1]
print(json.dumps(dict(gflops=flop / min(times) / 1e9, tuning_s=tuning,
                      out=arrays[-1].numpy().ravel()[:8].tolist())), flush=True)
'''

TIR = r'''
import tensorir as tvm
from tensorir import meta_schedule as ms, te
TARGET = f"llvm -num-cores {THREADS}" + (" -fast-math-reassoc" if FAST_MATH else "")
'''

TVM = r'''
import tvm
from tvm import te
from tvm.s_tir import meta_schedule as ms
TARGET = tvm.target.Target({"kind": "llvm", "num-cores": THREADS, "mcpu": CPU,
                            **({"fast-math-reassoc": True} if FAST_MATH else {})})
'''

# tir's hand-written schedules of the same computations (bench/'s
# gemm_schedule.schedule_packed for the GEMM and the batch matmul,
# conv_schedule.schedule_conv for the convolution, which it writes NCHW:
# the same work in another layout); none for softmax + layer norm.
HAND = r'''
import json, os, sys, time
import numpy as np
import tensorir as tvm
sys.path.insert(0, BENCH)
sys.path.insert(0, os.path.join(BENCH, "gpu"))
import gemm_schedule, conv_schedule, programs
from tensorir.script import tir as T
rng = np.random.default_rng(0)
t = lambda *s: rng.standard_normal(s).astype("float32")
if NAME in ("gemm", "gemm_w"):
    shape, args, flop = (1024, 1024, 1024), [t(1024, 1024), t(1024, 1024), t(1024, 1024)], 2.0 * 1024 ** 3
    mod = gemm_schedule.schedule_packed(tvm, programs.matmul(*shape), "get_block", shape, threads=THREADS)
elif NAME == "bmm":
    shape, flop = (12, 128, 128, 64), 2.0 * 12 * 128 * 128 * 64
    args = [t(12, 128, 64), t(12, 64, 128), t(12, 128, 128)]
    mod = gemm_schedule.schedule_packed(tvm, programs.batch_matmul(*shape), "get_block", shape, threads=THREADS)
elif NAME == "conv":
    shape, flop = (1, 64, 56, 56, 64, 3, 3), 2.0 * 56 * 56 * 64 * 64 * 9
    args = [t(1, 64, 56, 56), t(64, 64, 3, 3), t(1, 64, 56, 56)]
    mod = conv_schedule.schedule_conv(tvm, conv_schedule.conv2d_nchw(T, *shape), "get_block", shape)
else:
    sys.exit(0)
lib = tvm.build(mod, target="llvm -mcpu=" + CPU)
f = lib[lib.functions[0]] if hasattr(lib, "functions") else lib
arrays = [tvm.nd.array(a) for a in args]
f(*arrays)
times, total = [], 0.0
while len(times) < 5 or total < 0.3:
    t0 = time.perf_counter(); f(*arrays); times.append(time.perf_counter() - t0); total += times[-1]
print(json.dumps(dict(gflops=flop / min(times) / 1e9)), flush=True)
'''

TORCH = r'''
import json, time
import numpy as np
import torch
torch.set_num_threads(THREADS)
rng = np.random.default_rng(0)
def timed(call, flop):
    call()
    times, total = [], 0.0
    while len(times) < 5 or total < 0.3:
        t0 = time.perf_counter(); call(); times.append(time.perf_counter() - t0); total += times[-1]
    return flop / min(times) / 1e9
t = lambda *s: torch.from_numpy(rng.standard_normal(s).astype("float32"))
if NAME in ("gemm", "gemm_w"):
    a, b = t(1024, 1024), t(1024, 1024)
    g = timed(lambda: a @ b, 2.0 * 1024 ** 3)
elif NAME == "conv":
    x, w = t(1, 64, 56, 56), t(64, 64, 3, 3)
    g = timed(lambda: torch.nn.functional.conv2d(x, w, padding=1), 2.0 * 56 * 56 * 64 * 64 * 9)
elif NAME == "bmm":
    x, y = t(12, 128, 64), t(12, 64, 128)
    g = timed(lambda: torch.bmm(x, y), 2.0 * 12 * 128 * 128 * 64)
else:
    x = t(128, 768)
    g = timed(lambda: torch.nn.functional.layer_norm(torch.softmax(x, 1), (768,), eps=1e-5),
              8.0 * 128 * 768)
print(json.dumps(dict(gflops=g)), flush=True)
'''


def run(python, prelude, body, env, settings):
    code = "".join(f"{k} = {v!r}\n" for k, v in settings.items()) + prelude + body
    out = subprocess.run([python, "-c", code], capture_output=True, text=True,
                         env={**os.environ, **env})
    lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
    if out.returncode != 0 or not lines:
        sys.stderr.write(out.stderr[-3000:])
        return None
    return json.loads(lines[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=512)
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--workloads", default="gemm,gemm_w,conv,bmm,softmax_ln")
    parser.add_argument("--cost-model", default="xgb")
    parser.add_argument("--no-tvm", action="store_true")
    parser.add_argument("--fast-math", action="store_true",
                        help="both tuners' targets with TVM's -fast-math-reassoc (float "
                             "reductions may be reordered)")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--keep", metavar="DIR",
                        help="keep each tuner's database under DIR/<workload>-<threads>T/"
                             "{tir,tvm} (default: a temporary folder, removed)")
    args = parser.parse_args()
    cpu = subprocess.run(["/usr/lib/llvm-22/bin/llc", "--version"], capture_output=True,
                         text=True).stdout.split("Host CPU:")[-1].split()[0]
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from peers_venv import engine_settings
    tir_env, tvm_python = engine_settings(ROOT, args.build_dir, args.no_tvm)
    print(f"host CPU: {cpu}; trials: {args.trials}; cost model: {args.cost_model}"
          + ("; targets with -fast-math-reassoc" if args.fast_math else ""))
    # The FMA peak bounds what the GEMM, the batch matmul and the
    # convolution can reach (softmax + layer norm is bound by memory).
    from cpu_peers import fma_peak
    try:
        peak, _ = fma_peak(args.build_dir, rounds=3)
        print(f"fp32 FMA peak (bench/fma_peak.cpp): {peak[1]:.1f} GFLOP/s on 1 thread, "
              f"{peak[2]:.1f} on 2")
    except (OSError, subprocess.CalledProcessError) as e:
        peak = None
        print(f"fp32 FMA peak not measured ({e})")
    print(f"{'workload':<11} {'threads':>7} {'tir GFLOP/s':>12} {'tuning s':>9} "
          f"{'TVM GFLOP/s':>12} {'tuning s':>9} {'hand':>8} {'torch':>8} {'tir/TVM':>8} "
          f"{'tir/best':>9} {'time':>6} {'tir/pk':>7} {'TVM/pk':>7}")
    for name in args.workloads.split(","):
        for threads in [int(t) for t in args.threads.split(",")]:
            settings = dict(NAME=name, TRIALS=args.trials, THREADS=threads,
                            COST_MODEL=args.cost_model, CPU=cpu, WORKLOADS=WORKLOADS,
                            FAST_MATH=args.fast_math)
            env = {"OMP_NUM_THREADS": str(threads), "TVM_NUM_THREADS": str(threads)}
            with tempfile.TemporaryDirectory() as scratch:
                work = (os.path.join(args.keep, f"{name}-{threads}T") if args.keep
                        else scratch)
                tir = run("/usr/bin/python3", TIR, TUNE, {**env, **tir_env},
                          {**settings, "WORK": os.path.join(work, "tir")})
                tvm = (run(tvm_python, TVM, TUNE, env, {**settings,
                                                        "WORK": os.path.join(work, "tvm")})
                       if tvm_python else None)
            torch = run("/usr/bin/python3", "", TORCH, env, settings)
            hand = run("/usr/bin/python3", "", HAND, {**env, **tir_env},
                       {**settings, "BENCH": os.path.join(ROOT, "bench")})

            def cell(result, key, fmt):
                return format(result[key], fmt) if result else "-"

            def seconds(a, b):
                # tir's tuning wall time / TVM's.
                return f"{a['tuning_s'] / b['tuning_s']:.2f}" if a and b else "-"

            def of_peak(result):
                if not result or not peak or name == "softmax_ln" or threads not in peak:
                    return "-"
                return f"{result['gflops'] / peak[threads]:.0%}"

            def ratio(a, b):
                return f"{a['gflops'] / b['gflops']:.2f}" if a and b else "-"
            # tir / the better of the hand-written schedule and PyTorch.
            best = max((r for r in (hand, torch) if r), key=lambda r: r["gflops"],
                       default=None)
            # Both tuned programs ran on the same random inputs: their first
            # outputs agree, or the row says they do not.
            if tir and tvm and not all(
                    abs(a - b) <= 1e-3 * max(1.0, abs(b)) for a, b in zip(tir["out"], tvm["out"])):
                print(f"{name} {threads}T: tir's and TVM's outputs differ: {tir['out']} "
                      f"{tvm['out']}", flush=True)
            print(f"{name:<11} {threads:>7} {cell(tir, 'gflops', '12.1f')} "
                  f"{cell(tir, 'tuning_s', '9.0f')} {cell(tvm, 'gflops', '12.1f')} "
                  f"{cell(tvm, 'tuning_s', '9.0f')} {cell(hand, 'gflops', '8.1f')} "
                  f"{cell(torch, 'gflops', '8.1f')} {ratio(tir, tvm):>8} "
                  f"{ratio(tir, best):>9} {seconds(tir, tvm):>6} {of_peak(tir):>7} "
                  f"{of_peak(tvm):>7}", flush=True)


if __name__ == "__main__":
    main()
