"""The tensor-core intrinsics' fragment arithmetic, checked without a GPU
against the PTX ISA: ldmatrix (.x4 / .x2, .trans) and mma.sync (m16n8k16
f16, m16n8k32 s8) emulated lane by lane from the ISA's definitions of
which lane holds which element, fed the row addresses the intrinsics'
implementations give each lane (mma_ldmatrix_*, WMMA's loads), the
products laid out as the implementations call them (A's whole fragment,
half of B's and C's per m16n8 product), and the per-lane store of
tir.ptx_fragment_store; the 16 x 16 result must be A B."""
import numpy as np
import pytest

from tensorir.tir.tensor_intrin import mma as intrin


def lane_address(text, tx):
    """A row or column the implementation gives lane `tx` (TVMScript text
    over `tx`, Python's // and %)."""
    return eval(text, {}, {"tx": tx})  # noqa: S307 - the intrinsics' own formulas


def ldmatrix(tile, operand, k_dim, transposed):
    """The lanes' registers after the implementation's ldmatrix: 32 x 4
    registers, each a row of its 8 x 8 b16 matrix's elements (2 f16, or 4
    int8 bytes)."""
    row, col, trans = intrin.ldmatrix_address(k_dim, operand, transposed)
    per = 2 if tile.dtype == np.float16 else 4  # elements per 32-bit register
    regs = np.zeros((32, 4, per), tile.dtype)
    for m in range(4):
        # Matrix m: 8 rows, their addresses from lanes 8m .. 8m + 7; each row
        # 16 bytes from (row, col).
        rows = []
        for r in range(8):
            t = 8 * m + r
            rr, cc = lane_address(row, t), lane_address(col, t)
            rows.append(tile[rr, cc:cc + 16 // tile.itemsize])
        mat = np.stack(rows)  # 8 x (16 bytes)
        if trans:
            assert tile.dtype == np.float16
            mat = mat.T
        for t in range(32):
            # Lane t: row t // 4, the (t % 4)-th 32-bit word.
            regs[t, m] = mat[t // 4, (t % 4) * per:(t % 4) * per + per]
    return regs.reshape(32, 4 * per)


def mma_f16(a_regs, b_regs, b_at, c):
    """m16n8k16 (f16 x f16 -> f32) as the ISA lays out its fragments; the
    lane's A registers whole, B's from element b_at (4 elements), C's 4
    accumulators (row-major 16 x 8 tile `c`, updated)."""
    A = np.zeros((16, 16), np.float64)
    B = np.zeros((16, 8), np.float64)
    for t in range(32):
        g, q = t // 4, t % 4
        for i in range(8):
            A[g + 8 * ((i // 2) % 2), q * 2 + (i & 1) + 8 * (i // 4)] = a_regs[t, i]
        for i in range(4):
            B[q * 2 + (i & 1) + 8 * (i // 2), g] = b_regs[t, b_at + i]
    return c + A @ B


def mma_s8(a_regs, b_regs, b_at, c):
    """m16n8k32 (s8 x s8 -> s32), likewise."""
    A = np.zeros((16, 32), np.int64)
    B = np.zeros((32, 8), np.int64)
    for t in range(32):
        g, q = t // 4, t % 4
        for i in range(16):
            A[g + 8 * ((i // 4) % 2), q * 4 + (i & 3) + 16 * (i // 8)] = a_regs[t, i]
        for i in range(8):
            B[q * 4 + (i & 3) + 16 * (i // 4), g] = b_regs[t, b_at + i]
    return c + A @ B


def lanes_of_c(tile16x8_halves):
    """The lanes' 8 accumulators (two m16n8 halves, 4 each) as the ISA's C
    layout places them."""
    regs = np.zeros((32, 8), np.float64)
    for half, c in enumerate(tile16x8_halves):
        for t in range(32):
            g, q = t // 4, t % 4
            for i in range(4):
                regs[t, 4 * half + i] = c[g + 8 * (i // 2), q * 2 + (i & 1)]
    return regs


def store(regs):
    """tir.ptx_fragment_store's placement of lane t's element l."""
    out = np.full((16, 16), np.nan)
    for t in range(32):
        for l in range(8):
            out[8 * (l % 4 // 2) + t // 4, 8 * (l // 4) + (t % 4) * 2 + l % 2] = regs[t, l]
    return out


@pytest.mark.parametrize("b_transposed", [False, True])
def test_f16_fragments_compute_the_product(b_transposed):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((16, 16)).astype(np.float16)
    b = rng.standard_normal((16, 16)).astype(np.float16)
    b_stored = b.T.copy() if b_transposed else b
    a_regs = ldmatrix(a, "A", 16, False)
    b_regs = ldmatrix(b_stored, "B", 16, b_transposed)
    halves = [mma_f16(a_regs, b_regs, 0, np.zeros((16, 8))),
              mma_f16(a_regs, b_regs, 4, np.zeros((16, 8)))]
    got = store(lanes_of_c(halves))
    np.testing.assert_allclose(got, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-12)


def test_i8_fragments_compute_the_product():
    # A (16 x 32) by ldmatrix; B stored transposed (16 x 32) by ldmatrix.
    rng = np.random.default_rng(1)
    a = rng.integers(-128, 128, (16, 32)).astype(np.int8)
    b = rng.integers(-128, 128, (32, 16)).astype(np.int8)
    a_regs = ldmatrix(a, "A", 32, False)
    b_regs = ldmatrix(b.T.copy(), "B", 32, True)
    halves = [mma_s8(a_regs, b_regs, 0, np.zeros((16, 8), np.int64)),
              mma_s8(a_regs, b_regs, 8, np.zeros((16, 8), np.int64))]
    got = store(lanes_of_c(halves))
    np.testing.assert_array_equal(got, a.astype(np.int64) @ b.astype(np.int64))


def test_i8_b_read_by_each_lane_matches_the_isa():
    # B untransposed has no ldmatrix form: each lane reads its elements at
    # the inverse of the 32 x 16 layout, which must be the ISA's B fragment.
    rng = np.random.default_rng(2)
    a = rng.integers(-128, 128, (16, 32)).astype(np.int8)
    b = rng.integers(-128, 128, (32, 16)).astype(np.int8)
    a_regs = ldmatrix(a, "A", 32, False)
    b_regs = np.zeros((32, 16), np.int8)
    for t in range(32):
        for l in range(16):
            i, j = intrin.lane_element("32x16", t, l)
            b_regs[t, l] = b[i, j]
    halves = [mma_s8(a_regs, b_regs, 0, np.zeros((16, 8), np.int64)),
              mma_s8(a_regs, b_regs, 8, np.zeros((16, 8), np.int64))]
    got = store(lanes_of_c(halves))
    np.testing.assert_array_equal(got, a.astype(np.int64) @ b.astype(np.int64))


def mma_s8_k16(a_regs, b_regs, b_at, c):
    """m16n8k16 (s8 x s8 -> s32), as the ISA lays out its fragments: A's
    8 bytes, B's 4 from element b_at."""
    A = np.zeros((16, 16), np.int64)
    B = np.zeros((16, 8), np.int64)
    for t in range(32):
        g, q = t // 4, t % 4
        for i in range(8):
            A[g + 8 * (i // 4), q * 4 + (i & 3)] = a_regs[t, i]
        for i in range(4):
            B[q * 4 + i, g] = b_regs[t, b_at + i]
    return c + A @ B


def ldmatrix_x2_bytes(tile):
    """WMMA's 8-bit loads: ldmatrix .x2, lane t (of 0-15) giving row t % 16
    of the 16 x 16-byte tile: lane t receives the t % 4-th word of row
    t // 4 of each 8-row block."""
    regs = np.zeros((32, 2, 4), np.int8)
    for m in range(2):
        mat = np.stack([tile[(8 * m + r) % 16, 0:16] for r in range(8)])
        for t in range(32):
            regs[t, m] = mat[t // 4, (t % 4) * 4:(t % 4) * 4 + 4]
    return regs.reshape(32, 8)


@pytest.mark.parametrize("b_transposed", [False, True])
def test_wmma_i8_fragments_compute_the_product(b_transposed):
    # WMMA's int8 16 x 16 x 16: A by ldmatrix .x2, B stored n x k by
    # ldmatrix .x2, or stored k x n read by each lane
    # (tir.ptx_fragment_load_b8: element l is B[4 (t mod 4) + l mod 4,
    # t div 4 + 8 (l div 4)]); two m16n8k16 products.
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (16, 16)).astype(np.int8)
    b = rng.integers(-128, 128, (16, 16)).astype(np.int8)
    a_regs = ldmatrix_x2_bytes(a)
    if b_transposed:
        b_regs = ldmatrix_x2_bytes(b.T.copy())
    else:
        b_regs = np.zeros((32, 8), np.int8)
        for t in range(32):
            for l in range(8):
                b_regs[t, l] = b[4 * (t % 4) + l % 4, t // 4 + 8 * (l // 4)]
    halves = [mma_s8_k16(a_regs, b_regs, 0, np.zeros((16, 8), np.int64)),
              mma_s8_k16(a_regs, b_regs, 4, np.zeros((16, 8), np.int64))]
    got = store(lanes_of_c(halves))
    np.testing.assert_array_equal(got, a.astype(np.int64) @ b.astype(np.int64))
