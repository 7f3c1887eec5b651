"""Matrix multiplication followed by ReLU (TVM's TensorIR tutorial), the
intermediate result an allocated buffer; scheduled, built and checked
against numpy."""
import numpy as np

import tensorir as tvm
from tensorir.script import tir as T


@T.prim_func
def mm_relu(A: T.Buffer((128, 128), "float32"),
            B: T.Buffer((128, 128), "float32"),
            C: T.Buffer((128, 128), "float32")):
    Y = T.alloc_buffer((128, 128), dtype="float32")
    for i, j, k in T.grid(128, 128, 128):
        with T.block("Y"):
            vi = T.axis.spatial(128, i)
            vj = T.axis.spatial(128, j)
            vk = T.axis.reduce(128, k)
            with T.init():
                Y[vi, vj] = T.float32(0)
            Y[vi, vj] = Y[vi, vj] + A[vi, vk] * B[vk, vj]
    for i, j in T.grid(128, 128):
        with T.block("C"):
            vi = T.axis.spatial(128, i)
            vj = T.axis.spatial(128, j)
            C[vi, vj] = T.max(Y[vi, vj], T.float32(0))


sch = tvm.tir.Schedule(mm_relu)
i, j, k = sch.get_loops(sch.get_block("Y"))
j0, j1 = sch.split(j, factors=[None, 16])
sch.reorder(i, j0, k, j1)
sch.parallel(i)
sch.vectorize(j1)
print(sch.mod.script())

a = np.random.default_rng(0).uniform(-1, 1, (128, 128)).astype("float32")
b = np.random.default_rng(1).uniform(-1, 1, (128, 128)).astype("float32")
results = []
for mod in (mm_relu, sch.mod):
    c = tvm.nd.array(np.zeros((128, 128), "float32"))
    lib = tvm.build(mod, target="llvm")
    lib["mm_relu"](a, b, c)
    results.append(c.numpy())
    timer = lib.time_evaluator("mm_relu", tvm.cpu(0), number=10)
    print(f"{'scheduled' if mod is sch.mod else 'original'}: {timer(a, b, c).mean * 1e3:.3f} ms")
np.testing.assert_allclose(results[0], np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)
assert np.array_equal(results[0], results[1])
print("scheduled == original == numpy")
