"""Tuning end to end on this machine: the local builder and runner (each
candidate in a child process; errors, crashes and hangs are results, not
failures of the tuning), task schedulers over several tasks with the
measure callbacks, and tune_tir / compile_tir with a schedule function as
the design space, whose best schedule computes what the program does."""
import os
import time

import numpy as np
import pytest

import tensorir as tvm
from tensorir import meta_schedule as ms
from tensorir import te
from tensorir.meta_schedule.testing import te_workload
from tensorir.meta_schedule.testing.dummy_object import DummyBuilder, DummyRunner
from tensorir.registry import register_global_func
from tuning_helpers import matmul_space

MOD = tvm.IRModule({"main": te.create_prim_func(te_workload.matmul(64, 64, 64))})
LLVM = tvm.target.Target("llvm")


def test_local_builder_and_runner():
    builder = ms.builder.LocalBuilder(max_workers=2)
    (built,) = builder.build([ms.builder.BuilderInput(MOD, LLVM)])
    assert built.error_msg is None and os.path.exists(built.artifact_path)
    runner = ms.runner.LocalRunner(
        evaluator_config=ms.runner.EvaluatorConfig(number=2, repeat=3, min_repeat_ms=1))
    args = ms.arg_info.ArgInfo.from_prim_func(MOD["main"])
    (future,) = runner.run([ms.runner.RunnerInput(built.artifact_path, "llvm", args)])
    assert future.done()
    result = future.result()
    assert result.error_msg is None and len(result.run_secs) == 3
    assert all(0 < t.value < 1 for t in result.run_secs)
    # A missing artifact is an error result of that candidate only.
    (missing,) = runner.run([ms.runner.RunnerInput("/nonexistent/x.so", "llvm", args)])
    assert missing.result().error_msg.startswith("LocalRunner: An exception occurred")
    os.remove(built.artifact_path)
    os.rmdir(os.path.dirname(built.artifact_path))


def test_runner_times_once_a_candidate_far_slower_than_the_best():
    # With the unscheduled program as reference, each candidate's checking
    # run is timed; one slower than reject_slower_than times the best mean
    # so far (and over a millisecond: a naive 256^3 matmul is) keeps that
    # one run as its measurement.
    program = tvm.IRModule({"main": te.create_prim_func(te_workload.matmul(256, 256, 256))})
    builder = ms.builder.LocalBuilder(max_workers=1)
    built = builder.build([ms.builder.BuilderInput(program, LLVM),
                           ms.builder.BuilderInput(program, LLVM)])
    reference, candidate = (b.artifact_path for b in built)
    args = ms.arg_info.ArgInfo.from_prim_func(program["main"])
    config = ms.runner.EvaluatorConfig(number=1, repeat=3, min_repeat_ms=0)
    inputs = [ms.runner.RunnerInput(candidate, "llvm", args, reference_path=reference)]
    runner = ms.runner.LocalRunner(evaluator_config=config)
    (first,) = runner.run(inputs)
    assert len(first.result().run_secs) == 3  # nothing to compare with yet
    best = runner._best_seconds[reference]
    assert best == pytest.approx(np.mean([t.value for t in first.result().run_secs]))
    runner._best_seconds[reference] = 1e-12  # as if a far faster one was seen
    (second,) = runner.run(inputs)
    assert len(second.result().run_secs) == 1 and second.result().error_msg is None
    # None times every candidate, as TVM's runner does.
    untimed = ms.runner.LocalRunner(evaluator_config=config, reject_slower_than=None)
    untimed.run(inputs)
    untimed._best_seconds[reference] = 1e-12
    (third,) = untimed.run(inputs)
    assert len(third.result().run_secs) == 3
    with pytest.raises(ValueError, match="reject_slower_than"):
        ms.runner.LocalRunner(reject_slower_than=0.5)


def test_runner_does_not_reject_a_fast_parallel_candidate_for_its_first_call():
    # A parallel 64^3 matmul of some microseconds: its checking run is the
    # library's first call in a fresh process, where the OpenMP runtime
    # starts (about a millisecond) and caches are cold. With the best mean
    # so far set to its own warm time, it is no slower than the best and is
    # timed by the evaluator, not rejected on that first call.
    sch = tvm.tir.Schedule(MOD)
    i, _, _ = sch.get_loops(sch.get_block("C"))
    sch.parallel(i)
    builder = ms.builder.LocalBuilder(max_workers=1)
    built = builder.build([ms.builder.BuilderInput(MOD, LLVM),
                           ms.builder.BuilderInput(sch.mod, LLVM)])
    reference, candidate = (b.artifact_path for b in built)
    args = ms.arg_info.ArgInfo.from_prim_func(MOD["main"])
    inputs = [ms.runner.RunnerInput(candidate, "llvm", args, reference_path=reference)]
    config = ms.runner.EvaluatorConfig(number=20, repeat=3, min_repeat_ms=0)
    runner = ms.runner.LocalRunner(evaluator_config=config)
    for _ in range(3):
        (timed,) = runner.run(inputs)
        warm = timed.result().run_secs
        assert len(warm) == 3
        runner._best_seconds[reference] = min(t.value for t in warm)


def test_runner_stops_a_checking_run_past_the_rejection_point():
    # A naive 512^3 matmul checked against itself: once a far faster
    # candidate was seen, its checking run is stopped at twice the
    # rejection point (4x that best; 10 ms at least) and the seconds it ran
    # are its measurement.
    big = tvm.IRModule({"main": te.create_prim_func(te_workload.matmul(512, 512, 512))})
    builder = ms.builder.LocalBuilder(max_workers=1)
    built = builder.build([ms.builder.BuilderInput(big, LLVM)] * 2)
    reference, candidate = (b.artifact_path for b in built)
    args = ms.arg_info.ArgInfo.from_prim_func(big["main"])
    inputs = [ms.runner.RunnerInput(candidate, "llvm", args, reference_path=reference)]
    config = ms.runner.EvaluatorConfig(number=1, repeat=1, min_repeat_ms=0)
    runner = ms.runner.LocalRunner(evaluator_config=config)
    (full,) = runner.run(inputs)
    one_run = full.result().run_secs[0].value
    runner._best_seconds[reference] = one_run / 1000
    (stopped,) = runner.run(inputs)
    result = stopped.result()
    assert result.error_msg is None and len(result.run_secs) == 1
    assert result.run_secs[0].value < one_run / 4  # stopped well before the end


def _check_c(before, after):
    a, b, _ = before
    np.testing.assert_allclose(after[2], a @ b, rtol=1e-4, atol=1e-4)


def test_runner_functions_take_tvms_arguments():
    # f_alloc_argument(device, args_info JSON, alloc_repeat) and
    # f_run_evaluator(rt_mod, device, evaluator_config, repeated_args), as
    # TVM calls them; the default allocation gives tensors on the device,
    # and the module's time_evaluator takes TVM's keywords.
    builder = ms.builder.LocalBuilder(max_workers=1)
    (built,) = builder.build([ms.builder.BuilderInput(MOD, LLVM)])
    infos = ms.arg_info.ArgInfo.from_prim_func(MOD["main"])

    def alloc(device, args_info, alloc_repeat):
        assert args_info == [["TENSOR", "float32", [64, 64]]] * 3
        sets = ms.runner.local_runner.default_alloc_argument(device, args_info, alloc_repeat)
        np.save(os.path.join(os.path.dirname(built.artifact_path), "before.npy"),
                np.stack([arg.numpy() for arg in sets[0]]))
        return sets

    def run(rt_mod, device, config, repeated_args):
        evaluator = rt_mod.time_evaluator(func_name=rt_mod.entry_name, dev=device,
                                          number=config.number, repeat=config.repeat,
                                          min_repeat_ms=config.min_repeat_ms,
                                          f_preproc="cache_flush_cpu_non_first_arg")
        costs = [t for args in repeated_args for t in evaluator(*args).results]
        before = np.load(os.path.join(os.path.dirname(built.artifact_path), "before.npy"))
        _check_c(list(before), [arg.numpy() for arg in repeated_args[0]])
        return costs

    runner = ms.runner.LocalRunner(
        evaluator_config=ms.runner.EvaluatorConfig(number=1, repeat=2, min_repeat_ms=0),
        f_alloc_argument=alloc, f_run_evaluator=run)
    (future,) = runner.run([ms.runner.RunnerInput(built.artifact_path, "llvm", infos)])
    result = future.result()
    assert result.error_msg is None, result.error_msg
    assert len(result.run_secs) == 2
    with pytest.raises(ValueError, match="f_preproc"):
        tvm.compile(MOD).time_evaluator("main", f_preproc="flush_everything")
    # The folder LocalBuilder made goes with TVM's remove_build_dir.
    tvm.get_global_func("meta_schedule.remove_build_dir")(built.artifact_path)
    assert not os.path.exists(os.path.dirname(built.artifact_path))


def test_rpc_is_refused_clearly():
    # TVM's RPC names import; using them says what to use instead.
    config = ms.runner.RPCConfig(tracker_host="127.0.0.1", tracker_port=9190,
                                 tracker_key="key")
    assert config.session_priority == 1
    with pytest.raises(NotImplementedError, match="RPC tracker protocol is not supported"):
        ms.runner.RPCRunner(config)
    from tensorir import rpc
    with pytest.raises(NotImplementedError, match="LocalRunner"):
        rpc.connect("127.0.0.1", 9090)


def test_builder_survives_crashes_and_hangs():
    def initializer():
        @register_global_func("test_tuning.crash", override=True)
        def crash(mod, target, params):
            os._exit(9)  # as a segfault in the compiler would end it

        @register_global_func("test_tuning.hang", override=True)
        def hang(mod, target, params):
            time.sleep(60)

    crashing = ms.builder.LocalBuilder(f_build="test_tuning.crash", initializer=initializer)
    (result,) = crashing.build([ms.builder.BuilderInput(MOD, LLVM)])
    assert result.artifact_path is None and "died" in result.error_msg
    hanging = ms.builder.LocalBuilder(f_build="test_tuning.hang", initializer=initializer,
                                      timeout_sec=1)
    start = time.monotonic()
    results = hanging.build([ms.builder.BuilderInput(MOD, LLVM)] * 2)
    assert time.monotonic() - start < 20
    assert all(r.error_msg == "LocalBuilder: Timeout, killed after 1 seconds" for r in results)
    with pytest.raises(ValueError, match="do not resolve"):
        ms.builder.LocalBuilder(f_export="no.such.function")


def test_task_schedulers_share_trials():
    mods = [MOD, tvm.IRModule({"main": te.create_prim_func(
        te_workload.matmul_relu(64, 64, 64))})]
    for scheduler in (ms.task_scheduler.RoundRobin(), ms.task_scheduler.GradientBased(seed=1)):
        tasks = [ms.TuneContext(m, target="llvm", space_generator=matmul_space(),
                                search_strategy=ms.search_strategy.ReplayTrace(),
                                task_name=f"t{i}", rand_state=i + 1)
                 for i, m in enumerate(mods)]
        db = ms.database.MemoryDatabase()
        scheduler.tune(tasks, [1.0, 2.0], max_trials_global=12, max_trials_per_task=8,
                       num_trials_per_iter=2, builder=DummyBuilder(), runner=DummyRunner(),
                       measure_callbacks=[ms.measure_callback.AddToDatabase()], database=db,
                       cost_model=None)
        assert len(db) == 12
        records = scheduler.tasks_
        assert all(r.is_terminated for r in records)
        assert sum(len(r.latency_ms) for r in records) == 12
        assert all(len(r.latency_ms) <= 8 for r in records)
        table = scheduler.tuning_statistics()
        assert "Speed (GFLOPS)" in table and "t1" in table and "Total trials: 12" in table
        # 2 * 64^3 multiply-adds.
        assert records[0].flop == 2 * 64 ** 3
    with pytest.raises(tvm.TVMError, match="task_weights must have as many entries"):
        ms.task_scheduler.RoundRobin().tune(
            tasks, [1.0], 4, 4, 2, DummyBuilder(), DummyRunner(), [], None, None)


def test_tune_tir_and_compile_tir(tmp_path):
    db = ms.tune_tir(MOD, "llvm", str(tmp_path), 6, num_trials_per_iter=3, space=matmul_space(),
                     cost_model="random",
                     strategy=ms.search_strategy.EvolutionarySearch(population_size=6,
                                                                    init_min_unmeasured=3))
    assert len(db) == 6
    assert os.path.exists(tmp_path / "database_tuning_record.json")
    assert os.listdir(tmp_path / "logs")
    best = db.get_top_k(db.commit_workload(MOD), 1)[0]
    assert best.run_secs[0].value < 1e10
    sch = ms.tir_integration.compile_tir(db, MOD, "llvm")
    a = np.random.rand(64, 64).astype("float32")
    b = np.random.rand(64, 64).astype("float32")
    c = np.zeros((64, 64), "float32")
    tvm.build(sch.mod)["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-4)
    # The tuning resumes from the database and measures nothing twice.
    again = ms.tune_tir(MOD, "llvm", str(tmp_path), 4, num_trials_per_iter=2, space=matmul_space(),
                        cost_model="random",
                        strategy=ms.search_strategy.EvolutionarySearch(population_size=6,
                                                                       init_min_unmeasured=3))
    traces = [str(r.trace.simplified(True)) for r in again.get_all_tuning_records()]
    assert len(again) == 10 and len(set(traces)) == len(traces)
    with pytest.raises(ValueError, match="max_trials_global"):
        ms.tune_tir(MOD, "llvm", str(tmp_path), 0)
    # TVM's default cost model: XGBoost over the per-store features.
    assert len(ms.tune_tir(MOD, "llvm", str(tmp_path), 2, num_trials_per_iter=2,
                           space=matmul_space())) == 12


def test_wrong_results_are_caught(tmp_path):
    # A builder that miscompiles (it builds matmul + relu for matmul):
    # every candidate is recorded as failed with the reason, and none is
    # ever the best.
    relu = tvm.IRModule({"main": te.create_prim_func(te_workload.matmul_relu(64, 64, 64))})

    def miscompile(mod, target, params):
        from tensorir import runtime
        # The unscheduled reference builds right; the candidates (tiled)
        # are "miscompiled".
        return runtime.compile(mod if tvm.ir.structural_equal(mod, MOD) else relu, target)

    messages = []

    @ms.derived_object
    class Collect(ms.measure_callback.PyMeasureCallback):
        def apply(self, scheduler, task_id, candidates, built, ran):
            messages.extend(r.error_msg for r in ran)

    db = ms.tune_tir(MOD, "llvm", str(tmp_path), 2, num_trials_per_iter=2, space=matmul_space(),
                     cost_model="random", strategy="replay-trace",
                     builder=ms.builder.LocalBuilder(f_build=miscompile, max_workers=1),
                     measure_callbacks=[ms.measure_callback.AddToDatabase(), Collect()])
    assert len(db) == 2
    assert all(m and m.startswith("LocalRunner: wrong results: argument 2 differs")
               for m in messages)
    assert db.query_schedule(MOD, "llvm") is None  # failed records are never the best

    # With the check off, the same run records the wrong program's times.
    db = ms.tune_tir(MOD, "llvm", str(tmp_path / "unchecked"), 2, num_trials_per_iter=2,
                     space=matmul_space(), cost_model="random", strategy="replay-trace",
                     builder=ms.builder.LocalBuilder(f_build=miscompile, max_workers=1),
                     check_results=False)
    assert db.query_schedule(MOD, "llvm") is not None


def test_task_log_is_written_beside_the_users_handlers(tmp_path):
    # A handler someone else put on the task's logger (pytest's caplog, a
    # user's stream) does not stop the work_dir's log file.
    from tensorir.meta_schedule.tir_integration import _task_logger
    import logging
    name = "tvm.meta_schedule.task_7_foreign"
    foreign = logging.StreamHandler()
    logging.getLogger(name).addHandler(foreign)
    try:
        logger = _task_logger(str(tmp_path), 7, "foreign")
        logger.info("hello")
        assert foreign in logger.handlers
        log = tmp_path / "logs" / f"{name.replace('tvm.meta_schedule.', 'tvm.meta_schedule.logging.')}.log"
        assert "hello" in log.read_text()
    finally:
        for handler in list(logging.getLogger(name).handlers):
            logging.getLogger(name).removeHandler(handler)
            if handler is not foreign:
                handler.close()


def test_layout_free_weight_is_packed_in_the_tuned_order(tmp_path):
    # A dense layer's GEMM whose weight is layout-free: TVM's default CPU
    # space with RewriteLayout stores W in the order the tiled loops read
    # it, in a nest of its own (annotated as the layout-rewrite preprocess)
    # that the tuned function runs first; W is still passed as it is.
    a = te.placeholder((64, 64), name="A")
    w = te.placeholder((64, 64), name="W")
    k = te.reduce_axis((0, 64), name="k")
    c = te.compute((64, 64), lambda i, j: te.sum(a[i, k] * w[k, j], axis=k), name="C",
                   attrs={"layout_free_placeholders": [w]})
    mod = tvm.IRModule({"main": te.create_prim_func([a, w, c])})
    db = ms.tune_tir(mod, "llvm -num-cores 1", str(tmp_path), 4, num_trials_per_iter=4,
                     cost_model="random", seed=7,
                     strategy=ms.search_strategy.EvolutionarySearch(population_size=4,
                                                                    init_min_unmeasured=4))
    sch = ms.tir_integration.compile_tir(db, mod, "llvm -num-cores 1")
    assert "meta_schedule.layout_rewrite_preproc" in str(sch.trace)
    assert "transform_layout" in str(sch.trace)
    text = sch.mod["main"].text
    assert "meta_schedule.layout_rewrite_preproc" in text and "W_global" in text
    rng = np.random.default_rng(0)
    x, y = (rng.standard_normal((64, 64)).astype("float32") for _ in range(2))
    z = np.zeros((64, 64), "float32")
    tvm.build(sch.mod)["main"](x, y, z)
    np.testing.assert_allclose(z, x @ y, rtol=1e-4, atol=1e-4)
