"""scripts/check-conformance.py: per-file pass counts from a junit report,
checked against floors that only go up."""
import importlib.util
import os

import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location(
    "check_conformance", os.path.join(ROOT, "scripts", "check-conformance.py"))
checker = importlib.util.module_from_spec(spec)
spec.loader.exec_module(checker)


def junit(path, cases):
    """A junit report (xunit1, as run.sh writes it) of (file stem, outcome)."""
    body = []
    for n, (stem, outcome) in enumerate(cases):
        inner = {"passed": "", "failed": '<failure message="no"/>',
                 "error": '<error message="no"/>', "skipped": '<skipped message="gpu"/>'}[outcome]
        body.append(f'<testcase classname="{stem}" name="t{n}" time="0">{inner}</testcase>')
    path.write_text('<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest">'
                    + "".join(body) + "</testsuite></testsuites>")
    return str(path)


@pytest.fixture
def report(tmp_path):
    return junit(tmp_path / "junit.xml", [
        ("test_split", "passed"), ("test_split", "passed"), ("test_split", "failed"),
        ("test_reorder", "passed"), ("test_reorder", "skipped"), ("test_reorder", "error"),
        ("test_merge", "error"),
    ])


def test_counts(report):
    counts = checker.read_counts(report)
    assert counts["test_split"]["passed"] == 2 and counts["test_split"]["failed"] == 1
    assert counts["test_reorder"]["skipped"] == 1 and counts["test_reorder"]["failed"] == 1
    assert counts["test_merge"]["passed"] == 0


def test_at_or_above_the_floor_passes(report, tmp_path, capsys):
    floor = tmp_path / "floor.txt"
    floor.write_text("# comment\ntest_split 2\ntest_reorder 1  # trailing comment\ntest_merge 0\n")
    assert checker.main(["--junit", report, "--floor", str(floor)]) == 0
    assert "every file at or above its floor" in capsys.readouterr().out


def test_below_the_floor_fails(report, tmp_path, capsys):
    floor = tmp_path / "floor.txt"
    floor.write_text("test_split 3\ntest_reorder 1\ntest_gone 1\n")
    assert checker.main(["--junit", report, "--floor", str(floor)]) == 1
    out = capsys.readouterr().out
    assert "test_split passes 2, below its floor 3" in out
    assert "test_gone passes 0, below its floor 1" in out  # a file that vanished counts 0
    assert "test_reorder" not in out.split("conformance: ")[1]


def test_update_raises_and_never_lowers(report, tmp_path):
    floor = tmp_path / "floor.txt"
    floor.write_text("test_split 1\ntest_reorder 5\n")
    assert checker.main(["--junit", report, "--floor", str(floor), "--update"]) == 0
    floors = checker.read_floors(str(floor))
    # test_merge passes nothing yet: no floor until it does.
    assert floors == {"test_split": 2, "test_reorder": 5}
    # The updated file still passes the check it records... except where the
    # run is below a floor --update refused to lower.
    assert checker.check(checker.read_counts(report), floors) == [("test_reorder", 1, 5)]


def test_malformed_floor_line(tmp_path):
    floor = tmp_path / "floor.txt"
    floor.write_text("test_split two\n")
    with pytest.raises(ValueError, match="floor.txt:1"):
        checker.read_floors(str(floor))


def test_no_report_fails(tmp_path, capsys):
    assert checker.main(["--junit", str(tmp_path / "none.xml"),
                         "--floor", str(tmp_path / "floor.txt")]) == 1
    assert "run ../shared/tvm-tests/run.sh first" in capsys.readouterr().out


def test_project_floor_file_parses():
    floors = checker.read_floors(checker.DEFAULT_FLOOR)
    # The schedule suite's files and, as they pass, the meta_schedule and
    # relax suites' (../shared/tvm-tests/tests: stems of TVM's test files).
    assert floors and all(stem.startswith("test_") and stem.isidentifier() and floor >= 0
                          for stem, floor in floors.items())
    assert any(stem.startswith("test_tir_schedule_") for stem in floors)
