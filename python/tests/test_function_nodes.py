"""A function's nodes as the extension builds them from its ops
(python/extension/Nodes.cpp): what each op becomes, and the refusal of an
op with no node form."""
import pytest

from tensorir import tir
from tensorir.ir.module import IRModule
from tensorir.script import tir as T


@T.prim_func
def reduction(a: T.handle, B: T.Buffer((4,), "float32")):
    n = T.int32()
    A = T.match_buffer(a, (4, n), "float32")
    for i, k in T.grid(4, n):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.where(i * n + k < 4 * n)
            with T.init():
                B[vi] = T.float32(0)
            B[vi] = B[vi] + T.exp(A[vi, vk]) * 2.0


def test_loops_blocks_and_expressions():
    f = reduction
    a, B = f.params
    assert a.dtype == "handle" and a.name == "a" and B.name == "B"
    A, B = f.buffer_map[a], f.buffer_map[B]
    n = A.shape[1]
    assert isinstance(n, tir.SizeVar) and n.name == "n"
    root = f.body.block
    loop_i = root.body
    assert isinstance(loop_i, tir.For) and loop_i.extent.value == 4
    loop_k = loop_i.body
    assert loop_k.extent is n  # the shape variable itself
    realize = loop_k.body
    block = realize.block
    assert block.name_hint == "B"
    assert [iv.iter_type for iv in block.iter_vars] == [tir.IterVar.DataPar,
                                                         tir.IterVar.CommReduce]
    assert realize.iter_values[0] is loop_i.loop_var
    assert isinstance(realize.predicate, tir.GE)
    # Regions as tir stores them: a start and an extent.
    read_a = next(r for r in block.reads if r.buffer is A)
    (write_b,) = block.writes
    assert write_b.buffer is B
    assert [r.min for r in read_a.region] == [v.var for v in block.iter_vars]
    assert [r.extent.value for r in read_a.region] == [1, 1]
    assert isinstance(block.init, tir.BufferStore)
    store = block.body
    assert isinstance(store, tir.BufferStore) and store.buffer is B
    total = store.value
    assert isinstance(total, tir.Add)
    scaled = total.b
    assert isinstance(scaled, tir.Mul) and isinstance(scaled.a, tir.Call)
    assert scaled.a.op.name == "tir.exp"


@T.prim_func
def aliased(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("B"):
            vi = T.axis.spatial(8, i)
            v = A[vi] * 2.0
            B[vi] = v + v


def test_a_value_used_twice_is_a_let():
    block = aliased.body.block.body.body.block
    let = block.body
    assert isinstance(let, tir.LetStmt)
    assert isinstance(let.value, tir.Mul)
    assert isinstance(let.body, tir.BufferStore)
    assert let.body.value.a is let.var and let.body.value.b is let.var


def test_an_op_with_no_node_form_is_named():
    mod = IRModule.from_mlir("""
func.func @f(%A: memref<4xf32, strided<[2]>> {tir.name = "A"}) {
  return
}""")
    with pytest.raises(ValueError, match="has no form as IR nodes.*not a row-major buffer"):
        mod["f"].body


def test_a_function_with_no_node_form_still_gives_its_signature():
    mod = IRModule.from_mlir("""
func.func @f(%A: memref<4x?xf32, strided<[?, 1]>> {tir.name = "A"}, %n: index {tir.name = "n"}) {
  return
}""")
    a, n = mod["f"].params
    assert (a.name, a.dtype) == ("A", "handle") and (n.name, n.dtype) == ("n", "int32")
    buf = mod["f"].buffer_map[a]
    assert buf.dtype == "float32" and buf.shape[0].value == 4 and buf.shape[1] is None


def test_building_keeps_64_bit_constants_and_unsigned_operations():
    from tensorir import te
    A = te.placeholder((4, 8), "int64", name="A")
    k = te.reduce_axis((0, 8), name="k")
    low = te.compute((4,), lambda i: te.min(A[i, k], axis=k), name="low")
    text = te.create_prim_func([A, low]).mod.mlir()
    assert "9223372036854775807" in text  # te.min starts from int64's largest

    @T.prim_func
    def halves(A: T.Buffer((8,), "uint8"), B: T.Buffer((8,), "uint8")):
        for i in range(8):
            with T.block("B"):
                vi = T.axis.spatial(8, i)
                v = A[vi]
                B[vi] = v // T.uint8(2) + v % T.uint8(2)
    rebuilt = halves.with_body(halves.body).mod.mlir()
    assert "arith.divui" in rebuilt and "arith.remui" in rebuilt
    assert "arith.floordivsi" not in rebuilt


def test_a_scalar_parameter_that_is_not_an_integer_is_refused():
    x = tir.Var("x", "float32")
    A = tir.decl_buffer((4,), name="A")
    a = tir.Var("a", "handle")
    with pytest.raises(ValueError, match="not a buffer is an integer.*x is a float32"):
        tir.PrimFunc([a, x], tir.BufferStore(A, x, [0]), buffer_map={a: A})


def test_an_annotation_with_no_python_value_is_refused_not_dropped():
    mod = IRModule.from_mlir("""
func.func @f(%A: memref<4xf32> {tir.name = "A"}) {
  tir.for %i = 0 to 4 annotations {odd = affine_map<(d0) -> (d0)>} {
    %c = arith.constant 1.0 : f32
    tir.store %c, %A[%i] : memref<4xf32>
  }
  return
}""")
    with pytest.raises(ValueError, match="no form as IR nodes.*annotation affine_map"):
        mod["f"].body


@T.prim_func
def add_one(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    for i in range(16):
        with T.block("add"):
            vi = T.axis.spatial(16, i)
            B[vi] = A[vi] + 1.0


def _line_of(text):
    """The line of this file that holds `text`."""
    with open(__file__) as f:
        return next(k for k, line in enumerate(f, 1) if text in line)


def test_nodes_carry_their_source_and_give_it_back_to_the_ops():
    import tensorir as tvm
    from tensorir.tir.stmt_functor import ir_transform
    loop = add_one.body.block.body
    block_line = _line_of('        with T.block("add"):')
    assert loop.span.source_name.name == __file__
    assert loop.span.line == _line_of("    for i in range(16):")
    assert loop.body.block.span.line == block_line
    # A rewrite keeps the spans of the nodes it rebuilds, and the function
    # built from the nodes is located at the Python lines: a refusal on it
    # points at the block's line, not at a made-up place.
    renamed = ir_transform(add_one.body, None,
                           lambda s: s.with_fields(name_hint="C")
                           if isinstance(s, tir.Block) and s.name_hint == "add" else None,
                           ["tir.Block"])
    g = add_one.with_body(renamed)
    sch = tvm.tir.Schedule(g)
    with pytest.raises(tvm.tir.ScheduleError, match=rf"at {__file__}:{block_line}:9"):
        sch.compute_inline(sch.get_block("C"))


def test_a_span_given_to_a_node_locates_its_ops():
    import tensorir as tvm
    A = tir.decl_buffer((4,), "float32", "A")
    i = tir.Var("i", "int32")
    vi = tir.Var("vi", "int32")
    block = tir.Block([tir.IterVar(tvm.ir.Range(0, 4), vi, tir.IterVar.DataPar)], [], [],
                      "store", tir.BufferStore(A, tir.FloatImm("float32", 1.0), [vi]),
                      span=tvm.ir.Span(tvm.ir.SourceName("model.py"), 12, 12, 5, 30))
    loop = tir.For(i, 0, 4, tir.ForKind.SERIAL, tir.BlockRealize([i], True, block))
    f = tir.PrimFunc([A.data], loop, buffer_map={A.data: A})
    sch = tvm.tir.Schedule(f)
    with pytest.raises(tvm.tir.ScheduleError, match=r"at model\.py:12:5"):
        sch.compute_inline(sch.get_block("store"))


def test_a_parameter_with_an_offset_factor_has_an_offset_and_strides_must_be_row_major():
    B = tir.decl_buffer((4, 4), "float32", "B")
    i = tir.Var("i", "int32")

    def copy_from(A):
        store = tir.BufferStore(B, tir.BufferLoad(A, [i, 0]), [i, 0])
        return tir.PrimFunc([A.data, B.data], tir.For(i, 0, 4, tir.ForKind.SERIAL, store),
                            buffer_map={A.data: A, B.data: B})

    # As T.match_buffer(a, ..., offset_factor=1) of a parameter.
    f = copy_from(tir.decl_buffer((4, 4), "float32", "A", strides=[4, 1], offset_factor=1))
    assert "memref<4x4xf32, strided<[4, 1], offset: ?>>" in f.mod.mlir()
    # Read back as nodes (an elem_offset variable, offset_factor 1), and
    # built again the same.
    A = f.buffer_map[f.params[0]]
    assert A.offset_factor == 1 and A.elem_offset.name == "A_elem_offset"
    assert [s.value for s in A.strides] == [4, 1]
    assert f.with_body(f.body).mod.mlir() == f.mod.mlir()
    assert "memref<4x4xf32, strided<[4, 1], offset: 8>>" in copy_from(
        tir.decl_buffer((4, 4), "float32", "A", elem_offset=8)).mod.mlir()
    # Other strides would be dropped by a row-major memref: refused.
    with pytest.raises(ValueError, match=r"buffer A: strides other than the row-major"):
        copy_from(tir.decl_buffer((4, 4), "float32", "A", strides=[8, 1]))
    # An allocation starts at its beginning.
    C = tir.decl_buffer((4,), "float32", "C", elem_offset=2)
    block = tir.Block([], [], [], "root", tir.BufferStore(C, 1.0, [0]), alloc_buffers=[C])
    with pytest.raises(ValueError, match=r"buffer C: an allocated buffer starts at its beginning"):
        tir.PrimFunc([], tir.BlockRealize([], True, block))


def test_an_unsigned_scalar_parameter_is_an_index():
    # As the parser reads `n: T.uint32`: a uint32 extent, cast where used.
    import numpy as np
    import tensorir as tvm
    n = tir.Var("n", "uint32")
    A = tir.decl_buffer((8,), "float32", "A")
    i = tir.Var("i", "int32")
    f = tir.PrimFunc([A.data, n], tir.For(i, 0, tir.Cast("int32", n), tir.ForKind.SERIAL,
                                          tir.BufferStore(A, 1.0, [i])),
                     buffer_map={A.data: A})
    assert 'index {tir.name = "n"}' in f.mod.mlir()
    a = tvm.nd.array(np.zeros(8, "float32"))
    tvm.build(f, target="llvm")(a, 3)
    np.testing.assert_array_equal(a.numpy(), [1, 1, 1, 0, 0, 0, 0, 0])


def test_annotations_take_plain_values_and_the_irs_constants():
    A = tir.decl_buffer((4,), "float32", "A")
    i = tir.Var("i", "int32")

    def loop(annotations):
        return tir.PrimFunc([A.data], tir.For(i, 0, 4, tir.ForKind.SERIAL,
                                              tir.BufferStore(A, 1.0, [i]),
                                              annotations=annotations),
                            buffer_map={A.data: A})

    text = loop({"unroll": tir.IntImm("int32", 4), "tag": "x", "on": True}).mod.mlir()
    assert 'unroll = 4 : i64' in text and 'tag = "x"' in text and "on = true" in text
    with pytest.raises(ValueError, match=r"an annotation: values are bool, int, float, str, "
                                         r"or lists and dicts of them, got object"):
        loop({"bad": object()})


def test_constant_data_is_declared_as_a_buffer_over_it():
    # AllocateConst holds the data behind a handle; DeclBuffer names the
    # buffer over it, as T.allocate_const + T.decl_buffer(data=...) parse.
    import tensorir as tvm
    B = tir.decl_buffer((4,), "float32", "B")
    i = tir.Var("i", "int32")
    table = tir.Buffer("table", [4], "float32")
    body = tir.AllocateConst(table.data, "float32", [4], [1.0, 2.0, 3.0, 4.0], tir.DeclBuffer(
        table, tir.For(i, 0, 4, tir.ForKind.SERIAL,
                       tir.BufferStore(B, tir.BufferLoad(table, [i]) * 2.0, [i]))))
    f = tir.PrimFunc([B.data], body, buffer_map={B.data: B})
    text = f.mod.mlir()
    assert "tir.allocate_const : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00" in text
    out = tvm.nd.array(__import__("numpy").zeros(4, "float32"))
    tvm.build(f, target="llvm")(out)
    assert list(out.numpy()) == [2.0, 4.0, 6.0, 8.0]


def test_a_buffer_declared_over_no_constant_data_is_refused_where_it_is():
    import tensorir as tvm
    B = tir.decl_buffer((4,), "float32", "B")
    other = tir.Buffer("other", [4], "float32")
    body = tir.DeclBuffer(other, tir.BufferStore(B, tir.FloatImm("float32", 1.0), [0]),
                          span=tvm.ir.Span(tvm.ir.SourceName("model.py"), 7, 7, 3, 9))
    with pytest.raises(ValueError, match=r"model\.py:7:3: error: DeclBuffer of other: tir "
                                         r"declares buffers over T\.allocate_const data only"):
        tir.PrimFunc([B.data], body, buffer_map={B.data: B})
    table = tir.Buffer("table", [4], "float32")
    wide = tir.Buffer("wide", [8], "float32")
    wide.data = table.data
    with pytest.raises(ValueError, match="a reinterpreting view of constant data"):
        tir.PrimFunc([B.data], tir.AllocateConst(table.data, "float32", [4], [1, 2, 3, 4],
                                                 tir.DeclBuffer(wide, tir.Evaluate(0))),
                     buffer_map={B.data: B})


def test_mixed_integer_widths_meet_in_the_wider_and_stay_index_expressions():
    # An int32 loop variable meeting an int64 size is widened (TVM's rule);
    # the widened index is still an index expression of the access.
    n = tir.Var("n", "int64")
    A = tir.decl_buffer((n,), "float32", "A")
    i = tir.Var("i", "int32")
    index = i + n - n
    assert isinstance(index.a.a, tir.Cast) and index.dtype == "int64"
    f = tir.PrimFunc([A.data], tir.For(i, 0, 4, tir.ForKind.SERIAL, tir.BufferStore(
        A, tir.FloatImm("float32", 0.0), [i * tir.IntImm("int64", 2)])),
        buffer_map={A.data: A})
    text = f.mod.mlir()
    assert "tir.store %cst, %arg0[%i * 2]" in text and "index_cast" not in text


def test_statements_with_constants_and_handles_print_and_compare():
    import tensorir as tvm
    table = tir.Buffer("table", [2], "int32")
    B = tir.decl_buffer((2,), "int32", "B")
    i = tir.Var("i", "int32")

    def stmt():
        return tir.AllocateConst(table.data, "int32", [2], [7, 8], tir.DeclBuffer(
            table, tir.For(i, 0, 2, tir.ForKind.SERIAL,
                           tir.BufferStore(B, tir.BufferLoad(table, [i]), [i]))))
    text = str(stmt())
    assert "T.allocate_const" in text or "table" in text
    assert tvm.ir.structural_equal(stmt(), stmt())
    # A buffer used only through its handle is a free buffer of the fragment.
    call = tir.Evaluate(tir.Call("int32", "tir.call_extern", [tir.StringImm("f"), B.data]))
    assert 'T.call_extern("int32", "f", B.data)' in str(call)
    assert tvm.ir.structural_equal(call, tir.Evaluate(
        tir.Call("int32", "tir.call_extern", [tir.StringImm("f"), B.data])))
    # A call with no result has no value to print as an expression.
    assert "call_extern" in str(tir.Call("void", "tir.call_extern", [tir.StringImm("g")]))
