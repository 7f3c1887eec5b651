"""build, nd.array and calls checked against the signature."""
import os

import numpy as np
import pytest
from conftest import ROOT

import tensorir as tvm


def test_vector_add_arange(example):
    lib = tvm.build(example("vector_add"), target="llvm")
    a = tvm.nd.array(np.arange(8, dtype="float32"))
    b = tvm.nd.array(np.zeros(8, dtype="float32"))
    lib["main"](a, b)
    assert b.numpy().tolist() == [1, 2, 3, 4, 5, 6, 7, 8]


def test_dynamic_length_and_scalar(example):
    lib = tvm.build(example("vector_add_dynamic"))
    a = np.linspace(0, 1, 37, dtype="float32")
    b = np.zeros(37, dtype="float32")
    lib.add_one(37, a, b)
    np.testing.assert_array_equal(b, a + 1)


def test_wrong_arguments_name_the_argument(example):
    lib = tvm.build(example("vector_add"))
    with pytest.raises(ValueError, match=r"argument 0 \('A'\) of 'main': expected shape \[8\], got \[4\]"):
        lib["main"](np.zeros(4, "float32"), np.zeros(8, "float32"))
    with pytest.raises(ValueError, match=r"argument 1 \('B'\) of 'main': expected element type float32, got int32"):
        lib["main"](np.zeros(8, "float32"), np.zeros(8, "int32"))
    with pytest.raises(ValueError, match="takes 2 arguments, got 1"):
        lib["main"](np.zeros(8, "float32"))
    with pytest.raises(KeyError, match="no function named 'nope'"):
        lib["nope"]
    big = np.zeros(8, ">f4" if np.little_endian else "<f4")
    with pytest.raises(ValueError, match="argument 0 is (big|little)-endian"):
        lib["main"](big, np.zeros(8, "float32"))
    with pytest.raises(TypeError, match="numpy kind 'O'"):
        lib["main"](np.zeros(8, object), np.zeros(8, "float32"))


def test_strided_views_are_checked(example):
    lib = tvm.build(example("vector_add"))
    wide = np.zeros(16, "float32")
    with pytest.raises(ValueError, match="expected strides"):
        lib["main"](np.zeros(8, "float32"), wide[::2])


def test_export_and_load(example, tmp_path):
    lib = tvm.build(example("matmul_relu"))
    path = str(tmp_path / "matmul_relu.so")
    lib.export_library(path)
    loaded = tvm.load_module(path)
    a = np.random.default_rng(0).uniform(-1, 1, (128, 128)).astype("float32")
    b = np.random.default_rng(1).uniform(-1, 1, (128, 128)).astype("float32")
    d = np.zeros((128, 128), "float32")
    loaded["matmul_relu"](a, b, d)
    np.testing.assert_allclose(d, np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)


def test_time_evaluator(example):
    lib = tvm.build(example("matmul"))
    a, b, c = (np.ones((128, 128), "float32") for _ in range(3))
    result = lib.time_evaluator("matmul", tvm.cpu(0), number=3, repeat=2)(a, b, c)
    assert len(result.results) == 2 and result.mean > 0


def test_parse_error_is_located():
    with pytest.raises(ValueError, match=r"bad\.mlir:1:\d+: error"):
        tvm.IRModule.from_mlir("func.func @f(", "bad.mlir")


def test_unknown_cpu_and_feature_are_errors_not_crashes(example):
    # LLVM would end the process on some unknown CPUs; tir refuses first.
    import subprocess
    import sys
    code = ("import tensorir as tvm\n"
            f"mod = tvm.IRModule.load({os.path.join(ROOT, 'examples', 'vector_add.mlir')!r})\n"
            "for target in ('llvm -mcpu=notacpu',):\n"
            "    try:\n"
            "        tvm.build(mod, target=target)\n"
            "    except ValueError as e:\n"
            "        print('refused:', str(e).splitlines()[0])\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "unknown CPU 'notacpu'" in run.stdout
