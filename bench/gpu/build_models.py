"""Builds whole models for the GPU here (no GPU needed) for run.py to run
on a GPU machine beside PyTorch eager (cuDNN, cuBLAS):

    build/venv/bin/python bench/gpu/build_models.py build/gpu-models [--arch sm_90]

Each model in MODELS is exported from PyTorch (torch.export, random
weights seeded), imported (relax.frontend.torch), lowered by relax's
default pipeline for the GPU (legalized, fused, the kernels given dlight's
default schedules), compiled for CUDA with tvm.compile (the weights are
constants of the library) and written as model_<name>.so, with
model_<name>.npz holding its input and PyTorch's output in float64 (the
reference run.py checks against). The libraries are large (ResNet-18's
weights are 47 MB), hence a folder of their own. Needs torch >= 2 and
torchvision (build/venv has both); run.py needs them on the GPU machine
too, for the peer.
"""
import argparse
import os
import shutil
import sys


def resnet18():
    import torch
    import torchvision
    torch.manual_seed(0)
    return torchvision.models.resnet18(weights=None).eval(), torch.randn(1, 3, 224, 224)


def encoder():
    import torch
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                             dropout=0.0, batch_first=True).eval()
    return layer, torch.randn(1, 128, 256)


def mlp():
    """A small one, for checking the flow quickly (the tests)."""
    import torch
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(64, 128), torch.nn.ReLU(),
                                torch.nn.Linear(128, 32)).eval()
    return model, torch.randn(4, 64)


def loaded_runtime():
    """The runtime library this process loaded (the libraries built here
    link against it)."""
    return next(line.split()[-1] for line in open("/proc/self/maps")
                if line.rstrip().endswith("/libTIRRuntime.so"))


# name -> () -> (model, its one input), the same in every process.
MODELS = {"resnet18": resnet18, "encoder": encoder, "mlp": mlp}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--arch", default="sm_90")
    parser.add_argument("--models", default="resnet18,encoder",
                        type=lambda s: [m for m in s.split(",") if m])
    args = parser.parse_args()
    import numpy as np
    import torch
    import tensorir as tvm
    from tensorir import relax
    from tensorir.relax.frontend.torch import from_exported_program
    os.makedirs(args.out, exist_ok=True)
    unknown = [m for m in args.models if m not in MODELS]
    if unknown:
        parser.error(f"unknown models {unknown} (there are {sorted(MODELS)})")
    for name in args.models:
        model, x = MODELS[name]()
        with torch.no_grad():
            mod = from_exported_program(torch.export.export(model, (x,)))
            expected = model.double()(x.double())
        target = tvm.target.Target(f"cuda -arch={args.arch}")
        mod = relax.pipeline.get_default_pipeline(target)(mod)
        lib = tvm.compile(mod, target=target)
        lib.export_library(os.path.join(args.out, f"model_{name}.so"))
        np.savez(os.path.join(args.out, f"model_{name}.npz"), input=x.numpy(),
                 expected=expected.numpy())
        print("built", name, lib.functions)
    shutil.copy(loaded_runtime(), os.path.join(args.out, "libTIRRuntime.so"))


if __name__ == "__main__":
    sys.exit(main())
