"""tvm.tir.schedule.testing: checks for tests of schedules.

verify_trace_roundtrip replays a schedule's trace, in each of its forms, on
the module the schedule started from and checks that every replay gives the
schedule's result. assert_structural_equal_ignore_global_symbol compares two
functions whatever their names.
"""
import difflib
import os
import shutil
import subprocess
import tempfile

from ..._ext import ext
from ...ir import IRModule, assert_structural_equal
from .schedule import Schedule, ScheduleError

__all__ = ["verify_trace_roundtrip", "assert_structural_equal_ignore_global_symbol"]

TEXT_FORMATS = ("python", "transform", "json")


def _tir_opt():
    """$TIR_OPT, or the tir-opt that came with the extension (build/bin next
    to build/python; in an installed tree bin/ of the prefix whose
    lib/python3/dist-packages holds it), or the first on PATH; None if
    none."""
    candidates = [os.environ.get("TIR_OPT")]
    ext_file = getattr(ext, "__file__", None)
    if ext_file:
        here = os.path.dirname(os.path.abspath(ext_file))
        candidates.append(os.path.join(os.path.dirname(here), "bin", "tir-opt"))
        candidates.append(os.path.join(here, "..", "..", "..", "bin", "tir-opt"))
    candidates.append(shutil.which("tir-opt"))
    for path in candidates:
        if path and os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def _assert_same(replayed, expected, how):
    """Raises ValueError unless the replayed module is the schedule's.

    Both come from one module through the same deterministic primitives, so
    equal MLIR text is the expected outcome; when the texts differ,
    structural equality decides (if the extension has it), else the
    difference is reported."""
    if replayed.mlir() == expected.mlir():
        return
    if hasattr(ext, "structural_equal"):
        try:
            assert_structural_equal(replayed, expected)
            return
        except ValueError as error:
            raise ValueError(f"{how} does not give the schedule's module: {error}") from None
    diff = "\n".join(difflib.unified_diff(
        expected.mlir().splitlines(), replayed.mlir().splitlines(),
        "the schedule's module", f"after {how}", lineterm=""))
    raise ValueError(f"{how} does not give the schedule's module:\n{diff}")


def _function_variables(mod):
    """The scalar parameters and shape variables of the functions of `mod`
    (an IRModule or a PrimFunc), by name: what the index maps of a trace
    name (TVM's free variables, `lambda i: i * n`)."""
    from ..expr import Var
    from ..function import PrimFunc
    funcs = [mod] if isinstance(mod, PrimFunc) else list(mod.functions.values())
    found = {}
    for func in funcs:
        if not isinstance(func, PrimFunc):
            continue
        for param in func.params:
            buffer = func.buffer_map.get(param)
            for dim in ([param] if buffer is None else list(buffer.shape)):
                if isinstance(dim, Var):
                    found.setdefault(dim.name, dim)
    return found


def _replay_python(sch, mod, debug_mask):
    from ... import tir
    from ...script import tir as T
    text = "\n".join(sch.trace.as_python())
    code = compile(text, "<trace as Python>", "exec")

    def replay(extra):
        new_sch = Schedule(mod, debug_mask=debug_mask)
        namespace = dict(vars(tir))
        namespace.update(extra)
        namespace.update({"T": T, "sch": new_sch})
        exec(code, namespace)  # noqa: S102
        return new_sch

    try:
        try:
            new_sch = replay({})
        except NameError:
            # An index map names a variable of the function (`n`): defined
            # for a second replay (looked up only then: it reads the
            # function's nodes).
            new_sch = replay(_function_variables(mod))
    except ScheduleError as error:
        raise ValueError(f"replaying the trace printed as Python fails: {error}") from None
    _assert_same(new_sch.mod, sch.mod, "replaying the trace printed as Python")
    if "\n".join(new_sch.trace.as_python()) != text:
        raise ValueError("the replayed schedule's trace prints differently:\n"
                         f"{text}\n---\n" + "\n".join(new_sch.trace.as_python()))
    return new_sch


def _replay_json(sch, mod, debug_mask):
    """The trace as JSON (through its text, as a database keeps it), read
    back and applied to a new Schedule: the same module, and the same JSON
    again."""
    import json
    from .trace import Trace
    data = sch.trace.as_json()
    new_sch = Schedule(mod, debug_mask=debug_mask)
    try:
        Trace.apply_json_to_schedule(json.loads(json.dumps(data)), new_sch)
    except ScheduleError as error:
        raise ValueError(f"replaying the trace as JSON fails: {error}") from None
    _assert_same(new_sch.mod, sch.mod, "replaying the trace as JSON")
    if new_sch.trace.as_json() != data:
        raise ValueError("the trace replayed from JSON gives other JSON")
    return new_sch


def _replay_transform_script(sch, mod, debug_mask, required):
    tir_opt = _tir_opt()
    if tir_opt is None:
        if required:
            raise FileNotFoundError("verify_trace_roundtrip: no tir-opt to replay the "
                                    "transform script with (set TIR_OPT)")
        return
    script = sch.trace.as_transform_script()
    start = Schedule(mod, debug_mask=debug_mask).mod  # the module as the schedule got it
    with tempfile.TemporaryDirectory() as tmp:
        source = os.path.join(tmp, "input.mlir")
        library = os.path.join(tmp, "schedule.mlir")
        with open(source, "w") as f:
            f.write(start.mlir())
        with open(library, "w") as f:
            f.write(script)
        run = subprocess.run(
            [tir_opt, source, f"--transform-preload-library=transform-library-paths={library}",
             "--transform-interpreter"], capture_output=True, text=True)
    if run.returncode != 0:
        raise ValueError(f"tir-opt could not replay the transform script:\n{run.stderr}\n"
                         f"the script:\n{script}")
    _assert_same(IRModule.from_mlir(run.stdout, "<tir-opt>"), sch.mod,
                 "replaying the transform script with tir-opt")


def verify_trace_roundtrip(sch, mod, *, debug_mask="all", text_format=None):
    """Checks that sch's trace replays to sch's result, and returns the
    schedule of the replay (TVM's verify_trace_roundtrip).

    sch: the Schedule; mod: the IRModule or PrimFunc it was made from.
    The trace is applied to a new Schedule of `mod` (trace.apply_to_schedule),
    then replayed in each text format: "python" (trace.as_python(), run with
    exec on a new Schedule, the functions' scalar parameters and shape
    variables defined by name for the index maps that use them; the
    replay's trace must print the same),
    "transform" (trace.as_transform_script(), run by tir-opt on the module)
    and "json" (trace.as_json() through JSON text, applied with
    Trace.apply_json_to_schedule; the replay's JSON must be the same).
    text_format: a format or a list of them; by default all, the transform
    script only where a tir-opt is found (named text formats are required).
    Each replay must give a module equal to sch.mod, else ValueError."""
    required = text_format is not None
    formats = (list(TEXT_FORMATS) if text_format is None
               else [text_format] if isinstance(text_format, str) else list(text_format))
    for fmt in formats:
        if fmt not in TEXT_FORMATS:
            raise ValueError(f"text_format: {fmt!r} is not one of {', '.join(TEXT_FORMATS)}")
    new_sch = Schedule(mod, debug_mask=debug_mask)
    try:
        sch.trace.apply_to_schedule(new_sch, remove_postproc=False)
    except ScheduleError as error:
        raise ValueError(f"applying the trace again fails: {error}") from None
    _assert_same(new_sch.mod, sch.mod, "applying the trace again")
    if "python" in formats:
        new_sch = _replay_python(sch, mod, debug_mask)
    if "transform" in formats:
        _replay_transform_script(sch, mod, debug_mask, required=required)
    if "json" in formats:
        _replay_json(sch, mod, debug_mask)
    return new_sch


def assert_structural_equal_ignore_global_symbol(func1, func2, *args, **kwargs):
    """tvm.ir.assert_structural_equal of two PrimFuncs whatever their global
    symbols (their names here). tvm.ir.assert_structural_equal already
    compares PrimFuncs by their bodies; this keeps TVM's spelling, and also
    takes two IRModules of one function each, compared by that function."""
    func1, func2 = (_only_function(f) for f in (func1, func2))
    assert_structural_equal(func1.with_attr("global_symbol", "main"),
                            func2.with_attr("global_symbol", "main"), *args, **kwargs)


def _only_function(value):
    if isinstance(value, IRModule):
        names = list(value)
        if len(names) != 1:
            raise ValueError(f"expected a PrimFunc or a module of one function, got a module "
                             f"of {len(names)}")
        return value[names[0]]
    return value
