"""tvm.meta_schedule.testing.space_generation: checks of the design spaces
(sketches) the schedule rules generate, as TVM's tests write them.

    sketches = generate_design_space("llvm", mod, target, ms.ScheduleRule)
    check_sketches(mod, sketches, [expected_0, ...], [decisions_0, ...])

A sketch is a Schedule whose trace samples (tile sizes, compute locations,
...). check_sketches finds, for each expected module, a sketch whose trace,
its sampling instructions given the expected decisions in order and
replayed on a fresh Schedule of `mod`, gives that module (compared as
structural equality whatever the functions' global symbols); the trace of
the match must then round-trip (verify_trace_roundtrip). Each sketch
matches one expected module.
"""
from ... import meta_schedule as ms
from ...ir import IRModule, structural_equal
from ...tir.schedule import Schedule, Trace
from ...tir.schedule.testing import verify_trace_roundtrip

__all__ = ["check_sketches", "generate_design_space", "get_rules", "print_sketches",
           "structural_equal_no_gs"]


def get_rules(kind, types):
    """The default schedule rules of `kind` ("llvm", "cuda",
    "cuda-tensorcore", "hexagon") that are instances of `types` (a class or
    a tuple of classes)."""
    return [rule for rule in ms.ScheduleRule.create(kind) if isinstance(rule, types)]


def structural_equal_no_gs(mod1, mod2):
    """Whether two modules are structurally equal, their functions'
    "global_symbol" attributes left out."""
    def strip(mod):
        stripped = IRModule()
        for name in mod.function_names():
            stripped[name] = mod[name].without_attr("global_symbol")
        return stripped
    return structural_equal(strip(mod1), strip(mod2))


def generate_design_space(kind, mod, target, types, sch_rules=None):
    """The sketches of `mod` for `target`: post-order application of the
    default rules of `kind` filtered by `types` (or of `sch_rules`, with
    `types` None), with no postprocessors and no mutators."""
    if sch_rules is None:
        sch_rules = get_rules(kind, types)
    elif types is not None:
        raise ValueError("generate_design_space: give either types or sch_rules")
    context = ms.TuneContext(
        mod=mod,
        target=target,
        space_generator=ms.space_generator.PostOrderApply(
            sch_rules=sch_rules, postprocs=[], mutator_probs={}),
        task_name="test",
    )
    return context.generate_design_space()


def _as_module(func_or_mod):
    return func_or_mod if isinstance(func_or_mod, IRModule) else IRModule({"main": func_or_mod})


def _with_decisions(trace, expected_decision):
    """{instruction: decision} giving the trace's sampling instructions the
    expected decisions, in order (an expected entry is (kind name,
    decision); a sampling instruction of another kind keeps its own); None
    when the expected ones do not all find an instruction."""
    decisions, i = {}, 0
    for inst in trace.insts:
        if not inst.kind.name.startswith("Sample"):
            continue
        if i >= len(expected_decision):
            raise AssertionError(f"the sketch samples more than the {len(expected_decision)} "
                                 "expected decisions")
        kind, decision = expected_decision[i]
        if inst.kind.name == kind:
            decisions[inst] = decision
            i += 1
    return decisions if len(decisions) == len(expected_decision) else None


def _find_match_sketch_id(mod, sketches, expected_mod, expected_decision, *,
                          debug_mask="all"):
    """The index of the first sketch that, with the expected decisions,
    replays to `expected_mod` (its trace checked to round-trip); None if
    none does."""
    for sketch_id, sketch in enumerate(sketches):
        decisions = _with_decisions(sketch.trace, expected_decision)
        if decisions is None:
            continue
        sch = Schedule(mod, debug_mask=debug_mask)
        Trace(insts=sketch.trace.insts, decisions=decisions).apply_to_schedule(
            sch, remove_postproc=True)
        if structural_equal_no_gs(sch.mod, expected_mod):
            verify_trace_roundtrip(sch=sch, mod=mod, debug_mask=debug_mask, text_format="json")
            return sketch_id
    return None


def check_sketches(mod, sketches, expected_mods, expected_decisions, *, debug_mask="all"):
    """Asserts that the sketches are the expected ones, in any order: as
    many, and each expected module (a PrimFunc or an IRModule) reached by a
    distinct sketch given its expected decisions (a list of (sampling
    instruction kind, decision))."""
    assert len(expected_mods) == len(expected_decisions)
    assert len(sketches) == len(expected_mods), \
        f"{len(sketches)} sketches, {len(expected_mods)} expected"
    remaining = list(sketches)
    for expected_id, (expected_mod, expected_decision) in enumerate(
            zip(expected_mods, expected_decisions)):
        sketch_id = _find_match_sketch_id(mod, remaining, _as_module(expected_mod),
                                          expected_decision, debug_mask=debug_mask)
        if sketch_id is None:
            raise AssertionError(
                f"Expected sketch #{expected_id} doesn't exist in the generated sketches.")
        remaining.pop(sketch_id)


def print_sketches(sketches):
    """Prints each sketch's module and its decisions, in check_sketches'
    form (to write a test's expectations)."""
    for i, sch in enumerate(sketches):
        print(f"###### {i}")
        sch.mod.show(black_format=False)
        for inst in sch.trace.insts:
            if inst in sch.trace.decisions:
                print(f'("{inst.kind.name}", {sch.trace.decisions[inst]}),')
