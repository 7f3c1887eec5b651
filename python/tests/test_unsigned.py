"""Unsigned dtypes: MLIR's integers are signless, so the parser says on each
op how a uint value is read (zero extension, unsigned division, comparison,
min / max and shift). Each function runs on values of 128 and up, where a
signed reading differs, and is compared with numpy. A uint buffer keeps its
dtype on the parameter (tir.dtype): the runtime takes uint arrays for it,
and the TVMScript printer prints it, so the printed function parses back to
the same one."""
import numpy as np

import tensorir as tvm
from tensorir import te
from tensorir.script import tir as T


def run(func, *arrays, roundtrip=True):
    """Builds `func` and calls its main on the arrays; the function's
    TVMScript parses back to the same function first (unless a conversion
    between int and uint of one width, which is no operation, is lost in
    printing: docs/tvmscript.md)."""
    if roundtrip:
        reparsed = tvm.script.from_source(func.script())
        tvm.ir.assert_structural_equal(reparsed, func)
    lib = tvm.build(func)
    lib["main"](*arrays)


U8 = np.array([0, 1, 127, 128, 129, 200, 254, 255], "uint8")


def test_widening_cast_and_int_to_float_extend_with_zeros():
    @T.prim_func
    def main(A: T.Buffer((8,), "uint8"), B: T.Buffer((8,), "int32"),
             C: T.Buffer((8,), "float32"), D: T.Buffer((8,), "uint8")):
        for i in range(8):
            with T.block("widen"):
                vi = T.axis.spatial(8, i)
                B[vi] = T.Cast("int32", A[vi])
                C[vi] = T.Cast("float32", A[vi])
                D[vi] = T.Cast("uint8", C[vi] + T.float32(0.5))

    text = main.mod.mlir()
    assert "arith.extui" in text and "arith.uitofp" in text and "arith.fptoui" in text
    assert "arith.extsi" not in text and "arith.sitofp" not in text
    b, c, d = np.zeros(8, "int32"), np.zeros(8, "float32"), np.zeros(8, "uint8")
    run(main, U8, b, c, d)
    np.testing.assert_array_equal(b, U8.astype("int32"))
    np.testing.assert_array_equal(c, U8.astype("float32"))
    np.testing.assert_array_equal(d, U8)


def test_uint8_by_int8_dot_product():
    X = te.placeholder((8, 16), name="X", dtype="uint8")
    W = te.placeholder((8, 16), name="W", dtype="int8")
    k = te.reduce_axis((0, 16), name="k")
    out = te.compute((8, 8), lambda i, j: te.sum(
        X[i, k].astype("int32") * W[j, k].astype("int32"), axis=k), name="compute")
    func = te.create_prim_func([X, W, out])
    assert "arith.extui" in func.mod.mlir() and "arith.extsi" in func.mod.mlir()

    rng = np.random.default_rng(7)
    x = rng.integers(100, 256, (8, 16), dtype="uint8")
    w = rng.integers(-128, 128, (8, 16), dtype="int8")
    c = np.zeros((8, 8), "int32")
    run(func, x, w, c)
    np.testing.assert_array_equal(c, x.astype("int32") @ w.astype("int32").T)


def test_division_comparison_and_max_are_unsigned():
    @T.prim_func
    def main(A: T.Buffer((8,), "uint8"), B: T.Buffer((8,), "uint8"),
             Q: T.Buffer((8,), "uint8"), R: T.Buffer((8,), "uint8"),
             G: T.Buffer((8,), "int32"), M: T.Buffer((8,), "uint8"),
             N: T.Buffer((8,), "uint8")):
        for i in range(8):
            with T.block("ops"):
                vi = T.axis.spatial(8, i)
                Q[vi] = A[vi] // B[vi]
                R[vi] = T.floormod(A[vi], B[vi])
                G[vi] = T.Select(A[vi] > B[vi], 1, 0)
                M[vi] = T.max(A[vi], B[vi])
                N[vi] = T.min(A[vi], T.uint8(130))

    text = main.mod.mlir()
    for op in ("arith.divui", "arith.remui", "arith.cmpi ugt", "arith.maxui", "arith.minui"):
        assert op in text
    a = U8
    b = np.array([3, 200, 1, 7, 130, 100, 255, 2], "uint8")
    q, r, m, n = (np.zeros(8, "uint8") for _ in range(4))
    g = np.zeros(8, "int32")
    run(main, a, b, q, r, g, m, n)
    np.testing.assert_array_equal(q, a // b)
    np.testing.assert_array_equal(r, a % b)
    np.testing.assert_array_equal(g, (a > b).astype("int32"))
    np.testing.assert_array_equal(m, np.maximum(a, b))
    np.testing.assert_array_equal(n, np.minimum(a, 130))


def test_shift_right_of_uint16_brings_in_zeros():
    @T.prim_func
    def main(A: T.Buffer((8,), "uint16"), B: T.Buffer((8,), "uint16"),
             C: T.Buffer((8,), "int16")):
        for i in range(8):
            with T.block("shift"):
                vi = T.axis.spatial(8, i)
                B[vi] = T.shift_right(A[vi], 3)
                C[vi] = T.shift_right(T.Cast("int16", A[vi]), 3)

    text = main.mod.mlir()
    assert "arith.shrui" in text and "arith.shrsi" in text
    a = np.array([0, 1, 8, 32767, 32768, 40000, 65528, 65535], "uint16")
    b, c = np.zeros(8, "uint16"), np.zeros(8, "int16")
    run(main, a, b, c, roundtrip=False)
    np.testing.assert_array_equal(b, a >> 3)
    np.testing.assert_array_equal(c, a.view("int16") >> 3)


def test_uint8_index_and_bool_cast():
    # A uint8 value used as an index is zero-extended; a bool cast to an
    # integer is 1, not -1.
    @T.prim_func
    def main(A: T.Buffer((8,), "uint8"), Table: T.Buffer((256,), "int32"),
             B: T.Buffer((8,), "int32"), C: T.Buffer((8,), "int32")):
        for i in range(8):
            with T.block("gather"):
                vi = T.axis.spatial(8, i)
                B[vi] = Table[A[vi]]
                C[vi] = T.Cast("int32", A[vi] >= T.uint8(128))

    table = np.arange(256, dtype="int32") * 3
    b, c = np.zeros(8, "int32"), np.zeros(8, "int32")
    run(main, U8, table, b, c)
    np.testing.assert_array_equal(b, table[U8])
    np.testing.assert_array_equal(c, (U8 >= 128).astype("int32"))


def test_mixed_operands_and_literals_take_the_unsigned_type():
    # int8 + uint8 is uint8 (same width: unsigned wins, as TVM and C); a
    # literal takes its operand's type, so 200 compares unsigned.
    @T.prim_func
    def main(A: T.Buffer((8,), "uint8"), S: T.Buffer((8,), "int8"),
             B: T.Buffer((8,), "int32"), C: T.Buffer((8,), "int32")):
        for i in range(8):
            with T.block("mixed"):
                vi = T.axis.spatial(8, i)
                B[vi] = T.Cast("int32", A[vi] + S[vi])
                C[vi] = T.if_then_else(A[vi] < 200, 1, 0)

    s = np.array([1, -1, 0, 0, -1, 55, 1, 0], "int8")
    b, c = np.zeros(8, "int32"), np.zeros(8, "int32")
    run(main, U8, s, b, c)
    np.testing.assert_array_equal(b, (U8 + s.view("uint8")).astype("int32"))
    np.testing.assert_array_equal(c, (U8 < 200).astype("int32"))


def test_a_cache_of_a_uint_buffer_is_uint():
    # cache_read's copy of a uint8 buffer holds uint8 too: the scheduled
    # function prints, parses back the same, and widens with zeros.
    @T.prim_func
    def main(A: T.Buffer((8,), "uint8"), B: T.Buffer((8,), "int32")):
        for i in range(8):
            with T.block("widen"):
                vi = T.axis.spatial(8, i)
                B[vi] = T.Cast("int32", A[vi]) * 2

    sch = tvm.tir.Schedule(main)
    sch.cache_read(sch.get_block("widen"), 0, "local")
    assert 'T.alloc_buffer((8,), "uint8"' in sch.mod.script()
    b = np.zeros(8, "int32")
    run(sch.mod["main"], U8, b)
    np.testing.assert_array_equal(b, U8.astype("int32") * 2)
