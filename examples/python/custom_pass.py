"""Writing a custom pass (TVM's "Writing a customized pass" tutorial, whose
code runs here with only its import changed).

A pass written in Python over the IR's nodes: post_order_visit finds the
loops whose extent divides by 8, ir_transform splits each into an outer
serial loop and an inner vectorized one, prim_func_pass makes it a pass,
and PassContext's tir.add_lower_pass runs it after phase 1 of tvm.lower
(docs/passes.md lists what each phase has done). The built function then
gives the right numbers.
"""
import numpy as np

import tensorir as tvm
from tensorir import te

n = tvm.tir.const(128, "int32")
a = te.placeholder((n,), name="a")
b = te.placeholder((n,), name="b")
c = te.compute((n,), lambda i: a[i] + b[i], name="c")

sch = te.create_schedule(c.op)
ir = tvm.lower(sch, [a, b, c])
ir.show()

loops = []


def find_width8(op):
    """Find all 'tir.For' nodes whose extent can be divided by 8."""
    if isinstance(op, tvm.tir.For):
        if isinstance(op.extent, tvm.tir.IntImm):
            if op.extent.value % 8 == 0:
                loops.append(op)


def vectorize8(op):
    """Split can vectorize the loops found in `find_width8`."""
    if op in loops:
        extent = op.extent.value
        name = op.loop_var.name
        lo, li = te.var(name + ".outer"), te.var(name + ".inner")
        body = tvm.tir.stmt_functor.substitute(op.body, {op.loop_var: lo * 8 + li})
        body = tvm.tir.For(li, 0, 8, tvm.tir.ForKind.VECTORIZED, body)
        body = tvm.tir.For(lo, 0, extent // 8, tvm.tir.ForKind.SERIAL, body)
        return body
    return None


@tvm.tir.transform.prim_func_pass(opt_level=0)
def vectorize(f, mod, ctx):
    global loops

    tvm.tir.stmt_functor.post_order_visit(f.body, find_width8)

    if not loops:
        return f

    # Only For nodes are given to vectorize8 (the last argument).
    return f.with_body(tvm.tir.stmt_functor.ir_transform(f.body, None, vectorize8, ["tir.For"]))


with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, vectorize)]}):
    tvm.lower(sch, [a, b, c]).show()

# The same pass in a build: the function runs with the vectorized loop.
loops = []
with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, vectorize)]}):
    lib = tvm.build(sch, [a, b, c])
x = np.random.rand(128).astype("float32")
y = np.random.rand(128).astype("float32")
z = tvm.nd.array(np.zeros(128, "float32"))
lib["main"](x, y, z)
np.testing.assert_allclose(z.numpy(), x + y, rtol=1e-6)
print("vectorized by the custom pass == numpy")
