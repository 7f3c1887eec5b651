"""Times the candidates tune_models.py prepare built, on a GPU, through the
runtime library alone (tir_runtime: ctypes, no compiler):

    python3 bench/gpu/measure_candidates.py build/gpu-tune

Each candidate library runs its task on random arguments (seeded) once,
then is timed with device events (median of 3 repeats of 10 calls, as
MetaSchedule's runner times); measured.json maps each library to its
seconds, or to the error that stopped it (a launch over the device's
limits, say), for `tune_models.py commit`.
"""
import json
import os
import sys

import numpy as np


def main():
    folder = sys.argv[1]
    os.environ.setdefault("TIR_RUNTIME_LIBRARY", os.path.join(folder, "libTIRRuntime.so"))
    import tir_runtime as rt
    with open(os.path.join(folder, "tasks.json")) as f:
        tasks = json.load(f)["tasks"]
    dev = rt.cuda(0)
    rng = np.random.default_rng(0)
    measured = {}
    for task, entry in tasks.items():
        arrays = []
        for dtype, shape in entry["args"]:
            data = rng.standard_normal(shape) if "float" in dtype else \
                rng.integers(0, 4, shape)
            arrays.append(rt.array(np.asarray(data).astype(dtype), dev))
        best = None
        for candidate in entry["candidates"]:
            path = candidate["library"]
            try:
                lib = rt.load_module(os.path.join(folder, path))
                lib["main"](*arrays)
                seconds = lib.time_evaluator("main", dev, number=10, repeat=3)(*arrays).median
                measured[path] = float(seconds)
                best = seconds if best is None else min(best, seconds)
            except rt.TIRError as e:
                measured[path] = f"error: {e}"
        print(f"{task}: {sum(isinstance(measured[c['library']], float) for c in entry['candidates'])}"
              f" of {len(entry['candidates'])} ran"
              + (f", best {best * 1e6:.1f} us" if best is not None else ""), flush=True)
    with open(os.path.join(folder, "measured.json"), "w") as f:
        json.dump(measured, f, indent=0)


if __name__ == "__main__":
    main()
