"""MLIR -> IR nodes -> MLIR on every example and on the conformance
programs: a function read as nodes (PrimFunc.body) and built again from
them (with_body) is the program its TVMScript parses to."""
import glob
import importlib.util
import os
import sys

import pytest

import tensorir as tvm
from tensorir.script import from_source
from tensorir.script.tir import PrimFunc

from conftest import ROOT

SHARED_TESTS = os.path.join(ROOT, "..", "shared", "tvm-tests")


def round_trip(func):
    """Checks one function; False when it has no TVMScript form (nothing to
    compare: it has no node form either)."""
    try:
        text = func.mod._native.tvmscript()
    except ValueError:
        with pytest.raises(ValueError, match="has no form as IR nodes"):
            func.body
        return False
    reference = from_source(text)
    again = func.with_body(func.body)
    tvm.ir.assert_structural_equal(reference, again)
    # Printing the nodes again gives the same nodes' text.
    assert again.with_body(again.body).script() == again.script()
    return True


def mlir_functions():
    files = sorted(glob.glob(os.path.join(ROOT, "examples", "*.mlir")) +
                   glob.glob(os.path.join(ROOT, "examples", "schedule", "*.mlir")) +
                   [p for p in glob.glob(os.path.join(ROOT, "test", "Target", "TVMScript",
                                                      "*.mlir"))
                    if not p.endswith(("errors.mlir", "graph.mlir"))])
    for path in files:
        text = open(path).read()
        for k, chunk in enumerate(text.split("// -----")):
            if "func.func" not in chunk or "transform.named_sequence" in chunk:
                continue
            mod = tvm.IRModule.from_mlir(chunk, path)
            for name in mod.function_names():
                yield f"{os.path.relpath(path, ROOT)}#{k}:{name}", mod[name]


def test_examples_and_printer_tests_round_trip():
    results = {name: round_trip(func) for name, func in mlir_functions()}
    done = [name for name, ok in results.items() if ok]
    print(f"examples and printer tests: {len(done)} round trips, "
          f"{len(results) - len(done)} without a TVMScript form")
    assert len(done) >= 22, done


def conformance_functions(unimportable):
    """The prim_funcs of TVM's schedule tests. A file that does not import
    (it uses API the package does not have yet: the conformance floors
    count those) is listed in `unimportable` and left out."""
    sys.path.insert(0, os.path.join(SHARED_TESTS, "shim"))
    try:
        for path in sorted(glob.glob(os.path.join(SHARED_TESTS, "tests",
                                                  "test_tir_schedule_*.py"))):
            spec = importlib.util.spec_from_file_location(
                "roundtrip_" + os.path.basename(path)[:-3], path)
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except Exception as e:  # noqa: BLE001 - any failure of TVM's file
                unimportable.append(f"{os.path.basename(path)}: {type(e).__name__}")
                continue
            for key, value in vars(module).items():
                if isinstance(value, PrimFunc):
                    yield f"{os.path.basename(path)}:{key}", value
                elif isinstance(value, tvm.IRModule):
                    for name in value.function_names():
                        if isinstance(value[name], PrimFunc):
                            yield f"{os.path.basename(path)}:{key}.{name}", value[name]
    finally:
        sys.path.remove(os.path.join(SHARED_TESTS, "shim"))


@pytest.mark.skipif(not os.path.isdir(SHARED_TESTS), reason="no ../shared/tvm-tests here")
def test_conformance_programs_round_trip():
    failures, done, skipped, unimportable = [], 0, 0, []
    for name, func in conformance_functions(unimportable):
        try:
            if round_trip(func):
                done += 1
            else:
                skipped += 1
        except (AssertionError, ValueError, TypeError) as e:
            failures.append(f"{name}: {str(e).splitlines()[0][:200]}")
    print(f"conformance programs: {done} round trips, {skipped} without a TVMScript form; "
          f"files that do not import: {unimportable}")
    assert not failures, "\n".join(failures)
    assert done >= 300
