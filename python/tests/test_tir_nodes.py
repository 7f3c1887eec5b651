"""The IR as Python objects: every node class built from Python, printed as
TVMScript, turned into a PrimFunc (tir in MLIR) and read back; bad nodes
refused with the rule they break."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import tir
from tensorir.script import tir as T


def make_buffers():
    A = tir.decl_buffer((16, 8), "float32", name="A")
    B = tir.decl_buffer((16, 8), "float32", name="B")
    return A, B


def copy_func(body_of):
    """A PrimFunc of A (16x8) and B (16x8) whose body is body_of(A, B)."""
    A, B = make_buffers()
    a, b = tir.Var("a", "handle"), tir.Var("b", "handle")
    return tir.PrimFunc([a, b], body_of(A, B), buffer_map={a: A, b: B})


def block_over(i, j, A, B, value_of, name="B", init=None, kinds=(0, 0)):
    vi, vj = tir.Var("vi"), tir.Var("vj")
    iters = [tir.IterVar(tvm.ir.Range(0, 16), vi, kinds[0]),
             tir.IterVar(tvm.ir.Range(0, 8), vj, kinds[1])]
    store = tir.BufferStore(B, value_of(A, vi, vj), [vi, vj])
    block = tir.Block(iters, [tir.BufferRegion(A, [tvm.ir.Range.from_min_extent(vi, 1),
                                                   tvm.ir.Range.from_min_extent(vj, 1)])],
                      [tir.BufferRegion(B, [tvm.ir.Range.from_min_extent(vi, 1),
                                            tvm.ir.Range.from_min_extent(vj, 1)])],
                      name, store, init=init)
    return tir.BlockRealize([i, j], True, block)


def nest(value_of, kind=tir.ForKind.SERIAL, annotations=None):
    def body(A, B):
        i, j = tir.Var("i"), tir.Var("j")
        inner = tir.For(j, 0, 8, kind, block_over(i, j, A, B, value_of), annotations=annotations)
        return tir.For(i, 0, 16, tir.ForKind.SERIAL, inner)
    return body


def run(func, a):
    lib = tvm.build(func)
    b = np.zeros((16, 8), "float32")
    lib[func.name](a, b)
    return b


A_NP = np.arange(128, dtype="float32").reshape(16, 8) / 7 - 3


@pytest.mark.parametrize("value_of, expected", [
    (lambda A, i, j: A[i, j] * 2.0 + 1.0, A_NP * 2 + 1),
    (lambda A, i, j: tir.Max(A[i, j], tir.const(0.0)), np.maximum(A_NP, 0)),
    (lambda A, i, j: tir.Min(A[i, j], tir.FloatImm("float32", 1.5)), np.minimum(A_NP, 1.5)),
    (lambda A, i, j: tir.Select(A[i, j] > 0.0, A[i, j], 0.0 - A[i, j]), np.abs(A_NP)),
    (lambda A, i, j: A[i, j] / 4.0 - A[15 - i, 7 - j], A_NP / 4 - A_NP[::-1, ::-1]),
    (lambda A, i, j: tir.Cast("float32", (i * 8 + j) // 3 % 5), ((np.arange(128) // 3) % 5)
     .reshape(16, 8)),
    (lambda A, i, j: tir.Cast("float32", tir.Cast("int32", A[i, j])),
     np.trunc(A_NP)),
    (lambda A, i, j: tir.Call("float32", "tir.exp", [A[i, j] * 0.1]), np.exp(A_NP * 0.1)),
    (lambda A, i, j: tir.Call("float32", tvm.ir.Op.get("tir.if_then_else"),
                              [tir.And(i < 8, tir.Not(j == 3)), A[i, j], -1.0]),
     np.where((np.arange(16)[:, None] < 8) & (np.arange(8)[None, :] != 3), A_NP, -1)),
    # Truncating division and remainder (C's), not floor ones.
    (lambda A, i, j: tir.Cast("float32", tir.Div(i - 7, 2) * 10 + tir.Mod(j - 5, 3)),
     (np.trunc((np.arange(16)[:, None] - 7) / 2) * 10 +
      np.fmod(np.arange(8)[None, :] - 5, 3)).astype("float32")),
    (lambda A, i, j: tir.Select(tir.Or(i >= 12, j <= 1), 1.0, 0.0),
     ((np.arange(16)[:, None] >= 12) | (np.arange(8)[None, :] <= 1)).astype("float32")),
])
def test_expressions_build_and_run(value_of, expected):
    func = copy_func(nest(value_of))
    np.testing.assert_allclose(run(func, A_NP), expected, rtol=1e-5, atol=1e-6)


def test_constructed_function_prints_and_reads_back_the_same():
    func = copy_func(nest(lambda A, i, j: A[i, j] + 1.0, tir.ForKind.PARALLEL,
                          {"pragma_note": "x"}))
    text = func.script()
    assert 'for j in T.parallel(8, annotations={"pragma_note": "x"}):' in text
    again = tvm.script.from_source(text)
    tvm.ir.assert_structural_equal(func, again)
    # Read back as nodes: the same program.
    tvm.ir.assert_structural_equal(func, again.with_body(again.body))


def test_fields_of_a_function_read_from_mlir():
    mod = tvm.IRModule.load(f"{tvm_root()}/examples/matmul.mlir")
    f = mod["matmul"]
    assert [p.name for p in f.params] == ["A", "B", "C"]
    A = f.buffer_map[f.params[0]]
    assert A.name == "A" and A.dtype == "float32" and A.shape == [128, 128]
    root = f.body
    assert isinstance(root, tir.BlockRealize) and root.block.name_hint == "root"
    loop = root.block.body
    assert isinstance(loop, tir.For) and loop.kind == tir.ForKind.SERIAL
    assert loop.extent == 128 and loop.loop_var.name == "i"
    block = loop.body.body.body.block
    assert block.name_hint == "C"
    assert [iv.iter_type for iv in block.iter_vars] == [tir.IterVar.DataPar] * 2 + [
        tir.IterVar.CommReduce]
    assert [r.buffer.name for r in block.reads] == ["A", "B"]
    assert block.writes[0].buffer is f.buffer_map[f.params[2]]
    assert isinstance(block.init, tir.BufferStore)
    store = block.body
    assert isinstance(store, tir.BufferStore) and isinstance(store.value, tir.Add)
    assert isinstance(store.value.b, tir.Mul)
    # The same objects each time (a visitor and a transform agree).
    assert f.body is root


def tvm_root():
    from conftest import ROOT
    return ROOT


def test_every_statement_kind_round_trips():
    @T.prim_func
    def f(A: T.Buffer((8,), "float32"), C: T.Buffer((), "float32"), n: T.int32):
        S = T.alloc_buffer((8,), "float32", scope="shared")
        for i in T.unroll(8):
            with T.block("S"):
                vi = T.axis.spatial(8, i)
                T.where(i < n)
                S[vi] = A[vi] * T.float32(2)
        for k in T.thread_binding(8, thread="threadIdx.x"):
            with T.block("C"):
                vk = T.axis.reduce(8, k)
                with T.init():
                    C[()] = T.float32(0)
                C[()] = C[()] + S[vk]
        for j in range(2, 6):
            with T.block("W"):
                vj = T.axis.spatial((2, 6), j)
                if vj > 3:
                    A[vj] = T.float32(1)
                else:
                    A[vj] = T.float32(-1)
        T.evaluate(T.call_extern("handle", "fence", A.data, 3))

    body = f.body
    kinds = set()
    tvm.tir.stmt_functor.post_order_visit(body, lambda n: kinds.add(type(n).__name__))
    expected = {"For", "BlockRealize", "Block", "BufferStore", "SeqStmt", "IfThenElse",
                "Evaluate", "BufferLoad", "Mul", "Add", "GT", "Call", "StringImm", "IntImm",
                "FloatImm", "Var"}
    assert expected <= kinds, expected - kinds
    loops = [n for n in collect(body) if isinstance(n, tir.For)]
    assert [lp.kind for lp in loops] == [tir.ForKind.UNROLLED, tir.ForKind.THREAD_BINDING,
                                         tir.ForKind.SERIAL]
    assert loops[1].thread_binding.thread_tag == "threadIdx.x"
    assert loops[2].min == 2 and loops[2].extent == 4
    assert body.block.alloc_buffers[0].scope() == "shared"
    tvm.ir.assert_structural_equal(f, f.with_body(body))


def collect(node):
    out = []
    tvm.tir.stmt_functor.pre_order_visit(node, lambda n: out.append(n))
    return out


def test_let_stmt_and_aliases():
    # The printer names a value used twice; it reads back as a LetStmt.
    mod = tvm.IRModule.from_mlir("""
    func.func @f(%A: memref<8xf32> {tir.name = "A"}, %B: memref<8xf32> {tir.name = "B"}) {
      tir.for %i = 0 to 8 {
        tir.block "B"(%vi = spatial(8, %i)) {
          %a = tir.load %A[%vi] : memref<8xf32>
          %s = arith.mulf %a, %a : f32
          tir.store %s, %B[%vi] : memref<8xf32>
          tir.store %s, %A[%vi] : memref<8xf32>
        }
      }
      return
    }""")
    f = mod["f"]
    let = f.body.block.body.body.block.body
    assert isinstance(let, tir.LetStmt) and isinstance(let.value, tir.BufferLoad)
    assert isinstance(let.body, tir.LetStmt)
    tvm.ir.assert_structural_equal(f, f.with_body(f.body))
    # A LetStmt built in Python.
    def body(A, B):
        i, v = tir.Var("i"), tir.Var("v", "float32")
        vi = tir.Var("vi")
        let = tir.LetStmt(v, A[vi] * 3.0, tir.BufferStore(B, v + v, [vi]))
        block = tir.Block([tir.IterVar(tvm.ir.Range(0, 16), vi, 0)], [], [], "L", let)
        return tir.For(i, 0, 16, tir.ForKind.SERIAL, tir.BlockRealize([i], True, block))
    A = tir.decl_buffer((16,), name="A")
    B = tir.decl_buffer((16,), name="B")
    a, b = tir.Var("a", "handle"), tir.Var("b", "handle")
    g = tir.PrimFunc([a, b], body(A, B), buffer_map={a: A, b: B})
    x = np.arange(16, dtype="float32")
    y = np.zeros(16, "float32")
    tvm.build(g)["main"](x, y)
    np.testing.assert_allclose(y, 6 * x)


def test_expression_operators_fold_and_compare():
    x = tir.Var("x")
    assert isinstance(x + 1, tir.Add) and isinstance(1 - x, tir.Sub)
    assert isinstance(x // 4, tir.FloorDiv) and isinstance(x % 4, tir.FloorMod)
    assert (tir.const(3) + 4).value == 7 and x + 0 is x and 1 * x is x
    assert isinstance(x < 3, tir.LT) and (x < 3).dtype == "bool"
    # == builds EQ, true in Python only for the same object (TVM's rule).
    assert isinstance(x == 3, tir.EQ)
    assert bool(x == x) and not bool(x == tir.Var("x"))
    assert x in [tir.Var("y"), x] and tir.Var("z") not in [x]
    assert tir.IntImm("int32", 5) == 5 and tir.FloatImm("float32", 0.5) == 0.5
    with pytest.raises(ValueError, match="no truth value"):
        bool(x < 3)
    r = tir.Ramp(x, 1, 4)
    assert r.dtype == "int32x4" and tir.Broadcast(tir.const(1.0), 8).dtype == "float32x8"
    assert tir.Ramp(x, 2, 4).script() == "T.Ramp(x, 2, 4)"
    assert tvm.tir.Cast("float32", 3).value == 3.0  # constants convert at once


def test_printing_of_nodes_on_their_own():
    x, y = tir.Var("x"), tir.Var("x")
    assert (x + y * 2).script() == "x + x_1 * 2"
    assert ((x + y) * 2).script() == "(x + x_1) * 2"
    assert (x - (y - 1)).script() == "x - (x_1 - 1)"
    assert tir.And(x < 1, tir.Or(y > 2, x == y)).script() == \
        "(x < 1) and ((x_1 > 2) or (x == x_1))"
    A = tir.decl_buffer((4, 4), name="A")
    assert tir.BufferStore(A, A[x, 0] + 1.0, [x, 0]).script() == "A[x, 0] = A[x, 0] + T.float32(1.0)"
    assert repr(tir.Max(x, 3)) == "T.max(x, 3)"


def test_bad_nodes_are_refused_clearly():
    A = tir.decl_buffer((4, 4), name="A")
    x = tir.Var("x")
    with pytest.raises(ValueError, match="BufferStore to A: 1 indices for 2 dimensions"):
        tir.BufferStore(A, 1.0, [x])
    with pytest.raises(TypeError, match="BufferLoad takes a tir.Buffer"):
        tir.BufferLoad("A", [x])
    with pytest.raises(TypeError, match="For's body is a tir statement"):
        tir.For(x, 0, 4, tir.ForKind.SERIAL, x + 1)
    with pytest.raises(TypeError, match="different dtypes, int32 and float32"):
        tir.Add(x, tir.Var("f", "float32"))
    with pytest.raises(ValueError, match="THREAD_BINDING loop needs its thread_binding"):
        tir.For(x, 0, 4, tir.ForKind.THREAD_BINDING, tir.Evaluate(0))
    with pytest.raises(ValueError, match="2 values for 1 iteration variables"):
        tir.BlockRealize([x, x], True, tir.Block([tir.IterVar(tvm.ir.Range(0, 4), tir.Var(), 0)],
                                                 [], [], "b", tir.Evaluate(0)))
    with pytest.raises(TypeError, match="cannot use a str"):
        tir.Add(x, "1")


def test_malformed_function_is_refused_with_the_reason():
    def undefined_var(A, B):
        i, j = tir.Var("i"), tir.Var("j")
        return tir.For(i, 0, 16, tir.ForKind.SERIAL, block_over(i, j, A, B,
                                                                lambda A, a, b: A[a, b]))
    with pytest.raises(ValueError, match="variable j is used where no statement defines it"):
        copy_func(undefined_var)

    def undeclared_buffer(A, B):
        C = tir.decl_buffer((16, 8), name="C")
        return nest(lambda A_, i, j: C[i, j])(A, B)
    with pytest.raises(ValueError, match="buffer C is used where nothing declares it"):
        copy_func(undeclared_buffer)

    # A program tir's verifier refuses (a thread no GPU has): the verifier's
    # reason, at the Python-built function.
    def unknown_thread(A, B):
        i, j = tir.Var("i"), tir.Var("j")
        inner = tir.For(j, 0, 8, tir.ForKind.THREAD_BINDING,
                        block_over(i, j, A, B, lambda A, a, b: A[a, b]),
                        thread_binding="warpIdx.q")
        return tir.For(i, 0, 16, tir.ForKind.SERIAL, inner)
    with pytest.raises(ValueError, match="warpIdx.q"):
        copy_func(unknown_thread)


def test_every_node_class_constructs_prints_and_round_trips():
    """One function built in Python holding every node class that has a
    form in tir; read back from tir, it holds each of them again."""
    n = tir.Var("n")  # a scalar parameter sizing D
    A = tir.decl_buffer((8,), "float32", name="A")
    D = tir.decl_buffer((n,), "int32", name="D")
    a, d = tir.Var("a", "handle"), tir.Var("d", "handle")
    i, vi, j, vj, t = tir.Var("i"), tir.Var("vi"), tir.Var("j"), tir.Var("vj"), \
        tir.Var("t", "float32")
    S = tir.decl_buffer((8,), "float32", name="S", scope="shared")
    V = tir.decl_buffer((4,), "float32", name="V", elem_offset=tir.Var("V_off"),
                        strides=[tir.Var("V_s")])
    load = tir.BufferLoad(A, [vi])
    value = tir.Select(tir.And(tir.Not(vi < 2), tir.Or(vi >= 6, vi == 4)),
                       tir.Max(load, tir.FloatImm("float32", 0.5)),
                       tir.Min(load * 2.0, tir.Cast("float32", vi // 3 + vi % 3 - 1)))
    let = tir.LetStmt(t, value, tir.SeqStmt([
        tir.BufferStore(S, t, [vi]),
        tir.IfThenElse(tir.NE(vi, 7), tir.BufferStore(A, tir.BufferLoad(S, [vi]) / t, [vi]),
                       tir.Evaluate(tir.Call("handle", "tir.call_extern",
                                             [tir.StringImm("fence"), A.data]))),
    ]))
    block = tir.Block([tir.IterVar(tvm.ir.Range(0, 8), vi, tir.IterVar.DataPar)],
                      [tir.BufferRegion(A, [tvm.ir.Range.from_min_extent(vi, 1)])],
                      [tir.BufferRegion(A, [tvm.ir.Range.from_min_extent(vi, 1)])],
                      "B", let, alloc_buffers=[S])
    view = tir.Block([tir.IterVar(tvm.ir.Range(0, 2), vj, tir.IterVar.DataPar)],
                     [], [tir.BufferRegion(A, [tvm.ir.Range(vj * 4, vj * 4 + 4)])], "V",
                     tir.Evaluate(tir.Call("handle", "tir.call_extern",
                                           [tir.StringImm("use"), V.data, V.elem_offset])),
                     match_buffers=[tir.MatchBufferRegion(
                         V, tir.BufferRegion(A, [tvm.ir.Range(vj * 4, vj * 4 + 4)]))])
    body = tir.SeqStmt([
        tir.For(i, 0, 8, tir.ForKind.SERIAL, tir.BlockRealize([i], True, block)),
        tir.For(j, 0, 2, tir.ForKind.SERIAL, tir.BlockRealize([j], True, view)),
    ])
    func = tir.PrimFunc([a, d, n], body, buffer_map={a: A, d: D})
    text = func.script()
    assert "d: T.handle" in text and "D = T.match_buffer(d, (n,), \"int32\")" in text
    read = tvm.IRModule({"main": func})["main"]
    kinds = set()
    tvm.tir.stmt_functor.post_order_visit(read.body, lambda x: kinds.add(type(x).__name__))
    # (A FloorMod of signed integers reads back as a - a // b * b: the
    # parser writes it so, and MLIR has no floor-modulo operation.)
    expected = {"For", "Block", "BlockRealize", "BufferStore", "SeqStmt", "IfThenElse",
                "LetStmt", "Evaluate", "Var", "IntImm", "FloatImm", "StringImm", "Cast",
                "Add", "Sub", "Mul", "Div", "FloorDiv", "Min", "Max", "EQ", "NE", "LT", "GE",
                "And", "Or", "Not", "Select", "BufferLoad", "Call"}
    assert expected <= kinds, expected - kinds
    assert read.body.block.body.seq[1].body.block.match_buffers[0].buffer.shape == [4]
    tvm.ir.assert_structural_equal(func, read)
    tvm.ir.assert_structural_equal(read, read.with_body(read.body))
    # Every node prints on its own.
    for node in walk_all(read.body):
        assert node.script()


def walk_all(node):
    out = []
    tvm.tir.stmt_functor.pre_order_visit(node, out.append)
    return out


def test_nodes_without_a_tir_form_say_so():
    x = tir.Var("x")
    A = tir.decl_buffer((8,), name="A")
    a = tir.Var("a", "handle")
    ramp = tir.BufferStore(A, 0.0, [tir.Ramp(x, 1, 4)])
    with pytest.raises(ValueError, match="tir.Ramp has no form in a tir function"):
        tir.PrimFunc([a], tir.For(x, 0, 2, tir.ForKind.SERIAL, ramp), buffer_map={a: A})
    let = tir.BufferStore(A, tir.Let(tir.Var("y", "float32"), 1.0, 2.0), [x])
    with pytest.raises(ValueError, match="tir.Let has no form in a tir function"):
        tir.PrimFunc([a], tir.For(x, 0, 8, tir.ForKind.SERIAL, let), buffer_map={a: A})


def test_with_fields_checks_and_copies():
    A = tir.decl_buffer((8,), name="A")
    i = tir.Var("i")
    loop = tir.For(i, 0, 8, tir.ForKind.SERIAL, tir.BufferStore(A, 1.0, [i]))
    longer = loop.with_fields(extent=16)
    assert isinstance(longer.extent, tir.IntImm) and loop.extent == 8
    assert loop.with_fields(extent=loop.extent) is loop
    with pytest.raises(TypeError, match="For's body is a tir statement, got int"):
        loop.with_fields(body=5)
    with pytest.raises(TypeError, match="For has no field 'step_size'"):
        loop.with_fields(step_size=2)
    block = tir.Block([], [], [], "b", tir.Evaluate(0), alloc_buffers=[A])
    copy = block.with_fields(name_hint="c")
    copy.alloc_buffers.append(tir.decl_buffer((2,)))
    assert len(block.alloc_buffers) == 1


def test_constants_stay_in_their_dtype_range_and_conditions_are_booleans():
    with pytest.raises(ValueError, match=r"IntImm\('int8', 300\): the value is outside int8's "
                                         r"range \[-128, 127\]"):
        tir.const(100, "int8") * 3
    with pytest.raises(ValueError, match="outside int32's range"):
        tir.const(2 ** 31 - 1) + 1
    assert (tir.const(2 ** 31 - 1, "int64") + 1).value == 2 ** 31
    A = tir.decl_buffer((8,), "int32", name="A")
    x = tir.Var("x")
    with pytest.raises(TypeError, match="tir.Select's condition takes a boolean, got a int32"):
        tir.Select(A[x], 1.0, 2.0)
    with pytest.raises(TypeError, match="IfThenElse's condition is a boolean"):
        tir.IfThenElse(x, tir.Evaluate(0))


def test_names_that_are_python_keywords_print_renamed():
    A = tir.decl_buffer((8,), name="in")
    a, i = tir.Var("a", "handle"), tir.Var("for")
    body = tir.For(i, 0, 8, tir.ForKind.SERIAL, tir.BufferStore(A, 1.0, [i]))
    f = tir.PrimFunc([a], body, buffer_map={a: A})
    assert "v_in[v_for] = T.float32(1.0)" in f.script() or "v_for" in f.script()
    out = np.zeros(8, "float32")
    tvm.build(f)["main"](out)
    np.testing.assert_allclose(out, 1)


def test_let_variables_are_scoped():
    A = tir.decl_buffer((8,), name="A")
    a, i, t = tir.Var("a", "handle"), tir.Var("i"), tir.Var("t", "float32")
    inside = tir.LetStmt(t, 2.0, tir.BufferStore(A, t, [i]))
    after = tir.BufferStore(A, t + 1.0, [i])  # t used after the LetStmt's body
    body = tir.For(i, 0, 8, tir.ForKind.SERIAL, tir.SeqStmt([inside, after]))
    with pytest.raises(ValueError, match="variable t is used where no statement defines it"):
        tir.PrimFunc([a], body, buffer_map={a: A})
    with pytest.raises(TypeError, match="params are tir.Vars"):
        tir.PrimFunc([A], tir.Evaluate(0))
    with pytest.raises(ValueError, match="buffer_map key 'a' is not one of the params"):
        tir.PrimFunc([a], tir.Evaluate(0), buffer_map={"a": A})


def test_dynamic_dimension_sized_by_an_expression():
    @T.prim_func
    def dyn(a: T.handle, b: T.handle, n: T.int32):
        A = T.match_buffer(a, (n, 4), "float32")
        B = T.match_buffer(b, (n * 4,), "float32")
        for i, j in T.grid(n, 4):
            with T.block("c"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi * 4 + vj] = A[vi, vj] + T.float32(1)

    f = dyn.mod["dyn"]
    B = f.buffer_map[f.params[1]]
    # The expression over n, as written (tir.dim_vars names it "4 * n").
    assert isinstance(B.shape[0], tir.Mul) and B.shape[0].a.name == "n"
    assert B.shape[0].b.value == 4
    g = f.with_body(f.body)
    x = np.random.rand(5, 4).astype("float32")
    for h in (dyn, g):
        y = np.zeros(20, "float32")
        tvm.build(h)["dyn"](x, y, 5)
        np.testing.assert_allclose(y, x.ravel() + 1)


def test_schedule_get_gives_the_nodes():
    @T.prim_func
    def f(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16, 16), "float32")):
        for i, j in T.grid(16, 16):
            with T.block("B"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj] * T.float32(2)

    sch = tvm.tir.Schedule(f)
    b = sch.get_block("B")
    i, j = sch.get_loops(b)
    io, ii = sch.split(i, [4, 4])
    sch.parallel(io)
    assert sch.get(io).extent == 4 and sch.get(io).kind == tir.ForKind.PARALLEL
    assert sch.get(j).loop_var.name == "j"
    assert [iv.var.name for iv in sch.get(b).iter_vars] == ["vi", "vj"]
    assert isinstance(sch.get(b).body, tir.BufferStore)
    assert sch.get(io).body.body is sch.get(j)._as_node()
    # A view of the state it was taken in is compared as that node.
    tvm.ir.assert_structural_equal(sch.get(io), sch.mod["main"].body.block.body)
    # The view is the node of the module as scheduled (one set of nodes per
    # module state), so i_0, free in the inner loop, is the same variable.
    assert sch.get(ii).same_as(sch.mod["main"].body.block.body.body)
    tvm.ir.assert_structural_equal(sch.get(ii), sch.mod["main"].body.block.body.body)
    assert repr(sch.get(b).iter_vars[0]) == "IterVar(vi, Range(0, 16), spatial)"


def test_constructors_check_dtypes_and_arity():
    A = tir.decl_buffer((8,), "int32", name="A")
    F = tir.decl_buffer((8, 8), "float32", name="F")
    i = tir.Var("i")
    with pytest.raises(TypeError, match="BufferStore to A: a float32 value into a int32 buffer"):
        tir.BufferStore(A, F[i, i], [i])
    with pytest.raises(TypeError, match="LetStmt binds the float32 variable x to a int32 value"):
        tir.LetStmt(tir.Var("x", "float32"), i + 1, tir.Evaluate(0))
    with pytest.raises(ValueError, match="BufferLoad of F: 1 indices for 2 dimensions"):
        F[i]
    with pytest.raises(TypeError, match="For's extent is an int32 or int64, got a float32"):
        tir.For(i, 0, 8.0, tir.ForKind.SERIAL, tir.Evaluate(0))
    with pytest.raises(TypeError, match="Block's reads are BufferRegions, got a str"):
        tir.Block([], ["A"], [], "b", tir.Evaluate(0))


def test_match_buffer_views_keep_their_regions_through_nodes():
    @T.prim_func
    def f(A: T.Buffer((64,), "float32"), C: T.Buffer((16,), "float32")):
        B = T.alloc_buffer((64,), "float32")
        for i in range(64):
            with T.block("B"):
                vi = T.axis.spatial(64, i)
                B[vi] = A[vi] * T.float32(2)
        for i in range(16):
            with T.block("C"):
                vi = T.axis.spatial(16, i)
                sub = T.match_buffer(B[vi * 4: vi * 4 + 4], (4,), "float32")
                C[vi] = sub[0] + sub[1] + sub[2] + sub[3]

    g = f.with_body(f.body)
    c_block = [n for n in walk_all(g.body) if isinstance(n, tir.Block) and n.name_hint == "C"]
    assert [r.buffer.name for r in c_block[0].reads] == ["B"]  # the view's source region
    a = np.random.rand(64).astype("float32")
    for func in (f, g):
        sch = tvm.tir.Schedule(func)
        sch.compute_at(sch.get_block("B"), sch.get_loops(sch.get_block("C"))[0])
        c = np.zeros(16, "float32")
        tvm.build(sch.mod)["f"](a, c)
        np.testing.assert_allclose(c, (2 * a).reshape(16, 4).sum(1), rtol=1e-5)
