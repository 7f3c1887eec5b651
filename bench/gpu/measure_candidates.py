"""Times the candidates tune_models.py prepare built, on a GPU, through the
runtime library alone (tir_runtime: ctypes, no compiler):

    python3 bench/gpu/measure_candidates.py build/gpu-tune

Each candidate library runs its task on random arguments (seeded) once,
then is timed with device events (median of 3 repeats of 10 calls, as
MetaSchedule's runner times); measured.json maps each library to its
seconds, or to the error that stopped it (a launch over the device's
limits, say). The candidates of a task are measured in a worker process
of their own: a kernel that faults leaves the GPU context unusable (every
later call fails), so the worker that saw a failure, or died, is replaced
by a fresh one for the candidates after it.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))  # tir_runtime


def worker(folder, task, start):
    """Measures task `task`'s candidates from index `start` on, printing a
    JSON line [index, seconds or error] for each; stops after the first
    error (the context may be lost)."""
    os.environ.setdefault("TIR_RUNTIME_LIBRARY", os.path.join(folder, "libTIRRuntime.so"))
    import tir_runtime as rt
    with open(os.path.join(folder, "tasks.json")) as f:
        entry = json.load(f)["tasks"][task]
    dev = rt.cuda(0)
    rng = np.random.default_rng(0)
    arrays = []
    for dtype, shape in entry["args"]:
        data = rng.standard_normal(shape) if "float" in dtype else rng.integers(0, 4, shape)
        arrays.append(rt.array(np.asarray(data).astype(dtype), dev))
    for index in range(start, len(entry["candidates"])):
        path = entry["candidates"][index]["library"]
        try:
            lib = rt.load_module(os.path.join(folder, path))
            lib["main"](*arrays)
            seconds = lib.time_evaluator("main", dev, number=10, repeat=3)(*arrays).median
            print(json.dumps([index, float(seconds)]), flush=True)
        except rt.TIRError as e:
            print(json.dumps([index, f"error: {e}"]), flush=True)
            return


def measure(folder, task, entry):
    """{library: seconds or error} for task `task`, a worker at a time."""
    results, start = {}, 0
    candidates = entry["candidates"]
    while start < len(candidates):
        run = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", folder,
                              task, str(start)], capture_output=True, text=True)
        done = [json.loads(line) for line in run.stdout.splitlines() if line.startswith("[")]
        for index, value in done:
            results[candidates[index]["library"]] = value
        start = done[-1][0] + 1 if done else start
        if run.returncode != 0 and start < len(candidates):
            # The worker died on the candidate after its last line.
            results[candidates[start]["library"]] = (
                f"error: the measuring process died (exit {run.returncode}): "
                + run.stderr.strip()[-300:])
            start += 1
    return results


def main():
    if sys.argv[1] == "--worker":
        return worker(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    folder = sys.argv[1]
    with open(os.path.join(folder, "tasks.json")) as f:
        tasks = json.load(f)["tasks"]
    measured = {}
    for task, entry in tasks.items():
        results = measure(folder, task, entry)
        measured.update(results)
        times = [v for v in results.values() if isinstance(v, float)]
        print(f"{task}: {len(times)} of {len(entry['candidates'])} ran"
              + (f", best {min(times) * 1e6:.1f} us" if times else ""), flush=True)
    with open(os.path.join(folder, "measured.json"), "w") as f:
        json.dump(measured, f, indent=0)


if __name__ == "__main__":
    main()
