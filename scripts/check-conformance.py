#!/usr/bin/env python3
"""Checks the conformance run (TVM v0.23's schedule tests, ../shared/tvm-tests/run.sh)
against the floors in test/tvm-conformance-floor.txt: every test file must pass at least
as many tests as its floor. Floors only go up: --update raises each to the file's current
count and never lowers one.

    ../shared/tvm-tests/run.sh                  # leaves junit.xml in ${TMPDIR:-/tmp}/tvm-tests
    scripts/check-conformance.py                # exit 1 if a file passes fewer than its floor
    scripts/check-conformance.py --update       # raise the floors to the current counts
    scripts/check-conformance.py --junit A.xml --junit B.xml   # several runs (the relax
                                                # files run under the venv's python)

The floor file has one line per test file, "<file stem> <floor>"; '#' starts a comment.
Counts come from the junit report run.sh leaves ($TVM_TESTS_OUT, else
${TMPDIR:-/tmp}/tvm-tests, /junit.xml); a file that did not import has no passes.
"""
import argparse
import collections
import os
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_FLOOR = os.path.join(ROOT, "test", "tvm-conformance-floor.txt")
HEADER = """\
# Floors of the conformance run: how many of TVM v0.23's tests (schedule, meta_schedule,
# relax) (../shared/tvm-tests/run.sh, the plain run, not TOLERANT=1; the relax files under
# the venv's python, as scripts/test.sh runs them) each file must pass.
# scripts/test.sh fails when a file passes fewer; scripts/check-conformance.py --update
# raises the floors to the current counts (it never lowers one).
"""


def default_junit():
    out = os.environ.get("TVM_TESTS_OUT") or os.path.join(
        os.environ.get("TMPDIR") or "/tmp", "tvm-tests")
    return os.path.join(out, "junit.xml")


def read_counts(junit_path):
    """{file stem: Counter(passed=, failed=, skipped=)} from a junit report."""
    root = ET.parse(junit_path).getroot()
    counts = collections.defaultdict(collections.Counter)
    for case in root.iter("testcase"):
        stem = (case.get("classname") or case.get("file") or "?").split(".")[0]
        kind = "passed"
        for child in case:
            if child.tag in ("failure", "error"):
                kind = "failed"
            elif child.tag == "skipped" and kind != "failed":
                kind = "skipped"
        counts[stem][kind] += 1
    return counts


def read_floors(path):
    """{file stem: floor}, in the file's order."""
    floors = {}
    if not os.path.exists(path):
        return floors
    with open(path) as f:
        for number, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            parts = text.split()
            if len(parts) != 2 or not parts[1].isdigit():
                raise ValueError(f"{path}:{number}: expected '<file stem> <floor>', got {line.strip()!r}")
            floors[parts[0]] = int(parts[1])
    return floors


def write_floors(path, floors):
    with open(path, "w") as f:
        f.write(HEADER)
        for stem in sorted(floors):
            f.write(f"{stem} {floors[stem]}\n")


def check(counts, floors):
    """The files that pass fewer tests than their floor: [(stem, passed, floor)]."""
    return [(stem, counts.get(stem, collections.Counter())["passed"], floor)
            for stem, floor in floors.items()
            if counts.get(stem, collections.Counter())["passed"] < floor]


def update(counts, floors):
    """Floors raised to the current counts (never lowered); new files added
    once they pass a test (a floor of 0 guards nothing)."""
    raised = dict(floors)
    for stem, c in counts.items():
        if stem in raised or c["passed"] > 0:
            raised[stem] = max(raised.get(stem, 0), c["passed"])
    return raised


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--junit", action="append",
                        help="a run's junit report (repeatable: a file's counts come from "
                             "the last report that ran it); default: the plain run's")
    parser.add_argument("--floor", default=DEFAULT_FLOOR, help="the floor file")
    parser.add_argument("--update", action="store_true",
                        help="raise the floors to the current counts (never lower them)")
    args = parser.parse_args(argv)
    counts = {}
    for junit in args.junit or [default_junit()]:
        try:
            counts.update(read_counts(junit))
        except (OSError, ET.ParseError) as error:
            print(f"conformance: no report to check ({error}); run "
                  "../shared/tvm-tests/run.sh first")
            return 1
    floors = read_floors(args.floor)
    if args.update:
        raised = update(counts, floors)
        write_floors(args.floor, raised)
        added = sorted(s for s in raised if s not in floors)
        changed = sorted(s for s in floors if raised[s] != floors[s])
        print(f"conformance: {len(changed)} floor(s) raised, {len(added)} file(s) added in "
              f"{os.path.relpath(args.floor)}"
              + "".join(f"\n  {s}: {floors[s]} -> {raised[s]}" for s in changed)
              + "".join(f"\n  {s}: {raised[s]} (new)" for s in added))
        return 0
    drops = check(counts, floors)
    for stem, passed, floor in drops:
        print(f"conformance: {stem} passes {passed}, below its floor {floor}")
    unlisted = sorted(s for s in counts if s not in floors and counts[s]["passed"])
    if unlisted:
        print(f"conformance: files with passes and no floor ({', '.join(unlisted)}); "
              "record them with scripts/check-conformance.py --update")
    total = sum(c["passed"] for c in counts.values())
    print(f"conformance: {total} passed; "
          + (f"{len(drops)} file(s) below their floor" if drops
             else f"every file at or above its floor ({len(floors)} floors)"))
    return 1 if drops else 0


if __name__ == "__main__":
    sys.exit(main())
