"""The schedule rules of the MetaSchedule library, each on programs that
show when it applies and what it makes: the design spaces' programs and
traces, and the programs they must leave alone. Then the default CPU
rules, postprocessors and mutators tuning a matmul end to end."""
import numpy as np
import pytest

import tensorir as tvm
from tensorir import meta_schedule as ms
from tensorir import te
from tensorir.meta_schedule.schedule_rule import (AddRFactor, ApplyCustomRule, AutoInline,
                                                  InlineConstantScalars, MultiLevelTiling,
                                                  ParallelizeVectorizeUnroll,
                                                  RandomComputeLocation)
from tensorir.meta_schedule.space_generator import PostOrderApply
from tensorir.meta_schedule.testing import te_workload
from tensorir.script import tir as T

TARGET = "llvm -num-cores 4"


def spaces(mod, *rules):
    """The design spaces `rules` make of `mod` (no postprocessors)."""
    context = ms.TuneContext(mod=mod, target=TARGET, task_name="test",
                             space_generator=PostOrderApply(sch_rules=list(rules), postprocs=[],
                                                            mutator_probs={}))
    return context.generate_design_space()


def blocks(sch):
    return sorted(b.name_hint for b in _walk_blocks(sch.mod["main"].body)
                  if b.name_hint != "root")


def _walk_blocks(stmt):
    found = []
    tvm.tir.stmt_functor.post_order_visit(
        stmt, lambda n: found.append(n) if isinstance(n, tvm.tir.Block) else None)
    return found


def kinds(sch):
    return [inst.kind.name for inst in sch.trace.insts]


def prim_func(*tensors):
    return te.create_prim_func(list(tensors))


def matmul(n=64):
    return prim_func(*te_workload.matmul(n, n, n))


def auto_inline():
    return AutoInline(into_producer=False, into_consumer=True, inline_const_tensor=True,
                      disallow_if_then_else=True, require_injective=True, require_ordered=True,
                      disallow_op=["tir.exp"])


def test_auto_inline():
    # An elementwise producer of a matmul goes into it; one that calls exp
    # (disallowed) stays, as does a padding (it branches).
    a = te.placeholder((32, 32), name="A")
    w = te.placeholder((32, 32), name="W")
    k = te.reduce_axis((0, 32), name="k")
    for body, kept in ((lambda x: x + 1.0, False), (lambda x: te.exp(x), True)):
        b = te.compute((32, 32), lambda i, j: body(a[i, j]), name="B")
        c = te.compute((32, 32), lambda i, j: te.sum(b[i, k] * w[k, j], axis=k), name="C")
        (sch,) = spaces(prim_func(a, w, c), auto_inline())
        assert ("B" in blocks(sch)) == kept
        assert kinds(sch) == (["GetBlock"] * 3 if kept else ["GetBlock"] * 3 + ["ComputeInline"])
    (sch,) = spaces(te_workload.create_te_workload("C1D", 0), auto_inline())
    assert "PadInput" in blocks(sch)


def test_inline_constant_scalars():
    # A block that computes a scalar from nothing is inlined into its
    # readers.
    @T.prim_func
    def scalar(a: T.handle, c: T.handle):
        A = T.match_buffer(a, (8,), "float32")
        C = T.match_buffer(c, (8,), "float32")
        S = T.alloc_buffer((), "float32")
        with T.block("S"):
            S[()] = T.float32(3)
        for i in range(8):
            with T.block("C"):
                vi = T.axis.spatial(8, i)
                C[vi] = A[vi] * S[()]

    (sch,) = spaces(scalar, InlineConstantScalars())
    assert blocks(sch) == ["C"]


def test_multi_level_tiling():
    # SSRSRS: i and j in four tiles, k in two, in that order, with the
    # write cache left out or written back at either of two levels.
    rule = MultiLevelTiling("SSRSRS", max_innermost_factor=16,
                            reuse_write={"req": "may", "levels": [1, 2], "scope": "global"})
    made = spaces(matmul(), rule)
    assert len(made) == 3
    for sch in made:
        assert kinds(sch).count("SamplePerfectTile") == 3
        loops = sch.get_loops(sch.get_block("C"))
        assert len(loops) == 10
        names = [sch.get(l).loop_var.name for l in loops]
        assert names == ["i_0", "j_0", "i_1", "j_1", "k_0", "i_2", "j_2", "k_1", "i_3", "j_3"]
        assert sch.get(sch.get_block("C")).annotations["meta_schedule.tiling_structure"] == \
            "SSRSRS"
        for inst in sch.trace.insts:
            if inst.kind.name == "SamplePerfectTile":
                factors = [int(f) for f in sch.trace.decisions[inst]]
                assert np.prod(factors) == 64 and factors[-1] <= 16
    assert sorted(len(blocks(s)) for s in made) == [1, 2, 2]
    # Without reuse: one space; an elementwise block is not tiled.
    assert len(spaces(matmul(), MultiLevelTiling("SSRSRS"))) == 1
    x = te.placeholder((8,), name="X")
    (sch,) = spaces(prim_func(x, te.compute((8,), lambda i: x[i] * 2.0, name="Y")),
                    MultiLevelTiling("SSRSRS"))
    assert "SamplePerfectTile" not in kinds(sch)
    with pytest.raises(tvm.TVMError, match="string of S"):
        MultiLevelTiling("SSXS")


def test_parallelize_vectorize_unroll():
    # The root block gets the parallel extent (4 cores x 16 jobs), the
    # vectorize limit and a sampled unroll depth; a function of spatial
    # blocks only gets no unroll.
    rule = ParallelizeVectorizeUnroll(max_jobs_per_core=16, max_vectorize_extent=32,
                                      unroll_max_steps=[0, 16, 64], unroll_explicit=True)
    (sch,) = spaces(matmul(), rule)
    root = sch.get(sch.get_block("root"))
    assert root.annotations["meta_schedule.parallel"] == 64
    assert root.annotations["meta_schedule.vectorize"] == 32
    assert root.annotations["meta_schedule.unroll_explicit"] in (0, 16, 64)
    assert kinds(sch).count("SampleCategorical") == 1
    x = te.placeholder((8,), name="X")
    (sch,) = spaces(prim_func(x, te.compute((8,), lambda i: x[i] * 2.0, name="Y")), rule)
    assert "SampleCategorical" not in kinds(sch)


def test_random_compute_location():
    # A padding (not inlined) is computed at a sampled place under the
    # convolution's loops; the convolution itself (no consumer) stays.
    made = spaces(te_workload.create_te_workload("C1D", 0), RandomComputeLocation())
    (sch,) = made
    assert kinds(sch).count("SampleComputeLocation") == 1
    assert kinds(sch).count("ComputeAt") == 1


def test_add_rfactor():
    # A long reduction to few outputs: the reduction loop split in two, an
    # alternative per half factored out, and the block as it was.
    a = te.placeholder((4, 4096), name="A")
    k = te.reduce_axis((0, 4096), name="k")
    s = te.compute((4,), lambda i: te.sum(a[i, k], axis=k), name="S")
    made = spaces(prim_func(a, s), AddRFactor(max_jobs_per_core=16, max_innermost_factor=64))
    assert len(made) == 3
    assert sorted(len(blocks(m)) for m in made) == [1, 2, 2]
    for sch in made:
        if len(blocks(sch)) == 2:
            assert "RFactor" in kinds(sch)
            assert sch.get(sch.get_block("S")).annotations[
                "meta_schedule.random_compute_producer"] == 1
    # Enough spatial parallelism: no rfactor.
    (sch,) = spaces(matmul(), AddRFactor(max_jobs_per_core=16, max_innermost_factor=64))
    assert kinds(sch) == ["GetBlock", "GetBlock"]


def test_apply_custom_rule():
    @T.prim_func
    def custom(a: T.handle, c: T.handle):
        A = T.match_buffer(a, (64,), "float32")
        C = T.match_buffer(c, (64,), "float32")
        for i in range(64):
            with T.block("C"):
                vi = T.axis.spatial(64, i)
                T.block_attr({"schedule_rule": "halves"})
                C[vi] = A[vi] + T.float32(1)

    @tvm.register_global_func("meta_schedule.cpu.halves", override=True)
    def halves(sch, block):
        other = sch.copy()
        sch.split(sch.get_loops(block)[0], factors=[2, None])
        return [sch, other]

    made = spaces(custom, ApplyCustomRule(), auto_inline())
    assert len(made) == 2
    assert sorted(len(m.get_loops(m.get_block("C"))) for m in made) == [1, 2]
    # An unknown rule: a warning, and the annotation is removed.
    unknown = tvm.tir.Schedule(custom)
    unknown.annotate(unknown.get_block("C"), "schedule_rule", "nothing")
    (sch,) = spaces(unknown.mod, ApplyCustomRule())
    assert "schedule_rule" not in sch.get(sch.get_block("C")).annotations


def test_tune_matmul_with_the_defaults(tmp_path):
    # TVM's default space, postprocessors and mutators: every record is
    # checked against the unscheduled matmul; the best is a tiled matmul
    # and computes the matmul.
    mod = tvm.IRModule({"main": matmul(64)})
    db = ms.tune_tir(mod, TARGET, str(tmp_path), 8, num_trials_per_iter=4, cost_model="random")
    records = db.get_all_tuning_records()
    assert len(records) == 8
    best = db.get_top_k(db.commit_workload(mod), 1)[0]
    assert best.run_secs[0].value < 1e9
    insts = [i.kind.name for i in best.trace.insts]
    assert "SamplePerfectTile" in insts
    sch = ms.tir_integration.compile_tir(db, mod, TARGET)
    lib = tvm.build(sch.mod, target="llvm")
    a, b = np.random.rand(64, 64).astype("float32"), np.random.rand(64, 64).astype("float32")
    c = tvm.nd.array(np.zeros((64, 64), "float32"))
    lib(tvm.nd.array(a), tvm.nd.array(b), c)
    np.testing.assert_allclose(c.numpy(), a @ b, rtol=1e-4)


def _int8_dense(n, in_dtype="int8", out_dtype="int32"):
    x = te.placeholder((n, n), name="X", dtype=in_dtype)
    w = te.placeholder((n, n), name="W", dtype=in_dtype)
    k = te.reduce_axis((0, n), name="k")
    y = te.compute((n, n), lambda i, j: te.sum(x[i, k].astype(out_dtype)
                                               * w[j, k].astype(out_dtype), axis=k), name="Y")
    return prim_func(x, w, y)


def test_multi_level_tiling_with_intrin():
    # A dense int8 product matching VNNI's 16 x 4 dot product: its inner
    # loops tiled to 16 lanes x 4 and blockized (the outer block annotated
    # for RewriteTensorize), then the outer block tiled as MultiLevelTiling.
    from tensorir.meta_schedule.schedule_rule import MultiLevelTilingWithIntrin
    from tensorir.tir.tensor_intrin.x86 import VNNI_DOT_16x4_INTRIN
    rule = MultiLevelTilingWithIntrin(VNNI_DOT_16x4_INTRIN, "SSRSRS", max_innermost_factor=64)
    a = te.placeholder((64, 64), name="A", dtype="uint8")
    b = te.placeholder((64, 64), name="B", dtype="int8")
    k = te.reduce_axis((0, 64), name="k")
    c = te.compute((64, 64), lambda i, j: te.sum(a[i, k].astype("int32")
                                                 * b[j, k].astype("int32"), axis=k), name="C")
    (sch,) = spaces(prim_func(a, b, c), rule)
    outer = sch.get(sch.get_block("C_o"))
    assert outer.annotations["meta_schedule.auto_tensorize"] == VNNI_DOT_16x4_INTRIN
    assert kinds(sch).count("Blockize") == 1
    assert kinds(sch).count("SamplePerfectTile") == 3
    # float32 does not match the intrinsic: the block is left as it was.
    (sch,) = spaces(matmul(), rule)
    assert "Blockize" not in kinds(sch)
    with pytest.raises(tvm.TVMError, match="not registered"):
        MultiLevelTilingWithIntrin("no_such_intrin", "SSRSRS")


def test_multi_level_tiling_async_pipeline():
    # On sm_80 and later the outer reduction tile is pipelined: beside the
    # plain sketch, one per pipeline depth (4 and 5 stages).
    rule = MultiLevelTiling("SSSRRSRS", tile_binds=["blockIdx.x", "vthread.x", "threadIdx.x"],
                            max_innermost_factor=64, vector_load_lens=[1, 2, 3, 4],
                            reuse_read={"req": "must", "levels": [4], "scope": "shared"},
                            reuse_write={"req": "must", "levels": [3], "scope": "local"})
    mod = matmul(128)
    for arch, count in (("sm_70", 1), ("sm_80", 3)):
        context = ms.TuneContext(mod=mod, target=f"cuda -arch={arch}", task_name="t",
                                 space_generator=PostOrderApply(sch_rules=[rule], postprocs=[],
                                                                mutator_probs={}))
        made = context.generate_design_space()
        assert len(made) == count, arch
        stages = sorted(str(sch.mod.script()).count("software_pipeline_async_stages")
                        for sch in made)
        assert stages == [0] + [1] * (count - 1)


def test_multi_level_tiling_tensor_core_refusals():
    # The rule's settings are checked as TVM checks them, with its words.
    from tensorir.meta_schedule.schedule_rule import MultiLevelTilingTensorCore
    from tensorir.tir.tensor_intrin.cuda import get_wmma_intrin_group
    group = get_wmma_intrin_group("shared", "shared", "float16", "float32", False)
    assert group == {"init": "wmma_fill_16x16x16_f32",
                     "load_a": "wmma_load_16x16x16_f16_a_shared",
                     "load_b": "wmma_load_16x16x16_f16_b_shared",
                     "compute": "wmma_sync_16x16x16_f16f16f32",
                     "store": "wmma_store_16x16x16_f32_shared"}
    shared = {"req": "must", "levels": [2], "scope": "shared"}
    with pytest.raises(tvm.TVMError, match="threadIdx.x"):
        MultiLevelTilingTensorCore([group], "SSSRRSRS", tile_binds=["threadIdx.x"],
                                   reuse_write=shared)
    with pytest.raises(tvm.TVMError, match="Shared memory write reuse"):
        MultiLevelTilingTensorCore([group], "SSSRRSRS", tile_binds=["blockIdx.x"])
    with pytest.raises(ValueError, match="load_scope"):
        get_wmma_intrin_group("local", "shared", "float16", "float32", False)
    # A float32 product matches no WMMA group: the block is left as it was.
    rule = MultiLevelTilingTensorCore([group], "SSSRRSRS",
                                      tile_binds=["blockIdx.y", "blockIdx.x", "threadIdx.y"],
                                      reuse_write=shared)
    context = ms.TuneContext(mod=matmul(128), target="cuda -arch=sm_70", task_name="t",
                             space_generator=PostOrderApply(sch_rules=[rule], postprocs=[],
                                                            mutator_probs={}))
    (sch,) = context.generate_design_space()
    assert "Blockize" not in kinds(sch)


def test_rfactor_of_a_split_fused_reduction():
    # A reduction over two fused and split loops, factored on the inner
    # part: the rfactor block has one reduce variable per remaining loop
    # (none left over for the variable the split shares with it).
    a = te.placeholder((4, 16, 16), name="A")
    i = te.reduce_axis((0, 16), name="i")
    j = te.reduce_axis((0, 16), name="j")
    s = te.compute((4,), lambda b: te.sum(a[b, i, j], axis=[i, j]), name="S")
    sch = tvm.tir.Schedule(prim_func(a, s))
    _, li, lj = sch.get_loops(sch.get_block("S"))
    outer, inner = sch.split(sch.fuse(li, lj), factors=[None, 8])
    rf = sch.rfactor(inner, factor_axis=1)
    block = sch.get(rf)
    assert [v.iter_type for v in block.iter_vars].count(2) == 1  # one reduce variable
    assert len(block.iter_vars) == 3


def test_disallow_async_strided_mem_copy():
    # A row of A copied in an asynchronous pipeline stage walks both buffers
    # one element at a time: allowed. A column of B does not: rejected.
    from tensorir.meta_schedule.postproc import DisallowAsyncStridedMemCopy
    a = te.placeholder((64, 64), name="A")
    b = te.placeholder((64, 64), name="B")
    k = te.reduce_axis((0, 64), name="k")
    c = te.compute((64, 64), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    mod = prim_func(a, b, c)
    for index, allowed in ((0, True), (1, False)):
        sch = tvm.tir.Schedule(mod)
        block = sch.get_block("C")
        loops = sch.get_loops(block)
        cache = sch.cache_read(block, index, "shared")
        sch.compute_at(cache, loops[1])
        sch.annotate(loops[1], "software_pipeline_stage", [0, 1])
        sch.annotate(loops[1], "software_pipeline_order", [0, 1])
        sch.annotate(loops[1], "software_pipeline_async_stages", [0])
        assert DisallowAsyncStridedMemCopy().apply(sch) is allowed, index
        # Without the asynchronous stage the copy is not looked at.
        sch.unannotate(loops[1], "software_pipeline_async_stages")
        assert DisallowAsyncStridedMemCopy().apply(sch)


def test_verify_vtcm_limit():
    # A row of A cached in VTCM per iteration of i takes 64 floats; a
    # two-stage pipeline over i keeps two copies of it.
    from tensorir.meta_schedule.postproc import VerifyVTCMLimit
    a = te.placeholder((64, 64), name="A")
    b = te.placeholder((64, 64), name="B")
    k = te.reduce_axis((0, 64), name="k")
    c = te.compute((64, 64), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    mod = prim_func(a, b, c)

    def verdict(capacity, pipelined):
        sch = tvm.tir.Schedule(mod)
        block = sch.get_block("C")
        loops = sch.get_loops(block)
        cache = sch.cache_read(block, 0, "global.vtcm")
        sch.compute_at(cache, loops[0])
        if pipelined:
            sch.annotate(loops[0], "software_pipeline_stage", [0, 1])
            sch.annotate(loops[0], "software_pipeline_order", [0, 1])
        target = tvm.target.hexagon("v68", vtcm_capacity=capacity)
        context = ms.TuneContext(mod=mod, target=target, task_name="t",
                                 space_generator=PostOrderApply(
                                     sch_rules=[], postprocs=[VerifyVTCMLimit()],
                                     mutator_probs={}))
        return context.space_generator.postprocs[0].apply(sch)

    assert verdict(256, pipelined=False) and not verdict(255, pipelined=False)
    assert verdict(512, pipelined=True) and not verdict(511, pipelined=True)


def test_multi_level_tiling_wide_vector():
    # The loop over the output's innermost dimension ends in one whole
    # vector (1024 bits of float16: 64 lanes); the other loops are sampled.
    from tensorir.meta_schedule.schedule_rule import MultiLevelTilingWideVector
    a = te.placeholder((32, 256), name="A", dtype="float16")
    b = te.placeholder((256, 256), name="B", dtype="float16")
    k = te.reduce_axis((0, 256), name="k")
    c = te.compute((32, 256), lambda i, j: te.sum(a[i, k] * b[k, j], axis=k), name="C")
    rule = MultiLevelTilingWideVector("SRS", vector_length_in_bits=1024,
                                      max_innermost_factor=64)
    (sch,) = spaces(prim_func(a, b, c), rule)
    loops = [sch.get(l) for l in sch.get_loops(sch.get_block("C"))]
    j_loops = [l for l in loops if l.loop_var.name.startswith("j")]
    assert int(j_loops[-1].extent) == 64
    # i sampled; j split by the vector alone (two spatial levels), k not
    # split (one reduction level).
    assert kinds(sch).count("SamplePerfectTile") == 1
    with pytest.raises(tvm.TVMError, match="vector_length_in_bits"):
        MultiLevelTilingWideVector("SRS", vector_length_in_bits=0)
