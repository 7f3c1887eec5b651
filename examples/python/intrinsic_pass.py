"""A hardware-adaptation pass written twice: in Python over the IR's nodes,
and in C++ as an MLIR pass plugin (examples/plugin/MarkIntrinsicLoops.cpp).
Both mark the innermost loops whose constant trip count divides by 8 for a
custom intrinsic (the loop annotation pragma_custom_intrin), and both give
the same IR.

    python3 examples/python/intrinsic_pass.py [build/lib/TIRMarkIntrinsicLoops.so]
"""
import os
import sys

import tensorir as tvm
from tensorir.script import tir as T

WIDTH, INTRINSIC = 8, "vmac"


@tvm.tir.transform.prim_func_pass(opt_level=0, name="MarkIntrinsicLoops")
def mark_intrinsic_loops(func, mod, ctx):
    def innermost(loop):
        found = []
        tvm.tir.stmt_functor.post_order_visit(
            loop.body, lambda n: found.append(n) if isinstance(n, tvm.tir.For) else None)
        return not found

    def mark(loop):
        static = isinstance(loop.min, tvm.tir.IntImm) and isinstance(loop.extent, tvm.tir.IntImm)
        if static and loop.extent.value > 0 and loop.extent.value % WIDTH == 0 \
                and innermost(loop):
            return loop.with_fields(annotations={**loop.annotations,
                                                 "pragma_custom_intrin": INTRINSIC})
        return None

    body = tvm.tir.stmt_functor.ir_transform(func.body, None, mark, ["tir.For"])
    return func if body is func.body else func.with_body(body)


@T.prim_func
def kernel(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64, 64), "float32")):
    for i, j in T.grid(64, 16):
        with T.block("scale"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for k in range(12):
        with T.block("edge"):
            vk = T.axis.spatial(12, k)
            B[vk, 63] = T.float32(0)


def main(plugin):
    mod = tvm.IRModule({"kernel": kernel})
    marked = mark_intrinsic_loops(mod)
    marked.show()
    if not os.path.exists(plugin):
        print(f"no plugin at {plugin}: build the project to compare with the C++ pass")
        return
    tvm.transform.load_pass_plugin(plugin)
    cxx = tvm.transform.mlir_pass(f"tir-mark-intrinsic-loops{{width={WIDTH} "
                                  f"intrinsic={INTRINSIC}}}")(mod)
    tvm.ir.assert_structural_equal(marked, cxx)
    print("the Python pass and the C++ plugin give the same IR")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "..", "build", "lib", "TIRMarkIntrinsicLoops.so"))
