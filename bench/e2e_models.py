"""Whole models imported from PyTorch (torch.export), compiled and run on
the CPU: torchvision's ResNet-18 and a transformer encoder layer at batch 1
(random weights: nothing is downloaded), in one run, beside their peers:

- PyTorch 2.x eager and torch.compile (the build venv's torch);
- tir untuned (`relax.get_pipeline("zero")`: fused operators, each given the
  default CPU schedule, parallel and vectorized) and tuned
  (`relax.get_pipeline("static_shape_tuning")`, MetaSchedule, at most
  --trials trials per task);
- TVM 0.27 (the apache-tvm wheel, bench/peers_venv.py) with the same
  pipelines, target and trials.

Each engine runs in a process of its own, at each thread count
(OMP_NUM_THREADS / TVM_NUM_THREADS, `-num-cores`, torch.set_num_threads).
Reported: milliseconds per inference (the median of --repeat timings of
--number calls), tuning wall time, and the ratios tir tuned / peer (below
1.0: tir is faster). Every output is checked against PyTorch eager's
(rtol 1e-4); a mismatch is printed and its time left out.

    build/venv/bin/python bench/e2e_models.py [--models resnet18,encoder]
        [--threads 1,2] [--engines torch,tir,tvm] [--trials 64] [--no-tune]
        [--keep DIR [--reuse]]

With --keep, each engine's results, databases and tuned executables stay in
DIR: engines can run apart (TVM's tuning takes hours at 64 trials) and
--reuse times the kept tuned executables again on a quiet machine; the
table then shows every engine's latest results there.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The models, seeded: every process builds the same weights and input.
MODELS = r'''
import torch


def resnet18():
    import torchvision
    torch.manual_seed(0)
    model = torchvision.models.resnet18(weights=None).eval()
    return model, (torch.randn(1, 3, 224, 224),)


def encoder():
    torch.manual_seed(0)
    layer = torch.nn.TransformerEncoderLayer(d_model=256, nhead=4, dim_feedforward=1024,
                                             dropout=0.0, batch_first=True).eval()
    return layer, (torch.randn(1, 128, 256),)


def exported(name):
    model, args = globals()[name]()
    with torch.no_grad():
        return torch.export.export(model, args), model, args
'''

TIMER = r'''
import statistics
import time


def timed(call, repeat, number):
    call()
    runs = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            call()
        runs.append((time.perf_counter() - start) / number * 1e3)
    return statistics.median(runs)
'''

# PyTorch: eager and torch.compile, and the reference output.
TORCH = r'''
torch.set_num_threads(THREADS)
out = {}
for name in NAMES:
    _, model, args = exported(name)
    with torch.no_grad():
        want = model(*args)
        numpy.save(os.path.join(WORK, name + ".npy"), want.numpy())
        out[name] = {"eager": timed(lambda: model(*args), REPEAT, NUMBER)}
        try:
            compiled = torch.compile(model)
            compiled(*args)
            out[name]["compile"] = timed(lambda: compiled(*args), REPEAT, NUMBER)
        except Exception as e:  # noqa: BLE001 - reported, not fatal
            out[name]["compile_error"] = str(e).splitlines()[0][:200]
print("RESULT " + json.dumps(out))
'''

# tir or TVM (the same API; PKG names the package: tensorir or tvm).
COMPILER = r'''
import importlib
tvm = importlib.import_module(PKG)
relax = tvm.relax
from_exported_program = importlib.import_module(
    PKG + ".relax.frontend.torch").from_exported_program
target = tvm.target.Target({"kind": "llvm", "num-cores": THREADS})
out = {}
for name in NAMES:
    program, _, args = exported(name)
    want = numpy.load(os.path.join(WORK, name + ".npy"))
    mod = from_exported_program(program)
    inputs = [tvm.runtime.tensor(a.numpy()) for a in args]
    result = out[name] = {}

    def run(built, key):
        vm = relax.VirtualMachine(built, tvm.cpu())
        f = vm["main"]
        got = f(*inputs)
        got = got[0] if not hasattr(got, "numpy") else got
        error = float(numpy.max(numpy.abs(got.numpy() - want)) / max(numpy.max(numpy.abs(want)),
                                                                     1e-30))
        result[key + "_error"] = error
        if not numpy.allclose(got.numpy(), want, rtol=1e-4, atol=1e-4 * numpy.abs(want).max()):
            result[key + "_mismatch"] = True
            return
        result[key] = timed(lambda: f(*inputs), REPEAT, NUMBER)

    with target:
        run(tvm.compile(relax.get_pipeline("zero")(mod), target), "untuned")
    if TUNE:
        # The tuned executable and its tuning time are kept beside the
        # database: with REUSE, a kept one is loaded and timed again.
        work = os.path.join(WORK, ENGINE + "-" + name + "-%dT" % THREADS)
        library = os.path.join(work, "tuned.so")
        record = os.path.join(work, "tuning.json")
        if not (REUSE and os.path.exists(library) and os.path.exists(record)):
            start = time.perf_counter()
            with target:
                tuned = relax.get_pipeline("static_shape_tuning", target=target,
                                           work_dir=work, total_trials=TRIALS * 64,
                                           max_trials_per_task=TRIALS)(mod)
            seconds = time.perf_counter() - start
            tvm.compile(tuned, target).export_library(library)
            with open(record, "w") as f:
                json.dump({"tuning_s": seconds, "trials": TRIALS}, f)
        with open(record) as f:
            kept = json.load(f)
        result["tuning_s"] = kept["tuning_s"]
        result["trials"] = kept["trials"]
        run(tvm.runtime.load_module(library), "tuned")
print("RESULT " + json.dumps(out))
'''


def run_engine(python, body, settings, env_extra, label, prelude=""):
    code = (prelude + "import json, os, time, numpy\n"
            + "".join(f"{k} = {v!r}\n" for k, v in settings.items()) + MODELS + TIMER + body)
    threads = str(settings["THREADS"])
    env = dict(os.environ, OMP_NUM_THREADS=threads, TVM_NUM_THREADS=threads, **env_extra)
    proc = subprocess.run([python, "-c", code], capture_output=True, text=True, env=env)
    for line in proc.stdout.splitlines():
        if line.startswith("RESULT "):
            return json.loads(line[len("RESULT "):])
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-5:]
    print(f"{label} ({threads} thread(s)) failed:\n  " + "\n  ".join(tail))
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--models", default="resnet18,encoder")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--engines", default="torch,tir,tvm",
                        help="the engines run now (torch,tir,tvm); with --keep, the "
                        "table shows the results the others left there too")
    parser.add_argument("--trials", type=int, default=64,
                        help="MetaSchedule trials per task (tir and TVM alike)")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--number", type=int, default=10)
    parser.add_argument("--no-tvm", action="store_true", help="the same as leaving tvm "
                        "out of --engines")
    parser.add_argument("--no-tune", action="store_true")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build"))
    parser.add_argument("--keep", help="keep the tuning databases, tuned executables and "
                        "results under this folder")
    parser.add_argument("--reuse", action="store_true",
                        help="with --keep: time the tuned executables kept there instead "
                        "of tuning again (their recorded tuning time is reported)")
    args = parser.parse_args()
    names = args.models.split(",")
    engines = [e for e in args.engines.split(",") if not (args.no_tvm and e == "tvm")]
    if args.reuse and not args.keep:
        sys.exit("bench/e2e_models.py: --reuse needs --keep")
    python = os.path.join(args.build_dir, "venv", "bin", "python")
    if not os.path.exists(python):
        sys.exit("bench/e2e_models.py needs the build venv (scripts/python-venv.sh): "
                 "torch >= 2 for torch.export")
    sys.path.insert(0, os.path.join(ROOT, "bench"))
    from peers_venv import engine_settings
    tir_env, tvm_python = engine_settings(ROOT, args.build_dir, "tvm" not in engines)
    tvm_env = {}
    if tvm_python:
        # TVM's importer needs torch: the build venv's, after TVM's own
        # packages.
        site = subprocess.run([python, "-c", "import torch, os; print(os.path.dirname("
                               "os.path.dirname(torch.__file__)))"], capture_output=True,
                              text=True).stdout.strip()
        tvm_env = {"PYTHONPATH": "", "TVM_PEER_SITE": site}
    work = args.keep or tempfile.mkdtemp(prefix="e2e-models-")
    os.makedirs(work, exist_ok=True)
    cpu = subprocess.run(["/usr/lib/llvm-22/bin/llc", "--version"], capture_output=True,
                         text=True).stdout.split("Host CPU:")[-1].split()[0]
    print(f"host CPU: {cpu}; trials per task: {args.trials}; batch 1; "
          f"median of {args.repeat} x {args.number} calls")
    runs = {"torch": (python, TORCH, {}, {}, "PyTorch", ""),
            "tir": (python, COMPILER, dict(ENGINE="tir", PKG="tensorir"), tir_env, "tir", ""),
            "tvm": (tvm_python, COMPILER, dict(ENGINE="tvm", PKG="tvm"), tvm_env, "TVM",
                    "import os, sys\nsys.path.append(os.environ['TVM_PEER_SITE'])\n")}
    rows = []
    for threads in [int(t) for t in args.threads.split(",")]:
        settings = dict(NAMES=names, THREADS=threads, REPEAT=args.repeat, NUMBER=args.number,
                        WORK=work, TRIALS=args.trials, TUNE=not args.no_tune,
                        REUSE=args.reuse)
        results = {}
        for engine in ("torch", "tir", "tvm"):
            # An engine's results are kept per thread count; one not run now
            # shows what an earlier run left (with --keep).
            saved = os.path.join(work, f"results-{engine}-{threads}T.json")
            kept = {}
            if os.path.exists(saved):
                with open(saved) as f:
                    kept = json.load(f)
            if engine in engines:
                py, body, extra, env, label, prelude = runs[engine]
                if engine != "torch" and not all(
                        os.path.exists(os.path.join(work, n + ".npy")) for n in names):
                    sys.exit("bench/e2e_models.py: PyTorch's outputs are missing: run "
                             "the torch engine first (or in the same run)")
                kept.update(run_engine(py, body, dict(settings, **extra), env, label,
                                       prelude=prelude) or {})
                with open(saved, "w") as f:
                    json.dump(kept, f)
            results[engine] = kept
        for name in names:
            rows.append((name, threads, results["torch"].get(name, {}),
                         results["tir"].get(name, {}), results["tvm"].get(name, {})))
    print()
    print("| model | threads | PyTorch eager ms | torch.compile ms | tir untuned ms | "
          "tir tuned ms | tir tuning s | TVM untuned ms | TVM tuned ms | TVM tuning s | "
          "eager / tir tuned | compile / tir tuned | TVM tuned / tir tuned |")
    print("|---" * 13 + "|")

    def ms(d, key):
        if d.get(key + "_mismatch"):
            return "wrong"
        return f"{d[key]:.2f}" if key in d else "-"

    def ratio(a, b):
        return f"{a / b:.2f}" if a and b else "-"

    for name, threads, t, r, v in rows:
        tir_best = r.get("tuned") or r.get("untuned")
        print(f"| {name} | {threads} | {ms(t, 'eager')} | {ms(t, 'compile')} | "
              f"{ms(r, 'untuned')} | {ms(r, 'tuned')} | "
              f"{r.get('tuning_s', 0):.0f} | {ms(v, 'untuned')} | {ms(v, 'tuned')} | "
              f"{v.get('tuning_s', 0):.0f} | {ratio(t.get('eager'), tir_best)} | "
              f"{ratio(t.get('compile'), tir_best)} | {ratio(v.get('tuned'), tir_best)} |")
    for name, threads, t, r, v in rows:
        for engine, d in (("tir", r), ("TVM", v)):
            if d.get("trials", args.trials) != args.trials:
                print(f"{name} {threads}T: {engine} was tuned at {d['trials']} trials per task")
            for key in ("untuned", "tuned"):
                if d.get(key + "_mismatch"):
                    print(f"{name} {threads}T: {engine} {key} differs from PyTorch "
                          f"(max relative error {d[key + '_error']:.2e})")
        if "compile_error" in t:
            print(f"{name} {threads}T: torch.compile failed: {t['compile_error']}")
    print("(ratios above 1.0: tir tuned is faster; tir tuned falls back to untuned "
          "with --no-tune)")


if __name__ == "__main__":
    main()
