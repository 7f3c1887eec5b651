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
    text = schedule(example).trace.as_python()
    assert 'b0 = sch.get_block(name="Y")' in text.replace("'", '"')
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
