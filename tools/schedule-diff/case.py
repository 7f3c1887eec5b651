"""One case, in the child: apply the steps (drawn at random, or given),
check each refusal left the module as it was, build the scheduled module
for the CPU, run it on the kernel's inputs and compare with the reference
(the unscheduled module's results, computed once per kernel).

Messages to the parent (send):
  ("begin", step_json)                  before the step is applied
  ("step", step_json, status, detail)   status: accepted | refused | skipped | exception
  ("phase", name)                       build | run
  ("result", outcome, reason, detail, extra)
Outcomes decided here: ok, refused (some step refused, results equal),
miscompile, crash (a Python exception other than ScheduleError, an internal
error of the schedule, IR that does not verify after a step, a build that
fails), refusal-changed-ir, query-changed-ir, trace-replay (the schedule's
trace, applied again and printed as Python and run, does not give the
scheduled module). The parent adds timeouts and crashes of the process
(signals, exits).
"""
import random
import re

import numpy as np

import tensorir as tvm
from tensorir.tir.schedule.testing import verify_trace_roundtrip
from context import Context
from generators import draw_step
from kernels import FLOAT_ATOL, FLOAT_RTOL, guard_violations, make_arguments
from steps import Step, StepSkipped

ScheduleError = tvm.tir.ScheduleError
INPUT_SEED = 20261123
QUERIES = {"get_block", "get_loops", "get_child_blocks", "get_producers", "get_consumers",
           "get_output_blocks", "sample_categorical", "sample_compute_location"}
_THREAD_BINDING = re.compile(r' thread_binding<"[^"]*">')


class CaseEnd(Exception):
    """The case ends with this outcome (reported by the caller)."""

    def __init__(self, outcome, reason, detail):
        super().__init__(f"{outcome}: {reason}")
        self.outcome, self.reason, self.detail = outcome, reason, detail


def reference_results(kernel):
    """The unscheduled kernel's arrays after each call (the child of the
    parent's reference run)."""
    lib = tvm.build(kernel.func)
    results = []
    for index, call in enumerate(kernel.calls):
        args = make_arguments(call, INPUT_SEED + index)
        lib(*args)
        results.append([a for a in args if isinstance(a, np.ndarray)])
    return results


def _state(sch):
    return sch.mod.mlir(), sch.trace.as_transform_script()


def apply_step(sch, step, send):
    """Applies one step with the transactionality checks; returns its status."""
    try:
        ops = step.resolve(sch)
    except StepSkipped as skipped:
        send(("step", step.to_json(), "skipped", str(skipped)))
        return "skipped"
    before = sch.mod.mlir()
    trace_before = sch.trace.as_transform_script()
    send(("begin", step.to_json()))
    try:
        step.apply(sch, ops)
    except ScheduleError as error:
        message = str(error)
        send(("step", step.to_json(), "refused", message))
        if "does not verify" in message and message.startswith("internal error"):
            raise CaseEnd("crash", "invalid-ir", message)
        after, trace_after = _state(sch)
        if after != before or "refused but changed the IR" in message:
            raise CaseEnd("refusal-changed-ir", step.prim,
                          f"{message}\n--- IR before ---\n{before}\n--- IR after ---\n{after}")
        # (sample_perfect_tile's sample stays when the split after it is refused)
        if trace_after != trace_before and step.prim != "sample_perfect_tile":
            raise CaseEnd("refusal-changed-ir", step.prim,
                          f"the trace changed:\n{trace_before}\n---\n{trace_after}")
        if message.startswith("internal error"):
            raise CaseEnd("crash", "internal-error", message)
        return "refused"
    except Exception as error:  # noqa: BLE001 - any other exception is a crash
        import traceback
        send(("step", step.to_json(), "exception", repr(error)))
        raise CaseEnd("crash", f"exception {type(error).__name__}",
                      traceback.format_exc()) from None
    send(("step", step.to_json(), "accepted", ""))
    if step.prim in QUERIES and sch.mod.mlir() != before:
        raise CaseEnd("query-changed-ir", step.prim, f"{step.python()}\nchanged the module")
    return "accepted"


def generate_and_apply(sch, kernel, rng, num_steps, primitives, send):
    statuses = []
    for _ in range(num_steps):
        step = None
        for _attempt in range(10):
            step = draw_step(Context(sch, rng, kernel.blocks), primitives)
            if step is not None:
                break
        if step is None:
            continue
        statuses.append(apply_step(sch, step, send))
    return statuses


def _build_scheduled(mod, send):
    """The scheduled module built for the CPU; loops bound to GPU threads are
    first checked to be refused by the CPU build, then run serially (see
    README: a serial run checks the values, not the absence of races)."""
    text = mod.mlir()
    send(("phase", "build"))
    if _THREAD_BINDING.search(text):
        try:
            tvm.build(mod)
            raise CaseEnd("crash", "thread-bound-built",
                          "the CPU build accepted loops bound to GPU threads")
        except ValueError as error:
            if "cannot be software-pipelined" in str(error):
                raise CaseEnd("refused", "build: software pipeline", str(error)) from None
            if "thread" not in str(error):
                raise CaseEnd("crash", "build-failed", str(error)) from None
        mod = tvm.IRModule.from_mlir(_THREAD_BINDING.sub("", text))
    try:
        return tvm.build(mod)
    except ValueError as error:
        message = str(error)
        if "unrolling this loop fully" in message and "exceeds the limit" in message:
            # The documented limit of full unrolling: a refusal, not a crash.
            raise CaseEnd("refused", "build: unroll limit", message) from None
        if "cannot be software-pipelined" in message:
            # A pipeline whose annotations are malformed or would reorder
            # dependent accesses: refused by the build, with the rule.
            raise CaseEnd("refused", "build: software pipeline", message) from None
        raise CaseEnd("crash", "build-failed", f"{message}\n--- module ---\n{text}") from None


def _compare(kernel, got, expected, call_index):
    for position, (g, e) in enumerate(zip(got, expected)):
        if kernel.exact or g.dtype.kind in "iub":
            bad = g != e
        else:
            bad = ~np.isclose(g, e, rtol=FLOAT_RTOL, atol=FLOAT_ATOL, equal_nan=True)
        if bad.any():
            where = tuple(int(x) for x in np.argwhere(bad)[0])
            raise CaseEnd("miscompile", f"array {position}",
                          f"call {call_index}: array argument {position} differs in "
                          f"{int(bad.sum())} of {bad.size} elements; first at {where}: "
                          f"got {g[where]!r}, expected {e[where]!r}")


def run_case(kernel, reference, steps, generate, send, schedule_seed=0):
    """The case's body: `generate` is (rng, num_steps, primitives) to draw
    steps, else `steps` (Step list) are replayed."""
    serialized, sch = False, None
    try:
        # TVM takes seeds in [1, 2^31 - 1].
        sch = tvm.tir.Schedule(kernel.func, seed=schedule_seed % 2147483646 + 1,
                               debug_mask="all")
        if generate is not None:
            rng, num_steps, primitives = generate
            statuses = generate_and_apply(sch, kernel, rng, num_steps, primitives, send)
        else:
            statuses = [apply_step(sch, step, send) for step in steps]
        trace = "\n".join(sch.trace.as_python())
        try:  # the trace, applied again and printed as Python and run, gives this module
            verify_trace_roundtrip(sch, kernel.func, text_format="python")
        except ValueError as error:
            raise CaseEnd("trace-replay", "python", f"{error}\n--- trace ---\n{trace}") from None
        mod = sch.mod
        if mod.mlir() == tvm.tir.Schedule(kernel.func).mod.mlir():
            # Nothing changed: the reference is this program's result.
            send(("result", "refused" if "refused" in statuses else "ok", "", "",
                  {"serialized": False, "trace": trace, "unchanged": True}))
            return
        serialized = bool(_THREAD_BINDING.search(mod.mlir()))
        lib = _build_scheduled(mod, send)
        send(("phase", "run"))
        for index, call in enumerate(kernel.calls):
            args = make_arguments(call, INPUT_SEED + index)
            lib(*args)
            outside = guard_violations(args)
            if outside:
                raise CaseEnd("miscompile", "out-of-bounds write",
                              f"call {index}: " + "; ".join(outside))
            _compare(kernel, [a for a in args if isinstance(a, np.ndarray)],
                     reference[index], index)
    except CaseEnd as end:
        trace = "\n".join(sch.trace.as_python()) if sch is not None else ""
        send(("result", end.outcome, end.reason, end.detail,
              {"serialized": serialized, "trace": trace}))
        return
    outcome = "refused" if "refused" in statuses else "ok"
    send(("result", outcome, "", "", {"serialized": serialized, "trace": trace}))


def case_rng(seed, index):
    return random.Random(f"schedule-diff/{seed}/{index}")
