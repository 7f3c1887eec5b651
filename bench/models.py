#!/usr/bin/python3
"""Whole-model inference time: the MLP and the small CNN of
examples/python/models.py, imported from PyTorch (relax.frontend.torch),
built by tir and run on its VirtualMachine, beside PyTorch's own CPU time
for the same model on the same input, in one run.

tir's graph is legalized into one naive prim_func per operator (no
schedule), or fused (--fuse: FuseOps, element-wise consumers in their
producer's prim_func), unless --schedule is given, which schedules the heaviest
prim_func of each model (as the example does: the convolution's output
output columns innermost and vectorized; the MLP's matmul with its
reduction outside a vectorized output loop).

Each figure is the median of --repeat timings of --number calls. Prints a
Markdown table: milliseconds per inference and tir / PyTorch (below 1.0:
tir is faster).

  /usr/bin/python3 bench/models.py [--threads 1] [--repeat 5] [--number 20]
"""

import argparse
import statistics
import sys
import time

import numpy as np

try:
    import torch
    import torch.fx as fx
    from torch import nn
except ImportError:
    sys.exit("bench/models.py needs PyTorch (Debian: python3-torch)")

import tensorir as tvm
from tensorir import relax
from tensorir.relax.frontend.torch import from_fx


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear0 = nn.Linear(784, 128)
        self.relu = nn.ReLU()
        self.linear1 = nn.Linear(128, 10)

    def forward(self, x):
        return self.linear1(self.relu(self.linear0(x)))


class CNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 16, 3, padding=1)
        self.bn = nn.BatchNorm2d(16)
        self.relu = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.gap = nn.AdaptiveAvgPool2d(1)
        self.flatten = nn.Flatten()
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.pool(self.relu(self.bn(self.conv(x))))
        return self.fc(self.flatten(self.gap(x)))


def schedule_cnn(mod):
    legal = relax.transform.LegalizeOps()(mod)
    sch = tvm.tir.Schedule(legal["conv_2d_nchw_fchw"])
    n, f, h, w, c, kh, kw = sch.get_loops(sch.get_block("conv_2d_nchw_fchw"))
    sch.reorder(n, f, h, c, kh, kw, w)
    sch.vectorize(sch.split(w, factors=[None, 16])[1])
    legal["conv_2d_nchw_fchw"] = sch.mod["main"].with_name("conv_2d_nchw_fchw").as_private()
    return legal


def schedule_mlp(mod):
    legal = relax.transform.LegalizeOps()(mod)
    sch = tvm.tir.Schedule(legal["matmul"])
    i, j, k = sch.get_loops(sch.get_block("matmul"))
    sch.reorder(i, k, j)
    sch.vectorize(sch.split(j, factors=[None, 16])[1])
    legal["matmul"] = sch.mod["main"].with_name("matmul").as_private()
    return legal


def median_ms(call, number, repeat):
    call()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            call()
        times.append((time.perf_counter() - start) / number * 1e3)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--number", type=int, default=20)
    parser.add_argument("--schedule", action="store_true")
    parser.add_argument("--fuse", action="store_true",
                        help="fuse element-wise consumers into their producers' "
                        "prim_funcs (relax.transform.FuseOps) instead")
    args = parser.parse_args()
    torch.manual_seed(0)
    torch.set_num_threads(args.threads)
    tvm._native.set_num_threads(args.threads)
    rows = []
    for name, model, shape, schedule in (
            ("MLP 784-128-10, batch 1", MLP(), (1, 784), schedule_mlp),
            ("MLP 784-128-10, batch 64", MLP(), (64, 784), schedule_mlp),
            ("CNN conv3x3(16)-bn-relu-pool-gap-fc, 1x3x32x32", CNN(), (1, 3, 32, 32),
             schedule_cnn)):
        model = model.eval()
        mod = from_fx(fx.symbolic_trace(model), [(shape, "float32")])
        if args.schedule:
            mod = schedule(mod)
        elif args.fuse:
            mod = relax.transform.FuseOps()(mod)
        vm = relax.VirtualMachine(relax.build(mod, target="llvm"), tvm.cpu())
        x = np.random.rand(*shape).astype("float32")
        out = vm["main"](x)
        with torch.no_grad():
            tx = torch.from_numpy(x)
            expected = model(tx).numpy()
            if not np.allclose(out.numpy(), expected, rtol=1e-4, atol=1e-4):
                sys.exit(f"{name}: tir's result differs from PyTorch's")
            torch_ms = median_ms(lambda: model(tx), args.number, args.repeat)
        main_fn = vm["main"]
        output = tvm.nd.empty(out.shape, "float32")
        tir_ms = median_ms(lambda: main_fn(x, output), args.number, args.repeat)
        rows.append((name, tir_ms, torch_ms))
    kind = ("scheduled" if args.schedule else "fused, unscheduled" if args.fuse
            else "unscheduled (one naive prim_func per operator)")
    print(f"threads: {args.threads}; tir {kind}; median of {args.repeat} x {args.number} calls")
    print()
    print("| model | tir (ms) | PyTorch (ms) | tir / PyTorch |")
    print("|---|---|---|---|")
    for name, tir_ms, torch_ms in rows:
        print(f"| {name} | {tir_ms:.3f} | {torch_ms:.3f} | {tir_ms / torch_ms:.2f} |")


if __name__ == "__main__":
    main()
