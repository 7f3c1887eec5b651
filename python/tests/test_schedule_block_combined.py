"""Block primitives combined, as a TVM user schedules an operator for a CPU:
conv2d (NCHW, a padding stage, the reduction, a bias-add and a ReLU) and
matmul + ReLU / matmul + bias + ReLU, tiled, with the stages moved into the
tiles (compute_at, reverse_compute_at), inlined (compute_inline,
reverse_compute_inline), the reduction decomposed, and the loops
vectorized, parallelized and unrolled. Every schedule is built and run: it
writes the same values as the unscheduled program (bit for bit: the
schedules keep each element's order of operations; see BASELINE for FMA
contraction) and as numpy; its trace replays to the same module. Sizes
where a split does not divide the extent give predicates. The refusals met
on the way name their rule and leave the module exactly as it was
(structural equality with the module before)."""
import os
import platform

import numpy as np
import pytest

import tensorir as tvm
from conftest import ROOT
from tensorir.script import tir as T
from tensorir.tir.schedule.testing import verify_trace_roundtrip


# ---------------------------------------------------------------------------
# The programs (factories: the shapes are the closure's).

def conv2d_bias_relu(C, F, H, W, S=1):
    """Out = relu(conv2d(pad(X, 1), Wt) + bias): 3x3 kernel, stride S (the
    output OH x OW: H x W for stride 1)."""
    OH, OW = conv_output_size(H, W, S)

    @T.prim_func
    def conv(X: T.Buffer((1, C, H, W), "float32"), Wt: T.Buffer((F, C, 3, 3), "float32"),
             bias: T.Buffer((F,), "float32"), Out: T.Buffer((1, F, OH, OW), "float32")):
        Xp = T.alloc_buffer((1, C, H + 2, W + 2), "float32")
        Y = T.alloc_buffer((1, F, OH, OW), "float32")
        Z = T.alloc_buffer((1, F, OH, OW), "float32")
        for n, c, h, w in T.grid(1, C, H + 2, W + 2):
            with T.block("pad"):
                vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
                Xp[vn, vc, vh, vw] = T.if_then_else(
                    1 <= vh and vh < H + 1 and 1 <= vw and vw < W + 1,
                    X[vn, vc, vh - 1, vw - 1], T.float32(0), dtype="float32")
        for n, f, y, x, c, ky, kx in T.grid(1, F, OH, OW, C, 3, 3):
            with T.block("conv"):
                vn, vf, vy, vx, vc, vky, vkx = T.axis.remap("SSSSRRR", [n, f, y, x, c, ky, kx])
                with T.init():
                    Y[vn, vf, vy, vx] = T.float32(0)
                Y[vn, vf, vy, vx] = Y[vn, vf, vy, vx] + \
                    Xp[vn, vc, vy * S + vky, vx * S + vkx] * Wt[vf, vc, vky, vkx]
        for n, f, y, x in T.grid(1, F, OH, OW):
            with T.block("bias"):
                vn, vf, vy, vx = T.axis.remap("SSSS", [n, f, y, x])
                Z[vn, vf, vy, vx] = Y[vn, vf, vy, vx] + bias[vf]
        for n, f, y, x in T.grid(1, F, OH, OW):
            with T.block("relu"):
                vn, vf, vy, vx = T.axis.remap("SSSS", [n, f, y, x])
                Out[vn, vf, vy, vx] = T.max(Z[vn, vf, vy, vx], T.float32(0))

    return conv


def matmul_relu(M, N, K):
    @T.prim_func
    def mm_relu(A: T.Buffer((M, K), "float32"), B: T.Buffer((K, N), "float32"),
                D: T.Buffer((M, N), "float32")):
        Y = T.alloc_buffer((M, N), "float32")
        for i, j, k in T.grid(M, N, K):
            with T.block("Y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + A[vi, vk] * B[vk, vj]
        for i, j in T.grid(M, N):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = T.max(Y[vi, vj], T.float32(0))

    return mm_relu


def matmul_bias_relu(M, N, K):
    @T.prim_func
    def mm_bias_relu(A: T.Buffer((M, K), "float32"), B: T.Buffer((K, N), "float32"),
                     bias: T.Buffer((N,), "float32"), D: T.Buffer((M, N), "float32")):
        Y = T.alloc_buffer((M, N), "float32")
        Z = T.alloc_buffer((M, N), "float32")
        for i, j, k in T.grid(M, N, K):
            with T.block("Y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + A[vi, vk] * B[vk, vj]
        for i, j in T.grid(M, N):
            with T.block("bias"):
                vi, vj = T.axis.remap("SS", [i, j])
                Z[vi, vj] = Y[vi, vj] + bias[vj]
        for i, j in T.grid(M, N):
            with T.block("D"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = T.max(Z[vi, vj], T.float32(0))

    return mm_bias_relu


# numpy references (float64 sums, compared with a tolerance).

def conv_output_size(H, W, S):
    return (H - 1) // S + 1, (W - 1) // S + 1


def conv_reference(X, Wt, bias, S=1):
    _, C, H, W = X.shape
    OH, OW = conv_output_size(H, W, S)
    Xp = np.pad(X.astype("float64"), ((0, 0), (0, 0), (1, 1), (1, 1)))
    Y = np.zeros((1, Wt.shape[0], OH, OW))
    for ky in range(3):
        for kx in range(3):
            window = Xp[:, :, ky:ky + S * (OH - 1) + 1:S, kx:kx + S * (OW - 1) + 1:S]
            Y += np.einsum("nchw,fc->nfhw", window, Wt[:, :, ky, kx])
    return np.maximum(Y + bias[None, :, None, None], 0)


def matmul_reference(A, B, bias=None):
    Y = A.astype("float64") @ B.astype("float64")
    return np.maximum(Y if bias is None else Y + bias, 0)


def run(mod_or_func, name, inputs, out_shape, target="llvm"):
    """Builds and runs `name` on the inputs; the output starts as garbage,
    so every element must be written."""
    lib = tvm.build(mod_or_func, target=target)
    out = np.full(out_shape, 7.0, "float32")
    lib[name](*inputs, out)
    return out


def random_inputs(shapes, seed):
    rng = np.random.default_rng(seed)
    return [rng.uniform(-1, 1, s).astype("float32") for s in shapes]


# Without FMA instructions (the x86-64 baseline CPU) every schedule here
# computes each element with the same operations in the same order, so the
# numbers agree bit for bit. For the host's CPU LLVM contracts a multiply and
# the add after it into one FMA where it sees both, and where it does depends
# on the code's shape, which schedules change (an inlined T.if_then_else
# between them, a tile's predicate, the vector width LLVM picks for a loop):
# there, the values agree within rounding, whatever the CPU.
BASELINE = "llvm -mcpu=x86-64" if platform.machine() in ("x86_64", "AMD64") else None


def check_same_numbers(sch, func, name, inputs, out_shape, reference):
    expected = run(func, name, inputs, out_shape)
    got = run(sch.mod, name, inputs, out_shape)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, reference, rtol=1e-5, atol=1e-5)
    if BASELINE:
        np.testing.assert_array_equal(run(sch.mod, name, inputs, out_shape, BASELINE),
                                      run(func, name, inputs, out_shape, BASELINE))


def check_refused(sch, primitive, *args, match):
    """`primitive` is refused with a message matching `match`, and the module
    is as it was (structurally equal to a copy taken before)."""
    before = sch.mod
    with pytest.raises(tvm.tir.ScheduleError, match=match):
        getattr(sch, primitive)(*args)
    tvm.ir.assert_structural_equal(sch.mod, before)


def script(sch):
    return sch.mod.script()


# ---------------------------------------------------------------------------
# conv2d + bias + ReLU

def tile_conv(sch):
    """The convolution's output tiled f by 4, y by 4, x by 8, the reduction
    loops between the tile loops and the points; its loops by name."""
    conv = sch.get_block("conv")
    n, f, y, x, c, ky, kx = sch.get_loops(conv)
    fo, fi = sch.split(f, [None, 4])
    yo, yi = sch.split(y, [None, 4])
    xo, xi = sch.split(x, [None, 8])
    sch.reorder(fo, yo, xo, c, ky, kx, fi, yi, xi)
    return dict(conv=conv, n=n, fo=fo, yo=yo, xo=xo, c=c, ky=ky, kx=kx, xi=xi)


def conv_tile_conv(sch):
    """Tile the convolution, inline the bias into the ReLU, move the ReLU
    into the tile (reverse_compute_at) and the padding too (compute_at),
    fuse and parallelize the outer tiles, vectorize x, unroll kx, then
    decompose the reduction."""
    sch.compute_inline(sch.get_block("bias"))
    loops = tile_conv(sch)
    conv, xo = loops["conv"], loops["xo"]
    sch.reverse_compute_at(sch.get_block("relu"), xo)
    sch.compute_at(sch.get_block("pad"), xo)
    fused = sch.fuse(loops["n"], loops["fo"], loops["yo"])
    sch.parallel(fused)
    sch.vectorize(loops["xi"])
    sch.vectorize(sch.get_loops(sch.get_block("relu"))[-1])
    sch.unroll(loops["kx"])
    init = sch.decompose_reduction(conv, loops["c"])
    assert sch.get(init).name_hint == "conv_init"
    return {"T.parallel": 1, "T.vectorized": 3, "T.unroll": 1}


def conv_tile_epilogue(sch):
    """Inline the ReLU into the bias stage (reverse_compute_inline), tile
    that epilogue, compute the convolution and the padding at its x tile,
    put the reduction loops outside the convolution's point loops, then
    parallel / vectorize / unroll, and decompose the reduction."""
    sch.reverse_compute_inline(sch.get_block("relu"))
    epilogue = sch.get_block("bias")
    n, f, y, x = sch.get_loops(epilogue)
    fo, fi = sch.split(f, [None, 4])
    yo, yi = sch.split(y, [None, 4])
    xo, xi = sch.split(x, [None, 8])
    sch.reorder(fo, yo, xo, fi, yi, xi)
    conv = sch.get_block("conv")
    sch.compute_at(conv, xo)
    sch.compute_at(sch.get_block("pad"), xo)
    loops = sch.get_loops(conv)
    assert len(loops) == 10  # n, fo, yo, xo, then the 6 regenerated
    af, ay, ax, ac, aky, akx = loops[4:]
    sch.reorder(ac, aky, akx, af, ay, ax)
    sch.parallel(fo)
    sch.vectorize(ax)
    sch.vectorize(xi)
    sch.unroll(akx)
    sch.decompose_reduction(conv, ac)
    return {"T.parallel": 1, "T.vectorized": 3, "T.unroll": 1}


def conv_vectorized_padding(sch):
    """conv_tile_epilogue with the padding's stage vectorized too: its w
    loop (T.if_then_else and, at odd sizes, the tile's predicate in each
    lane) vectorized and its h loop unrolled, the convolution's y points
    unrolled, the epilogue's y unrolled."""
    sch.reverse_compute_inline(sch.get_block("relu"))
    epilogue = sch.get_block("bias")
    n, f, y, x = sch.get_loops(epilogue)
    fo, fi = sch.split(f, [None, 4])
    yo, yi = sch.split(y, [None, 4])
    xo, xi = sch.split(x, [None, 8])
    sch.reorder(fo, yo, xo, fi, yi, xi)
    conv = sch.get_block("conv")
    sch.compute_at(conv, xo)
    sch.compute_at(sch.get_block("pad"), xo)
    pad_loops = sch.get_loops(sch.get_block("pad"))
    sch.vectorize(pad_loops[-1])
    sch.unroll(pad_loops[-2])
    af, ay, ax, ac, aky, akx = sch.get_loops(conv)[4:]
    sch.reorder(ac, aky, akx, af, ay, ax)
    sch.unroll(ay)
    sch.vectorize(ax)
    sch.parallel(fo)
    sch.unroll(yi)
    sch.vectorize(xi)
    sch.decompose_reduction(conv, ac)
    return {"T.parallel": 1, "T.vectorized": 4, "T.unroll": 4}


def conv_inline_pad(sch):
    """Inline the padding into the convolution (its load becomes the
    T.if_then_else) and the bias into the ReLU, tile the ReLU by rows,
    compute the convolution at the row tile, parallel over channel tiles,
    decompose the reduction at the channel loop."""
    sch.compute_inline(sch.get_block("pad"))
    sch.compute_inline(sch.get_block("bias"))
    relu = sch.get_block("relu")
    n, f, y, x = sch.get_loops(relu)
    fo, fi = sch.split(f, [None, 2])
    yo, yi = sch.split(y, [None, 3])
    sch.reorder(fo, yo, fi, yi, x)
    conv = sch.get_block("conv")
    sch.compute_at(conv, yo)
    sch.parallel(fo)
    xo, xi = sch.split(x, [None, 4])
    sch.vectorize(xi)
    loops = sch.get_loops(conv)
    sch.unroll(loops[-1])
    sch.decompose_reduction(conv, loops[-6])
    assert "T.if_then_else" in script(sch)
    assert "Xp" not in script(sch)
    return {"T.parallel": 1, "T.vectorized": 1, "T.unroll": 1}



def conv_stages_in_the_tile(sch):
    """Every stage moved into the convolution's tile: the bias and the ReLU
    by reverse_compute_at, then the ReLU inlined backwards into the bias
    stage there; the padding by compute_at, then inlined into the
    convolution there. Dividing splits (reverse_compute_at)."""
    loops = tile_conv(sch)
    sch.reverse_compute_at(sch.get_block("bias"), loops["xo"])
    sch.reverse_compute_at(sch.get_block("relu"), loops["xo"])
    sch.reverse_compute_inline(sch.get_block("relu"))
    sch.compute_at(sch.get_block("pad"), loops["xo"])
    sch.compute_inline(sch.get_block("pad"))
    sch.parallel(loops["fo"])
    sch.vectorize(sch.get_loops(sch.get_block("bias"))[-1])
    sch.decompose_reduction(loops["conv"], loops["c"])
    assert "Xp" not in script(sch) and "Z = T.alloc_buffer" not in script(sch)
    return {"T.parallel": 1, "T.vectorized": 1}



def conv_pad_per_channel_row(sch):
    """The padding computed under the convolution's reduction loop ky: each
    (c, ky) step pads the one channel's rows it reads (4 rows of 10 for a
    4 x 8 tile). The bias and the ReLU under the tile, the points
    vectorized, the init at c."""
    loops = tile_conv(sch)
    sch.compute_at(sch.get_block("pad"), loops["ky"])
    assert "for ax0, ax1 in T.grid(4, 10):" in script(sch)
    sch.reverse_compute_at(sch.get_block("bias"), loops["xo"])
    sch.reverse_compute_at(sch.get_block("relu"), loops["xo"], preserve_unit_loops=True)
    sch.vectorize(loops["xi"])
    sch.parallel(loops["fo"])
    sch.decompose_reduction(loops["conv"], loops["c"])
    return {"T.parallel": 1, "T.vectorized": 2}


def conv_compute_at_chain(sch):
    """Tile the ReLU (y by 4, x by 8, all channels per tile) and compute
    the bias stage, the convolution and the padding at its x tile, one
    after the other; then inline the bias into the ReLU, fuse n and the row
    tiles and parallelize them, and decompose the reduction at the
    convolution's first loop in the tile."""
    relu = sch.get_block("relu")
    n, f, y, x = sch.get_loops(relu)
    yo, yi = sch.split(y, [None, 4])
    xo, xi = sch.split(x, [None, 8])
    sch.reorder(yo, xo, f, yi, xi)
    for stage in ("bias", "conv", "pad"):
        sch.compute_at(sch.get_block(stage), xo)
    sch.compute_inline(sch.get_block("bias"))
    conv = sch.get_block("conv")
    loops = sch.get_loops(conv)
    sch.parallel(sch.fuse(n, yo))
    sch.decompose_reduction(conv, loops[3])
    return {"T.parallel": 1}


CONV_SIZES = {
    "exact": (3, 8, 16, 16),  # C, F, H, W: every split divides
    "odd": (3, 6, 13, 11),  # predicates on f, y and x
}

CONV_CASES = [
    (conv_tile_conv, "exact"),
    (conv_tile_epilogue, "exact"),
    (conv_tile_epilogue, "odd"),
    (conv_vectorized_padding, "exact"),
    (conv_vectorized_padding, "odd"),
    (conv_inline_pad, "exact"),
    (conv_inline_pad, "odd"),
    (conv_stages_in_the_tile, "exact"),
    (conv_pad_per_channel_row, "exact"),
    (conv_compute_at_chain, "exact"),
    (conv_compute_at_chain, "odd"),
]


@pytest.mark.parametrize("schedule,size", CONV_CASES,
                         ids=[f"{s.__name__}-{size}" for s, size in CONV_CASES])
def test_conv2d_bias_relu_same_numbers(schedule, size):
    C, F, H, W = CONV_SIZES[size]
    func = conv2d_bias_relu(C, F, H, W)
    sch = tvm.tir.Schedule(func, debug_mask="all")
    kinds = schedule(sch)
    text = script(sch)
    for kind, count in kinds.items():
        assert text.count(kind) == count, (kind, text)
    if size == "odd":
        assert "T.where" in text
    inputs = random_inputs([(1, C, H, W), (F, C, 3, 3), (F,)], seed=H)
    check_same_numbers(sch, func, "conv", inputs, (1, F, H, W), conv_reference(*inputs))
    verify_trace_roundtrip(sch, mod=func)


STRIDE2_CASES = [(s, size) for s in (conv_tile_epilogue, conv_vectorized_padding,
                                     conv_compute_at_chain) for size in ("exact", "odd")]


@pytest.mark.parametrize("schedule,size", STRIDE2_CASES,
                         ids=[f"{s.__name__}-{size}" for s, size in STRIDE2_CASES])
def test_conv2d_stride2_same_numbers(schedule, size):
    # Stride 2: a tile of 4 x 8 outputs reads 2 * 3 + 3 = 9 rows and
    # 2 * 7 + 3 = 17 columns of the padded input, which compute_at gives
    # the padding stage under the tile.
    C, F, H, W = CONV_SIZES[size]
    func = conv2d_bias_relu(C, F, H, W, S=2)
    OH, OW = conv_output_size(H, W, 2)
    sch = tvm.tir.Schedule(func, debug_mask="all")
    schedule(sch)
    if size == "exact":
        text = script(sch)
        assert "for ax0, ax1, ax2 in T.grid(3, 9, 17):" in text or (
            "for ax1 in T.unroll(9):" in text and "for ax2 in T.vectorized(17):" in text)
    inputs = random_inputs([(1, C, H, W), (F, C, 3, 3), (F,)], seed=W)
    check_same_numbers(sch, func, "conv", inputs, (1, F, OH, OW),
                       conv_reference(*inputs, S=2))
    verify_trace_roundtrip(sch, mod=func)


# ---------------------------------------------------------------------------
# matmul + ReLU, matmul + bias + ReLU

def mm_reverse_at(sch):
    """TVM's tutorial schedule: j split by 16 with k between the parts, the
    ReLU moved under the j tile, the reduction decomposed at k; then i
    parallel and the j points vectorized."""
    Y = sch.get_block("Y")
    i, j, k = sch.get_loops(Y)
    j0, j1 = sch.split(j, [None, 16])
    sch.reorder(j0, k, j1)
    sch.reverse_compute_at(sch.get_block("D"), j0)
    sch.parallel(i)
    sch.vectorize(j1)
    sch.vectorize(sch.get_loops(sch.get_block("D"))[-1])
    sch.decompose_reduction(Y, k)
    return {"T.parallel": 1, "T.vectorized": 3}


def mm_tile_output(sch):
    """Tile the ReLU 8 x 16, compute the matmul at the tile, split its k by
    4 and put the k loops outside the point loops, fuse and parallelize the
    tile loops, vectorize j, unroll the inner k, decompose at the outer k."""
    D = sch.get_block("D")
    i, j = sch.get_loops(D)
    io, ii = sch.split(i, [None, 8])
    jo, ji = sch.split(j, [None, 16])
    sch.reorder(io, jo, ii, ji)
    Y = sch.get_block("Y")
    sch.compute_at(Y, jo)
    yi, yj, yk = sch.get_loops(Y)[2:]
    ko, ki = sch.split(yk, [None, 4])
    sch.reorder(ko, ki, yi, yj)
    sch.vectorize(yj)
    sch.unroll(ki)
    sch.vectorize(ji)
    fused = sch.fuse(io, jo)
    sch.parallel(fused)
    sch.decompose_reduction(Y, ko)
    return {"T.parallel": 1, "T.vectorized": 3, "T.unroll": 1}


def mm_inline_bias(sch):
    """matmul + bias + ReLU: the bias inlined into the ReLU, then the
    output tiled as mm_tile_output does."""
    sch.compute_inline(sch.get_block("bias"))
    return mm_tile_output(sch)


def mm_reverse_inline_relu(sch):
    """matmul + bias + ReLU: the ReLU inlined backwards into the bias stage
    (which then writes D), the epilogue moved under the matmul's j tile."""
    sch.reverse_compute_inline(sch.get_block("D"))
    Y = sch.get_block("Y")
    i, j, k = sch.get_loops(Y)
    i0, i1 = sch.split(i, [None, 4])
    j0, j1 = sch.split(j, [None, 8])
    sch.reorder(i0, j0, k, i1, j1)
    sch.reverse_compute_at(sch.get_block("bias"), j0)
    sch.parallel(i0)
    sch.vectorize(j1)
    sch.unroll(i1)
    sch.decompose_reduction(Y, k)
    assert "D[vi, vj] = T.max((Y[vi, vj] + bias[vj]), T.float32(0.0))" in script(sch)
    return {"T.parallel": 1, "T.vectorized": 2, "T.unroll": 2}


MM_SIZES = {"exact": (64, 48, 32), "odd": (50, 37, 27)}  # M, N, K

MM_CASES = [
    (matmul_relu, mm_reverse_at, "exact"),
    (matmul_relu, mm_tile_output, "exact"),
    (matmul_relu, mm_tile_output, "odd"),
    (matmul_bias_relu, mm_inline_bias, "exact"),
    (matmul_bias_relu, mm_inline_bias, "odd"),
    (matmul_bias_relu, mm_reverse_inline_relu, "exact"),
]


@pytest.mark.parametrize("program,schedule,size", MM_CASES,
                         ids=[f"{p.__name__}-{s.__name__}-{size}" for p, s, size in MM_CASES])
def test_matmul_same_numbers(program, schedule, size):
    M, N, K = MM_SIZES[size]
    func = program(M, N, K)
    sch = tvm.tir.Schedule(func, debug_mask="all")
    kinds = schedule(sch)
    text = script(sch)
    for kind, count in kinds.items():
        assert text.count(kind) == count, (kind, text)
    if size == "odd":
        assert "T.where" in text
    with_bias = program is matmul_bias_relu
    shapes = [(M, K), (K, N)] + ([(N,)] if with_bias else [])
    inputs = random_inputs(shapes, seed=M)
    name = "mm_bias_relu" if with_bias else "mm_relu"
    check_same_numbers(sch, func, name, inputs, (M, N), matmul_reference(*inputs))
    verify_trace_roundtrip(sch, mod=func)


# ---------------------------------------------------------------------------
# The project's examples (examples/matmul_relu.mlir, examples/conv2d.mlir),
# loaded as they are and scheduled.

def load_example(name):
    return tvm.IRModule.load(os.path.join(ROOT, "examples", name))


@pytest.mark.parametrize("schedule", [mm_reverse_at, mm_tile_output])
def test_example_matmul_relu_same_numbers(schedule):
    mod = load_example("matmul_relu.mlir")
    sch = tvm.tir.Schedule(mod, debug_mask="all")
    schedule(sch)
    inputs = random_inputs([(128, 128), (128, 128)], seed=5)
    check_same_numbers(sch, mod, "matmul_relu", inputs, (128, 128), matmul_reference(*inputs))
    verify_trace_roundtrip(sch, mod=mod)


def test_example_conv2d_pool_same_numbers():
    """The 2x2 max pooling tiled (f by 4, y by 2, x by 4), the convolution
    computed at the pooling's y tile (4 rows of it for 2 pooled rows), both
    reductions decomposed, the tiles parallel, the pooled x vectorized, the
    convolution's kx unrolled."""
    mod = load_example("conv2d.mlir")
    sch = tvm.tir.Schedule(mod, debug_mask="all")
    pool = sch.get_block("pool")
    n, f, y, x, ry, rx = sch.get_loops(pool)
    fo, fi = sch.split(f, [None, 4])
    yo, yi = sch.split(y, [None, 2])
    sch.reorder(fo, yo, fi, yi, ry, rx, x)
    conv = sch.get_block("conv")
    sch.compute_at(conv, yo)
    loops = sch.get_loops(conv)
    assert len(loops) == 9  # n, fo, yo, then f, y, x, c, ky, kx
    # 4 rows of the convolution for 2 pooled rows.
    assert "for ax0, ax1, ax2, ax3, ax4, ax5 in T.grid(4, 4, 16, 4, 3, 3):" in script(sch)
    sch.parallel(fo)
    sch.vectorize(x)
    sch.unroll(loops[-1])
    sch.decompose_reduction(conv, loops[6])
    sch.decompose_reduction(pool, ry)
    text = script(sch)
    assert text.count("T.vectorized") == 2 and text.count("T.unroll") == 1
    inputs = random_inputs([(1, 4, 18, 18), (8, 4, 3, 3)], seed=6)
    X, Wt = (a.astype("float64") for a in inputs)
    O = np.zeros((1, 8, 16, 16))
    for ky in range(3):
        for kx in range(3):
            O += np.einsum("nchw,fc->nfhw", X[:, :, ky:ky + 16, kx:kx + 16], Wt[:, :, ky, kx])
    reference = O.reshape(1, 8, 8, 2, 8, 2).max(axis=(3, 5))
    check_same_numbers(sch, mod, "conv2d_pool", inputs, (1, 8, 8, 8), reference)
    verify_trace_roundtrip(sch, mod=mod)


# ---------------------------------------------------------------------------
# Refusals met on the way: each names its rule, and the module is unchanged.

def test_conv2d_refusals_leave_the_module():
    func = conv2d_bias_relu(3, 6, 13, 11)
    sch = tvm.tir.Schedule(func, debug_mask="all")
    # Output blocks stay where they are (TVM too).
    check_refused(sch, "compute_inline", sch.get_block("relu"),
                  match="not an output block")
    # A reduction is not inlined (TVM: the block has init statement), nor
    # inlined into (its consumer's producer must be complete).
    check_refused(sch, "compute_inline", sch.get_block("conv"), match="without tir.init")
    check_refused(sch, "reverse_compute_inline", sch.get_block("bias"),
                  match="producer of block 'bias' to be a complete block")
    # The pooled rows' tile: the bias stage still reads the whole conv.
    relu = sch.get_block("relu")
    _, _, y, _ = sch.get_loops(relu)
    yo, _ = sch.split(y, [None, 4])
    check_refused(sch, "compute_at", sch.get_block("conv"), yo,
                  match="all the consumers of block 'conv' under loop")
    check_refused(sch, "compute_at", sch.get_block("pad"), yo,
                  match="all the consumers of block 'pad' under loop")

    sch = tvm.tir.Schedule(func, debug_mask="all")
    loops = tile_conv(sch)
    conv = loops["conv"]
    # Loops of a reduction: not vectorized, not parallel; the init goes
    # above every reduction loop; no consumer under a reduction loop.
    check_refused(sch, "vectorize", loops["kx"], match="feeds reduce variable 'vkx'")
    check_refused(sch, "parallel", loops["c"], match="feeds reduce variable 'vc'")
    check_refused(sch, "decompose_reduction", conv, loops["ky"],
                  match="higher than every loop that feeds a reduce variable")
    check_refused(sch, "reverse_compute_at", sch.get_block("bias"), loops["c"],
                  match="partial reduction")
    check_refused(sch, "compute_at", sch.get_block("relu"), loops["xo"],
                  match="not an output block")
    # Once decomposed, the init and the update both write Y under the tile
    # loops: neither is complete nor a reduction block (TVM refuses too:
    # parallel goes before decompose_reduction).
    sch.decompose_reduction(conv, loops["c"])
    check_refused(sch, "parallel", loops["fo"],
                  match="block 'conv_init' is neither a complete block")
    # The refused steps left no trace.
    assert "parallel" not in "\n".join(sch.trace.as_python())


def test_conv2d_reverse_compute_at_into_a_partial_tile():
    func = conv2d_bias_relu(3, 6, 13, 11)
    sch = tvm.tir.Schedule(func, debug_mask="all")
    sch.compute_inline(sch.get_block("bias"))
    loops = tile_conv(sch)
    before = sch.mod
    try:
        sch.reverse_compute_at(sch.get_block("relu"), loops["xo"])
    except tvm.tir.ScheduleError:
        tvm.ir.assert_structural_equal(sch.mod, before)
        raise
    sch.decompose_reduction(loops["conv"], loops["c"])
    inputs = random_inputs([(1, 3, 13, 11), (6, 3, 3, 3), (6,)], seed=7)
    check_same_numbers(sch, func, "conv", inputs, (1, 6, 13, 11), conv_reference(*inputs))


def test_matmul_refusals_leave_the_module():
    func = matmul_bias_relu(50, 37, 27)
    sch = tvm.tir.Schedule(func, debug_mask="all")
    sch.compute_inline(sch.get_block("bias"))
    # The ReLU into the matmul: its producer is a reduction, not complete.
    check_refused(sch, "reverse_compute_inline", sch.get_block("D"),
                  match="producer of block 'D' to be a complete block")
    Y = sch.get_block("Y")
    i, j, k = sch.get_loops(Y)
    j0, j1 = sch.split(j, [None, 16])
    sch.reorder(j0, k, j1)
    # The ReLU under the reduction loop would read partial sums.
    check_refused(sch, "reverse_compute_at", sch.get_block("D"), k, match="partial reduction")
    check_refused(sch, "decompose_reduction", Y, j1, match="higher than every loop")


def test_matmul_decompose_above_a_partial_tile():
    func = matmul_relu(10, 8, 4)
    sch = tvm.tir.Schedule(func, debug_mask="all")
    i, _ = sch.get_loops(sch.get_block("D"))
    io, _ = sch.split(i, [None, 4])
    sch.compute_at(sch.get_block("Y"), io)
    before = sch.mod
    try:
        sch.decompose_reduction(sch.get_block("Y"), io)
    except tvm.tir.ScheduleError:
        tvm.ir.assert_structural_equal(sch.mod, before)
        raise
    inputs = random_inputs([(10, 4), (4, 8)], seed=8)
    check_same_numbers(sch, func, "mm_relu", inputs, (10, 8), matmul_reference(*inputs))


def test_fused_tile_loops_bind_as_tvm_does():
    sch = tvm.tir.Schedule(matmul_relu(16, 32, 4))
    i, j = sch.get_loops(sch.get_block("D"))
    io, ii = sch.split(i, [None, 8])
    jo, ji = sch.split(j, [None, 16])
    sch.reorder(io, jo, ii, ji)
    sch.fuse(io, jo)

    @T.prim_func
    def expected(A: T.Buffer((16, 4), "float32"), B: T.Buffer((4, 32), "float32"),
                 D: T.Buffer((16, 32), "float32")):
        Y = T.alloc_buffer((16, 32), "float32")
        for i, j, k in T.grid(16, 32, 4):
            with T.block("Y"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    Y[vi, vj] = T.float32(0)
                Y[vi, vj] = Y[vi, vj] + A[vi, vk] * B[vk, vj]
        for i_0_j_0_fused, i_1, j_1 in T.grid(4, 8, 16):
            with T.block("D"):
                vi = T.axis.spatial(16, i_0_j_0_fused // 2 * 8 + i_1)
                vj = T.axis.spatial(32, i_0_j_0_fused % 2 * 16 + j_1)
                D[vi, vj] = T.max(Y[vi, vj], T.float32(0))

    tvm.ir.assert_structural_equal(sch.mod["main"], expected)


def test_matmul_reverse_compute_at_over_a_partial_reduction_split():
    func = matmul_relu(16, 32, 10)
    sch = tvm.tir.Schedule(func, debug_mask="all")
    Y = sch.get_block("Y")
    i, j, k = sch.get_loops(Y)
    ko, _ = sch.split(k, [None, 4])
    before = sch.mod
    try:
        sch.reverse_compute_at(sch.get_block("D"), i)
    except tvm.tir.ScheduleError:
        tvm.ir.assert_structural_equal(sch.mod, before)
        raise
    sch.decompose_reduction(Y, ko)
    inputs = random_inputs([(16, 10), (10, 32)], seed=9)
    check_same_numbers(sch, func, "mm_relu", inputs, (16, 32), matmul_reference(*inputs))
