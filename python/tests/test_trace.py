"""sch.trace as Python and as a transform script; replaying the script with
tir-opt gives the same IR as the Python schedule."""
import subprocess

from conftest import tool

import tensorir as tvm

TIR_OPT = tool("tir-opt")


def schedule(example):
    sch = tvm.tir.Schedule(example("matmul_relu"))
    y = sch.get_block("Y")
    i, j, k = sch.get_loops(y)
    j0, j1 = sch.split(j, factors=[None, 16])
    k0, k1 = sch.split(k, factors=[4, None], preserve_unit_iters=False)
    sch.reorder(i, j0, k0, k1, j1)
    sch.parallel(i)
    sch.vectorize(j1)
    sch.unroll(k1)
    sch.annotate(y, "note", "tiled")
    (d,) = sch.get_consumers(y)
    a, b = sch.get_loops(d)
    sch.fuse(a, b)
    return sch


def test_trace_as_python(example):
    text = "\n".join(schedule(example).trace.as_python())
    assert 'b0 = sch.get_block(name="Y", func_name="matmul_relu")' in text
    assert "l1, l2, l3 = sch.get_loops(block=b0)" in text
    assert ("l4, l5 = sch.split(loop=l2, factors=[None, 16], preserve_unit_iters=True, "
            "disable_predication=False)") in text
    assert "sch.reorder(l1, l4, l6, l7, l5)" in text
    assert 'sch.annotate(block_or_loop=b0, ann_key="note", ann_val="tiled")' in text
    assert "l11 = sch.fuse(l9, l10, preserve_unit_iters=True)" in text


def test_transform_script_replays_to_the_same_ir(example, tmp_path):
    sch = schedule(example)
    source = tmp_path / "input.mlir"
    source.write_text(example("matmul_relu").mlir())
    script = tmp_path / "schedule.mlir"
    script.write_text(sch.trace.as_transform_script())
    replayed = subprocess.run(
        [TIR_OPT, str(source),
         f"--transform-preload-library=transform-library-paths={script}",
         "--transform-interpreter"],
        capture_output=True, text=True, check=True).stdout
    assert tvm.IRModule.from_mlir(replayed).mlir() == sch.mod.mlir()


def test_trace_as_json_replays_to_the_same_ir(example):
    """TVM's layout: [kind, inputs, attrs, outputs], random variables by
    name, a string input quoted inside its string."""
    import json
    from tensorir.tir.schedule.trace import Trace
    sch = schedule(example)
    data = sch.trace.as_json()
    insts, decisions = data
    assert decisions == [] and len(insts) == len(sch.trace.as_python())
    assert insts[0] == ["GetBlock", [], ["Y", "matmul_relu"], ["b0"]]
    assert insts[2] == ["Split", ["l2", "None", 16], [True, False], ["l4", "l5"]]
    assert insts[4] == ["Reorder", ["l1", "l4", "l6", "l7", "l5"], [], []]
    assert insts[8] == ["Annotate", ["b0", '"tiled"'], ["note"], []]
    again = tvm.tir.Schedule(example("matmul_relu"))
    Trace.apply_json_to_schedule(json.loads(json.dumps(data)), again)
    assert again.mod.mlir() == sch.mod.mlir()
    assert again.trace.as_json() == data


def test_bad_json_traces_are_refused(example):
    from tensorir.tir.schedule.trace import Trace
    import pytest
    data = schedule(example).trace.as_json()
    cases = [
        ("{", "not JSON"),
        ([{"a": 1}], r"\[instructions, decisions\]"),
        ([[["Yield", [], [], []]], []], "no instruction kind 'Yield'"),
        ([[["GetLoops", ["b9"], [], ["l1"]]], []],
         "'b9' is used before an instruction defines it"),
        ([[["GetBlock", [], [3, None], ["b0"]]], []], "GetBlock: attr name is a string"),
        ([[["GetLoops", [], [], ["l1"]]], []], "GetLoops takes 1 inputs, got 0"),
        ([[data[0][0][:3]], []], r"is not \[kind, inputs, attrs, outputs\]"),
        ([data[0], [[0, "x"]]], r"a decision is \[instruction index"),
    ]
    for bad, message in cases:
        with pytest.raises(ValueError, match=message):
            Trace.from_json(bad)


def test_split_with_sampled_factors_prints_them_as_python():
    """A split whose factors are sample_perfect_tile's parameters (TVM's
    ExprRVs) names them in its Python form and replays with them."""
    from tensorir.tir.schedule.trace import Trace
    script = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %i, %j, %k = transform.tir.get_loops %b : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f:2 = transform.tir.sample_perfect_tile %j {n = 2, decision = array<i64: 8, 16>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    %j0, %j1 = transform.tir.split %j [%f#0, %f#1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}"""
    text = "\n".join(Trace.from_transform_script(script).as_python())
    assert "v4, v5 = sch.sample_perfect_tile(loop=l2, n=2" in text, text
    assert ("l6, l7 = sch.split(loop=l2, factors=[v4, v5], preserve_unit_iters=True, "
            "disable_predication=False)") in text, text


def test_split_of_the_root_with_parameters_prints_the_right_names():
    """A split of the root handle (refused when applied) with parameter
    factors prints: Python does not pass the root, and the factors are the
    parameters' names."""
    from tensorir.tir.schedule.trace import Trace
    script = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f:2 = transform.tir.sample_perfect_tile %root {n = 2, decision = array<i64: 2, 2>} : (!transform.any_op) -> (!transform.param<i64>, !transform.param<i64>)
    %a, %b = transform.tir.split %root [%f#0, %f#1] : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}"""
    text = "\n".join(Trace.from_transform_script(script).as_python())
    assert ("l2, l3 = sch.split(factors=[v0, v1], preserve_unit_iters=True, "
            "disable_predication=False)") in text, text


def test_operands_print_by_position_when_the_root_is_one():
    """Keyword arguments follow the operands' positions: a cache_read of the
    root handle (refused when applied) prints its consumer as a consumer,
    not as the block."""
    from tensorir.tir.schedule.trace import Trace
    script = """
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %b = transform.tir.get_block "Y" in %root : (!transform.any_op) -> !transform.any_op
    %c = transform.tir.cache_read %root consumers %b {read_buffer_index = 0, storage_scope = "shared"} : (!transform.any_op, !transform.any_op) -> !transform.any_op
    transform.yield
  }
}"""
    text = "\n".join(Trace.from_transform_script(script).as_python())
    assert ('b1 = sch.cache_read(read_buffer_index=0, storage_scope="shared", '
            'consumer_blocks=[b0])') in text, text
