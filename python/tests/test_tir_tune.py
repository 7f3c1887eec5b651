"""tir-tune, MetaSchedule from the command line: an .mlir file's functions
tuned, TVM's database and each function's best schedule written (the
latter as a transform script tir-opt replays), the summary per function
and the tuning curve as a PNG; bad arguments refused clearly."""
import os
import subprocess
import sys

import pytest

from tensorir.meta_schedule import tune_cli
from tuning_helpers import KERNELS


def test_tir_tune(tmp_path, capsys):
    source = tmp_path / "kernels.mlir"
    source.write_text(KERNELS)
    png = tmp_path / "curve.png"
    code = tune_cli.main([str(source), "--trials", "6", "--trials-per-iter", "3",
                          "--cost-model", "random", "--target", "llvm -num-cores 1",
                          "--plot", str(png)])
    out = capsys.readouterr().out
    assert code == 0, out
    work = tmp_path / "kernels.tune"
    assert (work / "database_workload.json").exists()
    assert (work / "database_tuning_record.json").exists()
    lines = [line.split() for line in out.splitlines() if line[:3].strip().isdigit()]
    assert sorted(line[1] for line in lines) == ["mm", "scale"]
    # The last batch may pass the total, as in TVM (no more than a batch).
    assert 6 <= sum(int(line[2]) for line in lines) <= 9
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Again with the same total: nothing more to run, the same summary.
    assert tune_cli.main([str(source), "--trials", "6", "--cost-model", "random"]) == 0
    again = capsys.readouterr().out
    assert "0 more to run" in again
    assert [line.split()[:3] for line in again.splitlines()
            if line[:3].strip().isdigit()] == [line[:3] for line in lines]
    best = sorted(os.listdir(work / "best"))
    assert len(best) == 2
    tir_opt = os.path.join(os.path.dirname(os.path.dirname(tune_cli.__file__)), "..", "..",
                           "build", "bin", "tir-opt")
    if os.path.exists(tir_opt):
        for name in best:
            done = subprocess.run([tir_opt, str(work / "best" / name), "--transform-interpreter"],
                                  capture_output=True, text=True)
            assert done.returncode == 0, done.stderr


def test_tir_tune_refuses_bad_arguments(tmp_path, capsys):
    with pytest.raises(SystemExit):
        tune_cli.main([str(tmp_path / "absent.mlir"), "--trials", "4"])
    assert "no such file" in capsys.readouterr().err
    source = tmp_path / "k.mlir"
    source.write_text(KERNELS)
    with pytest.raises(SystemExit):
        tune_cli.main([str(source), "--trials", "0"])
    assert "--trials is a positive number" in capsys.readouterr().err
    broken = tmp_path / "broken.mlir"
    broken.write_text("func.func @f( {")
    assert tune_cli.main([str(broken), "--trials", "2"]) == 1
    assert "tir-tune:" in capsys.readouterr().err
    empty = tmp_path / "empty.mlir"
    empty.write_text("module {}")
    assert tune_cli.main([str(empty), "--trials", "2", "--cost-model", "random"]) == 1
    assert "no function to tune" in capsys.readouterr().err
