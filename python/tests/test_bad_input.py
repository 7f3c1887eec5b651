"""Bad input from Python, C and the command line (issue 12, "Bad input").

Every case runs in its own process, so that a crash is a failed case and
not a dead pytest. A case passes when the process ends normally and:
- Python and C API cases: the user's code raised the expected exception
  (the C API cases raise CAPIError when a call returns its error code),
  whose message matches the case's regex and, where the case marks a line
  of the user's code with `# <-`, names that line (user.py:<line>);
- tool cases: the tool exited with a non-zero status (not a signal) and
  its error output matches the regex.

The cases are data, by concept: bad_input_cases_script.py (TVMScript and
MLIR text), bad_input_cases_api.py (schedules, build, calls) and
bad_input_cases_native.py (the tools and the C API); bad_input_case.py says
what a case is. The tools and the C API library are the build folder's
(conftest.py: $TIR_BUILD_DIR, else build).

`python3 python/tests/test_bad_input.py --table` prints the table as
Markdown; `--write-doc` writes it to docs/bad-input.md, which
test_doc_is_up_to_date keeps in step with the cases.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

import pytest

import bad_input_cases_api
import bad_input_cases_native
import bad_input_cases_script
from bad_input_case import CAPI_PRELUDE, PRELUDE
from conftest import BIN_DIR, ROOT

CASES = bad_input_cases_script.CASES + bad_input_cases_api.CASES + bad_input_cases_native.CASES
DOC = os.path.join(ROOT, "docs", "bad-input.md")
REGENERATE = "/usr/bin/python3 python/tests/test_bad_input.py --write-doc"


def _user_line(code):
    """The line `# <-` marks in the user's file (prelude included)."""
    for number, line in enumerate(code.splitlines(), 1):
        if line.rstrip().endswith("# <-"):
            return number
    return None


_RUNNER = r'''
import json, runpy, sys, traceback
try:
    runpy.run_path(sys.argv[1], run_name="__main__")
    result = {"type": None}
except BaseException as e:  # noqa: BLE001 - every exception is reported
    result = {"type": type(e).__name__, "mro": [c.__name__ for c in type(e).__mro__],
              "message": str(e), "traceback": traceback.format_exc()}
print("@@RESULT@@" + json.dumps(result))
'''


def run_case(case, tmp):
    """Runs one case in its own process; returns a list of problems (empty
    when it behaved)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    if case.kind == "tool":
        for name, data in case.files.items():
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        argv = [a.format(bin=BIN_DIR, tmp=tmp, root=ROOT) for a in case.argv]
        proc = subprocess.run(argv, cwd=tmp, capture_output=True, timeout=300, env=env)
        stderr = proc.stderr.decode(errors="replace")
        problems = []
        if proc.returncode <= 0 or proc.returncode >= 128:
            problems.append(f"exit status {proc.returncode} (expected a clean non-zero exit)")
        if not re.search(case.message, stderr):
            problems.append(f"stderr does not match {case.message!r}:\n{stderr[-2000:]}")
        return problems
    prelude = CAPI_PRELUDE if case.kind == "capi" else PRELUDE
    source = prelude + case.code + "\n"
    path = os.path.join(tmp, "user.py")
    with open(path, "w") as f:
        f.write(source)
    proc = subprocess.run([sys.executable, "-c", _RUNNER, path], cwd=tmp, capture_output=True,
                          timeout=300, env=env)
    out = proc.stdout.decode(errors="replace")
    if proc.returncode != 0 or "@@RESULT@@" not in out:
        return [f"the process ended with status {proc.returncode}:\n"
                f"{proc.stderr.decode(errors='replace')[-3000:]}"]
    result = json.loads(out.split("@@RESULT@@", 1)[1])
    if result["type"] is None:
        return ["no exception was raised"]
    problems = []
    if case.expect not in result["mro"]:
        problems.append(f"raised {result['type']}, expected {case.expect}")
    if not re.search(case.message, result["message"]):
        problems.append(f"message does not match {case.message!r}: {result['message']!r}")
    line = _user_line(source)
    if line is not None and f"user.py:{line}:" not in result["message"]:
        problems.append(f"message does not point at user.py:{line}: {result['message']!r}")
    if problems:
        problems.append(result["traceback"][-3000:])
    return problems


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case):
    with tempfile.TemporaryDirectory() as tmp:
        problems = run_case(case, tmp)
    assert not problems, "\n".join(problems)


def test_names_are_unique_and_the_suite_is_large_enough():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    assert len(CASES) >= 60


def table():
    """The cases as a Markdown table."""
    rows = ["| Case | Input | Expected | Message (regex) |", "|---|---|---|---|"]
    for c in CASES:
        where = {"py": "Python", "capi": "C API", "tool": "tool"}[c.kind]
        expect = "non-zero exit" if c.expect == "exit" else c.expect
        if c.kind == "capi":
            expect = "error code (CAPIError)"
        message = c.message.replace("|", "\\|")
        line = " (at the user's line)" if _user_line(PRELUDE + c.code) else ""
        rows.append(f"| `{c.name}` | {where}: {c.summary} | {expect}{line} | `{message}` |")
    return "\n".join(rows)


def document():
    """docs/bad-input.md: a header saying how it is made, then the table."""
    return f"""# Bad input: the cases

Generated from the cases in `python/tests/bad_input_cases_*.py` by
`{REGENERATE}` (from the
repository root); do not edit by hand. `test_bad_input.py` runs each case
in its own process (see [reliability.md](reliability.md), "Bad input from
Python, C and the tools") and fails while this file differs from the cases.
{len(CASES)} cases.

{table()}
"""


def test_doc_is_up_to_date():
    committed = ""
    if os.path.exists(DOC):
        with open(DOC, encoding="utf-8") as f:
            committed = f.read()
    assert committed == document(), (
        f"docs/bad-input.md is out of date with the cases; regenerate it: {REGENERATE}")


if __name__ == "__main__":
    if "--table" in sys.argv:
        print(table())
    elif "--write-doc" in sys.argv:
        with open(DOC, "w", encoding="utf-8") as f:
            f.write(document())
        print(f"wrote {os.path.relpath(DOC)} ({len(CASES)} cases)")
    else:
        print(__doc__)
