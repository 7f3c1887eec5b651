"""Times the candidates tune_models.py prepare built, on a GPU, through the
runtime library alone (tir_runtime: ctypes, no compiler):

    python3 bench/gpu/measure_candidates.py build/gpu-tune

Each candidate library runs its task on random arguments (seeded), its
outputs poisoned with NaN first, and is checked against dlight's candidate
of the task (the untuned schedule; unchecked where that one fails); then
it is timed with device events
(median of 3 repeats of 10 calls, as MetaSchedule's runner times).
measured.json maps each library to its seconds, or to the error that
stopped it (a launch over the device's limits, a wrong result). The
candidates of a task are measured in a worker process of their own: a
kernel that faults leaves the GPU context unusable (every later call
fails), so the worker that saw a failure, died or hung (10 minutes) is
replaced by a fresh one for the candidates after it.
"""
import json
import os
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))  # tir_runtime

WORKER_TIMEOUT = 600  # seconds


def worker(folder, task, start, check=True):
    """Measures task `task`'s candidates from index `start` on, printing a
    JSON line [index, seconds or error] for each; stops after the first
    error (the context may be lost). With `check`, dlight's candidate runs
    first for the reference; where it fails, the worker prints
    ["reference", error] and stops."""
    os.environ.setdefault("TIR_RUNTIME_LIBRARY", os.path.join(folder, "libTIRRuntime.so"))
    import tir_runtime as rt
    with open(os.path.join(folder, "tasks.json")) as f:
        entry = json.load(f)["tasks"][task]
    candidates = entry["candidates"]
    dev = rt.cuda(0)
    rng = np.random.default_rng(0)
    arrays = []
    for dtype, shape in entry["args"]:
        data = rng.standard_normal(shape) if "float" in dtype else rng.integers(0, 4, shape)
        arrays.append(rt.array(np.asarray(data).astype(rt.numpy_dtype(dtype)), dev))

    def run(path):
        """The candidate's library after one call on poisoned outputs, and
        its outputs."""
        lib = rt.load_module(os.path.join(folder, path))
        written = [i for i, p in enumerate(lib.params("main")) if p.written]
        for i in written:
            if "float" in entry["args"][i][0]:
                arrays[i].copyfrom(np.full(arrays[i].shape, np.nan, arrays[i].numpy().dtype))
        lib["main"](*arrays)
        return lib, [arrays[i].numpy().astype(np.float64) for i in written]

    # The reference: dlight's schedule.
    reference = None
    default = [c["library"] for c in candidates if c["default"]]
    if check and default:
        try:
            reference = run(default[0])[1]
        except rt.TIRError as e:
            print(json.dumps(["reference", f"error: {e}"]), flush=True)
            return
    for index in range(start, len(candidates)):
        try:
            lib, outputs = run(candidates[index]["library"])
            if reference is not None:
                for out, ref in zip(outputs, reference):
                    scale = max(float(np.abs(ref).max()), 1.0)
                    err = float(np.nanmax(np.abs(out - ref))) / scale if out.size else 0.0
                    if not np.isfinite(out).all() and np.isfinite(ref).all() or err > 1e-3:
                        raise ValueError(f"wrong result: differs from dlight's schedule by "
                                         f"{err:.2e} (relative to its largest value)")
            seconds = lib.time_evaluator("main", dev, number=10, repeat=3)(*arrays).median
            print(json.dumps([index, float(seconds)]), flush=True)
        except ValueError as e:  # a wrong result: the context is fine
            print(json.dumps([index, f"error: {e}"]), flush=True)
        except rt.TIRError as e:
            print(json.dumps([index, f"error: {e}"]), flush=True)
            return


def measure(folder, task, entry):
    """{library: seconds or error} for task `task`, a worker at a time."""
    results, start, check = {}, 0, True
    candidates = entry["candidates"]
    while start < len(candidates):
        command = [sys.executable, os.path.abspath(__file__), "--worker", folder, task,
                   str(start)] + ([] if check else ["--unchecked"])
        try:
            run = subprocess.run(command, capture_output=True, text=True,
                                 timeout=WORKER_TIMEOUT)
            stdout, stderr, died = run.stdout, run.stderr, run.returncode != 0
            why = f"the measuring process died (exit {run.returncode})"
        except subprocess.TimeoutExpired as e:
            stdout = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            stderr, died = "", True
            why = f"the measuring process hung ({WORKER_TIMEOUT} s)"
        done = [json.loads(line) for line in stdout.splitlines() if line.startswith("[")]
        if done and done[0][0] == "reference":
            check = False  # dlight's schedule fails: nothing to check against
            continue
        for index, value in done:
            results[candidates[index]["library"]] = value
        last_failed = bool(done) and not isinstance(done[-1][1], float)
        start = done[-1][0] + 1 if done else start
        if start < len(candidates) and (not done or (died and not last_failed)):
            # No line for the next candidate: it is the one that killed the
            # worker (or the worker made no progress at all).
            results[candidates[start]["library"]] = f"error: {why}: " + stderr.strip()[-300:]
            start += 1
    return results


def main():
    if sys.argv[1] == "--worker":
        return worker(sys.argv[2], sys.argv[3], int(sys.argv[4]),
                      check="--unchecked" not in sys.argv)
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
