"""Loop partitioning (--tir-partition-loops, TVM's LoopPartition, run by
the CPU build): a GEMM tiled by sizes that do not divide it computes what
numpy does, and its main parts lose the predicate the tiling put on them
(only the tails keep it), so that the micro-kernel keeps its accumulators in
registers at odd sizes as at square ones."""
import os
import re
import subprocess
import sys

import numpy as np
import pytest

import tensorir as tvm

from conftest import ROOT, built_tool

sys.path.insert(0, os.path.join(ROOT, "bench"))
sys.path.insert(0, os.path.join(ROOT, "bench", "gpu"))
import gemm_schedule  # noqa: E402
import programs  # noqa: E402

# (M, N, K) and the tiles (mr, nr, mc, nc, kc, lanes): none divides.
CASES = [
    ((127, 255, 63), (8, 32, 64, 128, 32, 16)),
    ((100, 100, 100), (8, 32, 48, 64, 48, 16)),
    ((33, 17, 70), (6, 16, 12, 32, 32, 8)),
    ((64, 64, 64), (8, 32, 64, 64, 32, 16)),  # divides: nothing to cut
]


def packed(shape, tiles):
    m, n, k = shape
    return gemm_schedule.schedule_packed(tvm, programs.matmul(m, n, k), "get_block", shape,
                                         tiles=tiles)


@pytest.mark.parametrize("shape,tiles", CASES, ids=lambda c: "x".join(map(str, c)))
def test_packed_gemm_matches_numpy(shape, tiles):
    m, n, k = shape
    rng = np.random.default_rng(1)
    a = rng.standard_normal((m, k)).astype("float32")
    b = rng.standard_normal((k, n)).astype("float32")
    c = tvm.nd.array(np.full((m, n), np.nan, "float32"))
    tvm.build(packed(shape, tiles))["gemm"](tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a.astype("float64") @ b, rtol=1e-4, atol=1e-4)


def partitioned(mod):
    tir_opt = built_tool("tir-opt")
    if tir_opt is None:
        pytest.skip("tir-opt is not built")
    out = subprocess.run([tir_opt, "--tir-partition-loops", "-"], input=mod.mlir(),
                         capture_output=True, text=True, check=True)
    return out.stdout


def updates(text):
    """The predicate of each C_update block of `text` (None if it has none)."""
    found = []
    for line in text.splitlines():
        if 'tir.block "C_update"' in line:
            match = re.search(r"where\((.*?)\) reads", line)
            found.append(match.group(1) if match else None)
    return found


def test_main_parts_lose_the_predicate():
    before = updates(packed((1000, 1000, 1000), (8, 32, 128, 256, 256, 16)).mlir())
    assert len(before) == 1 and "and" in before[0]
    after = updates(partitioned(packed((1000, 1000, 1000), (8, 32, 128, 256, 256, 16))))
    # 1000 = 7 * 128 + 104 rows (13 whole micro-tiles), 3 * 256 + 232
    # columns (7 whole panels of 32 and one of 8), 3 * 256 + 232 of k:
    # only the copies for the last panel keep a predicate, and only on the
    # vector lanes of its columns (the rows' and k's are gone).
    assert len(after) > 1 and None in after
    for predicate in after:
        if predicate is not None:
            assert " and " not in predicate and "j_2_1" in predicate, predicate


def test_divisible_gemm_is_left_alone():
    mod = packed((64, 64, 64), (8, 32, 64, 64, 32, 16))
    text = partitioned(mod)
    assert updates(text) == [None]
    assert len(re.findall(r"tir\.for", text)) == len(re.findall(r"tir\.for", mod.mlir()))
