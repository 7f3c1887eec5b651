"""tvm.meta_schedule's search strategies over the MetaSchedule library:
ReplayTrace and ReplayFunc batches, the evolutionary search with a cost
model, a database and mutators (candidates are new, pass the
postprocessors, and build to programs that compute what the unscheduled
one does), early stops, and the errors of a misused strategy."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import meta_schedule as ms
from tensorir import te
from tensorir.meta_schedule.testing import te_workload
from tensorir.meta_schedule.testing.dummy_object import DummyMutator
from tensorir.meta_schedule.utils import derived_object

MOD = tvm.IRModule({"main": te.create_prim_func(te_workload.matmul(32, 32, 32))})


def _tile(sch):
    block = sch.get_block("C")
    i, j, k = sch.get_loops(block)
    i0, i1 = sch.split(i, sch.sample_perfect_tile(i, n=2))
    j0, j1 = sch.split(j, sch.sample_perfect_tile(j, n=2))
    sch.reorder(i0, j0, k, i1, j1)


def _context(strategy, postprocs=(), mutators=None):
    return ms.TuneContext(
        MOD, target="llvm", num_threads=1, rand_state=3,
        space_generator=ms.space_generator.ScheduleFn(
            _tile, sch_rules=[], postprocs=list(postprocs),
            mutator_probs=mutators if mutators is not None else {DummyMutator(): 1.0}),
        search_strategy=strategy)


def _drive(context, max_trials, per_iter, **kwargs):
    strategy = context.search_strategy
    strategy.pre_tuning(max_trials, per_iter, context.generate_design_space(), **kwargs)
    batches = []
    while True:
        candidates = strategy.generate_measure_candidates()
        if candidates is None:
            break
        batches.append(candidates)
        strategy.notify_runner_results(
            candidates, [ms.runner.RunnerResult([1e-3], None) for _ in candidates])
    strategy.post_tuning()
    return batches


def _check_runs(candidate):
    a = np.random.rand(32, 32).astype("float32")
    b = np.random.rand(32, 32).astype("float32")
    c = np.zeros((32, 32), "float32")
    tvm.build(candidate.sch.mod, target="llvm")["main"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


@pytest.mark.parametrize("strategy", [ms.search_strategy.ReplayTrace,
                                      ms.search_strategy.ReplayFunc])
def test_replay_batches(strategy):
    batches = _drive(_context(strategy()), max_trials=10, per_iter=4)
    assert [len(b) for b in batches] == [4, 4, 2]
    for candidate in batches[0]:
        # Each candidate has its tiling decided and its arguments listed.
        decisions = list(candidate.sch.trace.decisions.values())
        assert len(decisions) == 2 and all(np.prod(d) == 32 for d in decisions)
        assert [info.shape for info in candidate.args_info] == [[32, 32]] * 3
    _check_runs(batches[0][0])


def test_evolutionary_search_finds_new_candidates():
    db = ms.database.MemoryDatabase()
    strategy = ms.search_strategy.EvolutionarySearch(
        population_size=8, init_measured_ratio=0.25, init_min_unmeasured=4,
        genetic_num_iters=2, genetic_mutate_prob=0.5, eps_greedy=0.25)
    context = _context(strategy)
    batches = _drive(context, max_trials=12, per_iter=4, database=db,
                     cost_model=ms.cost_model.RandomModel(seed=1))
    candidates = [c for batch in batches for c in batch]
    # 32 = 2^5 has 6 two-way tilings per loop: 36 programs, none sent twice.
    texts = [c.sch.mod.script() for c in candidates]
    assert len(texts) == len(set(texts)) == 12
    _check_runs(candidates[-1])


def test_evolutionary_search_replays_on_threads_with_the_same_result():
    """With the library's own mutators and postprocessors, the initial
    samples and the mutations are replayed on the context's threads; every
    random draw is made before, so the candidates are those of one thread."""
    from tensorir._ext import ext
    assert ext.multithreading_enabled()
    mod = tvm.IRModule({"main": te.create_prim_func(te_workload.matmul(128, 128, 128))})

    def candidates(threads):
        context = ms.TuneContext(
            mod, target="llvm -num-cores 2", num_threads=threads, rand_state=7,
            space_generator="post-order-apply",
            search_strategy=ms.search_strategy.EvolutionarySearch(
                population_size=96, init_min_unmeasured=16, genetic_num_iters=2))
        batches = _drive(context, max_trials=32, per_iter=16,
                         database=ms.database.MemoryDatabase(),
                         cost_model=ms.cost_model.RandomModel(seed=2))
        return [str(c.sch.trace) for batch in batches for c in batch]

    one = candidates(1)
    assert len(one) == 32 and len(set(one)) == 32
    assert candidates(2) == one


def test_evolutionary_search_uses_the_database_and_stops_early():
    db = ms.database.MemoryDatabase()
    workload = db.commit_workload(MOD)
    strategy = ms.search_strategy.EvolutionarySearch(
        population_size=4, init_measured_ratio=0.5, init_min_unmeasured=1,
        genetic_num_iters=1, eps_greedy=0.0)
    context = _context(strategy)
    (space,) = context.generate_design_space()
    db.commit_tuning_record(ms.database.TuningRecord(space.trace, workload, [1e-3]))
    # The search space has 36 programs: the search runs dry and ends (None)
    # at its fifth batch with nothing new (as TVM counts them, in all)
    # instead of spinning to 200 trials, and never sends a program twice.
    batches = _drive(context, max_trials=200, per_iter=16, database=db,
                     cost_model=ms.cost_model.RandomModel(seed=0))
    sizes = [len(b) for b in batches]
    assert sizes.count(0) == 4 and sum(sizes) <= 36
    texts = [c.sch.mod.script() for b in batches for c in b]
    assert len(texts) == len(set(texts))
    # The measured record seeded the population: its program is not sent.
    assert space.mod.script() not in texts


def test_the_first_batch_measures_the_program_as_it_is():
    # Beyond TVM: one candidate of the first batch is the unscheduled
    # program (a get_block, so that its record counts), so that the tuning
    # never returns a program slower than no tuning.
    unscheduled = tvm.tir.Schedule(MOD).mod.script()

    def search(**kwargs):
        strategy = ms.search_strategy.EvolutionarySearch(
            population_size=8, init_measured_ratio=0.25, init_min_unmeasured=4,
            genetic_num_iters=1, eps_greedy=0.25, **kwargs)
        batches = _drive(_context(strategy), max_trials=8, per_iter=4,
                         database=ms.database.MemoryDatabase(),
                         cost_model=ms.cost_model.RandomModel(seed=2))
        return strategy, batches

    strategy, batches = search(measure_unscheduled=True)
    assert strategy.measure_unscheduled
    # A batch may come short of new programs in a space this small.
    assert len(batches[0]) == 4 and sum(len(b) for b in batches) == 8
    first = batches[0][0]
    assert first.sch.mod.script() == unscheduled
    assert [i.kind.name for i in first.sch.trace.insts][:1] == ["GetBlock"]
    assert unscheduled not in [c.sch.mod.script() for b in batches[1:] for c in b]
    _check_runs(first)
    # Off (the default), every candidate is a sample of the space, as in TVM.
    strategy, batches = search()
    assert not strategy.measure_unscheduled
    assert unscheduled not in [c.sch.mod.script() for b in batches for c in b]


def test_postprocessor_rejections_and_misuse():
    @derived_object
    class Reject(ms.postproc.PyPostproc):
        def _initialize_with_tune_context(self, context):
            pass

        def apply(self, sch):
            return False

    strategy = ms.search_strategy.EvolutionarySearch(population_size=4,
                                                     init_min_unmeasured=2)
    context = _context(strategy, postprocs=[Reject()])
    strategy.pre_tuning(8, 4, context.generate_design_space(),
                        ms.database.MemoryDatabase(), ms.cost_model.RandomModel())
    assert strategy.generate_measure_candidates() is None  # nothing survives
    strategy.post_tuning()
    # ReplayTrace leaves out what the postprocessors reject, as TVM's; a
    # batch left empty ends the search (with a warning) instead of sending
    # empty batches forever.
    assert _drive(_context(ms.search_strategy.ReplayTrace(max_fail_count=3),
                           postprocs=[Reject()]), 4, 4) == []

    strategy = ms.search_strategy.EvolutionarySearch()
    context = _context(strategy)
    with pytest.raises(tvm.TVMError, match="needs a database"):
        strategy.pre_tuning(8, 4, context.generate_design_space(), None,
                            ms.cost_model.RandomModel())
    with pytest.raises(tvm.TVMError, match="outside pre_tuning"):
        strategy.generate_measure_candidates()
    with pytest.raises(tvm.TVMError, match="eps_greedy is in"):
        ms.search_strategy.EvolutionarySearch(eps_greedy=2.0)
    with pytest.raises(TypeError, match="Cannot instantiate abstract class"):
        ms.SearchStrategy()
    with pytest.raises(tvm.TVMError, match="mutator_probs must be defined"):
        ms.TuneContext(MOD, search_strategy="evolutionary",
                       space_generator=ms.space_generator.ScheduleFn(
                           _tile, sch_rules=[], postprocs=[]))
    with pytest.raises(ValueError, match="Unknown SearchStrategy"):
        ms.search_strategy.SearchStrategy.create("annealing")


def test_strategy_outliving_its_context_refuses():
    strategy = ms.search_strategy.ReplayTrace()
    context = _context(strategy)
    spaces = context.generate_design_space()
    del context
    import gc
    gc.collect()
    with pytest.raises(tvm.TVMError, match="tune context no longer exists"):
        strategy.pre_tuning(4, 2, spaces)


def test_context_kept_by_a_component_survives_clone():
    kept = []

    @derived_object
    class Keep(ms.postproc.PyPostproc):
        def _initialize_with_tune_context(self, context):
            kept.append(context)

        def apply(self, sch):
            return True

        def clone(self):
            return Keep()

    context = _context(ms.search_strategy.ReplayTrace(), postprocs=[Keep()])
    copy = context.clone()
    import gc
    gc.collect()
    # The clone's postprocessor kept the clone: both are usable.
    assert copy.task_name == kept[-1].task_name == context.task_name
    assert copy.rand_state != context.rand_state


def test_random_model_state_round_trip(tmp_path):
    model = ms.cost_model.RandomModel(seed=7)
    context = _context(ms.search_strategy.ReplayTrace())
    (space,) = context.generate_design_space()
    candidates = [ms.MeasureCandidate(space, None)] * 3
    path = str(tmp_path / "model.npy")
    model.save(path)
    first = model.predict(context, candidates)
    again = ms.cost_model.RandomModel(path=path)
    np.testing.assert_array_equal(again.predict(context, candidates), first)
    assert first.shape == (3,) and (first >= 0).all() and (first < 100).all()


def test_feature_extractors():
    @derived_object
    class Shapes(ms.feature_extractor.PyFeatureExtractor):
        def extract_from(self, context, candidates):
            return [np.full((2, 3), float(i)) for i, _ in enumerate(candidates)]

    context = _context(ms.search_strategy.ReplayTrace())
    (space,) = context.generate_design_space()
    candidates = [ms.MeasureCandidate(space, None)] * 2
    features = Shapes().extract_from(context, candidates)
    assert [f.numpy().tolist() for f in features] == [[[0.0] * 3] * 2, [[1.0] * 3] * 2]
    random = ms.feature_extractor.RandomFeatureExtractor(feature_size=4, max_block_num=3)
    for matrix in random.extract_from(context, candidates):
        assert matrix.shape[1] == 4 and 1 <= matrix.shape[0] <= 3
    assert str(random).startswith("meta_schedule.RandomFeatureExtractor(0x")

    @derived_object
    class Flat(ms.feature_extractor.PyFeatureExtractor):
        def extract_from(self, context, candidates):
            return [np.zeros(3)]

    with pytest.raises(ValueError, match="rank 2"):
        Flat().extract_from(context, candidates[:1])


def test_xgb_model_learns_a_ranking(tmp_path):
    # Candidate i's features say how fast it is; after the warm-up, the
    # model ranks unseen candidates by it, and a saved model predicts the
    # same when loaded.
    keys = []

    @derived_object
    class Keyed(ms.feature_extractor.PyFeatureExtractor):
        def extract_from(self, context, candidates):
            return [np.array([[k, 1.0], [k / 2, 0.0]]) for k in keys[:len(candidates)]]

    context = _context(ms.search_strategy.ReplayTrace())
    (space,) = context.generate_design_space()
    model = ms.cost_model.XGBModel(extractor=Keyed(), num_warmup_samples=10)
    assert isinstance(model, ms.cost_model.CostModel)
    keys[:] = [1.0, 2.0]
    warm = model.predict(context, [ms.MeasureCandidate(space, None)] * 2)
    assert ((warm >= 0) & (warm < 1)).all()
    keys[:] = [1.0 + i % 10 for i in range(20)]
    model.update(context, [ms.MeasureCandidate(space, None)] * 20,
                 [ms.runner.RunnerResult([1.0 / k], None) for k in keys])
    keys[:] = [2.5, 8.5, 5.5]
    scores = model.predict(context, [ms.MeasureCandidate(space, None)] * 3)
    assert list(np.argsort(scores)) == [0, 2, 1]
    path = str(tmp_path / "xgb.json")
    model.save(path)
    loaded = ms.cost_model.XGBModel(extractor=Keyed(), num_warmup_samples=10)
    loaded.load(path)
    np.testing.assert_allclose(loaded.predict(context, [ms.MeasureCandidate(space, None)] * 3),
                               scores, rtol=1e-6)
    assert isinstance(ms.cost_model.CostModel.create("xgb", extractor=Keyed()),
                      ms.cost_model.XGBModel)
    # What it trained on, per workload: the candidates' features and costs,
    # the same once loaded.
    (group,) = model.data.values()
    assert model.data_size == 20 and len(group.features) == 20
    assert group.features[0].shape == (2, 2) and group.costs.shape == (20,)
    (again,) = loaded.data.values()
    assert again.group_hash == group.group_hash and (again.costs == group.costs).all()
    assert group.min_cost == pytest.approx(1.0 / 10)


def test_xgb_model_booster_is_xgboosts_and_retrains_alike():
    # The trained model as the xgboost package's Booster scores candidates
    # as the model does (a candidate's score: the sum of its rows'), and
    # xgboost.train with the pack-sum objective and TVM's early stopping
    # on the model's data and settings trains the same model.
    xgboost = pytest.importorskip("xgboost")
    from tensorir.meta_schedule.cost_model.xgb_model import PackSum, _get_custom_call_back
    rng = np.random.default_rng(3)
    given = []  # the features of the next candidates, random past them

    @derived_object
    class Random(ms.feature_extractor.PyFeatureExtractor):
        def extract_from(self, context, candidates):
            return [given.pop(0) if given else rng.uniform(size=(3, 4)) for _ in candidates]

    context = _context(ms.search_strategy.ReplayTrace())
    (space,) = context.generate_design_space()
    model = ms.cost_model.XGBModel(extractor=Random(), num_warmup_samples=5)
    assert model.booster is None
    model.update(context, [ms.MeasureCandidate(space, None)] * 30,
                 [ms.runner.RunnerResult([float(t)], None) for t in rng.uniform(1, 5, 30)])
    booster = model.booster
    assert isinstance(booster, xgboost.Booster)
    unseen = [rng.uniform(size=(3, 4)) for _ in range(6)]
    given[:] = unseen
    scores = model.predict(context, [ms.MeasureCandidate(space, None)] * 6)
    test = PackSum(xs=unseen, ys=None)
    np.testing.assert_allclose(test.predict_with_score(booster.predict(test.dmatrix)),
                               scores, rtol=1e-5, atol=1e-6)
    (group,) = model.data.values()
    train = PackSum(xs=group.features, ys=group.min_cost / group.costs)
    again = xgboost.train(
        model.config.to_dict(), train.dmatrix, num_boost_round=10000,
        obj=lambda pred, _: train.obj_square_error(pred),
        callbacks=[_get_custom_call_back(
            early_stopping_rounds=model.early_stopping_rounds, verbose_eval=0,
            fevals=[lambda pred, _: train.rmse(pred)], evals=[(train.dmatrix, "tr")])])
    np.testing.assert_allclose(test.predict_with_score(again.predict(test.dmatrix)),
                               scores, rtol=1e-3, atol=1e-3)


def test_per_store_features():
    # One row of 164 features per store of each candidate.
    context = _context(ms.search_strategy.ReplayTrace())
    (space,) = context.generate_design_space()
    extractor = ms.feature_extractor.FeatureExtractor.create("per-store-feature")
    assert str(extractor).startswith("meta_schedule.PerStoreFeature(0x")
    (features,) = extractor.extract_from(context, [ms.MeasureCandidate(space, None)])
    assert features.shape[1] == 164 and features.shape[0] >= 1
    assert np.isfinite(features.numpy()).all()


def test_pack_sum_scores_candidates_by_the_sum_of_their_rows():
    from tensorir.meta_schedule.cost_model.xgb_model import PackSum
    pack = PackSum([np.ones((2, 3)), np.ones((3, 3))], [1.0, 0.5])
    assert list(pack.ids) == [0, 0, 1, 1, 1]
    assert list(pack.predict_with_score(np.array([1, 2, 3, 4, 5.0]))) == [3.0, 12.0]
    # Scores equal to the labels: no gradient, no error.
    exact = np.array([0.5, 0.5, 0.1, 0.1, 0.3])
    grad, hess = pack.obj_square_error(exact)
    assert np.allclose(grad, 0) and list(hess) == [1.0, 1.0, 0.5, 0.5, 0.5]
    assert pack.rmse(exact) == ("p-rmse", 0.0)
    # Candidate 1 predicted best but labelled 0.5 of the best: the curve
    # over the two best predictions is (0.5, 1).
    name, score = pack.average_peak_score(np.array([0.0, 0.0, 1.0, 1.0, 1.0]), 2)
    assert name == "a-peak@2" and score == pytest.approx(0.75)
    # Scores 1 too high on both candidates: the gradient is the error
    # weighted by the label.
    grad, _ = pack.obj_square_error(exact + np.array([0.5, 0.5, 1 / 3, 1 / 3, 1 / 3]))
    assert np.allclose(grad, [1.0, 1.0, 0.5, 0.5, 0.5])
    with pytest.raises(ValueError, match="no labels"):
        PackSum([np.ones((1, 3))], None).rmse(np.zeros(1))


def test_xgb_model_training_stops_when_the_fit_stops_improving():
    # 50 feature matrices, each of three candidates of different costs: the
    # trees fit the means within a few dozen rounds, after which the rmse
    # falls by less than a ten-thousandth a round, and training stops 50
    # rounds later (TVM's rule, counting any decrease, boosts 267 rounds
    # here, and all 10,000 on a tuned GEMM's candidates).
    xgboost = pytest.importorskip("xgboost")
    rng = np.random.default_rng(5)
    features = [rng.uniform(size=(2, 6)) for _ in range(200)][:50]

    @derived_object
    class Triplets(ms.feature_extractor.PyFeatureExtractor):
        def extract_from(self, context, candidates):
            return [features[i % 50] for i in range(len(candidates))]

    context = _context(ms.search_strategy.ReplayTrace())
    (space,) = context.generate_design_space()
    model = ms.cost_model.XGBModel(extractor=Triplets(), num_warmup_samples=0)
    model.update(context, [ms.MeasureCandidate(space, None)] * 200,
                 [ms.runner.RunnerResult([float(t)], None) for t in rng.uniform(1, 5, 200)])
    assert isinstance(model.booster, xgboost.Booster)
    rounds = model.booster.num_boosted_rounds()
    assert rounds < 150, rounds
