"""compare.py REF_DIR OUT_DIR NAME... [--tolerance]

Compares NAME.npy in both directories: bitwise by default (schedules that
keep every element's order of operations), or within a float tolerance.
Prints one line per array; exits 1 on any difference.
"""
import os
import sys

import numpy as np


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    tolerant = "--tolerance" in sys.argv
    ref_dir, out_dir, names = args[0], args[1], args[2:]
    ok = True
    for name in names:
        ref = np.load(os.path.join(ref_dir, name + ".npy"))
        out = np.load(os.path.join(out_dir, name + ".npy"))
        if ref.shape != out.shape or ref.dtype != out.dtype:
            print(f"{name}: {out.dtype}{out.shape} vs {ref.dtype}{ref.shape}")
            ok = False
            continue
        if tolerant:
            same = np.isclose(out, ref, rtol=1e-5, atol=1e-5)
            kind = "within tolerance"
        else:
            same = out.view(np.uint8).reshape(out.size, -1) == \
                ref.view(np.uint8).reshape(ref.size, -1)
            same = same.all(axis=1) if out.size else same
            kind = "bitwise equal"
        bad = int((~same).sum())
        print(f"{name}: {out.size - bad} of {out.size} elements {kind}")
        ok = ok and bad == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
