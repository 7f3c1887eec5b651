#!/usr/bin/env python3
"""ResNet-18 (torchvision, random weights: nothing is downloaded) from
PyTorch to tir: exported with torch.export, imported with
relax.frontend.torch.from_exported_program, optionally tuned with
relax.get_pipeline("static_shape_tuning") (MetaSchedule, --trials in all),
compiled, run on the VirtualMachine and compared with PyTorch; prints
milliseconds per inference beside PyTorch eager's on the same threads.

Needs torch >= 2 and torchvision (the project's virtual environment,
build/venv, has both):

    build/venv/bin/python examples/python/resnet18.py [--model mobilenet_v2]
        [--trials 0] [--threads 1] [--work-dir tuning_logs]
"""
import argparse
import os
import sys
import time

import numpy as np

try:
    import torch
    import torchvision
except ImportError:
    sys.exit("examples/python/resnet18.py needs torch >= 2 and torchvision (build/venv has "
             "them: scripts/python-venv.sh)")

import tensorir as tvm
from tensorir import relax
from tensorir.relax.frontend.torch import from_exported_program


def per_call(fn, number=5):
    fn()
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="resnet18", help="a torchvision model name")
    parser.add_argument("--trials", type=int, default=0,
                        help="MetaSchedule trials in all (0: untuned)")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--work-dir", default="tuning_logs")
    args = parser.parse_args()
    torch.set_num_threads(args.threads)
    os.environ["OMP_NUM_THREADS"] = str(args.threads)

    torch.manual_seed(0)
    model = getattr(torchvision.models, args.model)(weights=None).eval()
    x = torch.randn(1, 3, 224, 224)
    mod = from_exported_program(torch.export.export(model, (x,)))
    target = tvm.target.Target(f"llvm -num-cores={args.threads}")
    if args.trials:
        with target:
            mod = relax.get_pipeline("static_shape_tuning", total_trials=args.trials,
                                     work_dir=args.work_dir)(mod)
    vm = relax.VirtualMachine(tvm.compile(mod, target), tvm.cpu())

    got = vm["main"](x.numpy())[0].numpy()
    with torch.no_grad():
        want = model(x).numpy()
    error = np.abs(got - want).max() / np.abs(want).max()
    print(f"{args.model}: largest difference from PyTorch {error:.2e} of the largest output")
    ours = per_call(lambda: vm["main"](x.numpy()))
    with torch.no_grad():
        eager = per_call(lambda: model(x))
    tuned = f"tuned, {args.trials} trials" if args.trials else "untuned"
    print(f"tir ({tuned}): {ours * 1e3:.1f} ms; PyTorch eager: {eager * 1e3:.1f} ms "
          f"({args.threads} thread(s))")
    return 0 if error < 1e-4 else 1


if __name__ == "__main__":
    sys.exit(main())
