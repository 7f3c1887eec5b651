"""The matmul of bench/ scheduled from the unscheduled program with
primitives only, as bench/matmul_primitives_schedule.mlir does: cache_write
for the local accumulator, cache_read for the packed copy of B (a K x 32
panel per j0 once the build compacts it), then split / reorder /
compute_at / reverse_compute_at / parallel / unroll / vectorize /
decompose_reduction. Checked against numpy at the sizes the issue names:
1024^3, 1000^3 (tiles that do not divide) and 127 x 255 x 63."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from test_bench_staged_matmul import tile_matmul


def matmul(m, n, k):
    text = f'''
@T.prim_func
def matmul(A: T.Buffer(({m}, {k}), "float32"), B: T.Buffer(({k}, {n}), "float32"),
           C: T.Buffer(({m}, {n}), "float32")):
    for i, j, r in T.grid({m}, {n}, {k}):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, r])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
'''
    return tvm.script.from_source(text)


def primitives_schedule(func, packed_layout):
    sch = tvm.tir.Schedule(func)
    c = sch.get_block("C")
    wb = sch.cache_write(c, 0, "local")
    pack = sch.cache_read(c, 1, "global")
    if packed_layout:   # 32-column panels, as the hand-staged program's Bp
        sch.transform_layout(pack, ("write", 0), lambda k, j: (j // 32, k, j % 32))
        sch.transform_block_layout(pack, lambda k, j: (j // 32, k, j % 32))
    return tile_matmul(sch, pack, c, wb)


@pytest.mark.parametrize("m, n, k, packed_layout", [
    (1024, 1024, 1024, True),
    (1024, 1024, 1024, False),
    (1000, 1000, 1000, False),
    (127, 255, 63, False),
])
def test_primitives_only_schedule_matches_numpy(m, n, k, packed_layout):
    sch = primitives_schedule(matmul(m, n, k), packed_layout)
    text = sch.mod.mlir()
    assert '%C_local = tir.alloc_buffer' in text and 'tir.block "B_global"' in text
    rng = np.random.default_rng(m + n + k)
    a = rng.uniform(-1, 1, (m, k)).astype("float32")
    b = rng.uniform(-1, 1, (k, n)).astype("float32")
    c = np.full((m, n), 7.0, "float32")
    tvm.build(sch.mod)["matmul"](a, b, c)
    np.testing.assert_allclose(c, a.astype("float64") @ b.astype("float64"),
                               rtol=1e-4, atol=1e-3)
