"""For every schedule primitive (every transform.tir op the extension
registers), the schedules of the FileCheck tests (test/Schedule/*.mlir, not
the -invalid ones) replayed through the Python Schedule give a trace that
replays to the same module from the trace itself, from its Python form, and
from its transform script run by tir-opt; and the scheduled functions,
built and run by tir-run on seeded inputs, compute what the unscheduled ones
do (where the CPU can run them). The cases come from the lit tests, so a new
primitive needs no case here; a primitive whose ops appear in no such test
fails test_every_primitive_is_replayed."""
import os
import re
import subprocess
import tempfile

import numpy as np

import pytest

import tensorir as tvm
from conftest import ROOT, built_tool
from tensorir._ext import ext
from tensorir.tir.schedule import Trace
from tensorir.tir.schedule.testing import _tir_opt, verify_trace_roundtrip

SCHEDULE_TESTS = os.path.join(ROOT, "test", "Schedule")
SCRIPT_START = "module attributes {transform.with_named_sequence}"


def _chunks():
    """(name, payload, script) for each chunk of the FileCheck tests whose
    script uses only transform.tir ops (remarks are dropped)."""
    for name in sorted(os.listdir(SCHEDULE_TESTS)):
        if not name.endswith(".mlir") or name.endswith("-invalid.mlir"):
            continue
        with open(os.path.join(SCHEDULE_TESTS, name)) as f:
            text = f.read()
        for index, chunk in enumerate(text.split("// -----")):
            if SCRIPT_START not in chunk or "expected-error" in chunk:
                continue
            payload, script = chunk.split(SCRIPT_START, 1)
            script = "\n".join(line for line in (SCRIPT_START + script).splitlines()
                               if "transform.debug." not in line)
            ops = set(re.findall(r"(?<![!\w.])transform\.([a-z_.]+) ", script))
            if all(op.startswith("tir.") or op in ("named_sequence", "yield") for op in ops):
                yield f"{name}#{index}", payload, script


CHUNKS = list(_chunks())


# A list query (or cache_index) with one result holds all its ops in one
# handle, which TVM's Python cannot name (it returns one RV per op): such
# scripts replay as transform scripts only.
GROUPED = re.compile(r"%\w+ = transform\.tir\.(get_loops|get_child_blocks|get_producers|get_output_blocks|cache_index|"
                     r"get_consumers) [^\n]*-> !transform")


def _kinds(script):
    return set(re.findall(r"\btransform\.tir\.([a-z_]+)", script))


def test_every_primitive_is_replayed():
    replayed = set().union(*(_kinds(script) for _, _, script in CHUNKS))
    missing = sorted(set(ext.primitive_names()) - replayed)
    assert not missing, f"no test/Schedule FileCheck test replays {missing}"


@pytest.mark.parametrize("name,payload,script", CHUNKS, ids=[c[0] for c in CHUNKS])
def test_trace_and_transform_script_agree(name, payload, script):
    mod = tvm.IRModule.from_mlir(payload)
    sch = tvm.tir.Schedule(mod, debug_mask="all")
    Trace.from_transform_script(script).apply_to_schedule(sch)
    python = "\n".join(sch.trace.as_python())
    for kind in _kinds(script):
        assert f"sch.{kind}(" in python
    formats = [] if GROUPED.search(script) else ["python"]
    if _tir_opt():
        formats.append("transform")
    if formats:
        verify_trace_roundtrip(sch, mod=mod, text_format=formats)
    # disable_predication asserts that the factors divide the extent; the
    # tests also show what happens when they do not (out of bounds).
    if "disable_predication = true" not in script:
        _check_same_numbers(mod, sch.mod)


def _tir_run():
    return built_tool("tir-run")


def _run(tir_run, mod, entry, out_dir):
    """Runs `entry` of `mod` on inputs of seed 7; None when it cannot run on
    this machine (GPU thread bindings, runtime sizes tir-run cannot pick)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(mod.mlir())
    try:
        run = subprocess.run([tir_run, f.name, "--entry", entry, "--seed", "7",
                              "--output-dir", out_dir, "--num-threads", "2"],
                             capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(f.name)
    return run


def _check_same_numbers(original, scheduled):
    """Each function of `scheduled` writes what it writes in `original`
    (within float tolerance: a schedule may reorder a reduction)."""
    tir_run = _tir_run()
    if tir_run is None or "thread_binding" in scheduled.mlir():
        return  # no tir-run, or loops bound to GPU threads (not run on the CPU)
    for entry in list(original):
        with tempfile.TemporaryDirectory() as ref, tempfile.TemporaryDirectory() as out:
            expected = _run(tir_run, original, entry, ref)
            if expected.returncode != 0:
                continue  # the unscheduled function does not run here either
            got = _run(tir_run, scheduled, entry, out)
            assert got.returncode == 0, f"@{entry} scheduled does not run:\n{got.stderr}"
            names = sorted(os.listdir(ref))
            assert names == sorted(os.listdir(out))
            for name in names:
                np.testing.assert_allclose(np.load(os.path.join(out, name)),
                                           np.load(os.path.join(ref, name)),
                                           rtol=1e-5, atol=1e-5, err_msg=f"@{entry}: {name}")


def test_a_refused_step_leaves_module_and_trace_alone():
    mod = tvm.IRModule.from_mlir(CHUNKS[0][1])
    sch = tvm.tir.Schedule(mod)
    loops = [l for b in _blocks(sch) for l in sch.get_loops(b)]
    before_mod, before_trace = sch.mod.mlir(), sch.trace.as_transform_script()
    with pytest.raises(tvm.tir.ScheduleError, match="factors multiply to 1, less than the extent"):
        sch.split(loops[0], factors=[1, 1])
    assert sch.mod.mlir() == before_mod
    assert sch.trace.as_transform_script() == before_trace


def _blocks(sch):
    """The blocks of the first function, through the generic entry point."""
    return sch._apply("get_child_blocks", [sch._native.root], {}, None)


def test_unknown_primitive_and_bad_arguments():
    mod = tvm.IRModule.from_mlir(CHUNKS[0][1])
    sch = tvm.tir.Schedule(mod)
    block = _blocks(sch)[0]
    loop = sch.get_loops(block)[0]
    with pytest.raises(AttributeError, match="no attribute 'no_such_primitive'"):
        sch.no_such_primitive
    with pytest.raises(TypeError, match="unexpected argument 'colour'"):
        sch.parallel(loop, colour=1)
    with pytest.raises(tvm.tir.ScheduleError, match="expects handles to tir.for ops"):
        sch.parallel(block)
