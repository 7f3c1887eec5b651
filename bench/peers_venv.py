"""The virtual environment of the peers the benchmarks run beside tir: the
apache-tvm wheel from PyPI (0.27) with apache-tvm-ffi 0.1.14.post1 (0.1.15's
save_json crashes MetaSchedule) and what TVM's tuner imports (xgboost,
psutil, cloudpickle), under the build folder, made once. Never a dependency
of the package."""
import os
import subprocess

PACKAGES = ["apache-tvm", "apache-tvm-ffi==0.1.14.post1", "xgboost", "psutil", "cloudpickle"]


def tvm_python(build_dir):
    """The peers venv's python (made and filled when missing)."""
    venv = os.path.join(build_dir, "peers-venv")
    python = os.path.join(venv, "bin", "python")
    if not os.path.exists(python):
        subprocess.run(["/usr/bin/python3", "-m", "venv", venv], check=True)
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "--quiet", *PACKAGES],
                   check=True)
    return python
