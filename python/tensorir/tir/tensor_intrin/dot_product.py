"""The TVMScript of the dot-product intrinsics, by shape and dtypes, and
their registration."""
from ...script import tir as T
from ...script.values import DeferredScriptError, ScriptError
from ..function import TensorIntrin


def dot_product_desc(lanes, reduce, a_dtype, b_dtype, c_dtype, a_scope="global",
                     b_scope="global", c_scope="global"):
    """C[i] += A[k] * B[i, k] for i < lanes, k < reduce, in c_dtype (with
    lanes == 0, the scalar form C[0] += A[k] * B[k])."""
    if lanes == 0:
        @T.prim_func
        def desc(a: T.handle, b: T.handle, c: T.handle):
            A = T.match_buffer(a, (reduce,), a_dtype, offset_factor=1, scope=a_scope)
            B = T.match_buffer(b, (reduce,), b_dtype, offset_factor=1, scope=b_scope)
            C = T.match_buffer(c, (1,), c_dtype, offset_factor=1, scope=c_scope)
            with T.block("root"):
                T.reads(C[0], A[0:reduce], B[0:reduce])
                T.writes(C[0])
                for k in T.serial(reduce):
                    with T.block("update"):
                        vk = T.axis.remap("R", [k])
                        C[0] = C[0] + T.cast(A[vk], c_dtype) * T.cast(B[vk], c_dtype)
        return desc

    @T.prim_func
    def desc(a: T.handle, b: T.handle, c: T.handle):
        A = T.match_buffer(a, (reduce,), a_dtype, offset_factor=1, scope=a_scope)
        B = T.match_buffer(b, (lanes, reduce), b_dtype, offset_factor=1, scope=b_scope)
        C = T.match_buffer(c, (lanes,), c_dtype, offset_factor=1, scope=c_scope)
        with T.block("root"):
            T.reads(C[0:lanes], A[0:reduce], B[0:lanes, 0:reduce])
            T.writes(C[0:lanes])
            for i in T.serial(lanes):
                for k in T.serial(reduce):
                    with T.block("update"):
                        vi, vk = T.axis.remap("SR", [i, k])
                        C[vi] = C[vi] + T.cast(A[vk], c_dtype) * T.cast(B[vi, vk], c_dtype)
    return desc


def dot_product_impl(instruction, lanes, reduce, a_dtype, b_dtype, c_dtype,
                     a_scope="global", b_scope="global", c_scope="global"):
    """The instruction on the buffers of dot_product_desc: an opaque call
    taking each buffer and its element offset."""
    if lanes == 0:
        @T.prim_func
        def impl(a: T.handle, b: T.handle, c: T.handle):
            A = T.match_buffer(a, (reduce,), a_dtype, offset_factor=1, scope=a_scope)
            B = T.match_buffer(b, (reduce,), b_dtype, offset_factor=1, scope=b_scope)
            C = T.match_buffer(c, (1,), c_dtype, offset_factor=1, scope=c_scope)
            with T.block("root"):
                T.reads(C[0], A[0:reduce], B[0:reduce])
                T.writes(C[0])
                T.evaluate(T.call_extern("", instruction, C.data, C.elem_offset, A.data,
                                         A.elem_offset, B.data, B.elem_offset))
        return impl

    @T.prim_func
    def impl(a: T.handle, b: T.handle, c: T.handle):
        A = T.match_buffer(a, (reduce,), a_dtype, offset_factor=1, scope=a_scope)
        B = T.match_buffer(b, (lanes, reduce), b_dtype, offset_factor=1, scope=b_scope)
        C = T.match_buffer(c, (lanes,), c_dtype, offset_factor=1, scope=c_scope)
        with T.block("root"):
            T.reads(C[0:lanes], A[0:reduce], B[0:lanes, 0:reduce])
            T.writes(C[0:lanes])
            T.evaluate(T.call_extern("", instruction, C.data, C.elem_offset, A.data,
                                     A.elem_offset, B.data, B.elem_offset))
    return impl


def register_dot_product(name, instruction, lanes, reduce, a_dtype, b_dtype, c_dtype,
                         **scopes):
    """Registers `name` with tir.TensorIntrin; returns the name."""
    parts = []
    for make in (lambda: dot_product_desc(lanes, reduce, a_dtype, b_dtype, c_dtype, **scopes),
                 lambda: dot_product_impl(instruction, lanes, reduce, a_dtype, b_dtype,
                                          c_dtype, **scopes)):
        try:
            parts.append(make())
        except ScriptError as e:
            parts.append(DeferredScriptError(f"tensor intrinsic '{name}'", e))
    TensorIntrin.register(name, *parts, override=True)
    return name
