"""Compares what tir-run wrote with a reference computed here.

    check.py KERNEL DIR

DIR holds NAME.in.npy for every buffer before the call (tir-run
--save-inputs) and NAME.npy for every buffer the function wrote. The
references below are written from the kernels' meaning, with numpy and plain
loops, not from tir's lowering. Prints one line per output and exits 1 on a
mismatch.
"""
import os
import sys

import numpy as np


def conv2d_pool(I, W, P):
    n, c, h, w = I.shape
    f, _, kh, kw = W.shape
    oh, ow = h - kh + 1, w - kw + 1
    O = np.zeros((n, f, oh, ow), dtype=np.float64)
    for ky in range(kh):
        for kx in range(kw):
            window = I[:, :, ky:ky + oh, kx:kx + ow].astype(np.float64)
            O += np.einsum("nchw,fc->nfhw", window, W[:, :, ky, kx])
    pooled = O.reshape(n, f, oh // 2, 2, ow // 2, 2).max(axis=(3, 5))
    return {"P": pooled}


def concat(A0, A1, A2, B):
    return {"B": np.concatenate([A0, A1, A2])}


def matmul(A, B, C):
    return {"C": A.astype(np.float64) @ B.astype(np.float64)}


def matmul_relu(A, B, D):
    return {"D": np.maximum(A.astype(np.float64) @ B.astype(np.float64), 0)}


def add_one(A, B):
    return {"B": A + 1}


def transpose_add(A, B):
    return {"B": A.T + 1}


def split_tail(A, B):
    return {"B": A * 2}


def threads(T):
    # Not a value check: the parallel loop must have run on several threads
    # (T is read back after the call, see OUTPUTS_AS_INPUTS).
    used = sorted(set(T.tolist()))
    print(f"T: thread ids used: {used}")
    return {} if len(used) >= 2 else None


REFERENCES = {
    "conv2d_pool": conv2d_pool,
    "concat": concat,
    "matmul": matmul,
    "matmul_relu": matmul_relu,
    "main": add_one,       # examples/vector_add.mlir
    "add_one": add_one,    # examples/vector_add_dynamic.mlir (n = len(A))
    "threads": threads,
    "transpose_add": transpose_add,
    "split_tail": split_tail,
}

PARAMS = {
    "conv2d_pool": ["I", "W", "P"],
    "concat": ["A0", "A1", "A2", "B"],
    "matmul": ["A", "B", "C"],
    "matmul_relu": ["A", "B", "D"],
    "main": ["A", "B"],
    "add_one": ["A", "B"],
    "threads": ["T"],
    "transpose_add": ["A", "B"],
    "split_tail": ["A", "B"],
}


# Kernels checked on what they wrote rather than on what they were given.
OUTPUTS_AS_INPUTS = {"threads"}


def main():
    kernel, directory = sys.argv[1], sys.argv[2]
    suffix = ".npy" if kernel in OUTPUTS_AS_INPUTS else ".in.npy"
    inputs = [np.load(os.path.join(directory, name + suffix))
              for name in PARAMS[kernel]]
    expected = REFERENCES[kernel](*inputs)
    if expected is None:
        print(f"{kernel}: FAILED")
        return 1
    ok = True
    for name, want in expected.items():
        got = np.load(os.path.join(directory, name + ".npy"))
        if got.shape != want.shape:
            print(f"{name}: shape {got.shape}, expected {want.shape}")
            ok = False
            continue
        # float32 sums of many terms: errors scale with the output's size.
        scale = max(1.0, float(np.abs(want).max())) if want.size else 1.0
        close = np.isclose(got, want, rtol=1e-4, atol=1e-5 * scale)
        bad = int((~close).sum())
        err = float(np.max(np.abs(got - want))) if got.size else 0.0
        print(f"{name}: {got.size} elements, {bad} mismatches, "
              f"max abs error {err:.2e}")
        ok = ok and bad == 0
    print(f"{kernel}: {'OK' if ok else 'FAILED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
