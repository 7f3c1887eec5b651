"""The GPU programs of bench/gpu: TVMScript functions and their GPU
schedules (tir.Schedule primitives: split, bind, cache_read / cache_write,
compute_at, unroll, vectorize). build_artifacts.py compiles them here;
run.py runs the exported libraries on the GPU machine."""
import tensorir as tvm
from tensorir.script import tir as T


def vector_add(n):
    @T.prim_func
    def vadd(A: T.Buffer((n,), "float32"), B: T.Buffer((n,), "float32"),
             C: T.Buffer((n,), "float32")):
        T.func_attr({"global_symbol": "vadd", "tir.noalias": True})
        for i in range(n):
            with T.block("C"):
                vi = T.axis.spatial(n, i)
                C[vi] = A[vi] + B[vi]
    return vadd


def schedule_vector_add(func, threads=256, lanes=4):
    """Each thread adds `lanes` neighbours (vector loads and stores)."""
    sch = tvm.tir.Schedule(func)
    (i,) = sch.get_loops(sch.get_block("C"))
    bx, tx, vec = sch.split(i, factors=[None, threads, lanes])
    sch.bind(bx, "blockIdx.x")
    sch.bind(tx, "threadIdx.x")
    if lanes > 1:
        sch.vectorize(vec)
    return sch.mod


def matmul(m, n, k):
    @T.prim_func
    def gemm(A: T.Buffer((m, k), "float32"), B: T.Buffer((k, n), "float32"),
             C: T.Buffer((m, n), "float32")):
        T.func_attr({"global_symbol": "gemm", "tir.noalias": True})
        for i, j, r in T.grid(m, n, k):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
    return gemm


def schedule_matmul_naive(func, tile=16):
    """One thread per element of C, blocks of tile x tile threads."""
    sch = tvm.tir.Schedule(func)
    i, j, _ = sch.get_loops(sch.get_block("C"))
    by, ty = sch.split(i, factors=[None, tile])
    bx, tx = sch.split(j, factors=[None, tile])
    sch.reorder(by, bx, ty, tx)
    sch.bind(by, "blockIdx.y")
    sch.bind(bx, "blockIdx.x")
    sch.bind(ty, "threadIdx.y")
    sch.bind(tx, "threadIdx.x")
    return sch.mod


def softmax(m, n):
    @T.prim_func
    def softmax_rows(A: T.Buffer((m, n), "float32"), S: T.Buffer((m, n), "float32")):
        T.func_attr({"global_symbol": "softmax", "tir.noalias": True})
        mx = T.alloc_buffer((m,), "float32")
        den = T.alloc_buffer((m,), "float32")
        for i, j in T.grid(m, n):
            with T.block("max"):
                vi, vj = T.axis.remap("SR", [i, j])
                with T.init():
                    mx[vi] = T.float32(-3.4028234663852886e38)
                mx[vi] = T.max(mx[vi], A[vi, vj])
        for i, j in T.grid(m, n):
            with T.block("sum"):
                vi, vj = T.axis.remap("SR", [i, j])
                with T.init():
                    den[vi] = T.float32(0)
                den[vi] = den[vi] + T.exp(A[vi, vj] - mx[vi])
        for i, j in T.grid(m, n):
            with T.block("out"):
                vi, vj = T.axis.remap("SS", [i, j])
                S[vi, vj] = T.exp(A[vi, vj] - mx[vi]) / den[vi]
    return softmax_rows
