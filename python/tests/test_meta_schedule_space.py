"""tvm.meta_schedule's tune context and design spaces over the MetaSchedule
library: post-order application of Python rules (order, filters,
alternatives, removed and reserved blocks), schedule functions, unions,
derived objects and their errors, and the rule kinds of targets."""
import pytest

import tensorir as tvm
from tensorir import meta_schedule as ms
from tensorir.meta_schedule.mutator import PyMutator
from tensorir.meta_schedule.postproc import PyPostproc
from tensorir.meta_schedule.schedule_rule import PyScheduleRule
from tensorir.meta_schedule.space_generator import (PostOrderApply, PySpaceGenerator,
                                                     ScheduleFn, SpaceGeneratorUnion)
from tensorir.meta_schedule.utils import derived_object
from tensorir.script import tir as T
from tensorir.tir.schedule import Schedule


@T.prim_func
def two_stages(a: T.handle, c: T.handle):
    A = T.match_buffer(a, (64, 32), "float32")
    C = T.match_buffer(c, (64, 32), "float32")
    B = T.alloc_buffer((64, 32), "float32")
    for i, j in T.grid(64, 32):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(64, 32):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)


@T.prim_func
def reserved(a: T.handle, c: T.handle):
    A = T.match_buffer(a, (16,), "float32")
    C = T.match_buffer(c, (16,), "float32")
    B = T.alloc_buffer((16,), "float32")
    for i in range(16):
        with T.block("B"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi] + T.float32(1)
    for i in range(16):
        with T.block("C"):
            vi = T.axis.spatial(16, i)
            T.block_attr({"schedule_rule": "my_rule"})
            C[vi] = B[vi] * T.float32(3)


def _name(sch, block):
    return sch.get(block).name_hint


@derived_object
class Recorder(PyScheduleRule):
    """Records the blocks it is given; returns the schedule."""

    def __init__(self):
        self.visited = []

    def _initialize_with_tune_context(self, context):
        self.context = context

    def apply(self, sch, block):
        self.visited.append(_name(sch, block))
        return [sch]


@derived_object
class SplitTwoWays(PyScheduleRule):
    """Splits the outer loop of block B by 8 and by 16 (two
    alternatives)."""

    def _initialize_with_tune_context(self, context):
        pass

    def apply(self, sch, block):
        if _name(sch, block) != "B":
            return [sch]
        out = []
        for factor in (8, 16):
            new = sch.copy()
            i, _ = new.get_loops(block)
            new.split(i, factors=[None, factor])
            out.append(new)
        return out


def _context(rules, **kwargs):
    return ms.TuneContext(two_stages, target="llvm", task_name="test",
                          space_generator=PostOrderApply(sch_rules=rules, postprocs=[],
                                                         mutator_probs={}, **kwargs))


def test_tune_context_fields():
    context = ms.TuneContext(two_stages, target="llvm", task_name="t", rand_state=7,
                             num_threads=3)
    assert context.task_name == "t"
    assert context.num_threads == 3
    assert context.rand_state == 7
    assert context.target.kind.name == "llvm"
    assert tvm.ir.structural_equal(context.mod["main"], two_stages)
    assert ms.TuneContext().rand_state > 0
    assert ms.TuneContext(num_threads="logical").num_threads >= 1
    with pytest.raises(ValueError, match="num_threads"):
        ms.TuneContext(num_threads=0)
    with pytest.raises(tvm.TVMError, match="rand_state"):
        ms.TuneContext(rand_state=-5)
    with pytest.raises(ValueError, match="Unknown SpaceGenerator"):
        ms.TuneContext(space_generator="no-such-generator")


def test_post_order_and_root_last():
    recorder = Recorder()
    context = _context([recorder])
    # The rule was initialized with the context, as the Python object.
    assert recorder.context is context
    schs = context.space_generator.generate_design_space(context.mod)
    assert len(schs) == 1
    assert recorder.visited == ["root", "C", "B"]
    assert context.space_generator.sch_rules[0] is recorder
    # The trace holds the lookups of the blocks, in post-order, which
    # nothing uses here.
    lines = str(schs[0].trace).splitlines()
    assert [line.strip() for line in lines[2:]] == [
        'b0 = sch.get_block(name="B", func_name="main")',
        'b1 = sch.get_block(name="C", func_name="main")',
        'b2 = sch.get_block(name="root", func_name="main")']
    assert str(schs[0].trace.simplified(True)).endswith("pass")


def test_alternatives_multiply_and_follow_rules_in_order():
    recorder = Recorder()
    context = _context([SplitTwoWays(), recorder])
    schs = context.generate_design_space()
    assert len(schs) == 2
    # The second rule sees each alternative's blocks.
    assert recorder.visited.count("B") == 2
    extents = sorted(int(sch.get(sch.get_loops(sch.get_block("B"))[1]).extent)
                     for sch in schs)
    assert extents == [8, 16]
    # Each design space builds and computes what the program does.
    import numpy as np
    a = np.random.rand(64, 32).astype("float32")
    for sch in schs:
        c = np.zeros((64, 32), "float32")
        tvm.build(sch.mod, target="llvm")["main"](a, c)
        np.testing.assert_allclose(c, a * 2 + 1, rtol=1e-6)


def test_block_filter():
    recorder = Recorder()
    context = _context([recorder], f_block_filter=lambda block: block.name_hint == "C")
    context.generate_design_space()
    assert recorder.visited == ["C"]


def test_removed_and_reserved_blocks_are_skipped():
    @derived_object
    class InlineB(PyScheduleRule):
        def _initialize_with_tune_context(self, context):
            pass

        def apply(self, sch, block):
            if _name(sch, block) == "B":
                sch = sch.copy()
                sch.compute_inline(block)
            return [sch]

    recorder = Recorder()
    context = _context([recorder, InlineB(), recorder])
    context.generate_design_space()
    # First pass: all three; second pass: B is gone.
    assert recorder.visited == ["root", "C", "B", "root", "C"]

    recorder = Recorder()
    generator = PostOrderApply(sch_rules=[recorder], postprocs=[], mutator_probs={})
    ms.TuneContext(reserved, target="llvm", space_generator=generator)
    generator.generate_design_space(tvm.IRModule({"main": reserved}))
    assert recorder.visited == ["root", "B"]


def test_rule_errors_reach_the_caller():
    @derived_object
    class Raises(PyScheduleRule):
        def _initialize_with_tune_context(self, context):
            pass

        def apply(self, sch, block):
            raise KeyError("from the rule")

    context = _context([Raises()])
    with pytest.raises(KeyError, match="from the rule"):
        context.generate_design_space()

    @derived_object
    class ReturnsOne(PyScheduleRule):
        def _initialize_with_tune_context(self, context):
            pass

        def apply(self, sch, block):
            return sch

    with pytest.raises(TypeError, match="list of schedules"):
        _context([ReturnsOne()]).generate_design_space()

    @derived_object
    class NoApply(PyScheduleRule):
        def _initialize_with_tune_context(self, context):
            pass

    with pytest.raises(tvm.TVMError, match="PyScheduleRule's Apply method not implemented!"):
        _context([NoApply()]).generate_design_space()

    # A rule that is not initializable says so when the context is built.
    @derived_object
    class NoInit(PyScheduleRule):
        pass

    with pytest.raises(tvm.TVMError, match="InitializeWithTuneContext method not implemented"):
        _context([NoInit()])


def test_default_components():
    # llvm and cuda have TVM's defaults; kinds the library has none of yet
    # are refused clearly.
    rules = ms.ScheduleRule.create("llvm")
    assert [type(r).__name__ for r in rules] == [
        "ApplyCustomRule", "InlineConstantScalars", "AutoInline", "AddRFactor", "MultiLevelTiling",
        "ParallelizeVectorizeUnroll", "RandomComputeLocation"]
    assert all(isinstance(r, ms.ScheduleRule) for r in rules)
    assert str(rules[4]).startswith("meta_schedule.MultiLevelTiling(0x")
    assert [type(p).__name__ for p in ms.Postproc.create("llvm")] == [
        "DisallowDynamicLoop", "RewriteParallelVectorizeUnroll", "RewriteReductionBlock",
        "RewriteLayout"]
    probs = {type(m).__name__: p for m, p in ms.Mutator.create("llvm").items()}
    assert probs == {"MutateTileSize": 0.9, "MutateComputeLocation": 0.05,
                     "MutateUnroll": 0.03, "MutateParallel": 0.02}
    context = ms.TuneContext(two_stages, target="llvm", space_generator="post-order-apply")
    assert len(context.space_generator.postprocs) == 4
    assert len(context.generate_design_space()) == 1
    assert [type(r).__name__ for r in ms.ScheduleRule.create("cuda")] == [
        "ApplyCustomRule", "MultiLevelTiling", "InlineConstantScalars", "AutoInline",
        "CrossThreadReduction", "ParallelizeVectorizeUnroll", "AutoBind"]
    assert [type(p).__name__ for p in ms.Postproc.create("cuda")] == [
        "DisallowDynamicLoop", "RewriteCooperativeFetch", "RewriteUnboundBlock",
        "RewriteParallelVectorizeUnroll", "RewriteReductionBlock", "VerifyGPUCode"]
    probs = {type(m).__name__: p for m, p in ms.Mutator.create("cuda").items()}
    assert probs == {"MutateTileSize": 0.9, "MutateUnroll": 0.08, "MutateThreadBinding": 0.02}
    context = ms.TuneContext(two_stages, target="hexagon", space_generator="post-order-apply")
    assert context.space_generator.postprocs == []
    with pytest.raises(tvm.TVMError, match="rule kind 'hexagon' are not available yet"):
        context.generate_design_space()
    with pytest.raises(NotImplementedError, match="hexagon"):
        ms.ScheduleRule.create("hexagon")
    with pytest.raises(ValueError, match="Unsupported kind"):
        ms.ScheduleRule.create("vax")
    # Without a target nothing is defaulted, and generating says why.
    generator = PostOrderApply()
    ms.TuneContext(two_stages, space_generator=generator)
    with pytest.raises(tvm.TVMError, match="no schedule rules"):
        generator.generate_design_space(two_stages)


def test_schedule_fn_and_union():
    def tile(sch):
        i, _ = sch.get_loops(sch.get_block("C"))
        sch.split(i, factors=[None, 4])

    def two(sch):
        other = sch.copy()
        sch.parallel(sch.get_loops(sch.get_block("B"))[0])
        return [sch, other]

    spaces = ScheduleFn(tile).generate_design_space(two_stages)
    assert len(spaces) == 1 and len(spaces[0].get_loops(spaces[0].get_block("C"))) == 3
    assert len(ScheduleFn(two).generate_design_space(two_stages)) == 2
    union = SpaceGeneratorUnion([ScheduleFn(tile), ScheduleFn(two)])
    assert len(union.generate_design_space(two_stages)) == 3
    assert len(union.space_generators) == 2
    with pytest.raises(TypeError):
        ScheduleFn(3)


def test_py_space_generator_and_clone():
    @derived_object
    class Fixed(PySpaceGenerator):
        def __init__(self):
            self.sch_rules = []
            self.postprocs = []
            self.mutator_probs = {}

        def _initialize_with_tune_context(self, context):
            self.initialized = True

        def generate_design_space(self, mod):
            return [Schedule(mod)]

        def clone(self):
            return Fixed()

    generator = Fixed()
    context = ms.TuneContext(two_stages, target="llvm", space_generator=generator)
    assert generator.initialized
    assert len(context.generate_design_space()) == 1
    assert generator.sch_rules == []
    copy = context.clone()
    assert copy.task_name == context.task_name
    assert copy.rand_state != context.rand_state
    assert copy.space_generator is not generator

    @derived_object
    class Incomplete(PySpaceGenerator):
        def __init__(self):
            self.sch_rules = self.postprocs = self.mutator_probs = None

    with pytest.raises(tvm.TVMError, match="PySpaceGenerator's GenerateDesignSpace method"):
        Incomplete().generate_design_space(two_stages)


def test_derived_objects():
    @derived_object
    class Rule(PyScheduleRule):
        def __init__(self, level=1):
            self.level = level

        @classmethod
        def make(cls):
            return cls(level=3)

    rule = Rule.make()
    assert isinstance(rule, Rule) and rule.level == 3
    rule.level = 4
    assert rule._inst.level == 4
    assert str(rule).startswith("meta_schedule.Rule(0x")
    with pytest.raises(TypeError, match="not one of MetaSchedule's Py"):
        derived_object(type("Plain", (object,), {}))

    @derived_object
    class Reject(PyPostproc):
        def _initialize_with_tune_context(self, context):
            pass

        def apply(self, sch):
            return sch.get_block("B") is None

    assert Reject().apply(Schedule(two_stages)) is False

    @derived_object
    class Keep(PyMutator):
        def _initialize_with_tune_context(self, context):
            pass

        def apply(self, trace, _):
            return trace

    sch = Schedule(two_stages)
    sch.get_block("B")
    mutated = Keep().apply(sch.trace)
    assert len(mutated.insts) == 1


def test_rule_kind_of_targets():
    from tensorir._ext import ext

    def kind(target):
        return ext.target_rule_kind(tvm.target.Target(target).export())

    assert kind("llvm") == "llvm"
    assert kind("llvm -mcpu=skylake-avx512") == "avx512"
    assert kind("llvm -mcpu=cascadelake") == "vnni"
    assert kind("llvm -mtriple=aarch64-linux-gnu -mattr=+neon") == "asimd"
    assert kind("cuda -arch=sm_80") == "cuda-tensorcore"
    assert kind("cuda") == "cuda"
