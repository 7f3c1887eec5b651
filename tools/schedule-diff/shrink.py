"""Shrinking a failing case to a minimal reproducer, and printing it as a
standalone Python script.

The failing steps are replayed (each replay in its own process, as the
cases run) with steps dropped, then with each step simplified
(Step.simpler: fewer loops, optional arguments left out, smaller factors);
a change is kept when the replay fails in the same way (same outcome, and
for crashes the same reason).
"""
import textwrap
import time

from kernels import FLOAT_ATOL, FLOAT_RTOL, GUARD_BYTE, GUARD_BYTES
from steps import Step


def same_failure(a, b):
    if a[0] != b[0]:
        return False
    return a[0] != "crash" or a[1].split(" in ")[0] == b[1].split(" in ")[0]


def shrink(steps, failure, replay, budget=80, seconds=120.0):
    """The smallest step list (Step) found for which replay(steps) returns
    a failure the same as `failure` ((outcome, reason)); replay runs a case.
    At most `budget` replays and about `seconds` (a timeout costs its whole
    time limit per replay). Returns (steps, number of replays)."""
    runs = 0
    deadline = time.monotonic() + seconds

    def fails(candidate):
        nonlocal runs
        if runs >= budget or time.monotonic() >= deadline:
            return False
        runs += 1
        got = replay(candidate)
        return same_failure(got[:2], failure)

    current = list(steps)
    changed = True
    while changed and runs < budget:
        changed = False
        # Drop halves first, then single steps (the sequences are short).
        for size in (len(current) // 2, 1):
            i = len(current) - size
            while size and i >= 0:
                candidate = current[:i] + current[i + size:]
                if candidate != current and fails(candidate):
                    current, changed = candidate, True
                i -= size
        for i, step in enumerate(current):
            for simpler in step.simpler():
                candidate = current[:i] + [simpler] + current[i + 1:]
                if fails(candidate):
                    current[i], changed = simpler, True
                    break
    return current, runs


def reproducer(kernel, steps, outcome, reason, detail, trace):
    """A standalone Python script that re-runs the failure (exit status 1
    while it fails) and the schedule's trace as Python."""
    lines = []
    uses_bind = any(s.prim == "bind" for s in steps)
    for index, step in enumerate(steps):
        code = step.python()
        last = index == len(steps) - 1
        if outcome == "refusal-changed-ir" and last:
            lines.append("before = sch.mod.mlir()")
            lines.append("try:")
            lines.append(textwrap.indent(code, "    "))
            lines.append('    print("accepted, no refusal")')
            lines.append("except tvm.tir.ScheduleError as error:")
            lines.append('    print("refused:", str(error).splitlines()[0])')
            lines.append('    check(sch.mod.mlir() == before, "the refused step changed the IR")')
        else:
            lines.append(code)
    calls = [[list(a) for a in call] for call in kernel.calls]
    compare = ("np.array_equal(g, e)" if kernel.exact else
               f"np.allclose(g, e, rtol={FLOAT_RTOL}, atol={FLOAT_ATOL})")
    steps_code = "\n".join(lines)
    detail_lines = "\n".join("# " + line for line in detail.splitlines()[:12])
    trace_lines = "\n".join("#   " + line for line in (trace or "").splitlines())
    serial = ""
    if uses_bind:
        serial = ("    # loops bound to GPU threads run serially on the CPU\n"
                  "    module = mod if isinstance(mod, tvm.IRModule) else mod.mod\n"
                  "    text = re.sub(r' thread_binding<\"[^\"]*\">', '', module.mlir())\n"
                  "    mod = tvm.IRModule.from_mlir(text)\n")
    return f'''"""schedule-diff reproducer: {outcome} ({reason}) on kernel {kernel.name}.
Exit status 1 while the failure is there."""
import re
import sys

import numpy as np

import tensorir as tvm
import tensorir.tir.tensor_intrin  # noqa: F401 - the intrinsics tensorize names
from tensorir.script import tir as T

{kernel.source()}
FAILED = []


def check(condition, message):
    if not condition:
        print("FAIL:", message)
        FAILED.append(message)


def guarded(values):
    # The array inside a larger one, {GUARD_BYTES} bytes of {GUARD_BYTE:#x} before
    # and after it: a write outside the array changes them.
    arena = np.full(values.nbytes + {2 * GUARD_BYTES}, {GUARD_BYTE:#x}, np.uint8)
    inner = arena[{GUARD_BYTES}:{GUARD_BYTES} + values.nbytes].view(values.dtype)
    inner = inner.reshape(values.shape)
    inner[...] = values
    return arena, inner


def run(mod):
{serial}    lib = tvm.build(mod)
    results = []
    for index, call in enumerate({calls!r}):
        rng = np.random.default_rng({20261123} + index)
        args, arenas = [], []
        for arg in call:
            if arg[0] == "scalar":
                args.append(arg[1])
                continue
            if arg[2].startswith("int"):
                values = rng.integers(-20, 21, arg[1]).astype(arg[2])
            else:
                values = rng.uniform(-1, 1, arg[1]).astype(arg[2])
            arena, inner = guarded(values)
            args.append(inner)
            arenas.append(arena)
        lib(*args)
        for position, arena in enumerate(arenas):
            guards = np.concatenate([arena[:{GUARD_BYTES}], arena[-{GUARD_BYTES}:]])
            check((guards == {GUARD_BYTE:#x}).all(),
                  f"call {{index}}: array {{position}}: a write outside it")
        results.append([a for a in args if isinstance(a, np.ndarray)])
    return results


sch = tvm.tir.Schedule({kernel.name}, debug_mask="all")
{steps_code}
print("\\n".join(sch.trace.as_python()))
expected, got = run({kernel.name}), run(sch.mod)
for call, (gs, es) in enumerate(zip(got, expected)):
    for position, (g, e) in enumerate(zip(gs, es)):
        check({compare}, f"call {{call}}: array argument {{position}} differs")
sys.exit(1 if FAILED else 0)

# What the tester saw:
{detail_lines}
# The trace as Python:
{trace_lines}
'''


def steps_from_messages(messages, keep_refused=False):
    """The steps a child reported (those it applied, or all)."""
    steps = []
    for message in messages:
        if message[0] == "step" and (keep_refused or message[2] == "accepted"):
            steps.append(Step.from_json(message[1]))
    return steps
