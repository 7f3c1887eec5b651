"""TVM's trace model: instructions built in TVM's layout (and refused in
another), traces built, edited, simplified and printed as TVM prints them,
and TVM's JSON of a sampled, split schedule read back and replayed."""
import json

import pytest

import tensorir as tvm
from tensorir._ext import ext
from tensorir.script import tir as T
from tensorir.tir.schedule import (BlockRV, ExprRV, Instruction, InstructionKind, LoopRV,
                                   Trace)


@T.prim_func
def scale(A: T.Buffer((64, 32), "float32"), B: T.Buffer((64, 32), "float32")):
    for i, j in T.grid(64, 32):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 2.0


def get_block(name, out):
    return Instruction(InstructionKind.get("GetBlock"), [], [name, "main"], [out])


def test_every_primitive_has_an_instruction_kind():
    mnemonics = {mnemonic for _, _, mnemonic in ext.instruction_kinds()}
    assert set(ext.primitive_names()) <= mnemonics


def test_kinds_say_whether_they_are_pure():
    assert InstructionKind.get("GetLoops").is_pure
    assert InstructionKind.get("SamplePerfectTile").is_pure
    assert not InstructionKind.get("Split").is_pure
    with pytest.raises(ValueError, match="no instruction kind named 'Nope'"):
        InstructionKind.get("Nope")


def test_instruction_in_tvms_layout():
    loop, a, b = LoopRV(), LoopRV(), LoopRV()
    f = ExprRV()
    split = Instruction(InstructionKind.get("Split"), [loop, None, f], [True, False], [a, b])
    inputs = split.inputs
    assert inputs[0].same_as(loop) and inputs[1] is None and inputs[2].same_as(f)
    assert split.attrs == [True, False]
    assert [o.same_as(x) for o, x in zip(split.outputs, [a, b])] == [True, True]
    assert str(split) == ("_, _ = sch.split(loop=_, factors=[None, _], "
                          "preserve_unit_iters=True, disable_predication=False)")


@pytest.mark.parametrize("kind, inputs, attrs, message", [
    ("GetLoops", [], [], "GetLoops takes 1 inputs, got 0"),
    ("GetBlock", [], ["B"], "GetBlock takes 2 attrs, got 1"),
    ("ComputeAt", [BlockRV(), LoopRV()], ["yes", -1], "attr preserve_unit_loops is a bool"),
    ("Split", [LoopRV(), "x"], [True, False], "a factor is None, an integer or a random"),
    ("CacheRead", [BlockRV(), BlockRV()], [0, "shared"],
     "consumer_blocks is a list of random variables"),
])
def test_instructions_of_another_layout_are_refused(kind, inputs, attrs, message):
    with pytest.raises(ValueError, match=message):
        Instruction(InstructionKind.get(kind), inputs, attrs, [])


def test_trace_built_by_hand_prints_applies_and_pops():
    b0, b1 = BlockRV(), BlockRV()
    inline = Instruction(InstructionKind.get("ComputeInline"), [b0], [], [])
    trace = Trace([get_block("B", b0), inline], {})
    assert str(trace).splitlines()[2:] == [
        '  b0 = sch.get_block(name="B", func_name="main")',
        "  sch.compute_inline(block=b0)"]
    last = get_block("C", b1)
    trace.append(last)
    assert len(trace.insts) == 3 and trace.pop().same_as(last)
    assert trace.insts[-1].same_as(inline) and Trace([], {}).pop() is None
    assert str(Trace([], {})).endswith("  pass")


def test_simplified_keeps_what_is_used_and_stops_at_postproc():
    b0, b1, l2 = BlockRV(), BlockRV(), LoopRV()
    unused = Instruction(InstructionKind.get("GetLoops"), [b0], [], [l2])
    inline = Instruction(InstructionKind.get("ComputeInline"), [b0], [], [])
    post = Instruction(InstructionKind.get("EnterPostproc"), [], [], [])
    trace = Trace([get_block("B", b0), unused, inline, get_block("C", b1), post], {})
    kinds = [i.kind.name for i in trace.simplified(remove_postproc=True).insts]
    assert kinds == ["GetBlock", "ComputeInline"]
    kinds = [i.kind.name for i in trace.simplified(remove_postproc=False).insts]
    assert kinds == ["GetBlock", "ComputeInline", "EnterPostproc"]


def sampled_schedule():
    sch = tvm.tir.Schedule(scale, seed=11)
    i, j = sch.get_loops(sch.get_block("B"))
    factors = sch.sample_perfect_tile(i, n=3, max_innermost_factor=8)
    sch.split(i, factors)
    v = sch.sample_categorical([1, 2, 4], [0.2, 0.3, 0.5])
    return sch, factors, v


def test_json_is_tvms_layout_and_round_trips_with_decisions():
    sch, factors, v = sampled_schedule()
    data = sch.trace.as_json()
    insts, decisions = data
    assert [i[0] for i in insts] == ["GetBlock", "GetLoops", "SamplePerfectTile", "Split",
                                     "SampleCategorical"]
    assert insts[2][1:] == [["l1"], [3, 8], ["v3", "v4", "v5"]]
    assert insts[3][1] == ["l1", "v3", "v4", "v5"]
    tile = [sch.get(f) for f in factors]
    assert decisions == [[2, tile], [4, [1, 2, 4].index(sch.get(v))]]
    # The JSON text, as a database keeps it, replays to the same program and
    # the same JSON.
    fresh = tvm.tir.Schedule(scale)
    Trace.apply_json_to_schedule(json.loads(json.dumps(data)), fresh)
    assert fresh.mod.mlir() == sch.mod.mlir()
    assert fresh.trace.as_json() == data


def test_replay_with_another_decision_changes_the_program():
    sch, factors, _ = sampled_schedule()
    trace = sch.trace
    tile_inst = trace.insts[2]
    for decision in ([2, 4, 8], [64, 1, 1]):
        fresh = tvm.tir.Schedule(scale)
        trace.with_decision(tile_inst, decision, remove_postproc=True).apply_to_schedule(fresh)
        extents = [fresh.get(l).extent for l in fresh.get_loops("B")]
        assert extents == decision + [32]
        assert [int(d) for d in fresh.trace.get_decision(fresh.trace.insts[2])] == decision


def test_replay_repairs_a_decision_that_no_longer_divides():
    sch, _, _ = sampled_schedule()
    trace = sch.trace
    fresh = tvm.tir.Schedule(scale)
    trace.with_decision(trace.insts[2], [1, 3, 5], remove_postproc=True).apply_to_schedule(fresh)
    # 5 and then 3 do not divide 64: each becomes what is left.
    assert [fresh.get(l).extent for l in fresh.get_loops("B")] == [1, 1, 64, 32]


def test_decision_provider_gets_tvms_inputs_and_attrs_and_its_errors_propagate():
    sch, _, _ = sampled_schedule()
    seen = {}

    def provider(inst, inputs, attrs, decision):
        seen[inst.kind.name] = (inputs, attrs, decision)
        return decision

    fresh = tvm.tir.Schedule(scale)
    sch.trace.apply_to_schedule(fresh, remove_postproc=False, decision_provider=provider)
    inputs, attrs, decision = seen["SamplePerfectTile"]
    assert isinstance(inputs[0], LoopRV) and attrs == [3, 8] and len(decision) == 3
    inputs, attrs, _ = seen["Split"]
    assert len(inputs) == 4 and all(isinstance(v, ExprRV) for v in inputs[1:])
    assert attrs == [True, False]

    def broken(inst, inputs, attrs, decision):
        raise KeyError("from the provider")

    with pytest.raises(KeyError, match="from the provider"):
        sch.trace.apply_to_schedule(tvm.tir.Schedule(scale), decision_provider=broken)

    def wrong(inst, inputs, attrs, decision):
        return 3 if inst.kind.name == "SamplePerfectTile" else decision

    with pytest.raises(tvm.tir.ScheduleError, match="a decision is a list of integers"):
        sch.trace.apply_to_schedule(tvm.tir.Schedule(scale), decision_provider=wrong)


def test_removed_random_variables_stay_removed_in_a_copy():
    sch = tvm.tir.Schedule(scale)
    b = sch.get_block("B")
    sch.remove_rv(b)
    with pytest.raises(IndexError):
        sch.get(b)
    with pytest.raises(IndexError):
        sch.copy().get(b)


def test_seed_takes_tvms_values():
    sch = tvm.tir.Schedule(scale)
    sch.seed(-1)  # a random seed
    sch.seed(0)   # as 1
    with pytest.raises(ValueError, match="a seed is -1"):
        sch.seed(-5)
