"""TVM's Blitz course on TensorIR with `import tensorir as tvm` in place of
`import tvm`: create an IRModule from TVMScript and from te, build and run
it, then split and reorder its loop, printing the IR after each step."""
import numpy as np

import tensorir as tvm
from tensorir.ir.module import IRModule
from tensorir.script import tir as T


@tvm.script.ir_module
class MyModule:
    @T.prim_func
    def main(a: T.handle, b: T.handle):
        # We exchange data between function by handles, which are similar to pointer.
        T.func_attr({"global_symbol": "main", "tir.noalias": True})
        # Create buffer from handles.
        A = T.match_buffer(a, (8,), dtype="float32")
        B = T.match_buffer(b, (8,), dtype="float32")
        for i in range(8):
            # A block is an abstraction for computation.
            with T.block("B"):
                # Define a spatial block iterator and bind it to value i.
                vi = T.axis.spatial(8, i)
                B[vi] = A[vi] + 1.0


ir_module = MyModule
print(type(ir_module))
print(ir_module.script())

# The same operator with the tensor expression DSL.
from tensorir import te  # noqa: E402

A = te.placeholder((8,), dtype="float32", name="A")
B = te.compute((8,), lambda *i: A(*i) + 1.0, name="B")
func = te.create_prim_func([A, B])
ir_module_from_te = IRModule({"main": func})
print(ir_module_from_te.script())

# Build and run.
mod = tvm.build(ir_module, target="llvm")  # The module for CPU backends.
print(type(mod))
a = tvm.nd.array(np.arange(8).astype("float32"))
b = tvm.nd.array(np.zeros((8,)).astype("float32"))
mod(a, b)
print(a)
print(b)

# Transform: tile the loop into 3 loops, then move i_2 outside of i_1.
sch = tvm.tir.Schedule(ir_module)
print(type(sch))
block_b = sch.get_block("B")
(i,) = sch.get_loops(block_b)
i_0, i_1, i_2 = sch.split(i, factors=[2, 2, 2])
print(sch.mod.script())
sch.reorder(i_0, i_2, i_1)
print(sch.mod.script())

# The transformed module computes the same.
mod = tvm.build(sch.mod, target="llvm")
b = tvm.nd.array(np.zeros((8,)).astype("float32"))
mod(a, b)
print(b)

# Transform to a GPU program: bind the loops to GPU threads, build for
# cuda, run on the GPU (where there is one; elsewhere the library is
# exported, for bench/gpu/run.py to run on a GPU machine).
sch = tvm.tir.Schedule(ir_module)
block_b = sch.get_block("B")
(i,) = sch.get_loops(block_b)
i_0, i_1 = sch.split(i, factors=[2, 4])
sch.bind(i_0, "blockIdx.x")
sch.bind(i_1, "threadIdx.x")
print(sch.mod.script())

ctx = tvm.cuda(0)
cuda_mod = tvm.build(sch.mod, target="cuda")
if ctx.exist:
    cuda_a = tvm.nd.array(np.arange(8).astype("float32"), ctx)
    cuda_b = tvm.nd.array(np.zeros((8,)).astype("float32"), ctx)
    cuda_mod(cuda_a, cuda_b)
    print(cuda_a)
    print(cuda_b)
else:
    import os
    import tempfile
    path = os.environ.get("BLITZ_CUDA_LIBRARY") or os.path.join(tempfile.mkdtemp(), "blitz_cuda.so")
    cuda_mod.export_library(path)
    print(f"no GPU here: built for cuda and exported to {path}")
