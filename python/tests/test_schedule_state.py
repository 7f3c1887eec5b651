"""TVM's ScheduleState API over tir's schedule: srefs of blocks and loops
(found from nodes and from random variables, one object per statement,
their parents), the cached flags of blocks (affine bindings, region cover,
stage pipeline) on programs that have and lack each, and block scopes'
dependences by kind."""
import pytest

import tensorir as tvm
from tensorir import tir
from tensorir.script import tir as T
from tensorir.tir.schedule import CachedFlags, DepKind
from tensorir.tir.stmt_functor import post_order_visit


@T.prim_func
def chain(A: T.Buffer((32, 32), "float32"), C: T.Buffer((32, 32), "float32")):
    B = T.alloc_buffer((32, 32), "float32")
    for i, j in T.grid(32, 32):
        with T.block("B"):
            vi, vj = T.axis.remap("SS", [i, j])
            B[vi, vj] = A[vi, vj] + T.float32(1)
    for i, j in T.grid(32, 32):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj] * T.float32(2)


@T.prim_func
def reads_before_write(A: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    B = T.alloc_buffer((8,), "float32")
    for i in range(8):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = B[vi]
    for i in range(8):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi]


@T.prim_func
def partly_written(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,), "float32")
    for i in range(12):
        with T.block("B"):
            vi = T.axis.remap("S", [i])
            B[vi] = A[vi]
    for i in range(16):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = B[vi]


@T.prim_func
def halves(A: T.Buffer((16,), "float32"), C: T.Buffer((16,), "float32")):
    B = T.alloc_buffer((16,), "float32")
    for i in range(8):
        with T.block("B0"):
            vi = T.axis.spatial(8, i)
            B[vi] = A[vi]
    for i in range(8):
        with T.block("B1"):
            vi = T.axis.spatial(16, i + 8)
            B[vi] = A[vi] * T.float32(2)
    for i in range(16):
        with T.block("C"):
            vi = T.axis.remap("S", [i])
            C[vi] = B[vi]


@T.prim_func
def strided_binding(A: T.Buffer((64,), "float32")):
    for i in range(32):
        with T.block("S"):
            vi = T.axis.spatial(64, i * 2)
            A[vi] = T.float32(0)


@T.prim_func
def matmul(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8, 8), "float32"),
           C: T.Buffer((8, 8), "float32")):
    for i, j in T.grid(8, 8):
        with T.block("init"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = T.float32(0)
        for k in range(8):
            with T.block("update"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


@T.prim_func
def digits_of_one_loop(A: T.Buffer((32,), "float32"), C: T.Buffer((4, 8), "float32")):
    # B written through two digits of k, one per dimension: the whole box.
    B = T.alloc_buffer((4, 8), "float32")
    for k in range(32):
        with T.block("B"):
            vk = T.axis.remap("S", [k])
            B[vk // 8, vk % 8] = A[vk]
    for i, j in T.grid(4, 8):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj]


@T.prim_func
def overlapping_digits(A: T.Buffer((16,), "float32"), C: T.Buffer((4, 8), "float32")):
    # k // 4 and k % 8 share k's third bit: half the box is never written.
    B = T.alloc_buffer((4, 8), "float32")
    for k in range(16):
        with T.block("B"):
            vk = T.axis.remap("S", [k])
            B[vk // 4, vk % 8] = A[vk]
    for i, j in T.grid(4, 8):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj]


@T.prim_func
def predicate_on_a_fused_sum(A: T.Buffer((7, 7), "float32")):
    # The predicate bounds the sum both bindings divide: 49 points.
    for f0, f1 in T.grid(2, 32):
        with T.block("S"):
            vi = T.axis.spatial(7, (f0 * 32 + f1) // 7)
            vj = T.axis.spatial(7, (f0 * 32 + f1) % 7)
            T.where(f0 * 32 + f1 < 49)
            A[vi, vj] = T.float32(0)


@T.prim_func
def predicated_digits(A: T.Buffer((32,), "float32"), C: T.Buffer((4, 8), "float32")):
    # The predicate cuts row 3 off, which is inside B: the reader of row 3
    # is not covered.
    B = T.alloc_buffer((4, 8), "float32")
    for k in range(32):
        with T.block("B"):
            vi = T.axis.spatial(3, k // 8)
            vj = T.axis.spatial(8, k % 8)
            T.where(k // 8 < 3)
            B[vi, vj] = A[vi * 8 + vj]
    for i, j in T.grid(4, 8):
        with T.block("C"):
            vi, vj = T.axis.remap("SS", [i, j])
            C[vi, vj] = B[vi, vj]


@T.prim_func
def split_past_a_smaller_domain(A: T.Buffer((12,), "float32"), B: T.Buffer((12,), "float32")):
    # The predicate keeps the domain [0, 10) of a buffer of 12: elements 10
    # and 11 are not written.
    for i0, i1 in T.grid(3, 4):
        with T.block("B"):
            vi = T.axis.spatial(10, i0 * 4 + i1)
            T.where(i0 * 4 + i1 < 10)
            B[vi] = A[vi]


def block_named(state, name):
    found = []
    post_order_visit(state.mod["main"].body,
                     lambda n: found.append(n) if isinstance(n, tir.Block) and
                     n.name_hint == name else None)
    (block,) = found
    return state.get_sref(block)


def flags(state, name):
    return state._get_cached_flags(block_named(state, name))


def test_flags_of_a_stage_pipeline():
    s = tir.ScheduleState(chain)
    for name in ("B", "C", "root"):
        assert flags(s, name) == CachedFlags(True, True, True)


def test_a_write_after_read_breaks_the_stage_pipeline():
    s = tir.ScheduleState(reads_before_write)
    assert flags(s, "root") == CachedFlags(True, True, False)
    assert flags(s, "C") == CachedFlags(True, True, True)


def test_a_read_beyond_what_is_written_is_not_covered():
    s = tir.ScheduleState(partly_written)
    assert flags(s, "C") == CachedFlags(True, False, True)
    assert flags(s, "root").stage_pipeline is False


def test_two_producers_touching_cover_their_consumer():
    s = tir.ScheduleState(halves)
    assert flags(s, "C") == CachedFlags(True, True, True)
    assert flags(s, "root") == CachedFlags(True, True, True)


def test_a_strided_binding_is_not_affine():
    s = tir.ScheduleState(strided_binding)
    assert flags(s, "S").affine_binding is False


def test_srefs_are_one_object_per_statement_and_know_their_parents():
    sch = tir.Schedule(matmul)
    update = sch.get_block("update")
    sref = sch.get_sref(update)
    assert sref.stmt.name_hint == "update"
    assert sch.state.get_sref(sch.get(update)) is sref
    assert sch.get_sref(update) is sref
    k = sch.get_loops(update)[2]
    assert sref.parent is sch.get_sref(k)
    assert sch.get_sref(k).stmt.loop_var.name == "k"
    root = sch.get_sref(sch.get_block("root"))
    assert root.stmt.name_hint == "root" and root.parent is None
    # The module not yet changed is the one given: its nodes are the
    # PrimFunc's.
    assert sch.get(update).same_as(matmul.body.block.body.body.body[1].body.block)
    copy = sch.copy()
    assert copy.get_sref(update) is not sref
    assert copy.get_sref(update).stmt.same_as(sref.stmt)


def test_block_scope_dependences_by_kind():
    s = tir.ScheduleState(matmul)
    root = block_named(s, "root")
    init, update = block_named(s, "init"), block_named(s, "update")
    deps = s.get_block_scope(root).get_deps_by_src(init)
    assert sorted(d.kind for d in deps) == [DepKind.RAW, DepKind.WAW]
    assert all(d.src is init and d.dst is update for d in deps)
    assert s.get_block_scope(root).get_deps_by_dst(init) == []
    s = tir.ScheduleState(reads_before_write)
    (dep,) = s.get_block_scope(block_named(s, "root")).get_deps_by_src(block_named(s, "C"))
    assert dep.kind == DepKind.WAR and dep.dst is block_named(s, "B")


def test_replace_is_refused_and_a_foreign_sref_is_not_taken():
    s = tir.ScheduleState(chain)
    other = tir.ScheduleState(chain)
    with pytest.raises(NotImplementedError, match="changed by the schedule primitives only"):
        s.replace(block_named(s, "B"), None)
    with pytest.raises(ValueError, match="not one of this schedule state's"):
        s._get_cached_flags(block_named(other, "B"))
    with pytest.raises(TypeError, match="cached flags are a block's"):
        sch = tir.Schedule(chain)
        sch.state._get_cached_flags(sch.get_sref(sch.get_loops("B")[0]))


def test_an_sref_taken_before_a_change_is_refused():
    sch = tir.Schedule(chain)
    sref = sch.get_sref(sch.get_block("C"))
    sch.cache_read(sch.get_block("C"), 0, "local")
    with pytest.raises(ValueError, match="before a primitive changed it"):
        sch.state._get_cached_flags(sref)
    fresh = sch.get_sref(sch.get_block("C"))
    assert sch.state._get_cached_flags(fresh) == CachedFlags(True, True, True)


def test_digits_of_one_loop_in_two_dimensions_cover_their_reader():
    s = tir.ScheduleState(digits_of_one_loop)
    assert flags(s, "C") == CachedFlags(True, True, True)
    assert flags(s, "root").stage_pipeline is True


def test_overlapping_digits_leave_their_reader_uncovered():
    s = tir.ScheduleState(overlapping_digits)
    assert flags(s, "C").region_cover is False
    assert flags(s, "root").stage_pipeline is False


def test_a_predicate_bounding_the_divided_sum_keeps_bindings_affine():
    s = tir.ScheduleState(predicate_on_a_fused_sum)
    assert flags(s, "S").affine_binding is True


def test_a_predicate_cutting_inside_the_buffer_leaves_the_reader_uncovered():
    s = tir.ScheduleState(predicated_digits)
    assert flags(s, "C").region_cover is False


def test_cache_write_refuses_a_box_a_predicate_leaves_partly_unwritten():
    sch = tir.Schedule(split_past_a_smaller_domain, debug_mask="all")
    with pytest.raises(tir.ScheduleError, match=r"leave elements of the box unwritten"):
        sch.cache_write(sch.get_block("B"), 0, "global")
