"""Runs the libraries build_artifacts.py (and build_models.py) made, on a
GPU, through the runtime library alone (tir_runtime: ctypes, no compiler),
checks every result against PyTorch in float64 and times each beside its
peer (cuBLAS through PyTorch, TF32 off; PyTorch's own elementwise kernels;
scaled_dot_product_attention beside the fused attention;
a whole model beside PyTorch eager, cuDNN's TF32 off too) with device
events.

    python3 bench/gpu/run.py build/gpu [PREFIX ...]
    python3 bench/gpu/run.py build/gpu-models

With prefixes, only the programs whose names start with one of them run
(`wggemm tcgemm`: the tensor-core GEMMs first, where device time is short).
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))


def torch_time(fn, number=20, repeat=5):
    import torch
    fn()
    torch.cuda.synchronize()
    times = []
    for _ in range(repeat):
        start, stop = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(number):
            fn()
        stop.record()
        stop.synchronize()
        times.append(start.elapsed_time(stop) / 1e3 / number)
    return float(np.median(times))


def rel_error(out, ref):
    return float(np.linalg.norm(out.astype(np.float64) - ref) / np.linalg.norm(ref))


def main():
    folder, prefixes = sys.argv[1], tuple(sys.argv[2:])
    os.environ.setdefault("TIR_RUNTIME_LIBRARY", os.path.join(folder, "libTIRRuntime.so"))
    import tir_runtime as rt
    import torch
    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    dev = rt.cuda(0)
    print("GPU:", torch.cuda.get_device_name(0), "| devices:", rt.cuda_device_count())
    rng = np.random.default_rng(int.from_bytes(os.urandom(4), "little"))
    rows = []
    failures = 0

    def record(name, err, ok, t, peer, work, unit):
        nonlocal failures
        failures += 0 if ok else 1
        rows.append((name, f"{err:.2e}", "ok" if ok else "WRONG", f"{t * 1e3:.3f}",
                     f"{peer * 1e3:.3f}", f"{peer / t:.2f}", f"{work / t:.1f} {unit}",
                     f"{work / peer:.1f} {unit}"))

    for name in sorted(os.listdir(folder)):
        if not name.endswith(".so") or name == "libTIRRuntime.so":
            continue
        if prefixes and not name.startswith(prefixes):
            continue
        tag = name[:-3]
        lib = rt.load_module(os.path.join(folder, name))
        fname = lib.functions[0]
        if tag.startswith("model_"):
            # A whole model (build_models.py): its graph function on the
            # input it was built with, against PyTorch's output in float64
            # there; PyTorch eager on the GPU timed beside it.
            from build_models import MODELS
            data = np.load(os.path.join(folder, tag + ".npz"))
            expected = data["expected"]
            dx = rt.array(data["input"], dev)
            dout = rt.array(np.full(expected.shape, np.nan, np.float32), dev)
            lib["main"](dx, dout)
            err = rel_error(dout.numpy(), expected)
            t = lib.time_evaluator("main", dev, number=20, repeat=5)(dx, dout).median
            model, _ = MODELS[tag[len("model_"):].removesuffix("_tuned")]()
            model = model.cuda()
            tx = torch.from_numpy(data["input"]).cuda()
            with torch.no_grad():
                peer = torch_time(lambda: model(tx), number=20)
            record(tag, err, err < 1e-4, t, peer, 1, "inf/s")
            continue
        if tag == "blitz":
            # The Blitz course's GPU part (examples/python/blitz.py).
            a = rt.array(np.arange(8).astype("float32"), dev)
            b = rt.array(np.zeros(8, "float32"), dev)
            lib[fname](a, b)
            print("blitz:", a.numpy(), b.numpy())
            ok = (b.numpy() == np.arange(8) + 1).all()
            failures += 0 if ok else 1
            continue
        if tag.startswith("vadd"):
            n = 1 << 26
            a, b = (rng.standard_normal(n, dtype=np.float32) for _ in range(2))
            da, db = rt.array(a, dev), rt.array(b, dev)
            dc = rt.array(np.full(n, np.nan, np.float32), dev)
            lib[fname](da, db, dc)
            ref = a.astype(np.float64) + b
            err = rel_error(dc.numpy(), ref)
            t = lib.time_evaluator(fname, dev, number=50, repeat=5)(da, db, dc).median
            ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
            tc = torch.empty_like(ta)
            peer = torch_time(lambda: torch.add(ta, tb, out=tc), number=50)
            record(tag, err, err < 1e-6, t, peer, 3 * n * 4 / 1e9, "GB/s")
        elif tag.startswith("softmax"):
            m = n_cols = int(tag.rsplit("_", 1)[1])
            a = rng.standard_normal((m, n_cols), dtype=np.float32)
            da = rt.array(a, dev)
            ds = rt.array(np.full((m, n_cols), np.nan, np.float32), dev)
            lib[fname](da, ds)
            ta = torch.from_numpy(a).cuda()
            ref = torch.softmax(ta.double(), dim=1).cpu().numpy()
            err = rel_error(ds.numpy(), ref)
            t = lib.time_evaluator(fname, dev, number=20, repeat=5)(da, ds).median
            peer = torch_time(lambda: torch.softmax(ta, dim=1), number=20)
            record(tag, err, err < 1e-5, t, peer, 2 * m * n_cols * 4 / 1e9, "GB/s")
        elif tag.startswith(("attention", "tcattention", "flashattention")):
            # Fused attention (f16) beside PyTorch's scaled_dot_product_attention
            # (its flash or memory-efficient kernel on f16).
            heads, n, d = (int(part[1:]) for part in tag.split("_")[1:4])
            q, k, v = (rng.standard_normal((heads, n, d)).astype(np.float16)
                       for _ in range(3))
            dq, dk, dv = (rt.array(x, dev) for x in (q, k, v))
            do = rt.array(np.full((heads, n, d), np.nan, np.float16), dev)
            lib[fname](dq, dk, dv, do)
            tq, tk, tv = (torch.from_numpy(x).cuda() for x in (q, k, v))
            scores = tq.double() @ tk.double().transpose(1, 2) / d ** 0.5
            ref = (torch.softmax(scores, dim=-1) @ tv.double()).cpu().numpy()
            err = rel_error(do.numpy(), ref)
            t = lib.time_evaluator(fname, dev, number=20, repeat=5)(dq, dk, dv, do).median
            sdpa = torch.nn.functional.scaled_dot_product_attention
            peer = torch_time(lambda: sdpa(tq[None], tk[None], tv[None]), number=20)
            record(tag, err, err < 2e-3, t, peer, 4 * heads * n * n * d / 1e12, "TFLOP/s")
        elif tag.startswith(("gemm", "tcgemm", "wggemm")):
            # f32 GEMMs beside cuBLAS's (TF32 off); tensor-core ones take
            # f16 (accumulating in f32) beside cuBLAS's f16 GEMM; the
            # warpgroup ones (wggemm) compute A B^T, as cuBLAS does for
            # torch.matmul(a, b.T).
            size = int(tag.rsplit("_", 1)[1])
            tensor_core = tag.startswith(("tcgemm", "wggemm"))
            nt = tag.startswith("wggemm")
            dtype = np.float16 if tensor_core else np.float32
            a = rng.standard_normal((size, size)).astype(dtype)
            b = rng.standard_normal((size, size)).astype(dtype)
            da, db = rt.array(a, dev), rt.array(b, dev)
            dc = rt.array(np.full((size, size), np.nan, np.float32), dev)
            lib[fname](da, db, dc)
            ta, tb = torch.from_numpy(a).cuda(), torch.from_numpy(b).cuda()
            if nt:
                tb = tb.T
            ref = (ta.double() @ tb.double()).cpu().numpy()
            err = rel_error(dc.numpy(), ref)
            number = 3 if "naive" in tag else 10
            t = lib.time_evaluator(fname, dev, number=number, repeat=5)(da, db, dc).median
            tc = torch.empty_like(ta)
            peer = torch_time(lambda: torch.matmul(ta, tb, out=tc), number=10)
            record(tag, err, err < (1e-4 if tensor_core else 1e-5), t, peer,
                   2 * size ** 3 / 1e12, "TFLOP/s")
    # Bad input on the real device: each must be refused with its reason.
    if not os.path.exists(os.path.join(folder, "vadd_scalar.so")):
        return report(rows, failures)
    lib = rt.load_module(os.path.join(folder, "vadd_scalar.so"))
    n = 1 << 26
    host = np.zeros(n, np.float32)
    dev_a = rt.empty((n,), "float32", dev)
    checks = {
        "host array": lambda: lib["vadd"](host, dev_a, rt.empty((n,), "float32", dev)),
        "missing GPU": lambda: rt.empty((4,), "float32", rt.cuda(rt.cuda_device_count())),
        "wrong shape": lambda: lib["vadd"](rt.empty((8,), "float32", dev), dev_a, dev_a),
        "too much memory": lambda: rt.empty((1 << 40,), "float32", dev),
    }
    for what, call in checks.items():
        try:
            call()
            print(f"bad input ({what}): NOT REFUSED")
            failures += 1
        except rt.TIRError as e:
            print(f"bad input ({what}): {e}")
    report(rows, failures)


def report(rows, failures):
    """Prints the table; exits 1 where a result was wrong."""
    header = ("program", "rel.err", "check", "tir ms", "peer ms", "tir/peer speed",
              "tir rate", "peer rate")
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    for r in [header] + rows:
        print("  ".join(str(c).ljust(w) for c, w in zip(r, widths)))
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
