"""The Python examples run and print what they promise."""
import os
import subprocess
import sys

from conftest import BUILD_DIR, ROOT

EXAMPLES = os.path.join(ROOT, "examples", "python")


def run(name, *args):
    result = subprocess.run([sys.executable, os.path.join(EXAMPLES, name), *args],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_blitz():
    out = run("blitz.py")
    # te gives the same block as TVMScript (TVM's names: i0, v_i0).
    assert "v_i0 = T.axis.spatial(8, i0)" in out
    assert "[0. 1. 2. 3. 4. 5. 6. 7.]\n[1. 2. 3. 4. 5. 6. 7. 8.]" in out
    # After split: three loops; after reorder: i_2 outside i_1 (printed as
    # TVM prints them).
    split = out.index("for i_0, i_1, i_2 in T.grid(2, 2, 2):")
    reorder = out.index("for i_0, i_2, i_1 in T.grid(2, 2, 2):")
    assert split < reorder
    assert "vi = T.axis.spatial(8, i_0 * 4 + i_1 * 2 + i_2)" in out[split:]
    # The GPU part: loops bound to blockIdx.x / threadIdx.x, built for cuda;
    # run where there is a GPU, exported otherwise.
    gpu = out.index('for i_0 in T.thread_binding(2, thread="blockIdx.x"):')
    assert 'for i_1 in T.thread_binding(4, thread="threadIdx.x"):' in out[gpu:]
    if "no GPU here" in out:
        assert "built for cuda and exported to" in out
    else:
        assert out.rstrip().endswith("[0. 1. 2. 3. 4. 5. 6. 7.]\n[1. 2. 3. 4. 5. 6. 7. 8.]")


def test_mm_relu():
    out = run("mm_relu.py")
    assert "scheduled == original == numpy" in out


def test_models():
    pytest = __import__("pytest")
    pytest.importorskip("torch", reason="PyTorch (Debian's python3-torch) is not installed")
    out = run("models.py")
    assert "matmul + relu == numpy" in out
    assert "MLP (call_tir) == PyTorch" in out
    assert "MLP (high-level) == PyTorch" in out
    assert "CNN: scheduled conv == original == PyTorch" in out
    # The seed's printed module: main calls the te functions.
    assert "lv = R.call_tir(cls.te_matmul, (A, B), " in out
    assert 'R.nn.conv2d(lv, metadata["relax.expr.Constant"][0]' in out


def test_custom_pass():
    out = run("custom_pass.py")
    # The seed's two printouts: the loop as te makes it, then split by the
    # Python pass into an outer serial loop and an inner vectorized one.
    first = out.index("for i in range(128):")
    second = out.index("for i_outer in range(16):")
    assert first < second
    assert "for i_inner in T.vectorized(8):" in out[second:]
    assert "v_i = T.axis.spatial(128, i_outer * 8 + i_inner)" in out[second:]
    assert "vectorized by the custom pass == numpy" in out


def test_intrinsic_pass():
    out = run("intrinsic_pass.py", os.path.join(BUILD_DIR, "lib", "TIRMarkIntrinsicLoops.so"))
    assert 'for j in T.serial(16, annotations={"pragma_custom_intrin": "vmac"}):' in out
    assert "for k in range(12):" in out  # 12 does not divide by 8: unmarked
    assert "the Python pass and the C++ plugin give the same IR" in out
