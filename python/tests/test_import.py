"""The package is importable by Debian's python3 with no PYTHONPATH, from
any directory (scripts/build.sh registers it with a .pth file)."""
import os
import subprocess


def test_import_without_pythonpath(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    out = subprocess.run(
        ["/usr/bin/python3", "-c",
         "import tensorir as tvm; print(tvm.tir.Schedule.__name__, tvm.build.__name__)"],
        cwd=tmp_path, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "Schedule build"
