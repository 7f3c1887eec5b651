"""The corpus of the differential schedule tester: small TVMScript kernels,
each with how to make its arguments and how to compare its results.

Every kernel is a `@T.prim_func` of this file (its source is cut out of the
file for the reproducers the shrinker prints). Shapes are small so that a
build and a run cost a few tens of milliseconds. Integer kernels are compared
bit for bit; float kernels with FLOAT_RTOL / FLOAT_ATOL (a schedule may
reorder a reduction and a multiply-add may or may not be fused, so float
results may differ in the last bits; inputs lie in [-1, 1] and no reduction
sums more than 108 terms).
"""
import ast
import os
import re

from tensorir.script import tir as T

FLOAT_RTOL = 1e-4
FLOAT_ATOL = 1e-5


@T.prim_func
def matmul(A: T.Buffer((12, 10), "float32"), B: T.Buffer((10, 14), "float32"),
           C: T.Buffer((12, 14), "float32")):
    for i, j, k in T.grid(12, 14, 10):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


@T.prim_func
def matmul_rows16(A: T.Buffer((5, 6), "float32"), B: T.Buffer((6, 32), "float32"),
                  C: T.Buffer((5, 32), "float32")):
    # C += A @ B (no init: the output's first values are the accumulators),
    # its rows already in tiles of 16: the FMA tensor intrinsic's shape.
    for i, j0, k, j1 in T.grid(5, 2, 6, 16):
        with T.block("C"):
            vi = T.axis.spatial(5, i)
            vj = T.axis.spatial(32, j0 * 16 + j1)
            vk = T.axis.reduce(6, k)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


@T.prim_func
def matmul_int(A: T.Buffer((9, 8), "int32"), B: T.Buffer((8, 6), "int32"),
               C: T.Buffer((9, 6), "int32")):
    for i, j, k in T.grid(9, 6, 8):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = 3
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


@T.prim_func
def matmul_relu(A: T.Buffer((10, 8), "float32"), B: T.Buffer((8, 12), "float32"),
                D: T.Buffer((10, 12), "float32")):
    Y = T.alloc_buffer((10, 12), "float32")
    for i, j, k in T.grid(10, 12, 8):
        with T.block("Y"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                Y[vi, vj] = T.float32(0)
            Y[vi, vj] = Y[vi, vj] + A[vi, vk] * B[vk, vj]
    for i, j in T.grid(10, 12):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = T.max(Y[vi, vj], T.float32(0))


@T.prim_func
def conv2d_nhwc(X: T.Buffer((1, 6, 6, 3), "float32"), W: T.Buffer((3, 3, 3, 4), "float32"),
                Y: T.Buffer((1, 6, 6, 4), "float32")):
    P = T.alloc_buffer((1, 8, 8, 3), "float32")
    for n, h, w, c in T.grid(1, 8, 8, 3):
        with T.block("pad"):
            vn, vh, vw, vc = T.axis.remap("SSSS", [n, h, w, c])
            # (indices clamped: T.if_then_else evaluates both of its values)
            P[vn, vh, vw, vc] = T.if_then_else(
                1 <= vh and vh < 7 and 1 <= vw and vw < 7,
                X[vn, T.max(T.min(vh - 1, 5), 0), T.max(T.min(vw - 1, 5), 0), vc], T.float32(0))
    for n, h, w, f, rh, rw, rc in T.grid(1, 6, 6, 4, 3, 3, 3):
        with T.block("conv"):
            vn, vh, vw, vf, vrh, vrw, vrc = T.axis.remap("SSSSRRR", [n, h, w, f, rh, rw, rc])
            with T.init():
                Y[vn, vh, vw, vf] = T.float32(0)
            Y[vn, vh, vw, vf] = Y[vn, vh, vw, vf] + P[vn, vh + vrh, vw + vrw, vrc] * W[vrh, vrw, vrc, vf]


@T.prim_func
def conv2d_bias_relu(X: T.Buffer((1, 2, 7, 6), "float32"), W: T.Buffer((5, 2, 3, 3), "float32"),
                     bias: T.Buffer((5,), "float32"), Out: T.Buffer((1, 5, 7, 6), "float32")):
    # NCHW, 'same' padding by 1, then a bias per channel and a ReLU: four
    # stages for the inlining and compute_at primitives to combine.
    P = T.alloc_buffer((1, 2, 9, 8), "float32")
    Y = T.alloc_buffer((1, 5, 7, 6), "float32")
    Z = T.alloc_buffer((1, 5, 7, 6), "float32")
    for n, c, h, w in T.grid(1, 2, 9, 8):
        with T.block("pad"):
            vn, vc, vh, vw = T.axis.remap("SSSS", [n, c, h, w])
            P[vn, vc, vh, vw] = T.if_then_else(1 <= vh and vh < 8 and 1 <= vw and vw < 7,
                                               X[vn, vc, vh - 1, vw - 1], T.float32(0))
    for n, f, y, x, c, ky, kx in T.grid(1, 5, 7, 6, 2, 3, 3):
        with T.block("conv"):
            vn, vf, vy, vx, vc, vky, vkx = T.axis.remap("SSSSRRR", [n, f, y, x, c, ky, kx])
            with T.init():
                Y[vn, vf, vy, vx] = T.float32(0)
            Y[vn, vf, vy, vx] = Y[vn, vf, vy, vx] + P[vn, vc, vy + vky, vx + vkx] * W[vf, vc, vky, vkx]
    for n, f, y, x in T.grid(1, 5, 7, 6):
        with T.block("bias"):
            vn, vf, vy, vx = T.axis.remap("SSSS", [n, f, y, x])
            Z[vn, vf, vy, vx] = Y[vn, vf, vy, vx] + bias[vf]
    for n, f, y, x in T.grid(1, 5, 7, 6):
        with T.block("relu"):
            vn, vf, vy, vx = T.axis.remap("SSSS", [n, f, y, x])
            Out[vn, vf, vy, vx] = T.max(Z[vn, vf, vy, vx], T.float32(0))


@T.prim_func
def matmul_bias_relu(A: T.Buffer((9, 7), "float32"), B: T.Buffer((7, 10), "float32"),
                     bias: T.Buffer((10,), "float32"), D: T.Buffer((9, 10), "float32")):
    Y = T.alloc_buffer((9, 10), "float32")
    Z = T.alloc_buffer((9, 10), "float32")
    for i, j, k in T.grid(9, 10, 7):
        with T.block("Y"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                Y[vi, vj] = T.float32(0)
            Y[vi, vj] = Y[vi, vj] + A[vi, vk] * B[vk, vj]
    for i, j in T.grid(9, 10):
        with T.block("bias"):
            vi, vj = T.axis.remap("SS", [i, j])
            Z[vi, vj] = Y[vi, vj] + bias[vj]
    for i, j in T.grid(9, 10):
        with T.block("D"):
            vi, vj = T.axis.remap("SS", [i, j])
            D[vi, vj] = T.max(Z[vi, vj], T.float32(0))


@T.prim_func
def row_sum(A: T.Buffer((7, 13), "float32"), B: T.Buffer((7,), "float32")):
    for i, k in T.grid(7, 13):
        with T.block("sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + A[vi, vk]


@T.prim_func
def max_middle(A: T.Buffer((5, 9, 6), "int32"), B: T.Buffer((5, 6), "int32")):
    for i, k, j in T.grid(5, 9, 6):
        with T.block("max"):
            vi, vk, vj = T.axis.remap("SRS", [i, k, j])
            with T.init():
                B[vi, vj] = T.min_value("int32")
            B[vi, vj] = T.max(B[vi, vj], A[vi, vk, vj])


@T.prim_func
def softmax_rows(A: T.Buffer((6, 10), "float32"), B: T.Buffer((6, 10), "float32")):
    M = T.alloc_buffer((6,), "float32")
    E = T.alloc_buffer((6, 10), "float32")
    S = T.alloc_buffer((6,), "float32")
    for i, k in T.grid(6, 10):
        with T.block("M"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                M[vi] = T.float32(-1e30)
            M[vi] = T.max(M[vi], A[vi, vk])
    for i, j in T.grid(6, 10):
        with T.block("E"):
            vi, vj = T.axis.remap("SS", [i, j])
            E[vi, vj] = T.exp(A[vi, vj] - M[vi])
    for i, k in T.grid(6, 10):
        with T.block("S"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + E[vi, vk]
    for i, j in T.grid(6, 10):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = E[vi, vj] / S[vi]


@T.prim_func
def stencil_1d(A: T.Buffer((19,), "float32"), B: T.Buffer((15,), "float32")):
    T1 = T.alloc_buffer((17,), "float32")
    for i in range(17):
        with T.block("T1"):
            vi = T.axis.spatial(17, i)
            T1[vi] = A[vi] * 0.5 + A[vi + 1] + A[vi + 2] * 0.25
    for i in range(15):
        with T.block("B"):
            vi = T.axis.spatial(15, i)
            B[vi] = T1[vi] - T1[vi + 1] + T1[vi + 2]


@T.prim_func
def stencil_2d(A: T.Buffer((11, 13), "float32"), B: T.Buffer((9, 11), "float32")):
    S = T.alloc_buffer((11, 13), "float32")
    for i, j in T.grid(11, 13):
        with T.block("S"):
            vi, vj = T.axis.remap("SS", [i, j])
            S[vi, vj] = A[vi, vj] * A[vi, vj] - 0.5
    for i, j in T.grid(9, 11):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = (S[vi + 1, vj + 1] * 4.0 - S[vi, vj + 1] - S[vi + 2, vj + 1]
                         - S[vi + 1, vj] - S[vi + 1, vj + 2])


@T.prim_func
def stencil_tiles(A: T.Buffer((3, 20), "float32"), C: T.Buffer((3, 16), "float32")):
    # stencil_1d's shape as compute_at leaves it: B computed per 5-wide
    # tile of C (the last tile predicated), windows of 7 overlapping by 2.
    B = T.alloc_buffer((3, 18), "float32")
    for r, t in T.grid(3, 4):
        for x in range(7):
            with T.block("B"):
                vr = T.axis.spatial(3, r)
                vi = T.axis.spatial(18, t * 5 + x)
                T.where(t * 5 + x < 18)
                B[vr, vi] = A[vr, vi] + A[vr, vi + 1] * 0.5 - A[vr, vi + 2]
        for x, k in T.grid(5, 3):
            with T.block("C"):
                vr = T.axis.spatial(3, r)
                vi = T.axis.spatial(16, t * 5 + x)
                vk = T.axis.reduce(3, k)
                T.where(t * 5 + x < 16)
                with T.init():
                    C[vr, vi] = T.float32(0)
                C[vr, vi] = C[vr, vi] + B[vr, vi + vk] * (vk + 1.0)


@T.prim_func
def inplace_update(A: T.Buffer((6, 8), "float32"), B: T.Buffer((6, 8), "float32")):
    # A stage updated in place by a second block (cache_inplace's case).
    T1 = T.alloc_buffer((6, 8), "float32")
    for i, j in T.grid(6, 8):
        with T.block("T1"):
            vi, vj = T.axis.remap("SS", [i, j])
            T1[vi, vj] = A[vi, vj] * 2.0
    for i, j in T.grid(6, 8):
        with T.block("scale"):
            vi, vj = T.axis.remap("SS", [i, j])
            T1[vi, vj] = T1[vi, vj] * T1[vi, vj] + 1.0
    for i, j in T.grid(6, 8):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = T1[vi, vj] - 0.5


@T.prim_func
def int_divmod(A: T.Buffer((7, 12), "int32"), B: T.Buffer((6, 10), "int32"),
               C: T.Buffer((60,), "int32")):
    for i, j in T.grid(6, 10):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = (T.floordiv(A[vi + 1, T.floormod(vj * 5, 12)], 3)
                         + T.floormod(A[T.floordiv(vi * 10 + vj, 9), vj + 2], 4) * 7 - vi // 2 + vj % 3)
    for f in range(60):
        with T.block("C"):
            vi = T.axis.spatial(6, f // 10)
            vj = T.axis.spatial(10, f % 10)
            C[vi * 10 + vj] = B[vi, vj] * 2 + T.floordiv(B[vi, vj], 5) - T.floormod(B[vi, vj], 6)


@T.prim_func
def flat_views(A: T.Buffer((4, 3, 5), "int32"), B: T.Buffer((60,), "int32"),
               C: T.Buffer((10, 6), "int32")):
    # Stages that view one buffer through the digits of a flat variable
    # (v // 15, v % 15 // 5, v % 5), reading and writing.
    S = T.alloc_buffer((4, 3, 5), "int32")
    U = T.alloc_buffer((10, 6), "int32")
    for i, j, k in T.grid(4, 3, 5):
        with T.block("S"):
            vi, vj, vk = T.axis.remap("SSS", [i, j, k])
            S[vi, vj, vk] = A[vi, vj, vk] * 3 - vk
    for f in range(60):
        with T.block("B"):
            v = T.axis.spatial(60, f)
            B[v] = S[v // 15, v % 15 // 5, v % 5] + v
    for g in range(60):
        with T.block("U"):
            v = T.axis.spatial(60, g)
            U[v // 6, v % 6] = B[v] * 2
    for i, j in T.grid(10, 6):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = U[vi, vj] - vi


@T.prim_func
def elementwise_odd(A: T.Buffer((7, 11, 13), "float32"), B: T.Buffer((7, 11, 13), "float32"),
                    D: T.Buffer((7, 11, 13), "float32")):
    C = T.alloc_buffer((7, 11, 13), "float32")
    for i, j, k in T.grid(7, 11, 13):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSS", [i, j, k])
            C[vi, vj, vk] = A[vi, vj, vk] * B[vi, vj, vk] + 1.0
    for i, j, k in T.grid(7, 11, 13):
        with T.block("D"):
            vi, vj, vk = T.axis.remap("SSS", [i, j, k])
            D[vi, vj, vk] = C[vi, vj, vk] * 2.0 - A[vi, vj, vk]


@T.prim_func
def dynamic_rows(a: T.handle, b: T.handle, c: T.handle, n: T.int32):
    A = T.match_buffer(a, (n, 6), "float32")
    B = T.match_buffer(b, (n, 6), "float32")
    C = T.match_buffer(c, (n,), "float32")
    for i, j in T.grid(n, 6):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 3.0 + T.Cast("float32", vj)
    for i, k in T.grid(n, 6):
        with T.block("C"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                C[vi] = T.float32(0)
            C[vi] = C[vi] + B[vi, vk]



@T.prim_func
def dynamic_stages(a: T.handle, c: T.handle, m: T.int32, n: T.int32):
    # An intermediate stage and a reduction over runtime extents, so that
    # compute_at and the inlining primitives meet runtime domains.
    A = T.match_buffer(a, (m, n), "int32")
    C = T.match_buffer(c, (m,), "int32")
    S = T.alloc_buffer((m, n), "int32")
    for i, j in T.grid(m, n):
        with T.block("S"):
            vi, vj = T.axis.remap("SS", [i, j])
            S[vi, vj] = A[vi, vj] * 3 - vj
    for i, k in T.grid(m, n):
        with T.block("C"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                C[vi] = 0
            C[vi] = C[vi] + S[vi, vk] * (vk + 1)


@T.prim_func
def lower_triangle(A: T.Buffer((9, 9), "float32"), B: T.Buffer((9, 9), "float32")):
    for i, j in T.grid(9, 9):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.where(j <= i)
            B[vi, vj] = A[vi, vj] * 2.0 + A[vj, vi]


@T.prim_func
def sum_2d_int(A: T.Buffer((5, 6, 7), "int32"), B: T.Buffer((5,), "int32")):
    for i, k, l in T.grid(5, 6, 7):
        with T.block("sum"):
            vi, vk, vl = T.axis.remap("SRR", [i, k, l])
            with T.init():
                B[vi] = -7
            B[vi] = B[vi] + A[vi, vk, vl] * (vk - vl)


@T.prim_func
def dynamic_2d_int(a: T.handle, b: T.handle, m: T.int32, n: T.int32):
    A = T.match_buffer(a, (m, n), "int32")
    B = T.match_buffer(b, (m, n), "int32")
    for i, j in T.grid(m, n):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * 3 + vi * 100 - vj


@T.prim_func
def opaque_rows(A: T.Buffer((6, 10), "float32"), B: T.Buffer((6, 10), "float32")):
    for i in range(6):
        with T.block("row"):
            T.reads(A[i, 0:10])
            T.writes(B[i, 0:10])
            for j in range(10):
                with T.block("B"):
                    vi = T.axis.spatial(6, i)
                    vj = T.axis.spatial(10, j)
                    B[vi, vj] = A[vi, vj] * 2.0 + T.Cast("float32", vi)

@T.prim_func
def chunk_sums(A: T.Buffer((2, 1, 12), "float32"), O: T.Buffer((2, 1), "float32")):
    # A reduction whose block stages its chunk in a local buffer through
    # nested blocks, over a one-point spatial variable (regions keep vi).
    S = T.alloc_buffer((2, 1), "float32")
    for b, i, c in T.grid(2, 1, 3):
        with T.block("chunk"):
            vb, vi, vc = T.axis.remap("SSR", [b, i, c])
            P = T.alloc_buffer((4,), "float32")
            with T.init():
                S[vb, vi] = T.float32(0.25)
            for e in range(4):
                with T.block("stage"):
                    ve = T.axis.spatial(4, e)
                    P[ve] = A[vb, vi, vc * 4 + ve]
            for e in range(4):
                with T.block("add"):
                    ve = T.axis.reduce(4, e)
                    S[vb, vi] = S[vb, vi] + P[ve]
    for b, i in T.grid(2, 1):
        with T.block("scale"):
            vb, vi = T.axis.remap("SS", [b, i])
            O[vb, vi] = S[vb, vi] * T.float32(0.5)


@T.prim_func
def two_outputs(A: T.Buffer((8, 12), "float32"), C: T.Buffer((8, 12), "float32"),
                D: T.Buffer((8, 6), "float32"), E: T.Buffer((8,), "float32")):
    # Two nests that only read A (merge can interleave them), tiled alike
    # over rows, then a row reduction of both outputs (which depends on
    # them).
    for i_0, i_1, j in T.grid(4, 2, 12):
        with T.block("C"):
            vi = T.axis.spatial(8, i_0 * 2 + i_1)
            vj = T.axis.spatial(12, j)
            C[vi, vj] = A[vi, vj] * T.float32(2)
    for i_0, i_1, j in T.grid(4, 2, 6):
        with T.block("D"):
            vi = T.axis.spatial(8, i_0 * 2 + i_1)
            vj = T.axis.spatial(6, j)
            D[vi, vj] = A[vi, vj * 2] - A[vi, vj * 2 + 1]
    for i, j in T.grid(8, 6):
        with T.block("E"):
            vi, vj = T.axis.remap("SR", [i, j])
            with T.init():
                E[vi] = T.float32(0)
            E[vi] = E[vi] + C[vi, vj] + D[vi, vj]


@T.prim_func
def argmax_rows(A: T.Buffer((6, 20), "int32"), I: T.Buffer((6,), "int32"),
                V: T.Buffer((6,), "int32")):
    # topi's argmax: (index, value) pairs reduced together, ties to the
    # smaller index; the reducer rfactor recognizes with TVM's identities.
    for i, k in T.grid(6, 20):
        with T.block("argmax"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                I[vi] = -1
                V[vi] = T.min_value("int32")
            v_i: T.int32 = T.Select(V[vi] > A[vi, vk] or V[vi] == A[vi, vk] and I[vi] < vk,
                                    I[vi], vk)
            v_v: T.int32 = T.Select(V[vi] > A[vi, vk], V[vi], A[vi, vk])
            I[vi] = v_i
            V[vi] = v_v


@T.prim_func
def empty_stages(A: T.Buffer((6, 0), "float32"), B: T.Buffer((6, 8), "float32"),
                 S: T.Buffer((6,), "float32"), E: T.Buffer((0, 8), "float32")):
    # Blocks whose domains are empty (a grid of extent 0 runs no
    # instance): an empty reduction, an empty stage feeding another, and a
    # stage over a non-empty grid beside them.
    T0 = T.alloc_buffer((0, 8), "float32")
    for i, k in T.grid(6, 0):
        with T.block("empty_sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                S[vi] = T.float32(0)
            S[vi] = S[vi] + A[vi, vk]
    for i, j in T.grid(0, 8):
        with T.block("T0"):
            vi, vj = T.axis.remap("SS", [i, j])
            T0[vi, vj] = B[vi, vj] * T.float32(2)
    for i, j in T.grid(0, 8):
        with T.block("E"):
            vi, vj = T.axis.remap("SS", [i, j])
            E[vi, vj] = T0[vi, vj] + T.float32(1)
    for i, j in T.grid(6, 8):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = B[vi, vj] * T.float32(0.5)


@T.prim_func
def resize_bilinear(A: T.Buffer((2, 5, 6), "float32"), B: T.Buffer((2, 9, 11), "float32")):
    # Bilinear upsampling behind a scaling stage: the source rows and
    # columns (clamped) and the weights are computations of the output's
    # variables (cache_index's case), each used several times.
    S = T.alloc_buffer((2, 5, 6), "float32")
    for c, i, j in T.grid(2, 5, 6):
        with T.block("S"):
            vc, vi, vj = T.axis.remap("SSS", [c, i, j])
            S[vc, vi, vj] = A[vc, vi, vj] * 2.0
    for c, i, j in T.grid(2, 9, 11):
        with T.block("B"):
            vc, vi, vj = T.axis.remap("SSS", [c, i, j])
            B[vc, vi, vj] = (
                S[vc, vi // 2, vj // 2] * (1.0 - T.Cast("float32", vi % 2) * 0.5)
                * (1.0 - T.Cast("float32", vj % 2) * 0.5)
                + S[vc, T.min(vi // 2 + 1, 4), vj // 2] * (T.Cast("float32", vi % 2) * 0.5)
                * (1.0 - T.Cast("float32", vj % 2) * 0.5)
                + S[vc, vi // 2, T.min(vj // 2 + 1, 5)] * (1.0 - T.Cast("float32", vi % 2) * 0.5)
                * (T.Cast("float32", vj % 2) * 0.5)
                + S[vc, T.min(vi // 2 + 1, 4), T.min(vj // 2 + 1, 5)]
                * (T.Cast("float32", vi % 2) * 0.5) * (T.Cast("float32", vj % 2) * 0.5))


class Kernel:
    """A kernel of the corpus: its PrimFunc, the arguments of a call
    (("array", shape, dtype) or ("scalar", value)), one list per set of
    inputs (a dynamic kernel runs with several sizes), and its blocks."""

    def __init__(self, func, name, calls):
        self.func, self.name, self.calls = func, name, calls
        self.mlir = func.mod.mlir()
        self.blocks = re.findall(r'tir\.block "([^"]+)"', self.mlir)
        self.exact = all(arg[0] == "scalar" or arg[2].startswith("int")
                         for call in calls for arg in call)

    def source(self):
        """The kernel's TVMScript source, decorator included."""
        return _source_of(self.name)


def _arrays(*shapes_dtypes):
    return [("array", shape, dtype) for shape, dtype in shapes_dtypes]


def _dynamic_call(n):
    return _arrays(((n, 6), "float32"), ((n, 6), "float32"), ((n,), "float32")) + [("scalar", n)]


def _dynamic_2d_call(m, n):
    return _arrays(((m, n), "int32"), ((m, n), "int32")) + [("scalar", m), ("scalar", n)]


def _dynamic_stages_call(m, n):
    return _arrays(((m, n), "int32"), ((m,), "int32")) + [("scalar", m), ("scalar", n)]


KERNELS = {k.name: k for k in [
    Kernel(matmul, "matmul", [_arrays(((12, 10), "float32"), ((10, 14), "float32"),
                                      ((12, 14), "float32"))]),
    Kernel(matmul_rows16, "matmul_rows16", [_arrays(((5, 6), "float32"), ((6, 32), "float32"),
                                                    ((5, 32), "float32"))]),
    Kernel(matmul_int, "matmul_int", [_arrays(((9, 8), "int32"), ((8, 6), "int32"),
                                              ((9, 6), "int32"))]),
    Kernel(matmul_relu, "matmul_relu", [_arrays(((10, 8), "float32"), ((8, 12), "float32"),
                                                ((10, 12), "float32"))]),
    Kernel(conv2d_nhwc, "conv2d_nhwc", [_arrays(((1, 6, 6, 3), "float32"),
                                                ((3, 3, 3, 4), "float32"),
                                                ((1, 6, 6, 4), "float32"))]),
    Kernel(conv2d_bias_relu, "conv2d_bias_relu", [_arrays(((1, 2, 7, 6), "float32"),
                                                          ((5, 2, 3, 3), "float32"),
                                                          ((5,), "float32"),
                                                          ((1, 5, 7, 6), "float32"))]),
    Kernel(matmul_bias_relu, "matmul_bias_relu", [_arrays(((9, 7), "float32"),
                                                          ((7, 10), "float32"),
                                                          ((10,), "float32"),
                                                          ((9, 10), "float32"))]),
    Kernel(row_sum, "row_sum", [_arrays(((7, 13), "float32"), ((7,), "float32"))]),
    Kernel(max_middle, "max_middle", [_arrays(((5, 9, 6), "int32"), ((5, 6), "int32"))]),
    Kernel(softmax_rows, "softmax_rows", [_arrays(((6, 10), "float32"), ((6, 10), "float32"))]),
    Kernel(stencil_1d, "stencil_1d", [_arrays(((19,), "float32"), ((15,), "float32"))]),
    Kernel(stencil_2d, "stencil_2d", [_arrays(((11, 13), "float32"), ((9, 11), "float32"))]),
    Kernel(stencil_tiles, "stencil_tiles", [_arrays(((3, 20), "float32"),
                                                    ((3, 16), "float32"))]),
    Kernel(inplace_update, "inplace_update", [_arrays(((6, 8), "float32"),
                                                      ((6, 8), "float32"))]),
    Kernel(int_divmod, "int_divmod", [_arrays(((7, 12), "int32"), ((6, 10), "int32"),
                                              ((60,), "int32"))]),
    Kernel(flat_views, "flat_views", [_arrays(((4, 3, 5), "int32"), ((60,), "int32"),
                                              ((10, 6), "int32"))]),
    Kernel(elementwise_odd, "elementwise_odd", [_arrays(((7, 11, 13), "float32"),
                                                        ((7, 11, 13), "float32"),
                                                        ((7, 11, 13), "float32"))]),
    Kernel(dynamic_rows, "dynamic_rows", [_dynamic_call(1), _dynamic_call(13)]),
    Kernel(dynamic_2d_int, "dynamic_2d_int", [_dynamic_2d_call(7, 5), _dynamic_2d_call(1, 9),
                                              _dynamic_2d_call(4, 1)]),
    Kernel(dynamic_stages, "dynamic_stages", [_dynamic_stages_call(7, 5),
                                              _dynamic_stages_call(1, 9),
                                              _dynamic_stages_call(4, 1)]),
    Kernel(opaque_rows, "opaque_rows", [_arrays(((6, 10), "float32"), ((6, 10), "float32"))]),
    Kernel(lower_triangle, "lower_triangle", [_arrays(((9, 9), "float32"), ((9, 9), "float32"))]),
    Kernel(sum_2d_int, "sum_2d_int", [_arrays(((5, 6, 7), "int32"), ((5,), "int32"))]),
    Kernel(chunk_sums, "chunk_sums", [_arrays(((2, 1, 12), "float32"), ((2, 1), "float32"))]),
    Kernel(two_outputs, "two_outputs", [_arrays(((8, 12), "float32"), ((8, 12), "float32"),
                                                ((8, 6), "float32"), ((8,), "float32"))]),
    Kernel(empty_stages, "empty_stages", [_arrays(((6, 0), "float32"), ((6, 8), "float32"),
                                                  ((6,), "float32"), ((0, 8), "float32"))]),
    Kernel(resize_bilinear, "resize_bilinear", [_arrays(((2, 5, 6), "float32"),
                                                        ((2, 9, 11), "float32"))]),
    Kernel(argmax_rows, "argmax_rows", [_arrays(((6, 20), "int32"), ((6,), "int32"),
                                                ((6,), "int32"))]),
]}


# Every array lies inside a larger one, its guards before and after it
# filled with GUARD_BYTE: a scheduled program that writes outside an array
# changes them (a write past a small array would otherwise land in the
# allocator's bookkeeping and end the process later, if at all). 256 bytes
# keep the array's alignment.
GUARD_BYTES = 256
GUARD_BYTE = 0xA5


def _guarded(values):
    import numpy as np
    arena = np.empty(values.nbytes + 2 * GUARD_BYTES, np.uint8)
    arena[:] = GUARD_BYTE
    inner = arena[GUARD_BYTES:GUARD_BYTES + values.nbytes].view(values.dtype)
    inner = inner.reshape(values.shape)
    inner[...] = values
    return inner


def _arena(array):
    while array.base is not None:
        array = array.base
    return array


def make_arguments(call, seed):
    """The arguments of one call, from `seed`: every array is filled (the
    outputs too, so that an element a schedule forgets to write shows),
    floats uniform in [-1, 1], integers in [-20, 20], each between guards
    (guard_violations)."""
    import numpy as np
    rng = np.random.default_rng(seed)
    args = []
    for arg in call:
        if arg[0] == "scalar":
            args.append(arg[1])
        elif arg[2].startswith("int"):
            args.append(_guarded(rng.integers(-20, 21, arg[1]).astype(arg[2])))
        else:
            args.append(_guarded(rng.uniform(-1, 1, arg[1]).astype(arg[2])))
    return args


def guard_violations(args):
    """Messages for the arrays of make_arguments whose guards were written."""
    import numpy as np
    found = []
    for position, arg in enumerate(args):
        if not isinstance(arg, np.ndarray):
            continue
        arena = _arena(arg)
        for side, guard in (("before", arena[:GUARD_BYTES]), ("after", arena[-GUARD_BYTES:])):
            changed = np.flatnonzero(guard != GUARD_BYTE)
            if changed.size:
                found.append(f"array argument {position}: {changed.size} of the {GUARD_BYTES} "
                             f"bytes {side} it were written")
    return found


def _source_of(name):
    path = os.path.abspath(__file__)
    with open(path) as f:
        text = f.read()
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            lines = text.splitlines()
            start = min([d.lineno for d in node.decorator_list] + [node.lineno])
            return "\n".join(lines[start - 1:node.end_lineno]) + "\n"
    raise KeyError(name)
