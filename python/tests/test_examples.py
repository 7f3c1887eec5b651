"""The Python examples run and print what they promise."""
import os
import subprocess
import sys

from conftest import ROOT

EXAMPLES = os.path.join(ROOT, "examples", "python")


def run(name):
    result = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_blitz():
    out = run("blitz.py")
    assert "for i_0 in range(2):" in out              # after split
    assert "vi = T.axis.spatial(8, i_1 + (i_0 * 4))" in out
    assert out.index("for i_0 in range(2):") < out.index("[1. 2. 3. 4. 5. 6. 7. 8.]")
    assert out.rstrip().endswith("[1. 2. 3. 4. 5. 6. 7. 8.]")


def test_mm_relu():
    out = run("mm_relu.py")
    assert "scheduled == original == numpy" in out
