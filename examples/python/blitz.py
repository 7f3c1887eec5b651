"""TVM's Blitz course on TensorIR, with `import tensorir as tvm`: write a
kernel in TVMScript, schedule it (printing the IR after each step), build
it and run it on numpy data."""
import numpy as np

import tensorir as tvm
from tensorir.script import ir as I
from tensorir.script import tir as T


@I.ir_module
class MyModule:
    @T.prim_func
    def main(a: T.handle, b: T.handle):
        # We exchange data between functions by handles, similar to pointers.
        T.func_attr({"global_symbol": "main", "tir.noalias": True})
        # Create buffers from handles.
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

# Transform: split the loop and reorder, printing the IR after each step.
sch = tvm.tir.Schedule(ir_module)
block_b = sch.get_block("B")
(i,) = sch.get_loops(block_b)
i_0, i_1 = sch.split(i, factors=[2, 4])
print(sch.mod.script())
sch.reorder(i_0, i_1)
print(sch.mod.script())

# Build and run.
mod = tvm.build(sch.mod, target="llvm")
a = tvm.nd.array(np.arange(8).astype("float32"))
b = tvm.nd.array(np.zeros((8,)).astype("float32"))
mod["main"](a, b)
print(b.numpy())
