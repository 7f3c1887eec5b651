"""tir-tune: MetaSchedule from the command line. Tunes the functions of an
.mlir file (tir functions), writes TVM's database (database_workload.json,
database_tuning_record.json) and, for each function, its best schedule as a
transform script beside the module (best/<n>_<function>.mlir, which
`tir-opt --transform-interpreter` turns into the tuned module), and prints
per function the trials, best GFLOP/s and latency; --plot draws the tuning
curve (best GFLOP/s so far against trials) as a PNG.

    tir-tune kernels.mlir --trials 256 [--target "llvm -num-cores 2"]
        [--work-dir DIR] [--trials-per-iter 64] [--cost-model xgb|random]
        [--seed N] [--plot curve.png]

A tuning interrupted (Ctrl-C) leaves the database as it was committed; run
again with the same work directory and it resumes where it stopped."""
import argparse
import json
import os
import struct
import sys
import zlib


def _records(work_dir):
    """(workload index, mean run seconds or None) of each record, in the
    order tuning committed them."""
    path = os.path.join(work_dir, "database_tuning_record.json")
    out = []
    if not os.path.exists(path):
        return out
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            index, record = json.loads(line)
            secs = [float(s) for s in (record[1] or [])]
            ok = secs and 0 < min(secs) and max(secs) < 1e9
            out.append((index, sum(secs) / len(secs) if ok else None))
    return out


def _png(path, width, height, pixels):
    """Writes `pixels` (rows of (r, g, b)) as a PNG."""
    raw = b"".join(b"\0" + bytes(c for px in row for c in px) for row in pixels)

    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 9)))
        f.write(chunk(b"IEND", b""))


def plot_curves(path, curves, width=640, height=400):
    """Best-so-far GFLOP/s against trials, one colored line per function
    (axes from 0 to the largest trial count and GFLOP/s), as a PNG."""
    colors = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189)]
    pixels = [[(255, 255, 255)] * width for _ in range(height)]
    left, bottom, right, top = 40, height - 30, width - 10, 10
    for x in range(left, right + 1):
        pixels[bottom][x] = (0, 0, 0)
    for y in range(top, bottom + 1):
        pixels[y][left] = (0, 0, 0)
    max_x = max((len(c) for c in curves.values()), default=1) or 1
    max_y = max((max(c) for c in curves.values() if c), default=1.0) or 1.0

    def to_px(i, v):
        return (left + round((right - left) * (i + 1) / max_x),
                bottom - round((bottom - top) * v / max_y))
    for n, curve in enumerate(curves.values()):
        color = colors[n % len(colors)]
        points = [to_px(i, v) for i, v in enumerate(curve)]
        for x, y in points:  # each trial a dot, the line between them
            for dx in (-1, 0, 1):
                for dy in (-1, 0, 1):
                    if left <= x + dx < width and top <= y + dy <= bottom:
                        pixels[y + dy][x + dx] = color
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            steps = max(abs(x1 - x0), abs(y1 - y0), 1)
            for s in range(steps + 1):
                x = x0 + (x1 - x0) * s // steps
                y = y0 + (y1 - y0) * s // steps
                for dy in (0, 1):
                    if top <= y + dy <= bottom:
                        pixels[y + dy][x] = color
    _png(path, width, height, pixels)


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="tir-tune", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input", help="an .mlir file of tir functions")
    parser.add_argument("--trials", type=int, required=True,
                        help="trials in all (shared among the functions; those a "
                             "previous run in the work directory made count)")
    parser.add_argument("--target", default=None,
                        help='the target (default: "llvm -num-cores <physical cores>")')
    parser.add_argument("--work-dir", default=None,
                        help="where the database and logs go (default: <input>.tune)")
    parser.add_argument("--trials-per-iter", type=int, default=64)
    parser.add_argument("--cost-model", default="xgb", choices=["xgb", "random"])
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--plot", default=None, help="write the tuning curve to this PNG")
    parser.add_argument("--ray", nargs="?", const="local", default=None, metavar="ADDRESS",
                        help="build and measure on a Ray cluster (RayBuilder, RayRunner): "
                             "its address, or none for a local cluster on this machine")
    parser.add_argument("--ray-measurers", type=int, default=1, metavar="N",
                        help="Ray actors measuring at once (Ray spreads them over the nodes)")
    parser.add_argument("--ray-measure-resource", default=None, metavar="NAME",
                        help="a custom resource only the measuring nodes have (ray start "
                             "--resources='{\"NAME\": 1}'); each measuring actor holds one")
    args = parser.parse_args(argv)

    from .. import IRModule
    from . import tune_tir
    from .utils import cpu_count
    from .._ext import ext
    if args.trials < 1:
        parser.error("--trials is a positive number of trials")
    if args.ray_measurers < 1:
        parser.error("--ray-measurers is a positive number of actors")
    if not os.path.exists(args.input):
        parser.error(f"no such file: {args.input}")
    try:
        with open(args.input) as f:
            mod = IRModule.from_mlir(f.read(), args.input)
    except Exception as error:  # the parser's diagnostic, as it is
        print(f"tir-tune: {error}", file=sys.stderr)
        return 1
    target = args.target or f"llvm -num-cores {cpu_count(logical=False)}"
    work_dir = args.work_dir or os.path.splitext(args.input)[0] + ".tune"
    os.makedirs(work_dir, exist_ok=True)
    names = mod.function_names()
    print(f"tir-tune: {len(names)} function(s) of {args.input} for {target!r}, "
          f"{args.trials} trials; logs in {os.path.join(work_dir, 'logs')}", flush=True)
    # A work directory tuned before: only the trials still to run.
    done = len(_records(work_dir))
    todo = args.trials - done
    if done:
        print(f"tir-tune: {work_dir} holds {done} trial(s); "
              f"{max(todo, 0)} more to run", flush=True)
    builder, runner = "local", "local"
    if args.ray is not None:
        from .builder import RayBuilder
        from .runner import RayRunner
        from ._ray import connect
        address = None if args.ray == "local" else args.ray
        try:
            ray = connect(address)
        except Exception as error:  # Ray's own message: no cluster there, say
            print(f"tir-tune: cannot join the Ray cluster {args.ray!r}: {error}",
                  file=sys.stderr)
            return 1
        cpus = ray.cluster_resources().get("CPU", 0)
        print(f"tir-tune: Ray cluster {args.ray!r}: {len(ray.nodes())} node(s), "
              f"{cpus:g} CPU(s); {args.ray_measurers} measuring actor(s)", flush=True)
        from .runner.ray_runner import target_threads
        builder = RayBuilder()
        resources = {args.ray_measure_resource: 1} if args.ray_measure_resource else None
        runner = RayRunner(num_actors=args.ray_measurers, num_threads=target_threads(target),
                           resources=resources)
    try:
        if todo <= 0:
            from .database import JSONDatabase
            db = JSONDatabase(work_dir=work_dir)
        else:
            db = tune_tir(mod, target, work_dir, todo,
                          num_trials_per_iter=args.trials_per_iter,
                          cost_model=args.cost_model, seed=args.seed, builder=builder,
                          runner=runner)
    except KeyboardInterrupt:
        print(f"tir-tune: interrupted; the database in {work_dir} keeps what was "
              "measured, and tuning again resumes from it", file=sys.stderr)
        return 130
    except (ValueError, TypeError, NotImplementedError, RuntimeError) as error:
        print(f"tir-tune: {error}", file=sys.stderr)
        return 1
    best_dir = os.path.join(work_dir, "best")
    written = db.export_transform_scripts(best_dir)

    # The summary and the curves, from the files as committed: workload n
    # is line n of database_workload.json (its module as MLIR text).
    # Each task's module is its function alone, named main.
    by_text = {IRModule({"main": mod[name]}).mlir(): name for name in names}
    names, flops = {}, {}
    with open(os.path.join(work_dir, "database_workload.json")) as f:
        for index, line in enumerate(l for l in f if l.strip()):
            workload = IRModule.from_mlir(json.loads(line)[1])
            names[index] = by_text.get(workload.mlir(), "?")
            flops[index] = ext.estimate_flops(workload._native)
    curves, best, trials = {}, {}, {}
    for index, secs in _records(work_dir):
        trials[index] = trials.get(index, 0) + 1
        if secs is not None and flops.get(index):
            best[index] = max(best.get(index, 0.0), flops[index] / secs / 1e9)
        curves.setdefault(index, []).append(best.get(index, 0.0))
    print(f"{'#':>3} {'function':<24} {'trials':>6} {'best GFLOP/s':>13} {'latency (us)':>13}")
    for index, name in names.items():
        gflops = best.get(index)
        latency = flops[index] / gflops / 1e3 if gflops else None
        print(f"{index:>3} {name:<24} {trials.get(index, 0):>6} "
              f"{gflops if gflops else float('nan'):>13.2f} "
              f"{latency if latency else float('nan'):>13.1f}")
    print(f"tir-tune: best schedules: {', '.join(written) if written else 'none'}")
    if args.plot:
        plot_curves(args.plot, {i: c for i, c in curves.items()})
        print(f"tir-tune: tuning curve: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
