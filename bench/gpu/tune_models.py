"""MetaSchedule for the GPU when the GPU is on another machine (one with
the NVIDIA driver, Python, numpy and PyTorch, but no compiler): candidates
are built here, measured there, and the measurements come back into a
MetaSchedule database here, which the tuned model is built from.

    # here: sample and build each task's candidates
    build/venv/bin/python bench/gpu/tune_models.py prepare build/gpu-tune [--trials 32]
    # there: time every candidate (bench/gpu/measure_candidates.py)
    python3 bench/gpu/measure_candidates.py build/gpu-tune
    # here: record the times (work_dir's JSON database) and build the tuned
    # models into build/gpu-tune/models, which run.py runs there
    build/venv/bin/python bench/gpu/tune_models.py commit build/gpu-tune
    python3 bench/gpu/run.py build/gpu-tune/models

`prepare` imports each model (build_models.MODELS), runs relax's "zero"
pipeline (legalized and fused, no schedule), makes each prim_func the
graph functions call a MetaSchedule task (TVM's CUDA design space for the
target: its rules, postprocessors and VerifyGPUCode), samples `--trials`
schedules of each (ReplayTrace: one round, as the measurements come back
only once) and builds each with MetaSchedule's LocalBuilder into
candidates/<task>_<i>.so; dlight's default schedule of each task is one
more candidate, so a tuned kernel is never slower than the untuned one.
tasks.json lists them with their arguments (for the measurement), and
each candidate's tuning record without a time. `commit` reads
measured.json, commits a record per measured candidate to
`<DIR>/database` (MetaSchedule's JSONDatabase), applies it to the models
(MetaScheduleApplyDatabase: each task's fastest) and builds them as
build_models.py does (the kernels left untuned get dlight's schedules).
"""
import argparse
import json
import os
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from build_models import MODELS, loaded_runtime  # noqa: E402


def imported(name):
    """Model `name` as relax's "zero" pipeline leaves it (fused, no
    schedule), its input, and PyTorch's output in float64."""
    import torch
    from tensorir import relax
    from tensorir.relax.frontend.torch import from_exported_program
    model, x = MODELS[name]()
    with torch.no_grad():
        mod = from_exported_program(torch.export.export(model, (x,)))
        expected = model.double()(x.double())
    return relax.get_pipeline("zero")(mod), x.numpy(), expected.numpy()


def prepare(args):
    import tensorir as tvm
    from tensorir import dlight as dl
    from tensorir import meta_schedule as ms
    from tensorir import relax
    from tensorir.relax.transform import _called_prim_funcs, _task_module
    # The limits MetaSchedule's rules and VerifyGPUCode need (an H100's,
    # as TVM's CUDA target gives them for sm_90).
    target = tvm.target.Target({"kind": "cuda", "arch": args.arch,
                                "max_threads_per_block": 1024,
                                "max_shared_memory_per_block": 49152,
                                "thread_warp_size": 32, "registers_per_block": 65536})
    if os.path.exists(args.dir):
        if not os.path.exists(os.path.join(args.dir, "tasks.json")):
            sys.exit(f"tune_models.py prepare: {args.dir} exists and is no folder prepare "
                     "made (no tasks.json); give a new folder")
        shutil.rmtree(args.dir)
    os.makedirs(os.path.join(args.dir, "candidates"))
    builder = ms.builder.LocalBuilder()
    rules = relax.pipeline.default_gpu_rules(dl)

    def dlight(task_mod):
        """dlight's schedule of the task (relax's default for the GPU), its
        trace over the task's function, as a record's must be."""
        with target:
            for rule in rules:
                sch = rule.apply(task_mod["main"], target, False)
                if sch is not None:
                    return sch
        return None
    tasks, seen = {}, {}
    for model in args.models:
        mod, _, _ = imported(model)
        for name, calls in _called_prim_funcs(mod).items():
            task_mod = _task_module(mod, name)
            workload = ms.database.Workload(task_mod)
            # A kernel two models (or two names) share is one task.
            key = workload.shash
            if key in seen:
                tasks[seen[key]]["weight"] += calls
                continue
            task = seen[key] = f"{model}_{name}"
            context = ms.TuneContext(task_mod, target=target,
                                     space_generator="post-order-apply",
                                     search_strategy="replay-trace", rand_state=args.seed,
                                     task_name=task)
            context.pre_tuning(args.trials, args.trials)
            schedules = [c.sch for c in context.generate_measure_candidates() or []]
            context.post_tuning()
            default = dlight(task_mod)
            if default is not None:
                schedules.append(default)
            args_info = ms.arg_info.ArgInfo.from_entry_func(task_mod)
            built = builder.build([ms.builder.BuilderInput(s.mod, target) for s in schedules])
            candidates = []
            for i, (sch, result) in enumerate(zip(schedules, built)):
                if result.error_msg:
                    continue
                record = ms.database.TuningRecord(sch.trace, workload, None, target, args_info)
                # What commit applies is the trace replayed on the task:
                # it must be the schedule built and measured.
                if not tvm.ir.structural_equal(record.as_measure_candidate().sch.mod, sch.mod):
                    print(f"{task}: candidate {i} does not replay from its trace; dropped")
                    continue
                path = os.path.join("candidates", f"{task}_{i}.so")
                shutil.copy(result.artifact_path, os.path.join(args.dir, path))
                candidates.append({"library": path, "record": record.as_json(),
                                   "default": sch is default})
            tasks[task] = {"weight": calls, "workload": workload.as_json(),
                           "args": [[a.dtype, list(a.shape)] for a in args_info],
                           "candidates": candidates}
            print(f"{task}: {len(candidates)} of {len(schedules)} candidates built",
                  flush=True)
    with open(os.path.join(args.dir, "tasks.json"), "w") as f:
        json.dump({"target": target.export(), "models": args.models, "tasks": tasks}, f)
    shutil.copy(loaded_runtime(), os.path.join(args.dir, "libTIRRuntime.so"))


def commit(args):
    import numpy as np
    import tensorir as tvm
    from tensorir import dlight as dl
    from tensorir import meta_schedule as ms
    from tensorir import relax
    with open(os.path.join(args.dir, "tasks.json")) as f:
        plan = json.load(f)
    with open(os.path.join(args.dir, "measured.json")) as f:
        measured = json.load(f)
    target = tvm.target.Target(plan["target"])
    # The records of this measurement only.
    shutil.rmtree(os.path.join(args.dir, "database"), ignore_errors=True)
    database = ms.database.JSONDatabase(work_dir=os.path.join(args.dir, "database"))
    for task, entry in plan["tasks"].items():
        workload = database.commit_workload(
            ms.database.Workload.from_json(entry["workload"]).mod)
        times = []
        for candidate in entry["candidates"]:
            seconds = measured.get(candidate["library"])
            if not isinstance(seconds, float):
                continue  # failed there (its error is in measured.json)
            record = ms.database.TuningRecord.from_json(candidate["record"], workload)
            database.commit_tuning_record(ms.database.TuningRecord(
                record.trace, workload, [seconds], target, record.args_info))
            times.append((seconds, candidate["default"]))
        if times:
            best = min(times)[0]
            default = [s for s, d in times if d]
            print(f"{task}: best {best * 1e6:.1f} us of {len(times)} measured"
                  + (f", dlight's {default[0] * 1e6:.1f} us" if default else ""))
        else:
            print(f"{task}: nothing measured")
    out = os.path.join(args.dir, "models")
    os.makedirs(out, exist_ok=True)
    for model in plan["models"]:
        mod, x, expected = imported(model)
        with target:
            tuned = relax.transform.MetaScheduleApplyDatabase(database=database)(mod)
            kernels = [n for n in mod.function_names() if not mod._native.is_graph_function(n)]
            applied = sum(tuned[n].script() != mod[n].script() for n in kernels)
            # The kernels no record covers: dlight's schedules (the module
            # is fused already; fusing again could merge a tuned kernel).
            tuned = relax.pipeline._default_gpu_schedule(target, dl)(tuned)
        lib = tvm.compile(tuned, target=target)
        lib.export_library(os.path.join(out, f"model_{model}_tuned.so"))
        np.savez(os.path.join(out, f"model_{model}_tuned.npz"), input=x, expected=expected)
        print(f"built {model}: {applied} of {len(kernels)} kernels from the database")
    shutil.copy(loaded_runtime(), out)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="step", required=True)
    p = sub.add_parser("prepare")
    p.add_argument("dir")
    p.add_argument("--models", default="resnet18",
                   type=lambda s: [m for m in s.split(",") if m])
    p.add_argument("--trials", type=int, default=32, help="schedules sampled per task")
    p.add_argument("--arch", default="sm_90")
    p.add_argument("--seed", type=int, default=7)
    c = sub.add_parser("commit")
    c.add_argument("dir")
    args = parser.parse_args()
    if args.step == "prepare":
        unknown = [m for m in args.models if m not in MODELS]
        if unknown:
            parser.error(f"unknown models {unknown} (there are {sorted(MODELS)})")
        return prepare(args)
    return commit(args)


if __name__ == "__main__":
    sys.exit(main())
