"""Tuning on a Ray cluster (a local one, on loopback, started afresh for
each test): RayBuilder builds candidates as Ray tasks, RayRunner measures
them on actors. The records match a local tuning's; a build worker or a
measuring actor killed during tuning loses no record; a candidate computing
wrong numbers never enters the database as measured; tir-tune --ray,
interrupted, resumes from the database; candidates run on the threads
asked for; a cluster that cannot place the actors or has no CPU left for
builds, and functions that cannot reach the workers, are said so. Needs the
ray package (the project's virtual environment has it)."""
import json
import os
import signal
import subprocess
import sys
import time

import pytest

ray = pytest.importorskip("ray")

import tensorir as tvm  # noqa: E402
from tensorir import meta_schedule as ms  # noqa: E402
from tensorir import te  # noqa: E402
from tensorir.meta_schedule import _ray  # noqa: E402
from tensorir.meta_schedule.testing import te_workload  # noqa: E402
from tuning_helpers import KERNELS, matmul_space  # noqa: E402

MOD = tvm.IRModule({"main": te.create_prim_func(te_workload.matmul(64, 64, 64))})
TARGET = "llvm -num-cores 1"


@pytest.fixture(autouse=True)
def cluster():
    _ray.connect(num_cpus=2)
    yield
    ray.shutdown()


def _tune(work_dir, trials, builder, runner, **kwargs):
    return ms.tune_tir(MOD, TARGET, str(work_dir), trials, num_trials_per_iter=trials,
                       space=matmul_space(), strategy="replay-trace", cost_model="random", seed=7,
                       builder=builder, runner=runner, **kwargs)


def _measured(db):
    """Each record's trace (as text) and mean run time; None for a failed
    one."""
    out = {}
    for record in db.get_all_tuning_records():
        secs = [float(t.value) for t in record.run_secs or []]
        ok = secs and max(secs) < 1e9
        out[str(record.trace.simplified(True))] = sum(secs) / len(secs) if ok else None
    return out


def test_ray_tuning_measures_what_local_tuning_measures(tmp_path):
    local = _measured(_tune(tmp_path / "local", 6, "local", "local"))
    remote = _measured(_tune(tmp_path / "ray", 6, "ray", "ray"))
    # The same seed: the same candidates, all built and measured.
    assert set(local) == set(remote) and len(local) >= 4
    assert all(v is not None for v in local.values())
    assert all(v is not None for v in remote.values())
    # The same timings, within what two runs on a busy machine differ by.
    ratios = sorted(remote[t] / local[t] for t in local)
    assert 1 / 3 < ratios[len(ratios) // 2] < 3, ratios


def test_a_build_worker_killed_mid_build_loses_no_record(tmp_path):
    marker = str(tmp_path / "killed")

    def build_or_die(mod, target, params):
        from tensorir import runtime
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return runtime.compile(mod, target)
        # The first build anywhere kills the Ray worker running it (this
        # is the worker's child process): Ray runs the task again.
        os.kill(os.getppid(), signal.SIGKILL)
        os._exit(1)

    db = _tune(tmp_path / "db", 4, ms.builder.RayBuilder(f_build=build_or_die), "local")
    assert os.path.exists(marker)
    measured = _measured(db)
    assert len(measured) == 4 and all(v is not None for v in measured.values())


def test_a_measuring_actor_killed_mid_measurement_loses_no_record(tmp_path):
    marker = str(tmp_path / "killed")

    def run_or_die(rt_mod, device, config, repeated_args):
        from tensorir.meta_schedule.runner.local_runner import default_run_evaluator
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return default_run_evaluator(rt_mod, device, config, repeated_args)
        os.kill(os.getppid(), signal.SIGKILL)  # the actor (this is its child)
        os._exit(1)

    db = _tune(tmp_path / "db", 4, "ray", ms.runner.RayRunner(f_run_evaluator=run_or_die))
    assert os.path.exists(marker)
    measured = _measured(db)
    assert len(measured) == 4 and all(v is not None for v in measured.values())


def test_wrong_results_from_a_worker_never_count(tmp_path):
    # Functions go to the workers pickled: they take text, not modules.
    unscheduled = MOD.mlir()

    def miscompile(mod, target, params):
        # The unscheduled reference builds right; the candidates (tiled)
        # are built as matmul + relu.
        from tensorir import runtime
        if mod.mlir() != unscheduled:
            mod = tvm.IRModule({"main": te.create_prim_func(te_workload.matmul_relu(64, 64, 64))})
        return runtime.compile(mod, target)

    messages = []

    @ms.derived_object
    class Collect(ms.measure_callback.PyMeasureCallback):
        def apply(self, scheduler, task_id, candidates, built, ran):
            messages.extend(r.error_msg for r in ran)

    db = _tune(tmp_path / "db", 2, ms.builder.RayBuilder(f_build=miscompile), "ray",
               measure_callbacks=[ms.measure_callback.AddToDatabase(), Collect()])
    assert len(messages) == 2
    assert all(m and m.startswith("RayRunner: wrong results: argument 2 differs")
               for m in messages), messages
    assert db.query_schedule(MOD, TARGET) is None


def _built_tiny():
    tiny = tvm.IRModule({"main": te.create_prim_func(te_workload.matmul(8, 8, 8))})
    (built,) = ms.builder.LocalBuilder(max_workers=1).build(
        [ms.builder.BuilderInput(tiny, TARGET)])
    args = ms.arg_info.ArgInfo.from_prim_func(tiny["main"])
    return ms.runner.RunnerInput(built.artifact_path, "llvm", args)


def test_candidates_run_on_the_threads_asked_for():
    def threads(rt_mod, device, config, repeated_args):
        return [float(os.environ["OMP_NUM_THREADS"])]  # "seconds": the threads

    for asked, want in ((None, 1.0), (2, 2.0)):
        runner = ms.runner.RayRunner(num_threads=asked, f_run_evaluator=threads)
        (future,) = runner.run([_built_tiny()])
        result = future.result()
        assert result.error_msg is None and [t.value for t in result.run_secs] == [want]


def test_what_the_cluster_cannot_do_is_said(monkeypatch):
    from tensorir.meta_schedule.runner import ray_runner
    monkeypatch.setattr(ray_runner, "_ACTOR_START_SEC", 3.0)
    runner = ms.runner.RayRunner(resources={"no_such_resource": 1})
    with pytest.raises(RuntimeError, match="placed 0 of 1 measuring actor"):
        runner.run([_built_tiny()])
    # Two actors hold the cluster's two CPUs: no build can run.
    holders = ms.runner.RayRunner(num_actors=2)
    holders.run([_built_tiny()])[0].result()
    with pytest.raises(RuntimeError, match="has 2 CPU.*2 held by measuring actors"):
        ms.builder.RayBuilder().build([ms.builder.BuilderInput(MOD, TARGET)])
    with pytest.raises(RuntimeError, match="has 2 CPU.*asks for 4"):
        ms.builder.RayBuilder(num_cpus_per_build=4).build(
            [ms.builder.BuilderInput(MOD, TARGET)])


def test_functions_that_cannot_reach_the_workers_are_refused():
    def closes_over_a_module(mod, target, params):
        return MOD

    with pytest.raises(TypeError, match="RayBuilder: f_build is sent to Ray's workers"):
        ms.builder.RayBuilder(f_build=closes_over_a_module)
    with pytest.raises(TypeError, match="RayRunner: f_run_evaluator is sent"):
        ms.runner.RayRunner(f_run_evaluator=lambda *args: MOD)


def test_tir_tune_on_ray_resumes_after_an_interrupt(tmp_path):
    source = tmp_path / "kernels.mlir"
    source.write_text(KERNELS)
    records = tmp_path / "kernels.tune" / "database_tuning_record.json"
    command = [sys.executable, "-m", "tensorir.meta_schedule.tune_cli", str(source),
               "--trials", "12", "--trials-per-iter", "4", "--cost-model", "random",
               "--target", TARGET, "--ray"]

    def lines():
        return records.read_text().splitlines() if records.exists() else []

    driver = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              text=True)
    deadline = time.monotonic() + 240
    while len(lines()) < 4 and driver.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    if len(lines()) < 4:
        driver.kill()
        pytest.fail("the first tir-tune recorded no batch in 240 s: "
                    + driver.communicate()[0])
    driver.send_signal(signal.SIGINT)  # Ctrl-C, after the first batch was recorded
    out, _ = driver.communicate(timeout=120)
    assert "Ray cluster 'local'" in out, out
    first = lines()
    assert driver.returncode == 130 and "tuning again resumes from it" in out, out
    assert 4 <= len(first) < 12
    done = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"holds {len(first)} trial(s)" in done.stdout
    final = lines()
    # What the first driver recorded is kept, and the rest was run.
    assert final[:len(first)] == first and len(final) >= 12
    assert all(json.loads(line)[1][1] for line in final)
