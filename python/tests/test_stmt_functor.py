"""tvm.tir.stmt_functor, the visitor and mutator classes and tir.analysis
over the IR's nodes."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import tir
from tensorir.script import tir as T


@T.prim_func
def two_stages(A: T.Buffer((16, 16), "float32"), C: T.Buffer((16, 16), "float32")):
    B = T.alloc_buffer((16, 16), "float32")
    for i, j in T.grid(16, 16):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] * T.float32(2)
    for i, j in T.grid(16, 16):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] + T.float32(1)


def test_post_order_visits_children_first_and_each_node_once():
    order = []
    tvm.tir.stmt_functor.post_order_visit(two_stages.body, order.append)
    kinds = [type(n).__name__ for n in order]
    assert kinds[-1] == "BlockRealize"  # the root comes last
    loops = [n for n in order if isinstance(n, tir.For)]
    assert [lp.loop_var.name for lp in loops] == ["j", "i", "j", "i"]  # inner first
    # A shared node (the same Var in many places) is visited once.
    assert len(order) == len({id(n) for n in order})
    # Statements and expressions only (not IterVar, Range, BufferRegion).
    assert all(isinstance(n, (tir.Stmt, tir.PrimExpr)) for n in order)


def test_pre_order_visits_parents_first_and_can_skip_children():
    names = []

    def visit(n):
        if isinstance(n, tir.Block):
            names.append(n.name_hint)
            return n.name_hint != "root" or None  # keep going under the root
        return None
    tvm.tir.stmt_functor.pre_order_visit(two_stages.body, visit)
    assert names == ["root", "B", "C"]

    seen = []

    def stop_at_loops(n):
        seen.append(type(n).__name__)
        return not isinstance(n, tir.For)
    tvm.tir.stmt_functor.pre_order_visit(two_stages.body, stop_at_loops)
    assert "Block" in seen and seen.count("Block") == 1  # the blocks under loops unseen


def test_ir_transform_pre_result_skips_children_and_post():
    calls = []

    def pre(n):
        calls.append(("pre", type(n).__name__))
        if isinstance(n, tir.For) and n.loop_var.name == "i":
            return n.with_fields(kind=tir.ForKind.PARALLEL)  # replaces, no descent
        return None

    def post(n):
        calls.append(("post", type(n).__name__))
        return None

    body = tvm.tir.stmt_functor.ir_transform(two_stages.body, pre, post, ["tir.For"])
    assert calls == [("pre", "For"), ("pre", "For")]  # both outer loops, no post
    loops = [n for n in walk(body) if isinstance(n, tir.For)]
    assert [lp.kind for lp in loops] == [tir.ForKind.PARALLEL, tir.ForKind.SERIAL] * 2
    f = two_stages.with_body(body)
    assert f.script().count("T.parallel(16)") == 2


def test_ir_transform_keeps_unchanged_nodes_and_checks_results():
    body = two_stages.body
    assert tvm.tir.stmt_functor.ir_transform(body, None, lambda n: None) is body
    with pytest.raises(TypeError, match="returned a IntImm for a For"):
        tvm.tir.stmt_functor.ir_transform(body, None, lambda n: tir.const(1), ["tir.For"])
    with pytest.raises(ValueError, match="unknown node type 'tir.Loop'"):
        tvm.tir.stmt_functor.ir_transform(body, None, lambda n: None, ["tir.Loop"])
    with pytest.raises(TypeError, match="takes a tir statement or expression"):
        tvm.tir.stmt_functor.post_order_visit(two_stages, print)


def test_ir_transform_of_expressions_runs():
    # Every float constant 2.0 becomes 3.0 (postorder over FloatImm nodes).
    def triple(n):
        return tir.FloatImm(n.dtype, 3.0) if n.value == 2.0 else None
    body = tvm.tir.stmt_functor.ir_transform(two_stages.body, None, triple, ["FloatImm"])
    f = two_stages.with_body(body)
    a = np.random.rand(16, 16).astype("float32")
    c = np.zeros((16, 16), "float32")
    tvm.build(f)["two_stages"](a, c)
    np.testing.assert_allclose(c, a * 3 + 1, rtol=1e-6)


def test_substitute_replaces_uses_only():
    x, y = tir.Var("x"), tir.Var("y")
    e = (x + 1) * x
    assert tvm.tir.analysis.expr_deep_equal(
        tvm.tir.stmt_functor.substitute(e, {x: y * 2}), (y * 2 + 1) * (y * 2))
    assert tvm.tir.stmt_functor.substitute(e, {y: 1}) is e
    five = tvm.tir.stmt_functor.substitute(e, lambda v: 5 if v is x else None)
    assert isinstance(five, tir.Mul) and isinstance(five.a, tir.Add) and five.b.value == 5
    assert five.script() == "30"  # printed by tir's index arithmetic, which folds
    with pytest.raises(TypeError, match="substitute maps Vars"):
        tvm.tir.stmt_functor.substitute(e, {tir.const(1): 2})


def test_visitor_and_mutator_classes():
    @tvm.tir.functor.visitor
    class Counter(tir.PyStmtExprVisitor):
        def __init__(self):
            self.loads, self.blocks = 0, []

        def visit_buffer_load_(self, op):
            self.loads += 1
            super().visit_buffer_load_(op)

        def visit_block_(self, op):
            self.blocks.append(op.name_hint)
            super().visit_block_(op)

    c = Counter()
    c.visit_stmt(two_stages.body)
    assert c.loads == 2 and c.blocks == ["root", "B", "C"]

    @tvm.tir.functor.mutator
    class Unroll(tir.PyStmtExprMutator):
        def visit_for_(self, op):
            new = super().visit_for_(op)
            return new.with_fields(kind=tir.ForKind.UNROLLED) \
                if new.loop_var.name == "j" else new

    body = Unroll().visit_stmt(two_stages.body)
    assert two_stages.with_body(body).script().count("T.unroll(16)") == 2

    class Broken(tir.PyStmtExprMutator):
        def visit_for_(self, op):
            return op.extent

    with pytest.raises(TypeError, match="Broken.visit_for_ returned a IntImm, not a statement"):
        Broken().visit_stmt(two_stages.body)
    with pytest.raises(TypeError, match="decorates a PyStmtExprVisitor"):
        tvm.tir.functor.visitor(int)


def test_analysis_helpers():
    x = tir.Var("x")
    assert tvm.tir.analysis.expr_deep_equal(x + 1, x + 1)
    assert not tvm.tir.analysis.expr_deep_equal(x + 1, tir.Var("x") + 1)
    loop = two_stages.body.block.body.seq[0]
    assert tvm.tir.analysis.undefined_vars(loop) == []
    inner = loop.body.body.block.body  # B[vi, vj] = ...
    assert [v.name for v in tvm.tir.analysis.undefined_vars(inner)] == ["vi", "vj"]
    assert tvm.tir.analysis.verify_well_formed(two_stages)


def walk(node):
    out = []
    tvm.tir.stmt_functor.pre_order_visit(node, out.append)
    return out


def test_structural_equality_of_nodes():
    # (A module of one function holds that PrimFunc itself; of two, a copy.)
    f, g = two_stages, tvm.IRModule({"f": two_stages, "g": two_stages})["f"]
    # Two readings of one program: equal, whatever the objects.
    assert f.body is not g.body
    tvm.ir.assert_structural_equal(f.body.block.body, g.body.block.body, map_free_vars=True)
    assert tvm.ir.structural_hash(f.body) == tvm.ir.structural_hash(g.body)
    # Buffers match by their fields where first met (as in TVM), whatever
    # the objects; other free variables need map_free_vars.
    assert tvm.ir.structural_equal(f.body.block.body, g.body.block.body)
    other = tir.decl_buffer((16, 15), name="A")
    load = tir.BufferLoad(f.buffer_map[f.params[0]], [1, 2])
    assert not tvm.ir.structural_equal(load, tir.BufferLoad(other, [1, 2]))
    # Bound variables are matched by where they are defined.
    x, y = tir.Var("x"), tir.Var("y")
    A = tir.decl_buffer((8,), name="A")
    loop = lambda v, k: tir.For(v, 0, 8, tir.ForKind.SERIAL,  # noqa: E731
                                tir.BufferStore(A, tir.Cast("float32", v * k), [v]))
    tvm.ir.assert_structural_equal(loop(x, 2), loop(y, 2))
    with pytest.raises(ValueError, match=r"tir.for #0 > tir.store #0: stored value differs: "
                                         r"arith.sitofp\(arith.index_cast\(x \* 2\)\) vs "
                                         r"arith.sitofp\(arith.index_cast\(y \* 3\)\)"):
        tvm.ir.assert_structural_equal(loop(x, 2), loop(y, 3))
    with pytest.raises(ValueError, match="free variable"):
        tvm.ir.assert_structural_equal(x + 1, y + 1)
    tvm.ir.assert_structural_equal(x + 1, y + 1, map_free_vars=True)
    assert not tvm.ir.structural_equal(x + y, x + x, map_free_vars=True)
    assert not tvm.ir.structural_equal(x + 1, f)
