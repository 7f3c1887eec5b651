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


def engine_settings(root, build_dir, no_tvm):
    """The environment tir's processes run in (its package on PYTHONPATH)
    and the peers venv's python (None with no_tvm)."""
    tir_env = {"PYTHONPATH": os.pathsep.join([os.path.join(root, "python"),
                                              os.path.join(build_dir, "python")])}
    return tir_env, None if no_tvm else tvm_python(build_dir)
