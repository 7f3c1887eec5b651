"""TVMScript constructs beyond loops and blocks: buffers matched to regions,
constant buffers, opaque calls, scalable vectors (T.vscale) and symbolic
expressions from the enclosing Python scope, targets, tensor intrinsics."""
import pytest

import tensorir as tvm
from tensorir.script import tir as T
from tensorir.script import ScriptError


def roundtrip_or_text(func):
    """The printed TVMScript parsed back and structurally equal, where the
    printer supports the function; else its MLIR text."""
    try:
        text = func.script()
    except ValueError:
        return func.mod.mlir()
    again = tvm.script.from_source(text)  # one @T.prim_func: a PrimFunc
    tvm.ir.assert_structural_equal(func, again)
    return text


def test_match_buffer_of_a_region_is_a_strided_view():
    @T.prim_func
    def tiles(A: T.Buffer((64, 64), "float16"), C: T.Buffer((64, 64), "float16")):
        for i, j in T.grid(4, 4):
            with T.block("tile"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16])
                T.writes(C[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16])
                A0 = T.match_buffer(A[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16], (16, 16),
                                    "float16", strides=[64, 1], offset_factor=1)
                C0 = T.match_buffer(C[vi * 16:vi * 16 + 16, vj * 16:vj * 16 + 16], (16, 16),
                                    "float16")
                for x, y in T.grid(16, 16):
                    with T.block("copy"):
                        vx, vy = T.axis.remap("SS", [x, y])
                        C0[vx, vy] = A0[vx, vy]

    text = tiles.mod.mlir()
    assert "tir.match_buffer" in text
    assert "memref<16x16xf16, strided<[64, 1], offset: ?>>" in text
    roundtrip_or_text(tiles)


def test_match_buffer_refuses_other_strides_and_names_offsets():
    with pytest.raises(ScriptError, match="stride 32 differs from the buffer's"):
        @T.prim_func
        def wrong(A: T.Buffer((64, 64), "float32")):
            with T.block("root"):
                A0 = T.match_buffer(A[0:16, 0:16], (16, 16), strides=[32, 1])
                A0[0, 0] = T.float32(0)

    @T.prim_func
    def named(A: T.Buffer((64, 64), "float32"), B: T.Buffer((64,), "float32")):
        for i in range(4):
            with T.block("b"):
                vi = T.axis.remap("S", [i])
                off = T.int32()
                A0 = T.match_buffer(A[vi * 16:vi * 16 + 16, 0:16], (16, 16), elem_offset=off)
                B[vi] = T.Cast("float32", off) + A0[0, 0]

    assert "memref.extract_strided_metadata" in named.mod.mlir()


def test_allocate_const_with_decl_buffer_and_a_python_helper():
    def declare(*args, **kwargs):
        return T.decl_buffer(*args, **kwargs)

    @T.prim_func
    def consts(A: T.Buffer((4,), "float32")):
        data = T.allocate_const([1.0, 2.0, 3.0, 4.0], "float32", [4])
        K = declare([4], data=data)
        for i in range(4):
            with T.block("B"):
                vi = T.axis.remap("S", [i])
                A[vi] = K[vi] * 2.0 + vi

    text = consts.mod.mlir()
    assert "tir.allocate_const : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00" in text
    with pytest.raises(ScriptError, match="reinterpreting view"):
        @T.prim_func
        def reshaped(A: T.Buffer((4,), "float32")):
            data = T.allocate_const([1.0, 2.0, 3.0, 4.0], "float32", [4])
            K = T.decl_buffer([2, 2], "float32", data=data)
            A[0] = K[0, 0]


def test_opaque_calls_are_tir_calls():
    @T.prim_func
    def ext(A: T.Buffer((64,), "int32")):
        for i in range(1):
            with T.block("call"):
                T.reads(A[:64])
                T.writes(A[:64])
                T.evaluate(T.call_extern("call_impl", A.data, dtype=""))
                T.evaluate(A.access_ptr("r", extent=64))

    text = ext.mod.mlir()
    assert 'tir.call "call_extern"("call_impl", %' in text
    assert 'tir.call "tvm_access_ptr"(i32, %' in text
    with pytest.raises(ScriptError, match="expressions as statements are calls"):
        @T.prim_func
        def stray(A: T.Buffer((4,), "int32")):
            A[0] + 1


def test_bool_call_arguments_are_literals():
    # TVM prints a bool argument as T.bool(False); it is the literal False.
    @T.prim_func
    def literal(A: T.Buffer((4,), "int32"), B: T.Buffer((4,), "int32")):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                B[vi] = T.q_multiply_shift_per_axis(A[vi], A[vi], A[vi], A[vi], 31, False,
                                                    True, dtype="int32")

    @T.prim_func
    def spelled(A: T.Buffer((4,), "int32"), B: T.Buffer((4,), "int32")):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.spatial(4, i)
                B[vi] = T.q_multiply_shift_per_axis(A[vi], A[vi], A[vi], A[vi], 31,
                                                    T.bool(False), T.bool(True))

    tvm.ir.assert_structural_equal(literal, spelled)
    text = roundtrip_or_text(literal)
    assert "31, T.bool(False), T.bool(True))" in text


def test_nested_access_region_covers_the_dimension():
    @T.prim_func
    def gather(A: T.Buffer((7, 8), "float32"), B: T.Buffer((1,), "int32"),
               C: T.Buffer((1, 8), "float32")):
        for i, j in T.grid(1, 8):
            with T.block("C"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[B[vi], vj], B[vi])
                T.writes(C[vi, vj])
                C[vi, vj] = A[B[vi], vj]

    assert "reads(%arg0[0 : 7, %vj], %arg1[%vi]" in gather.text
    gather.mod  # verifies


def test_vscale_inside_a_function():
    @T.prim_func
    def scalable(a: T.handle):
        A = T.match_buffer(a, (128,), "float32")
        for i in T.serial(4 * T.vscale()):
            with T.block("A"):
                v_i = T.axis.spatial(4 * T.vscale(), i)
                T.where(i < 128)
                A[v_i] = 1.0

    text = scalable.mod.mlir()
    assert text.count("vector.vscale") == 1
    assert "spatial(" in text


def test_symbolic_expressions_from_the_python_scope():
    n = 115
    extent = tvm.arith.Analyzer().simplify(T.ceildiv(n, 4 * T.vscale()))
    assert repr(extent) == "T.ceildiv(115, T.vscale() * 4)"
    assert tvm.arith.Analyzer().simplify(T.floordiv(9, 2)) == 4
    assert isinstance(T.vscale() * 2 + 1, tvm.tir.PrimExpr)

    @T.prim_func
    def split(a: T.handle):
        A = T.match_buffer(a, (n,), "float32")
        for i_0, i_1 in T.grid(extent, T.vscale() * 4):
            with T.block("A"):
                v_i = T.axis.spatial(n, i_0 * (T.vscale() * 4) + i_1)
                T.where(i_0 * (T.vscale() * 4) + i_1 < n)
                A[v_i] = 1.0

    text = split.text
    assert "arith.ceildivsi" in text
    assert "where(%i_1 + %i_0 * (%vscale * 4) < 115)" in text
    # A split factor is an index expression of T.vscale(): T.min is not one.
    sch = tvm.tir.Schedule(split)
    with pytest.raises(TypeError, match="T.min is not an index expression"):
        sch.split(sch.get_loops(sch.get_block("A"))[1], [None, T.min(T.vscale(), 4)])


def test_target_context():
    assert tvm.target.Target.current() is None
    with tvm.target.Target("llvm -mtriple=aarch64-linux-gnu -mattr=+sve") as target:
        assert tvm.target.Target.current() is target
        assert target.kind.name == "llvm" and target.mattr == ["+sve"]
        assert target.has_scalable_vectors()
    assert tvm.target.Target.current() is None
    assert not tvm.target.Target("llvm").has_scalable_vectors()


def test_tensor_intrinsics_are_registered_pairs():
    from tensorir.tir.tensor_intrin.x86 import VNNI_DOT_16x4_INTRIN
    from tensorir.tir.tensor_intrin.arm_cpu import DP4A_S8S8S32_INTRIN
    for name in (VNNI_DOT_16x4_INTRIN, DP4A_S8S8S32_INTRIN):
        intrin = tvm.tir.TensorIntrin.get(name)
        assert "tir.block" in intrin.desc.mod.mlir()
        assert 'tir.call "call_extern"' in intrin.impl.mod.mlir()


def test_topi_argmax_builds_tvms_blocks():
    # One block reduces (index, value) pairs into two temporaries, another
    # copies the index out; the program runs like numpy's argmax.
    import numpy as np
    data = tvm.te.placeholder((3, 10), dtype="int32", name="data")
    func = tvm.te.create_prim_func([data, tvm.topi.argmin(data, axis=1)])
    text = func.mod.mlir()
    assert 'tir.block "data_red_temp"' in text and 'tir.block "data_red"' in text
    assert "%data_red_temp_v0 = tir.alloc_buffer" in text
    a = np.random.default_rng(0).integers(0, 4, (3, 10)).astype("int32")
    out = np.zeros(3, "int32")
    tvm.build(func)["main"](a, out)
    np.testing.assert_array_equal(out, np.argmin(a, axis=1))


def test_if_then_else_evaluates_only_the_chosen_side():
    # TVM's padding idiom: the load of X on the untaken side would read
    # outside X, so T.if_then_else is an scf.if (T.Select stays eager).
    import numpy as np

    @T.prim_func
    def pad(X: T.Buffer((1, 6, 6, 3), "float32"), P: T.Buffer((1, 8, 8, 3), "float32")):
        for n, h, w, c in T.grid(1, 8, 8, 3):
            with T.block("pad"):
                vn, vh, vw, vc = T.axis.remap("SSSS", [n, h, w, c])
                P[vn, vh, vw, vc] = T.if_then_else(
                    1 <= vh and vh < 7 and 1 <= vw and vw < 7, X[vn, vh - 1, vw - 1, vc], 0)

    text = pad.mod.mlir()
    assert "scf.if" in text and "arith.select" not in text
    again = tvm.script.from_source(pad.script())
    tvm.ir.assert_structural_equal(again, pad)
    x = np.random.default_rng(0).random((1, 6, 6, 3), dtype="float32")
    expected = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    sch = tvm.tir.Schedule(pad)
    _, _, w, c = sch.get_loops(sch.get_block("pad"))
    _, lanes = sch.split(sch.fuse(w, c), [None, 8])
    sch.vectorize(lanes)
    for mod in (pad, sch.mod):
        p = np.zeros((1, 8, 8, 3), "float32")
        tvm.build(mod)(x, p)
        assert np.array_equal(p, expected)


def test_integer_arithmetic_of_python_values_folds():
    # TVM evaluates `H + 2` of a closure's H in Python: the shapes, extents
    # and domains stay constants (they were arith ops of i32 and index).
    def make(H):
        @T.prim_func
        def pad1(A: T.Buffer((H,), "float32"), B: T.Buffer((H + 2,), "float32")):
            Tmp = T.alloc_buffer((H * 2 - H + 2,), "float32")
            for i in range(H + 2):
                with T.block("B"):
                    vi = T.axis.spatial(H + 2, i)
                    B[vi] = T.if_then_else(1 <= vi and vi < H + 1, A[vi - 1], T.float32(0),
                                           dtype="float32")
            for i in range(4 + (H + 2) // 2 % 2):
                with T.block("T"):
                    vi = T.axis.spatial(5, i)
                    Tmp[vi] = B[vi]

        return pad1

    text = make(5).script()
    assert 'B: T.Buffer((7,), "float32")' in text
    assert "Tmp = T.alloc_buffer((7,)" in text
    assert "T.axis.spatial(7, i)" in text and "for i in range(7):" in text
    assert "for i in range(5):" in text and "vi < 6" in text


def test_a_script_is_built_as_nodes_located_at_its_lines():
    # A value an op cannot take is refused by the builder at the line of
    # the statement that holds it.
    import inspect
    with pytest.raises(ValueError) as info:
        @T.prim_func
        def bad(A: T.Buffer((4,), "float32")):
            for i in range(4):
                A[i] = T.call_extern("int8x3", "f")  # a vector into a float buffer
    line = inspect.currentframe().f_lineno - 1
    assert f"test_script_constructs.py:{line}:" in str(info.value)
    assert "an int8x3 value where a float32 is needed" in str(info.value)


def test_aliases_of_variables_are_substituted_and_loaded_values_are_named():
    @T.prim_func
    def f(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
        for i in range(16):
            with T.block("B"):
                vi = T.axis.spatial(16, i)
                half = vi // 2
                x = A[vi]
                A[vi] = 0.0
                B[half] = x
    # (The nodes read back from the ops name the value as the printer does.)
    body = f.body.block.body.body.block.body
    assert isinstance(body, tvm.tir.LetStmt) and isinstance(body.value, tvm.tir.BufferLoad)
    store = body.body[1]
    assert isinstance(store.indices[0], tvm.tir.FloorDiv)
    text = f.mod.mlir()
    assert "%arg1[%vi floordiv 2]" in text and text.index("tir.load") < text.index(
        "tir.store %cst")


def test_named_strides_of_a_matched_region_read_its_layout():
    @T.prim_func
    def f(A: T.Buffer((8, 8), "float32")):
        for i in range(2):
            with T.block("outer"):
                vi = T.axis.spatial(2, i)
                s0 = T.int32()
                off = T.int32()
                V = T.match_buffer(A[vi * 4:vi * 4 + 4, 0:8], (4, 8), strides=[s0, 1],
                                   elem_offset=off)
                T.evaluate(T.call_extern("handle", "use", V.data, off, s0))
    text = f.mod.mlir()
    assert "memref.extract_strided_metadata" in text and "tir.match_buffer" in text


def test_a_call_with_no_result_named_is_refused_at_its_line():
    with pytest.raises(tvm.script.ScriptError, match="this call returns nothing"):
        @T.prim_func
        def f(A: T.Buffer((4,), "float32")):
            x = T.call_packed("f")
            A[0] = x


def test_buffer_shape_and_dtype_by_keyword():
    @T.prim_func
    def f(A: T.Buffer(shape=(4, 8), dtype="float16"), B: T.Buffer((4, 8), dtype="float16")):
        for i, j in T.grid(4, 8):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj]

    a = f.buffer_map[f.params[0]]
    assert [int(d) for d in a.shape] == [4, 8] and a.dtype == "float16"


def test_an_integer_expression_with_a_float_literal_computes_in_float():
    @T.prim_func
    def f(A: T.Buffer((8,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[T.Cast("int32", T.floor(vi * 2 + 0.5))]

    text = f.script()
    assert "T.float32(0.5)" in text and 'T.Cast("float32"' in text
    import numpy as np
    a = np.arange(8, dtype="float32")
    b = np.zeros(4, "float32")
    tvm.build(tvm.IRModule({"main": f}))(a, b)
    np.testing.assert_array_equal(b, a[np.floor(np.arange(4) * 2 + 0.5).astype(int)])


def test_launch_thread_is_a_loop_bound_to_the_thread():
    # The three spellings of TVM's launch_thread: an assignment (the
    # statements after run on the threads), a with statement, and a
    # variable of T.env_thread; each is a thread-bound loop.
    @T.prim_func
    def launched(A: T.Buffer((4, 64), "float32")):
        bx = T.launch_thread("blockIdx.x", 4)
        with T.launch_thread("threadIdx.x", 64) as tx:
            A[bx, tx] = T.float32(1)

    @T.prim_func
    def env_threads(A: T.Buffer((4, 64), "float32")):
        bx = T.env_thread("blockIdx.x")
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(bx, 4)
        T.launch_thread(tx, 64)
        A[bx, tx] = T.float32(1)

    @T.prim_func
    def loops(A: T.Buffer((4, 64), "float32")):
        for bx in T.thread_binding(4, thread="blockIdx.x"):
            for tx in T.thread_binding(64, thread="threadIdx.x"):
                A[bx, tx] = T.float32(1)

    tvm.ir.assert_structural_equal(launched, loops)
    tvm.ir.assert_structural_equal(env_threads, loops)
    assert 'T.thread_binding(64, thread="threadIdx.x")' in launched.script()


def test_launch_thread_in_a_block_branch_schedules():
    # A kernel launched under a condition inside a block (TVM's printed form
    # of a lowered scan) parses, and a schedule can be made of it.
    @T.prim_func
    def scan(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n,), "int32")
        B = T.match_buffer(b, (n,), "int32")
        with T.block("copy"):
            T.reads()
            T.writes()
            if n == 0:
                bx = T.launch_thread("blockIdx.x", 1)
            else:
                with T.launch_thread("threadIdx.x", 256) as tx:
                    bx = T.launch_thread("blockIdx.x", T.ceildiv(n, 256))
                    i: T.int32 = bx * 256 + tx
                    if i < n:
                        B[i] = A[i]

    sch = tvm.tir.Schedule(scan)
    assert sch.get(sch.get_block("copy")).name_hint == "copy"
    text = scan.script()
    assert 'T.thread_binding(T.ceildiv(n, 256), thread="blockIdx.x")' in text


def test_launch_thread_refusals_name_the_line():
    with pytest.raises(ScriptError, match="T.launch_thread takes a thread"):
        @T.prim_func
        def no_extent(A: T.Buffer((4,), "float32")):
            tx = T.launch_thread("threadIdx.x")
            A[tx] = T.float32(1)
    with pytest.raises(ScriptError, match="is not a thread"):
        @T.prim_func
        def not_a_thread(A: T.Buffer((4,), "float32")):
            k = 3
            T.launch_thread(k, 4)
            A[0] = T.float32(1)


def test_node_constructors_and_sigmoid():
    # T.Add / T.Mul / ... are the binary nodes written by name (TVM prints
    # them so where it keeps `x + 0`); T.sigmoid is 1 / (1 + exp(-x)).
    import numpy as np

    @T.prim_func
    def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
        for i in range(8):
            with T.block("B"):
                vi = T.axis.spatial(8, T.Add(T.Mul(i, 1), 0))
                T.where(T.And(T.LT(T.Sub(i, 0), 8), T.GE(i, 0)))
                B[vi] = T.sigmoid(T.Max(A[vi], T.Min(A[vi], T.float32(0))))

    a = np.random.randn(8).astype("float32")
    b = np.zeros(8, "float32")
    tvm.build(f)["f"](a, b)
    np.testing.assert_allclose(b, 1 / (1 + np.exp(-a)), rtol=1e-6)
    with pytest.raises(ScriptError, match="T.sigmoid takes a floating-point value"):
        @T.prim_func
        def g(A: T.Buffer((8,), "int32")):
            for i in range(8):
                with T.block("A"):
                    vi = T.axis.spatial(8, i)
                    A[vi] = T.sigmoid(A[vi])
    with pytest.raises(ScriptError, match=r"T.Add takes 2 arguments"):
        @T.prim_func
        def h(A: T.Buffer((8,), "int32")):
            for i in range(8):
                with T.block("A"):
                    vi = T.axis.spatial(8, i)
                    A[vi] = T.Add(vi)


def test_a_region_that_depends_on_loaded_values_covers_its_dimension():
    # An embedding lookup (a gather): the row read depends on the index
    # loaded in the block, which the regions, given before the body, cannot
    # use; that dimension of the region is the buffer's whole extent.
    import numpy as np

    @T.prim_func
    def gather(idx: T.Buffer((4,), "int32"), table: T.Buffer((16, 8), "float32"),
               out: T.Buffer((4, 8), "float32")):
        for i, j in T.grid(4, 8):
            with T.block("out"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(idx[vi], table[idx[vi], vj])
                T.writes(out[vi, vj])
                out[vi, vj] = table[idx[vi], vj]

    text = gather.mod.mlir()
    assert "reads(%arg0[%vi], %arg1[0 : 16, %vj]" in text, text
    idx = np.array([3, 0, 15, 7], "int32")
    table = np.random.rand(16, 8).astype("float32")
    out = np.zeros((4, 8), "float32")
    tvm.build(gather)["gather"](idx, table, out)
    np.testing.assert_allclose(out, table[idx])


def test_a_region_of_min_and_max_of_iteration_variables_covers_its_dimension():
    # Winograd's inverse transform reads A[min(r, v) : max(r, v) + 1, ...]:
    # no affine bound of the block's variables, so the dimension is whole.
    import numpy as np

    @T.prim_func
    def band(A: T.Buffer((6, 4), "float32"), out: T.Buffer((4, 4), "float32")):
        for i, j in T.grid(4, 4):
            with T.block("out"):
                vi, vj = T.axis.remap("SS", [i, j])
                T.reads(A[T.min(vi, vj):T.max(vi, vj) + 1, vj])
                T.writes(out[vi, vj])
                out[vi, vj] = A[T.min(vi, vj), vj] + A[T.max(vi, vj), vj]

    text = band.mod.mlir()
    assert "reads(%arg0[0 : 6, %vj]" in text, text
    a = np.random.rand(6, 4).astype("float32")
    out = np.zeros((4, 4), "float32")
    tvm.build(band)["band"](a, out)
    i, j = np.meshgrid(range(4), range(4), indexing="ij")
    np.testing.assert_allclose(out, a[np.minimum(i, j), j] + a[np.maximum(i, j), j])


def test_strides_named_by_strings_and_tensor_core_builtins_give_handles():
    # As TVM prints a tensorized block: strides=("C_s0", "C_s1") names new
    # variables, read as C.strides[k]; tvm_access_ptr and the fragment
    # builtins give a handle without dtype=.
    @T.prim_func
    def f(A: T.Buffer((32, 32), "float16"), C: T.Buffer((32, 32), "float16")):
        for i in range(2):
            with T.block("tile"):
                vi = T.axis.spatial(2, i)
                T.reads(A[vi * 16:vi * 16 + 16, 0:16])
                T.writes(C[vi * 16:vi * 16 + 16, 0:16])
                A0 = T.match_buffer(A[vi * 16:vi * 16 + 16, 0:16], (16, 16), "float16",
                                    strides=("A_s0", "A_s1"), offset_factor=16)
                C0 = T.match_buffer(C[vi * 16:vi * 16 + 16, 0:16], (16, 16), "float16",
                                    strides=("C_s0", "C_s1"), offset_factor=16)
                T.tvm_load_matrix_sync(
                    C0.data, 16, 16, 16, C0.elem_offset // C0.strides[0] // 16,
                    T.tvm_access_ptr(T.type_annotation("float16"), A0.data, A0.elem_offset,
                                     A0.strides[0] * 16, 1), A0.strides[0], "row_major")

    text = f.mod.mlir()
    assert 'tir.call "tvm_access_ptr"' in text and '"tvm_load_matrix_sync"' in text
    # The strides are the layout's (A's rows: 32 elements).
    assert "-> memref<16x16xf16, strided<[32, 1], offset: ?>>" in text
    with pytest.raises(tvm.script.ScriptError, match="a new variable's name"):
        @T.prim_func
        def g(A: T.Buffer((32, 32), "float16")):
            for i in range(2):
                with T.block("tile"):
                    vi = T.axis.spatial(2, i)
                    A0 = T.match_buffer(A[vi * 16:vi * 16 + 16, 0:16], (16, 16), "float16",
                                        strides=("not a name", 1))
                    T.evaluate(A0.data)


def test_a_range_that_goes_backwards_is_empty():
    # range(0, -1) runs no iteration, as Python's; tir's loops have no
    # negative extent, so the loop is written with extent 0.
    import numpy as np

    @T.prim_func
    def f(A: T.Buffer((1,), "float32")):
        for j in range(0, -1):
            with T.block("A"):
                vj = T.axis.spatial(1, j)
                A[vj] = A[vj] + T.float32(1)

    assert "tir.for %j = 0 to 0" in f.mod.mlir()
    a = np.zeros(1, "float32")
    tvm.build(f)["f"](a)
    assert a[0] == 0


def test_unnamed_blocks_and_unused_shape_variables():
    @T.prim_func
    def f(x: T.handle, y: T.handle):
        n = T.int32()  # declared, never used: left out, as TVM leaves it
        A = T.match_buffer(x, (4,))
        B = T.match_buffer(y, (4,))
        for i in range(4):
            with T.block():
                vi = T.axis.spatial(4, i)
                B[vi] = A[vi] * 2.0

    text = roundtrip_or_text(f)
    assert 'T.block("")' in text and "n = " not in text
    sch = tvm.tir.Schedule(f)
    (loop,) = sch.get_loops(sch.get_child_blocks(sch.get_block("root"))[0])
    sch.vectorize(loop)
    assert "T.vectorized" in sch.mod.script()


def test_relax_annotations_without_shapes_and_the_module_by_its_class_name():
    from tensorir.script import ir as I
    from tensorir.script import relax as R

    @I.ir_module
    class Doubled:
        @T.prim_func
        def double(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
            for i in range(4):
                with T.block("B"):
                    vi = T.axis.spatial(4, i)
                    B[vi] = A[vi] * 2.0

        @R.function
        def main(x: R.Tensor((4,), "float32")) -> R.Tensor:
            with R.dataflow():
                y: R.Tensor((4,)) = R.call_tir(Doubled.double, (x,),
                                               out_sinfo=R.Tensor((4,), "float32"))
                R.output(y)
            return y

    assert "R.call_tir(cls.double, (x,)" in Doubled.script()
    # A rank without a shape is a shape variable per dimension; no rank and
    # no R.match_cast that gives one is refused.
    @R.function
    def any_length(x: R.Tensor(ndim=1, dtype="float32")):
        return x

    assert 'x: R.Tensor(("x_dim0",), dtype="float32")' in any_length.script()
    with pytest.raises(ScriptError, match="parameters have known shapes"):
        @R.function
        def bad(x: R.Tensor(dtype="float32")):
            return x
