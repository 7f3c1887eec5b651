"""MetaSchedule for a GPU on another machine (bench/gpu/tune_models.py):
candidates sampled and built here, timed there (measure_candidates.py,
here on the stand-in driver, whose every launch takes the same time), the
times committed to a JSONDatabase here and the tuned model built from it.
A small model (build_models.py's mlp) and two schedules per task keep it
short; what the times mean is checked on a GPU (docs/gpu.md)."""
import json
import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT
from test_cuda import FAKE

torch = pytest.importorskip("torch")
if not hasattr(torch, "export"):
    pytest.skip("needs torch >= 2 (torch.export)", allow_module_level=True)

BENCH = os.path.join(ROOT, "bench", "gpu")
PYTHONPATH = os.pathsep.join(p for p in sys.path if p)


def step(*args, **env):
    result = subprocess.run([sys.executable, *args], capture_output=True, text=True,
                            env=dict(os.environ, PYTHONPATH=PYTHONPATH,
                                     **{k: str(v) for k, v in env.items()}), timeout=900)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """The prepared folder (made once); each test works on a copy."""
    folder = str(tmp_path_factory.mktemp("tune") / "prepared")
    step(os.path.join(BENCH, "tune_models.py"), "prepare", folder, "--models", "mlp",
         "--trials", "2")
    return folder


def test_prepare_measure_commit(prepared, tmp_path):
    folder = str(tmp_path / "tune")
    shutil.copytree(prepared, folder)
    with open(os.path.join(folder, "tasks.json")) as f:
        plan = json.load(f)
    tasks = plan["tasks"]
    assert plan["models"] == ["mlp"] and plan["target"]["kind"] == "cuda"
    # Two matmuls (the bias and ReLU fused into the first): a task each,
    # with their sampled schedules and dlight's.
    assert len(tasks) >= 2, tasks
    for name, task in tasks.items():
        assert task["args"] and task["candidates"], name
        assert sum(c["default"] for c in task["candidates"]) == 1, name
        for c in task["candidates"]:
            assert os.path.exists(os.path.join(folder, c["library"]))
    step(os.path.join(BENCH, "measure_candidates.py"), folder, TIR_CUDA_DRIVER=FAKE)
    with open(os.path.join(folder, "measured.json")) as f:
        measured = json.load(f)
    libraries = [c["library"] for t in tasks.values() for c in t["candidates"]]
    assert sorted(measured) == sorted(libraries)
    assert all(isinstance(v, float) for v in measured.values()), measured
    # As a GPU might have measured them: dlight's schedule the fastest of
    # one task, a sampled one of the other, a third failed.
    first, second = list(tasks.values())[:2]
    for c in first["candidates"]:
        measured[c["library"]] = 1e-6 if c["default"] else 2e-6
    for k, c in enumerate(second["candidates"]):
        measured[c["library"]] = 3e-6 if c["default"] else 2e-6 + k * 1e-6
    # The first of the sampled ones fails: the next sampled one is the best
    # where there is one (dlight's otherwise).
    sampled = [c for c in second["candidates"] if not c["default"]]
    measured[sampled[0]["library"]] = "error: too many threads"
    best2 = min(3.0 if c["default"] else 2.0 + k
                for k, c in enumerate(second["candidates"]) if c is not sampled[0])
    with open(os.path.join(folder, "measured.json"), "w") as f:
        json.dump(measured, f)
    out = step(os.path.join(BENCH, "tune_models.py"), "commit", folder)
    names = list(tasks)
    n1, n2 = len(first["candidates"]), len(second["candidates"])
    assert f"{names[0]}: best 1.0 us of {n1} measured, dlight's 1.0 us" in out, out
    assert f"{names[1]}: best {best2:.1f} us of {n2 - 1} measured, dlight's 3.0 us" in out, out
    assert f"built mlp: {len(tasks)} of {len(tasks)} kernels from the database" in out, out
    with open(os.path.join(folder, "database", "database_tuning_record.json")) as f:
        assert sum(1 for _ in f) == len(libraries) - 1  # the failed one has no record
    assert os.path.exists(os.path.join(folder, "models", "model_mlp_tuned.so"))
    assert os.path.exists(os.path.join(folder, "models", "model_mlp_tuned.npz"))


def test_a_faulting_kernel_loses_only_its_candidate(prepared, tmp_path):
    """Every worker's first launch faults (FAKE_CUDA_FAIL_LAUNCH=1: the
    context is lost, as after an illegal address): each candidate is
    measured by a fresh worker, so each gets the fault as its error rather
    than the fault of the one before; commit then finds nothing measured
    and builds the model with dlight's schedules."""
    folder = str(tmp_path / "tune")
    shutil.copytree(prepared, folder)
    out = step(os.path.join(BENCH, "measure_candidates.py"), folder, TIR_CUDA_DRIVER=FAKE,
               FAKE_CUDA_FAIL_LAUNCH=1)
    with open(os.path.join(folder, "tasks.json")) as f:
        tasks = json.load(f)["tasks"]
    with open(os.path.join(folder, "measured.json")) as f:
        measured = json.load(f)
    libraries = [c["library"] for t in tasks.values() for c in t["candidates"]]
    assert sorted(measured) == sorted(libraries)
    for library, value in measured.items():
        assert "CUDA_ERROR_ILLEGAL_ADDRESS" in value, (library, value)
    assert all(f"{task}: 0 of " in out for task in tasks), out
    out = step(os.path.join(BENCH, "tune_models.py"), "commit", folder)
    assert all(f"{task}: nothing measured" in out for task in tasks), out
    assert "built mlp: 0 of" in out, out
