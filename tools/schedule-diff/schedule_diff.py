#!/usr/bin/python3
"""Differential schedule tester: random sequences of schedule primitives over
a corpus of kernels, each scheduled program built and run against the
unscheduled one. See README.md.

    schedule_diff.py --seed 1 --cases 500
    schedule_diff.py --seed 1 --time-limit 120 --jobs 2
    schedule_diff.py --replay failure.json
"""
import argparse
import collections
import json
import os
import random
import re
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from tensorir._ext import ext  # noqa: E402
from case import case_rng, reference_results, run_case  # noqa: E402
from generators import GENERATORS  # noqa: E402
from kernels import KERNELS  # noqa: E402
from sandbox import run_all, run_one  # noqa: E402
from shrink import reproducer, same_failure, shrink  # noqa: E402
from steps import Step  # noqa: E402

FAILURES = ("miscompile", "crash", "refusal-changed-ir", "query-changed-ir", "trace-replay",
            "timeout")
OUTCOMES = ("ok", "refused") + FAILURES


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=0, help="seed of the whole run (default 0)")
    amount = p.add_mutually_exclusive_group()
    amount.add_argument("--cases", type=int, help="number of cases")
    amount.add_argument("--time-limit", type=float, help="run for this many seconds")
    p.add_argument("--jobs", type=int, default=2, help="cases at once (default 2)")
    p.add_argument("--kernels", nargs="+", choices=sorted(KERNELS), metavar="KERNEL",
                   help=f"kernels to use (default all: {', '.join(sorted(KERNELS))})")
    p.add_argument("--primitives", nargs="+", metavar="PRIMITIVE",
                   help="primitives to draw (default every one the extension has)")
    p.add_argument("--max-steps", type=int, default=8, help="steps per case: 1 to this")
    p.add_argument("--case-timeout", type=float, default=30.0,
                   help="seconds a case may take (default 30)")
    p.add_argument("--max-shrinks", type=int, default=6,
                   help="failures shrunk to a reproducer (one per kind of failure)")
    p.add_argument("--shrink-time", type=float, default=120.0,
                   help="seconds spent shrinking one failure (default 120)")
    p.add_argument("--out", help="folder for reproducers (<n>.py) and failing cases (<n>.json)")
    p.add_argument("--replay", help="replay one case from a .json the tester wrote")
    p.add_argument("--quiet", action="store_true", help="no progress lines")
    p.add_argument("--show-refusals", action="store_true",
                   help="also list the most frequent refusal rules per primitive")
    args = p.parse_args(argv)
    if args.cases is None and args.time_limit is None and args.replay is None:
        args.cases = 100
    return args


def primitive_list(requested):
    names = sorted(ext.primitive_names())
    missing = [n for n in names if n not in GENERATORS]
    if missing:
        sys.exit(f"schedule_diff: no generator for {', '.join(missing)} (generators.py)")
    if not requested:
        return names
    unknown = [n for n in requested if n not in names]
    if unknown:
        sys.exit(f"schedule_diff: unknown primitives {', '.join(unknown)}; "
                 f"the extension has {', '.join(names)}")
    return list(requested)


def classify(child):
    """(outcome, reason, detail, extra) of a finished child."""
    result = [m for m in child.messages if m[0] == "result"]
    log = child.log_tail()
    ended = child.ended_by()
    if ended == "timeout":
        return "timeout", f"over {child.time_limit:g} s in {_phase(child)}", log, {}
    if result:
        _, outcome, reason, detail, extra = result[-1]
        return outcome, reason, detail, extra
    errors = [m[1] for m in child.messages if m[0] == "error"]
    if errors:
        return "crash", "python-error", errors[-1] + log, {}
    return "crash", f"{ended} in {_phase(child)}", log, {}


def _phase(child):
    phase = "schedule"
    for m in child.messages:
        if m[0] == "phase":
            phase = m[1]
        elif m[0] == "begin":
            phase = f"step {m[1]['prim']}"
        elif m[0] == "step":
            phase = "schedule"
    return phase


def failing_steps(child, outcome):
    """The applied steps, and the step the failure happened in."""
    steps, pending = [], None
    for m in child.messages:
        if m[0] == "begin":
            pending = Step.from_json(m[1])
        elif m[0] == "step":
            pending = None
            if m[2] == "accepted" or (m[2] in ("refused", "exception") and outcome != "ok"):
                steps.append((Step.from_json(m[1]), m[2]))
    if pending is not None:
        steps.append((pending, "died"))
    # Refused steps are kept only when the failure is in one (the last).
    kept = [s for i, (s, status) in enumerate(steps)
            if status == "accepted" or i == len(steps) - 1]
    return kept


class Stats:
    def __init__(self):
        self.outcomes = collections.Counter()
        self.reasons = collections.Counter()
        self.per_kernel = collections.defaultdict(collections.Counter)
        self.per_primitive = collections.defaultdict(collections.Counter)
        self.serialized = 0
        self.unchanged = 0
        self.steps = 0
        self.refusals = collections.defaultdict(collections.Counter)

    def add(self, kernel, child, outcome, reason, extra):
        self.outcomes[outcome] += 1
        if outcome in FAILURES or reason:
            self.reasons[(outcome, reason)] += 1
        self.per_kernel[kernel][outcome] += 1
        self.serialized += bool(extra.get("serialized"))
        self.unchanged += bool(extra.get("unchanged"))
        involved = set()
        for m in child.messages:
            if m[0] == "step":
                self.per_primitive[m[1]["prim"]][m[2]] += 1
                if m[2] == "refused":
                    self.refusals[m[1]["prim"]][_rule(m[3])] += 1
                involved.add(m[1]["prim"])
                self.steps += 1
        if outcome in FAILURES:
            for prim in involved:
                self.per_primitive[prim]["in failing cases"] += 1


def _rule(message):
    """A refusal's rule: its first line without locations and names."""
    line = message.splitlines()[0] if message else ""
    line = re.sub(r"'[^']*'", "'_'", line)
    return re.sub(r"\d+", "N", line)[:110]


def print_refusals(stats, out=sys.stdout):
    print("\nrefusals by rule", file=out)
    for prim in sorted(stats.refusals):
        for rule, n in stats.refusals[prim].most_common(6):
            print(f"  {prim:<20} {n:>6}  {rule}", file=out)


def print_summary(stats, elapsed, out=sys.stdout):
    total = sum(stats.outcomes.values())
    print(f"\n== schedule-diff: {total} cases, {stats.steps} steps in {elapsed:.1f} s "
          f"({total / max(elapsed, 1e-9):.2f} cases/s); {stats.serialized} ran "
          f"thread-bound loops serially; {stats.unchanged} left the module unchanged "
          f"(not built)", file=out)
    print("\noutcome              cases", file=out)
    for o in OUTCOMES:
        print(f"{o:<20} {stats.outcomes[o]:>6}", file=out)
    if stats.reasons:
        print("\nkinds (failures, and refusals of the build)", file=out)
        for (o, r), n in stats.reasons.most_common():
            print(f"  {o:<20} {n:>5}  {r}", file=out)
    cols = ["accepted", "refused", "skipped", "exception", "in failing cases"]
    print(f"\n{'primitive (steps)':<20}" + "".join(f"{c:>17}" for c in cols), file=out)
    for prim in sorted(stats.per_primitive):
        row = stats.per_primitive[prim]
        print(f"{prim:<20}" + "".join(f"{row[c]:>17}" for c in cols), file=out)
    print(f"\n{'kernel (cases)':<17}" + "".join(f"{o:>19}" for o in OUTCOMES), file=out)
    for name in sorted(stats.per_kernel):
        row = stats.per_kernel[name]
        print(f"{name:<17}" + "".join(f"{row[o]:>19}" for o in OUTCOMES), file=out)


def compute_references(kernels, time_limit):
    refs = {}
    for name in kernels:
        kernel = KERNELS[name]
        child = run_one(lambda send, k=kernel: send(("ref", reference_results(k))), time_limit)
        got = [m for m in child.messages if m[0] == "ref"]
        if not got:
            sys.exit(f"schedule_diff: the unscheduled kernel {name} does not run "
                     f"({child.ended_by()}):\n{child.log_tail()}\n{child.messages}")
        refs[name] = got[0][1]
    return refs


def replay_case(kernel_name, steps, refs, time_limit):
    kernel = KERNELS[kernel_name]
    child = run_one(lambda send: run_case(kernel, refs[kernel_name], [Step.from_json(s.to_json())
                                                                       for s in steps], None, send),
                    time_limit)
    return classify(child) + (child,)


def main(argv=None):
    args = parse_args(argv)
    # Cases check values, not speed: two OpenMP threads per case at most. A
    # thread per core on a many-core host, times --jobs, can exhaust a
    # container's thread limit, and libomp aborts when it cannot start one.
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    primitives = primitive_list(args.primitives)
    kernel_names = args.kernels or sorted(KERNELS)
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    refs = compute_references(kernel_names if not args.replay else
                              [json.load(open(args.replay))["kernel"]], args.case_timeout)
    if args.replay:
        with open(args.replay) as f:
            data = json.load(f)
        steps = [Step.from_json(s) for s in data["steps"]]
        outcome, reason, detail, extra, child = replay_case(data["kernel"], steps, refs,
                                                            args.case_timeout)
        for m in child.messages:
            if m[0] == "step":
                print(f"{m[2]:>9}  {Step.from_json(m[1]).python()}")
        print(f"{outcome}: {reason}\n{detail}")
        return 1 if outcome in FAILURES else 0

    stats = Stats()
    failures = []
    start = time.monotonic()
    stop_at = start + args.time_limit if args.time_limit else None
    progress = {"next": start + 10}

    def tasks():
        index = 0
        while args.cases is None or index < args.cases:
            rng = case_rng(args.seed, index)
            name = rng.choice(kernel_names)
            num_steps = rng.randint(1, args.max_steps)
            step_rng = random.Random(rng.getrandbits(64))
            schedule_seed = rng.getrandbits(31)
            kernel = KERNELS[name]

            def body(send, kernel=kernel, step_rng=step_rng, num_steps=num_steps,
                     schedule_seed=schedule_seed):
                run_case(kernel, refs[kernel.name], None, (step_rng, num_steps, primitives),
                         send, schedule_seed)
            yield body, args.case_timeout, (index, name)
            index += 1

    def on_done(child):
        index, name = child.tag
        outcome, reason, detail, extra = classify(child)
        stats.add(name, child, outcome, reason, extra)
        if outcome in FAILURES:
            failures.append((index, name, outcome, reason, detail, failing_steps(child, outcome)))
            if not args.quiet:
                print(f"case {index} ({name}): {outcome}: {reason}", flush=True)
        now = time.monotonic()
        if not args.quiet and now >= progress["next"]:
            progress["next"] = now + 10
            done = sum(stats.outcomes.values())
            print(f"[{now - start:6.0f} s] {done} cases ({done / (now - start):.2f}/s): "
                  + ", ".join(f"{o} {n}" for o, n in stats.outcomes.most_common()), flush=True)

    run_all(tasks(), max(1, args.jobs), on_done,
            should_stop=lambda: stop_at is not None and time.monotonic() >= stop_at)
    elapsed = time.monotonic() - start

    shrink_failures(failures, refs, args)
    if args.show_refusals:
        print_refusals(stats)
    print_summary(stats, elapsed)
    return 1 if any(stats.outcomes[o] for o in FAILURES) else 0


def shrink_failures(failures, refs, args):
    """Shrinks the first failure of each kind (outcome, reason, kernel) and
    prints its reproducer (written to --out too)."""
    seen = set()
    shrunk = 0
    for index, name, outcome, reason, detail, steps in failures:
        if args.out:
            with open(os.path.join(args.out, f"case-{index}.json"), "w") as f:
                json.dump({"kernel": name, "outcome": outcome, "reason": reason,
                           "steps": [s.to_json() for s in steps]}, f, indent=1)
        key = (outcome, reason.split(" in ")[0] if outcome == "crash" else "", name)
        if key in seen or shrunk >= args.max_shrinks:
            continue
        seen.add(key)
        shrunk += 1

        def replay(candidate):
            return replay_case(name, candidate, refs, args.case_timeout)[:2]

        small, runs = shrink(steps, (outcome, reason), replay, seconds=args.shrink_time)
        outcome2, reason2, detail2, extra2, _ = replay_case(name, small, refs, args.case_timeout)
        note = ""
        if not same_failure((outcome2, reason2), (outcome, reason)):
            note = f" (the last replay gave {outcome2}: flaky?)"
            outcome2, reason2, detail2 = outcome, reason, detail
        script = reproducer(KERNELS[name], small, outcome2, reason2, detail2,
                            extra2.get("trace") or "")
        print(f"\n==== case {index} ({name}): {outcome}: {reason}; shrunk from {len(steps)} "
              f"to {len(small)} steps in {runs} replays{note} ====")
        print("\n".join(detail2.splitlines()[:20]))
        print("---- reproducer ----")
        print(script)
        if args.out:
            with open(os.path.join(args.out, f"repro-{index}.py"), "w") as f:
                f.write(script)
            with open(os.path.join(args.out, f"repro-{index}.json"), "w") as f:
                json.dump({"kernel": name, "outcome": outcome2, "reason": reason2,
                           "steps": [s.to_json() for s in small]}, f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
