import os

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture
def example():
    """Reads examples/<name>.mlir as an IRModule."""
    import tensorir as tvm

    def load(name):
        return tvm.IRModule.load(os.path.join(ROOT, "examples", name + ".mlir"))

    return load
