"""rolling_buffer, decompose_padding and pad_einsum through tir.Schedule:
the IR they leave, the same numbers as the unscheduled program, and
refusals that leave the IR as it was."""
import re

import numpy as np
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


@T.prim_func
def box_blur(A: T.Buffer((20, 20), "float32"), C: T.Buffer((16, 16), "float32")):
    # Two 3x3 box sums in a row: B (18 x 18) from A, C (16 x 16) from B.
    B = T.alloc_buffer((18, 18), "float32")
    for i, j, di, dj in T.grid(18, 18, 3, 3):
        with T.block("B"):
            vi, vj, vdi, vdj = T.axis.remap("SSRR", [i, j, di, dj])
            with T.init():
                B[vi, vj] = T.float32(0)
            B[vi, vj] = B[vi, vj] + A[vi + vdi, vj + vdj]
    for i, j, di, dj in T.grid(16, 16, 3, 3):
        with T.block("C"):
            vi, vj, vdi, vdj = T.axis.remap("SSRR", [i, j, di, dj])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + B[vi + vdi, vj + vdj]


def run_blur(mod, seed=0):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 64, (20, 20)).astype("float32")
    c = np.zeros((16, 16), "float32")
    tvm.build(mod)["box_blur"](a, c)
    return a, c


def tile_blur(sch, tile_i, tile_j):
    """C in tiles of tile_i x tile_j rows and columns, B computed per tile."""
    i, j, _, _ = sch.get_loops("C")
    i0, i1 = sch.split(i, [None, tile_i])
    j0, j1 = sch.split(j, [None, tile_j])
    sch.reorder(i0, j0, i1, j1)
    sch.compute_at("B", j0)


@pytest.mark.parametrize("tile_i, tile_j, ring", [(4, 16, "6x18"), (4, 4, "6x18"), (5, 16, "7x18"),
                                                 (1, 16, "3x18")])
def test_rolling_buffer_runs(tile_i, tile_j, ring):
    # Row tiles (5 does not divide 16: a predicated last tile), and tiles
    # in both dimensions (rows roll, columns keep their size).
    sch = tvm.tir.Schedule(box_blur)
    tile_blur(sch, tile_i, tile_j)
    sch.rolling_buffer("B", 0)
    text = sch.mod.mlir()
    assert f"%B = tir.alloc_buffer : memref<{ring}xf32>" in text
    assert "opaque(18," in text
    assert "sch.rolling_buffer(block=b10, write_buffer_index=0)" in str("\n".join(sch.trace.as_python()))
    a, reference = run_blur(box_blur, seed=3)
    _, scheduled = run_blur(sch.mod, seed=3)
    assert np.array_equal(reference, scheduled)
    windows = np.lib.stride_tricks.sliding_window_view
    blur = lambda x: windows(x, (3, 3)).sum(axis=(2, 3))  # noqa: E731
    np.testing.assert_array_equal(scheduled, blur(blur(a)))


@pytest.mark.parametrize("prepare, message", [
    (lambda s: None, "the lowest common ancestor of block 'B' and its consumers is not a loop"),
])
def test_rolling_buffer_refusals_leave_ir(prepare, message):
    sch = tvm.tir.Schedule(box_blur)
    prepare(sch)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match=message):
        sch.rolling_buffer("B", 0)
    assert sch.mod.mlir() == before
    with pytest.raises(tvm.tir.ScheduleError, match="is an output block"):
        sch.rolling_buffer("C", 0)
    assert sch.mod.mlir() == before


@T.prim_func
def pad_sum(X: T.Buffer((2, 12, 12), "float32"), Y: T.Buffer((2, 14, 14), "float32")):
    # Zero padding by 2, then a 3x3 box sum over the padded image.
    P = T.alloc_buffer((2, 16, 16), "float32")
    for c, h, w in T.grid(2, 16, 16):
        with T.block("P"):
            vc, vh, vw = T.axis.remap("SSS", [c, h, w])
            P[vc, vh, vw] = T.if_then_else(2 <= vh and vh < 14 and 2 <= vw and vw < 14,
                                           X[vc, vh - 2, vw - 2], T.float32(-0.5))
    for c, h, w, dh, dw in T.grid(2, 14, 14, 3, 3):
        with T.block("Y"):
            vc, vh, vw, vdh, vdw = T.axis.remap("SSSRR", [c, h, w, dh, dw])
            with T.init():
                Y[vc, vh, vw] = T.float32(0)
            Y[vc, vh, vw] = Y[vc, vh, vw] + P[vc, vh + vdh, vw + vdw]


def run_pad_sum(mod, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, (2, 12, 12)).astype("float32")
    y = np.zeros((2, 14, 14), "float32")
    tvm.build(mod)["pad_sum"](x, y)
    return x, y


def tile_pad_sum(sch):
    c, h, w, _, _ = sch.get_loops("Y")
    h0, h1 = sch.split(h, [None, 5])        # 14 = 5 + 5 + 4: a predicated tile
    sch.reorder(h0, w, h1)
    sch.compute_at("P", h0)


@pytest.mark.parametrize("tiled, at", [(False, 0), (False, 1), (False, 2), (True, 2), (True, 0)])
def test_decompose_padding_runs(tiled, at):
    sch = tvm.tir.Schedule(pad_sum)
    if tiled:
        tile_pad_sum(sch)
    loops = sch.get_loops("P")
    assert sch.can_decompose_padding("P", loops[at])
    fill = sch.decompose_padding("P", loops[at])
    assert sch.get(fill).name_hint == "P_pad_const"
    assert "sch.decompose_padding(block=" in str("\n".join(sch.trace.as_python()))
    text = sch.mod.mlir()
    assert "scf.if" not in text.split('tir.block "P"(')[1].split("tir.block")[0]
    _, reference = run_pad_sum(pad_sum, seed=4)
    _, scheduled = run_pad_sum(sch.mod, seed=4)
    assert np.array_equal(reference, scheduled)


def test_decompose_padding_refusals_leave_ir():
    sch = tvm.tir.Schedule(pad_sum)
    before = sch.mod.mlir()
    y_loops = sch.get_loops("Y")
    assert not sch.can_decompose_padding("P", y_loops[0])
    with pytest.raises(tvm.tir.ScheduleError, match="must be a loop above block 'P'"):
        sch.decompose_padding("P", y_loops[0])
    assert not sch.can_decompose_padding("Y", y_loops[0])
    with pytest.raises(tvm.tir.ScheduleError, match="needs a complete block"):
        sch.decompose_padding("Y", y_loops[0])
    assert sch.mod.mlir() == before
    assert "can_decompose_padding" not in str("\n".join(sch.trace.as_python()))


@T.prim_func
def matmul_127(A: T.Buffer((127, 127), "float32"), B: T.Buffer((127, 127), "float32"),
               C: T.Buffer((127, 127), "float32")):
    for i0, i1, i2 in T.grid(127, 127, 127):
        with T.block("C"):
            i, j, k = T.axis.remap("SSR", [i0, i1, i2])
            with T.init():
                C[i, j] = T.float32(0)
            C[i, j] = C[i, j] + A[i, k] * B[k, j]


@T.prim_func
def rows_exp(x: T.handle, y: T.handle):
    n = T.int32()
    X = T.match_buffer(x, (n, 8), "float32")
    Y = T.match_buffer(y, (n, 8), "float32")
    for i, j in T.grid(n, 8):
        with T.block("Y"):
            vi, vj = T.axis.remap("SS", [i, j])
            Y[vi, vj] = T.exp(X[vi, vj])


def test_pad_einsum_matmul_runs():
    sch = tvm.tir.Schedule(matmul_127)
    sch.pad_einsum("C", [32, 32, 32])
    text = sch.mod.mlir()
    assert "%A_pad = tir.alloc_buffer : memref<128x128xf32>" in text
    assert "sch.pad_einsum(block=b0, padding=[32, 32, 32])" in str("\n".join(sch.trace.as_python()))
    rng = np.random.default_rng(9)
    a, b = (rng.uniform(-1, 1, (127, 127)).astype("float32") for _ in range(2))
    expected, got = np.zeros((127, 127), "float32"), np.full((127, 127), 7, "float32")
    tvm.build(matmul_127)["matmul_127"](a, b, expected)
    tvm.build(sch.mod)["matmul_127"](a, b, got)
    assert np.array_equal(expected, got)


@pytest.mark.parametrize("n", [1, 16, 37])
def test_pad_einsum_runtime_extent_runs(n):
    sch = tvm.tir.Schedule(rows_exp)
    sch.pad_einsum("Y", [16, 1])
    x = np.random.default_rng(n).uniform(-1, 1, (n, 8)).astype("float32")
    y = np.zeros((n, 8), "float32")
    tvm.build(sch.mod)["rows_exp"](x, y)
    np.testing.assert_allclose(y, np.exp(x), rtol=1e-6)


def test_pad_einsum_refusals_leave_ir():
    sch = tvm.tir.Schedule(matmul_127)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match="a positive size for each of the 3"):
        sch.pad_einsum("C", [32, 32])
    with pytest.raises(tvm.tir.ScheduleError, match="a positive size"):
        sch.pad_einsum("C", [32, 0, 32])
    assert sch.mod.mlir() == before
    sch.pad_einsum("C", [1, 127, 127])       # multiples already: no change
    assert sch.mod.mlir() == before


@T.prim_func
def in_place(A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")):
    T1 = T.alloc_buffer((4, 8), "float32")
    for i, j in T.grid(4, 8):
        with T.block("T1"):
            vi, vj = T.axis.remap("SS", [i, j])
            T1[vi, vj] = A[vi, vj] + 1.0
    for i in range(4):
        with T.block("rows"):
            vi = T.axis.spatial(4, i)
            T.reads(T1[vi, 0:8])
            T.writes(T1[vi, 0:8])
            for j in range(8):
                T1[vi, j] = T1[vi, j] * 3.0
    for i, j in T.grid(4, 8):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T1[vi, vj]


def test_cache_inplace_runs():
    sch = tvm.tir.Schedule(in_place)
    copy_in, copy_out = sch.cache_inplace("rows", "T1", "local")
    assert sch.get(copy_in).name_hint == "T1_local" == sch.get(copy_out).name_hint
    assert "sch.cache_inplace(block=" in str("\n".join(sch.trace.as_python()))
    a = np.random.default_rng(11).uniform(-1, 1, (4, 8)).astype("float32")
    expected, got = np.zeros((4, 8), "float32"), np.zeros((4, 8), "float32")
    tvm.build(in_place)["in_place"](a, expected)
    tvm.build(sch.mod)["in_place"](a, got)
    assert np.array_equal(expected, got)
    np.testing.assert_allclose(got, (a + 1) * 3, rtol=1e-6)


def test_cache_inplace_refusal_leaves_ir():
    sch = tvm.tir.Schedule(in_place)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match="to write buffer 'A' as well as read it"):
        sch.cache_inplace("T1", 0, "local")
    assert sch.mod.mlir() == before


@T.prim_func
def row_sums(A: T.Buffer((14, 8), "int32"), D: T.Buffer((14,), "int32"),
             E: T.Buffer((14,), "int32")):
    # B: row sums of A (a reduction); C: B doubled, and also written to D
    # (a writer with another effect); E reads C.
    B = T.alloc_buffer((14,), "int32")
    C = T.alloc_buffer((14,), "int32")
    for i, k in T.grid(14, 8):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = 0
            B[vi] = B[vi] + A[vi, vk]
    for i in range(14):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = B[vi] * 2
            D[vi] = B[vi]
    for i in range(14):
        with T.block("E"):
            vi = T.axis.remap("S", [i])
            E[vi] = C[vi] + 1


def run_row_sums(mod):
    a = np.arange(112, dtype="int32").reshape(14, 8)
    d, e = np.zeros(14, "int32"), np.zeros(14, "int32")
    tvm.build(mod)["row_sums"](a, d, e)
    return d, e


@pytest.mark.parametrize("buffer, pad_value, plan, index_map, shape", [
    # replacement, with the init
    ("B", 0, "scf.if", lambda i: [i // 4, i % 4], "4x4"),
    # a pad value from the indices
    ("B", lambda i, j: i * 4 + j, "scf.if", lambda i: [i // 4, i % 4], "4x4"),
    # C's writer also writes D: the epilogue
    ("C", -1, "buffer_C_padding", lambda i: [i // 4, i % 4], "4x4"),
    # an index shifted before it is split: padding at both ends
    ("B", 5, "scf.if", lambda i: [(i + 3) // 4, (i + 3) % 4], "5x4"),
    ("C", 5, "buffer_C_padding", lambda i: [0, (i + 1) // 8, (i + 1) % 8], "1x2x8"),
])
def test_transform_layout_padding_plans_run(buffer, pad_value, plan, index_map, shape):
    expected = run_row_sums(row_sums)
    sch = tvm.tir.Schedule(row_sums)
    sch.transform_layout(buffer, buffer, index_map, pad_value=pad_value)
    text = sch.mod.mlir()
    assert plan in text and f"memref<{shape}xi32>" in text
    got = run_row_sums(sch.mod)
    assert all(np.array_equal(x, y) for x, y in zip(expected, got))
    verify_trace_roundtrip(sch, row_sums)


def test_transform_layout_padded_input_assumes_its_padding():
    # A is an input: the schedule only states what its padding holds (an
    # assumption, which lowering drops). The built function takes the
    # 14 x 8 array the user declared and fills a 4 x 4 x 8 copy, padding
    # included (--tir-restore-declared-layouts).
    expected = run_row_sums(row_sums)
    sch = tvm.tir.Schedule(row_sums)
    sch.transform_layout("B", "A", lambda i, k: [i // 4, i % 4, k], pad_value=42)
    text = sch.mod.mlir()
    assert 'tir.block "buffer_A_assumptions"' in text and 'tir.call "assume"' in text
    assert "memref<4x4x8xi32>" in text
    got = run_row_sums(sch.mod)
    assert all(np.array_equal(x, y) for x, y in zip(expected, got))


def test_transform_layout_pad_value_refusals_leave_ir():
    sch = tvm.tir.Schedule(row_sums)
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError, match="gives one value"):
        sch.transform_layout("B", "B", lambda i: [i // 4, i % 4], pad_value=lambda i, j: (i, j))
    with pytest.raises(tvm.tir.ScheduleError, match="computed from the indices is an integer"):
        sch2 = tvm.tir.Schedule(box_blur)
        sch2.transform_layout("B", "B", lambda i, j: [i // 4, j, i % 4],
                              pad_value=lambda a, b, c: a + c)
    assert sch.mod.mlir() == before


@T.prim_func
def first_twelve(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    for i in range(12):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = A[vi] * 2.0


@pytest.mark.parametrize("maps", [
    [lambda i: [i // 4, i % 4]],
    [lambda i: [i // 8, i % 8], lambda i, j: [j, i]],      # composed
    [lambda i: [i // 5, i % 5]],                          # pads C to 4 x 5
])
def test_transformed_parameters_keep_the_declared_signature(maps):
    # The built function takes the arrays as declared, whatever layouts the
    # schedule gave C; the elements it does not write come back unchanged.
    a = np.arange(16, dtype="float32")
    expected = np.full(16, -1.0, "float32")
    tvm.build(first_twelve)["first_twelve"](a, expected)
    sch = tvm.tir.Schedule(first_twelve)
    for index_map in maps:
        sch.transform_layout("C", "C", index_map, pad_value=0.0)
    assert "tir.declared_layout" in sch.mod.mlir()
    got = np.full(16, -1.0, "float32")
    tvm.build(sch.mod)["first_twelve"](a, got)
    assert np.array_equal(expected, got)
    # Structural equality leaves the calling convention out, as TVM has none.
    stripped = re.sub(r"tir\.declared_layout = \{[^}]*\}, ", "", sch.mod.mlir())
    assert "declared_layout" not in stripped
    tvm.ir.assert_structural_equal(sch.mod, tvm.IRModule.from_mlir(stripped))


def test_pad_value_reading_a_buffer_is_refused():
    # A pad value is an expression of the new indices; one that reads a
    # buffer (another one, as TVM refuses, or the transformed one, which TVM
    # has not implemented) is refused and leaves the IR as it was.
    sch = tvm.tir.Schedule(row_sums)
    block = sch.get(sch.get_block("B"))
    (a,) = block.reads
    assert (a.buffer.name, a.buffer.shape, a.buffer.dtype) == ("A", [14, 8], "int32")
    assert [w.buffer.name for w in block.writes] == ["B"]
    other = tvm.tir.decl_buffer(1, a.buffer.dtype, name="other")
    before = sch.mod.mlir()
    for pad in (lambda i, j: other[0], lambda i, j: a.buffer[i, j]):
        with pytest.raises(tvm.tir.ScheduleError, match="may not read a buffer"):
            sch.transform_layout("B", "B", lambda i: [i // 4, i % 4], pad_value=pad)
    assert sch.mod.mlir() == before


@T.prim_func
def accumulate_rows(A: T.Buffer((5, 6), "float32"), B: T.Buffer((6, 32), "float32"),
                    C: T.Buffer((5, 32), "float32")):
    # C += A @ B with no init: C read and written in place.
    for i, j0, k, j1 in T.grid(5, 2, 6, 16):
        with T.block("C"):
            vi = T.axis.spatial(5, i)
            vj = T.axis.spatial(32, j0 * 16 + j1)
            vk = T.axis.reduce(6, k)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


def test_cache_inplace_refuses_a_block_whose_inner_block_accesses_the_buffer():
    # blockize's outer block lists C, but its inner block writes C: moving
    # only the outer block's accesses to the cache would let the copy back
    # overwrite what the inner block wrote.
    sch = tvm.tir.Schedule(accumulate_rows, debug_mask="all")
    sch.blockize(sch.get_loops(sch.get_block("C"))[1])
    before = sch.mod.mlir()
    with pytest.raises(tvm.tir.ScheduleError,
                       match=r"needs block 'C_o' to access buffer 'C' itself, but block 'C' "
                             r"inside it does"):
        sch.cache_inplace("C_o", 0, "global")
    assert sch.mod.mlir() == before
