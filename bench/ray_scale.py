"""MetaSchedule's builders and runners at scale: build throughput
(candidates per second) of LocalBuilder and of RayBuilder on a local Ray
cluster of 1 and 2 CPUs, on candidates of a real tuning, and the time Ray
adds per candidate to a build and to a measurement. Runs under a Python
with the ray package (the project's venv: build/venv/bin/python).

    build/venv/bin/python bench/ray_scale.py [--trials 64] [--size 512]

The candidates: MetaSchedule's default CPU space for an fp32 GEMM of
size^3 (ReplayTrace, a fixed seed, `trials` candidates in batches of 32),
built for "llvm -num-cores 1"; the runner measures nothing there, so the
builder's time is what the tuning spends. The overheads: a program of 16
elements built (and measured) with each, per candidate, Ray's minus the
local one's at the same parallelism. docs/scale.md has the figures.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "python"))

import tensorir as tvm  # noqa: E402
from tensorir import meta_schedule as ms  # noqa: E402
from tensorir import te  # noqa: E402
from tensorir.meta_schedule import _ray  # noqa: E402
from tensorir.meta_schedule.testing.dummy_object import DummyRunner  # noqa: E402

TARGET = "llvm -num-cores 1"


def gemm(n):
    a = te.placeholder((n, n), name="A")
    b = te.placeholder((n, n), name="B")
    k = te.reduce_axis((0, n), name="k")
    c = te.compute((n, n), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    return tvm.IRModule({"main": te.create_prim_func([a, b, c])})


def tiny():
    a = te.placeholder((16,), name="A")
    b = te.compute((16,), lambda i: a[i] * 2.0, name="B")
    return tvm.IRModule({"main": te.create_prim_func([a, b])})


@ms.derived_object
class TimedBuilder(ms.builder.PyBuilder):
    """Another builder, with the seconds its builds took and how many."""

    def __init__(self, inner):
        super().__init__()
        self.inner, self.seconds, self.count, self.failed = inner, 0.0, 0, 0

    def build(self, build_inputs):
        start = time.perf_counter()
        results = self.inner.build(build_inputs)
        self.seconds += time.perf_counter() - start
        self.count += len(results)
        self.failed += sum(r.error_msg is not None for r in results)
        return results


def throughput(builder, mod, trials):
    """Candidates built per second in a tuning of `trials` candidates."""
    timed = TimedBuilder(builder)
    with tempfile.TemporaryDirectory() as work:
        ms.tune_tir(mod, TARGET, work, trials, num_trials_per_iter=32, builder=timed,
                    runner=DummyRunner(), strategy="replay-trace", cost_model="random",
                    seed=1, check_results=False)
    return timed.count / timed.seconds, timed.failed


def per_candidate(fn, count):
    """Median seconds per candidate of fn(count) over 3 runs."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        fn(count)
        times.append((time.perf_counter() - start) / count)
    return statistics.median(times)


def build_overhead(builder, count=16):
    from tensorir.meta_schedule.builder.local_builder import remove_build_dir
    inputs = [ms.builder.BuilderInput(tiny(), TARGET)]

    def build(n):
        for result in builder.build(inputs * n):
            remove_build_dir(result.artifact_path)

    return per_candidate(build, count)


def run_overhead(runner, count=16):
    (built,) = ms.builder.LocalBuilder(max_workers=1).build(
        [ms.builder.BuilderInput(tiny(), TARGET)])
    args = ms.arg_info.ArgInfo.from_prim_func(tiny()["main"])
    inputs = [ms.runner.RunnerInput(built.artifact_path, "llvm", args)]

    def run(n):
        for future in runner.run(inputs * n):
            assert future.result().error_msg is None

    try:
        return per_candidate(run, count)
    finally:
        from tensorir.meta_schedule.builder.local_builder import remove_build_dir
        remove_build_dir(built.artifact_path)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--trials", type=int, default=64)
    parser.add_argument("--size", type=int, default=512)
    args = parser.parse_args()
    mod = gemm(args.size)
    config = ms.runner.EvaluatorConfig(number=1, repeat=1, min_repeat_ms=0)
    rows = []
    for workers in (1, 2):
        local = ms.builder.LocalBuilder(max_workers=workers)
        rate, failed = throughput(local, mod, args.trials)
        overhead = build_overhead(local)
        run = run_overhead(ms.runner.LocalRunner(evaluator_config=config))
        rows.append((f"LocalBuilder, {workers} process(es)", rate, failed, overhead, run))
    for cpus in (1, 2):
        start = time.perf_counter()
        _ray.connect(num_cpus=cpus)
        up = time.perf_counter() - start
        ray_builder = ms.builder.RayBuilder()
        rate, failed = throughput(ray_builder, mod, args.trials)
        overhead = build_overhead(ray_builder)
        run = run_overhead(ms.runner.RayRunner(evaluator_config=config))
        rows.append((f"RayBuilder, {cpus} worker(s) (cluster up in {up:.1f} s)", rate, failed,
                     overhead, run))
        import ray
        ray.shutdown()
    print(f"GEMM {args.size}^3, {args.trials} candidates of the default CPU space, "
          f"{os.cpu_count()} CPUs")
    print(f"{'builder':<46} {'cand/s':>7} {'failed':>6} {'build/cand (ms)':>16} "
          f"{'measure/cand (ms)':>18}")
    for name, rate, failed, overhead, run in rows:
        print(f"{name:<46} {rate:>7.2f} {failed:>6} {overhead * 1e3:>16.1f} {run * 1e3:>18.1f}")
    for workers in (1, 2):
        local, remote = rows[workers - 1], rows[workers + 1]
        print(f"Ray adds, {workers} worker(s): {(remote[3] - local[3]) * 1e3:.1f} ms per build, "
              f"{(remote[4] - local[4]) * 1e3:.1f} ms per measurement; throughput "
              f"{remote[1] / local[1]:.2f}x the local builder's")


if __name__ == "__main__":
    main()
