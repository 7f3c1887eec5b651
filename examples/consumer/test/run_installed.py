"""The installed Python package: build, run and export a function, then
load the export with tir_runtime (the runtime library only)."""
import os
import tempfile

import numpy as np

import tensorir as tvm
import tir_runtime
from tensorir.script import tir as T


@T.prim_func
def add_one(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("B"):
            vi = T.axis.spatial(8, i)
            B[vi] = A[vi] + T.float32(1)


print("package", os.path.dirname(tvm.__file__))
lib = tvm.build(add_one)
a = tvm.nd.array(np.arange(8, dtype="float32"))
b = tvm.nd.empty((8,), "float32")
lib["add_one"](a, b)
print("computed", b.numpy())
with tempfile.TemporaryDirectory() as folder:
    path = os.path.join(folder, "add_one.so")
    lib.export_library(path)
    module = tir_runtime.Module(path)
    out = tir_runtime.empty((8,), "float32")
    module["add_one"](tir_runtime.array(np.arange(8, dtype="float32")), out)
    print("runtime only", np.asarray(out))
