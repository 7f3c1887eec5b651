"""Passes in Python and C++: tvm.transform, tir.transform.prim_func_pass,
PassContext (opt_level, disabled and required passes, config, instruments),
tvm.lower's phases with tir.add_lower_pass, and a pass plugin."""
import os

import re

import numpy as np
import pytest

import tensorir as tvm
from tensorir import te, tir
from tensorir.script import tir as T

from conftest import BUILD_DIR, ROOT


@T.prim_func
def matmul(A: T.Buffer((32, 32), "float32"), B: T.Buffer((32, 32), "float32"),
           C: T.Buffer((32, 32), "float32")):
    for i, j, k in T.grid(32, 32, 32):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]


def module():
    return tvm.IRModule({"matmul": matmul})


def loop_kinds(mod, name="matmul"):
    kinds = []
    tvm.tir.stmt_functor.pre_order_visit(
        mod[name].body, lambda n: kinds.append(n.kind) if isinstance(n, tir.For) else None)
    return kinds


@tvm.tir.transform.prim_func_pass(opt_level=0, name="ParallelOuter")
def parallel_outer(func, mod, ctx):
    def outer(loop):
        return loop.with_fields(kind=tir.ForKind.PARALLEL) if loop.loop_var.name == "i" else None
    return func.with_body(tvm.tir.stmt_functor.ir_transform(func.body, None, outer,
                                                             ["tir.For"]))


def test_prim_func_pass_function_and_class_forms():
    mod = parallel_outer(module())
    assert loop_kinds(mod) == [tir.ForKind.PARALLEL, tir.ForKind.SERIAL, tir.ForKind.SERIAL]
    assert parallel_outer.info.name == "ParallelOuter" and parallel_outer.info.opt_level == 0

    @tvm.tir.transform.prim_func_pass(opt_level=1)
    class UnrollInner:
        def __init__(self, name):
            self.name = name

        def transform_function(self, func, mod, ctx):
            def inner(loop):
                return loop.with_fields(kind=tir.ForKind.UNROLLED) \
                    if loop.loop_var.name == self.name else None
            return func.with_body(tvm.tir.stmt_functor.ir_transform(func.body, None, inner,
                                                                     ["tir.For"]))

    p = UnrollInner("k")
    assert isinstance(p, tvm.transform.Pass) and p.info.name == "UnrollInner"
    assert loop_kinds(p(module()))[-1] == tir.ForKind.UNROLLED


def test_module_pass_and_sequential():
    seen = []

    @tvm.transform.module_pass(opt_level=0, name="Record")
    def record(mod, ctx):
        seen.append(list(mod.function_names()))
        return mod

    seq = tvm.transform.Sequential([record, parallel_outer, record])
    mod = seq(module())
    assert seen == [["matmul"], ["matmul"]]
    assert loop_kinds(mod)[0] == tir.ForKind.PARALLEL
    # The result computes the same numbers.
    a, b = (np.random.rand(32, 32).astype("float32") for _ in range(2))
    c = np.zeros((32, 32), "float32")
    tvm.build(mod)["matmul"](a, b, c)
    np.testing.assert_allclose(c, a @ b, rtol=1e-5)


def test_pass_context_opt_level_disabled_and_required():
    @tvm.transform.module_pass(opt_level=3, name="Expensive")
    def expensive(mod, ctx):
        return parallel_outer(mod)

    with tvm.transform.PassContext(opt_level=2):
        assert loop_kinds(expensive(module()))[0] == tir.ForKind.SERIAL  # skipped
    with tvm.transform.PassContext(opt_level=3):
        assert loop_kinds(expensive(module()))[0] == tir.ForKind.PARALLEL
    with tvm.transform.PassContext(opt_level=1, required_pass=["Expensive"]):
        assert loop_kinds(expensive(module()))[0] == tir.ForKind.PARALLEL
    with tvm.transform.PassContext(disabled_pass=["ParallelOuter"]):
        assert loop_kinds(parallel_outer(module()))[0] == tir.ForKind.SERIAL
    assert tvm.transform.PassContext.current().opt_level == 2  # the default again


def test_instruments_print_and_time_each_pass(capsys):
    timing = tvm.instrument.PassTimingInstrument()

    @tvm.instrument.pass_instrument
    class SkipNamed:
        def __init__(self):
            self.before = []

        def should_run(self, mod, info):
            return info.name != "Skipped"

        def run_before_pass(self, mod, info):
            self.before.append(info.name)

    @tvm.tir.transform.prim_func_pass(opt_level=0, name="Skipped")
    def skipped(func, mod, ctx):
        raise AssertionError("should not run")

    skip = SkipNamed()
    with tvm.transform.PassContext(instruments=[timing, skip,
                                                tvm.instrument.PrintAfterAll()]):
        tvm.transform.Sequential([parallel_outer, skipped], name="Both")(module())
        report = timing.render()
    assert skip.before == ["Both", "ParallelOuter"]
    assert "Both:" in report and "ParallelOuter:" in report and "us" in report
    out = capsys.readouterr().out
    assert "After running pass ParallelOuter:" in out and "T.parallel(32)" in out


def test_bad_passes_and_contexts_are_refused():
    @tvm.tir.transform.prim_func_pass(opt_level=0, name="ReturnsNone")
    def returns_none(func, mod, ctx):
        return None

    with pytest.raises(TypeError, match="prim_func_pass 'ReturnsNone' returned None for "
                                        "'matmul'"):
        returns_none(module())

    @tvm.tir.transform.prim_func_pass(opt_level=0, name="ReturnsBody")
    def returns_body(func, mod, ctx):
        return func.body

    with pytest.raises(TypeError, match="returned a BlockRealize for 'matmul'; a PrimFunc pass "
                                        "returns a PrimFunc"):
        returns_body(module())

    @tvm.transform.module_pass(opt_level=0, name="ReturnsFunc")
    def returns_func(mod, ctx):
        return mod["matmul"]

    with pytest.raises(TypeError, match="pass 'ReturnsFunc' returned a PrimFunc; a module pass "
                                        "returns an IRModule"):
        returns_func(module())
    with pytest.raises(ValueError, match="unknown config option 'tir.add_lower_passes'"):
        tvm.transform.PassContext(config={"tir.add_lower_passes": []})
    with pytest.raises(TypeError, match="config 'tir.add_lower_pass' is a list"):
        tvm.transform.PassContext(config={"tir.add_lower_pass": parallel_outer})
    with pytest.raises(TypeError, match="needs its opt_level"):
        tvm.tir.transform.prim_func_pass(lambda f, m, c: f)
    with pytest.raises(TypeError, match="runs on an IRModule, got a PrimFunc"):
        parallel_outer(matmul)
    with pytest.raises(ValueError, match="tir-no-such-pass"):
        tvm.transform.mlir_pass("tir-no-such-pass")(module())
    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(4, parallel_outer)]}):
        with pytest.raises(ValueError, match="phase 4 is not 0, 1, 2 or 3"):
            tvm.lower(matmul)
    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, print)]}):
        with pytest.raises(TypeError, match="is not a pass"):
            tvm.lower(matmul)


def test_lower_phases_see_what_the_docs_say():
    seen = {}

    def spy(phase):
        @tvm.tir.transform.prim_func_pass(opt_level=0, name=f"Spy{phase}")
        def look(func, mod, ctx):
            kinds = set()
            tvm.tir.stmt_functor.post_order_visit(func.body,
                                                  lambda n: kinds.add(type(n).__name__))
            block = [None]
            tvm.tir.stmt_functor.post_order_visit(
                func.body, lambda n: block.__setitem__(0, n)
                if isinstance(n, tir.Block) and n.name_hint == "C" else None)
            seen[phase] = (kinds, block[0].init is not None)
            return func
        return look

    config = {"tir.add_lower_pass": [(p, spy(p)) for p in range(4)]}
    with tvm.transform.PassContext(config=config):
        lowered = tvm.lower(matmul, name="matmul")
    # Phase 0: the program as written (T.init in its block).
    assert seen[0][1] and "IfThenElse" not in seen[0][0]
    # Phase 1 on: LowerInitBlock has made the init an if statement.
    for phase in (1, 2, 3):
        assert not seen[phase][1] and "IfThenElse" in seen[phase][0]
    assert "if vk == 0:" in lowered.script()


def test_lower_of_a_te_schedule_and_build():
    n = tvm.tir.const(64, "int32")
    a = te.placeholder((n,), name="a")
    b = te.compute((n,), lambda i: a[i] * 2.0, name="b")
    sch = te.create_schedule(b.op)
    assert "b[v_i] = a[v_i] * T.float32(2.0)" in tvm.lower(sch, [a, b]).script()
    with pytest.raises(TypeError, match="needs its arguments"):
        tvm.lower(sch)
    with pytest.raises(tvm.tir.ScheduleError, match="superseded by tvm.tir.Schedule"):
        sch[b]
    with tvm.transform.PassContext(config={"tir.add_lower_pass": [(1, parallel_outer)],
                                           "tir.disable_vectorize": True}):
        lib = tvm.build(sch, [a, b])
    x = np.random.rand(64).astype("float32")
    y = np.zeros(64, "float32")
    lib["main"](x, y)
    np.testing.assert_allclose(y, 2 * x)


def test_disable_vectorize():
    @T.prim_func
    def vec(A: T.Buffer((16,), "float32")):
        for i in T.vectorized(16):
            with T.block("A"):
                vi = T.axis.spatial(16, i)
                A[vi] = T.float32(1)

    with tvm.transform.PassContext(config={"tir.disable_vectorize": True}):
        assert "T.vectorized" not in tvm.lower(vec).script()
    assert "T.vectorized" in tvm.lower(vec).script()


def test_cxx_passes_as_python_passes():
    lowered = tvm.tir.transform.LowerInitBlock()(module())
    assert "if vk == 0:" in lowered.script()
    both = tvm.transform.Sequential([tvm.tir.transform.LowerInitBlock(),
                                     tvm.transform.mlir_pass("canonicalize")])(module())
    tvm.ir.assert_structural_equal(both, tvm.tir.transform.Canonicalize()(lowered))


PLUGIN = os.path.join(BUILD_DIR, "lib", "TIRMarkIntrinsicLoops.so")


@pytest.mark.skipif(not os.path.exists(PLUGIN), reason="the example plugin is not built")
def test_plugin_pass_equals_the_python_pass():
    import runpy
    example = runpy.run_path(os.path.join(ROOT, "examples", "python", "intrinsic_pass.py"),
                             run_name="not_main")
    mod = tvm.IRModule({"kernel": example["kernel"]})
    tvm.transform.load_pass_plugin(PLUGIN)
    cxx = tvm.transform.mlir_pass("tir-mark-intrinsic-loops{width=8}")(mod)
    py = example["mark_intrinsic_loops"](mod)
    tvm.ir.assert_structural_equal(cxx, py)
    assert not tvm.ir.structural_equal(mod, py)  # the pass changed something
    assert '"pragma_custom_intrin": "vmac"' in py.script()
    with pytest.raises(ValueError, match="cannot load the pass plugin"):
        tvm.transform.load_pass_plugin(os.path.join(ROOT, "README.md"))


@pytest.mark.skipif(not os.path.exists(PLUGIN), reason="the example plugin is not built")
def test_a_plugin_keeps_llvm_out_of_the_global_scope():
    # Loading a plugin must not make libLLVM's symbols the process's: a
    # library with its own LLVM inside (PyTorch's triton, which torch.export
    # imports) then bound its static initializers to them and crashed.
    import subprocess
    import sys
    probe = f"""
import ctypes
import tensorir as tvm
tvm.transform.load_pass_plugin({PLUGIN!r})
try:
    getattr(ctypes.CDLL(None), "_ZN4llvm2cl6Option11addArgumentEv")
    print("global")
except AttributeError:
    print("local")
"""
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "local"


def test_python_passes_from_the_command_line(tmp_path):
    import subprocess
    import sys
    out = tmp_path / "out.mlir"
    cmd = [sys.executable, "-m", "tensorir.opt", os.path.join(ROOT, "examples", "matmul.mlir"),
           "--pipeline", "tir-lower-init,py:" + os.path.join(
               ROOT, "examples", "python", "intrinsic_pass.py") + ":mark_intrinsic_loops,"
           "func.func(canonicalize)", "-o", str(out)]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    text = out.read_text()
    assert 'pragma_custom_intrin = "vmac"' in text and "scf.if" in text
    bad = subprocess.run(cmd[:4] + ["--pipeline", "py:nowhere:nothing"], capture_output=True,
                         text=True, timeout=120)
    assert bad.returncode == 1
    assert bad.stderr == "error: 'py:nowhere:nothing': No module named 'nowhere'\n"


@T.prim_func
def reverse_then_add(X: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    Y = T.alloc_buffer((8,), "float32")
    for i in range(8):
        with T.block("Y"):
            vi = T.axis.spatial(8, i)
            Y[vi] = X[vi] * T.float32(2)
    for i in range(8):
        with T.block("B"):
            vi = T.axis.spatial(8, i)
            B[vi] = Y[vi] + T.float32(1)


def test_a_pass_that_moves_an_index_gets_fresh_regions():
    # The pass reads Y[7 - vi]: the block's regions read with the function
    # (Y[vi]) no longer hold, so they are inferred again when the nodes go
    # back to tir; compute_at and the build's buffer compaction trust them.
    def flip(load):
        if load.buffer.name == "Y":
            return tir.BufferLoad(load.buffer, [7 - load.indices[0]])
        return None

    @tvm.tir.transform.prim_func_pass(opt_level=0)
    def flip_reads(func, mod, ctx):
        return func.with_body(tvm.tir.stmt_functor.ir_transform(func.body, None, flip,
                                                                 ["tir.BufferLoad"]))

    mod = flip_reads(tvm.IRModule({"main": reverse_then_add}))
    [region] = block_reads(mod["main"], "B")
    assert region.startswith("Y[vi") and region.endswith(" * (-1) + 7]")
    sch = tvm.tir.Schedule(mod)
    sch.compute_at(sch.get_block("Y"), sch.get_loops(sch.get_block("B"))[0])
    x = np.arange(8, dtype="float32")
    for m in (mod, sch.mod):
        b = np.zeros(8, "float32")
        tvm.build(m)["reverse_then_add"](x, b)  # built under its global symbol
        np.testing.assert_allclose(b, x[::-1] * 2 + 1)


def test_new_blocks_with_empty_regions_get_them_inferred():
    def rebuild(realize):
        b = realize.block
        if b.name_hint != "B":
            return None
        fresh = tir.Block(b.iter_vars, [], [], "B", b.body)  # as TVM passes often do
        return tir.BlockRealize(realize.iter_values, realize.predicate, fresh)

    f = reverse_then_add.with_body(tvm.tir.stmt_functor.ir_transform(
        reverse_then_add.body, None, rebuild, ["tir.BlockRealize"]))
    [region] = block_reads(tvm.IRModule({"f": f})["f"], "B")
    assert region.startswith("Y[vi") and "+" not in region


def block_reads(func, name):
    """The read regions of block `name`, as text."""
    found = []
    tvm.tir.stmt_functor.post_order_visit(
        func.body, lambda n: found.append(n) if isinstance(n, tir.Block) and
        n.name_hint == name else None)
    return [r.script() for r in found[0].reads]


def test_functions_of_a_module_are_one_object_each():
    mod = tvm.IRModule({"main": reverse_then_add})
    assert mod["main"] is mod["main"] and mod["main"].body is mod["main"].body
    tvm.ir.assert_structural_equal(mod["main"].with_body(mod["main"].body), reverse_then_add)


def test_a_new_prim_func_takes_its_key_as_name():
    @tvm.tir.transform.prim_func_pass(opt_level=0)
    def rebuild(func, mod, ctx):
        return tir.PrimFunc(func.params, func.body, buffer_map=func.buffer_map)

    mod = rebuild(tvm.IRModule({"f": reverse_then_add}))
    x = np.arange(8, dtype="float32")
    b = np.zeros(8, "float32")
    tvm.build(mod)["f"](x, b)
    np.testing.assert_allclose(b, x * 2 + 1)
    # tvm.lower keeps a PrimFunc's name unless given one.
    assert tvm.lower(reverse_then_add).function_names() == ["reverse_then_add"]
    assert tvm.lower(reverse_then_add, name="k").function_names() == ["k"]


def test_timing_lists_passes_in_order_after_an_error():
    timing = tvm.instrument.PassTimingInstrument()

    @tvm.transform.module_pass(opt_level=0, name="Boom")
    def boom(mod, ctx):
        raise RuntimeError("boom")

    with tvm.transform.PassContext(instruments=[timing]):
        with pytest.raises(RuntimeError):
            boom(module())
        tvm.transform.Sequential([parallel_outer], name="Outer")(module())
        lines = timing.render().splitlines()
    assert [line.split(":")[0] for line in lines[1:]] == ["  Outer", "    ParallelOuter"]
    with pytest.raises(TypeError, match="config 'tir.disable_vectorize' is True or False"):
        tvm.transform.PassContext(config={"tir.disable_vectorize": "false"})


def test_default_gpu_schedule_binds_unbound_blocks_under_a_gpu_target():
    mod = tvm.IRModule({"f": reverse_then_add})
    with tvm.target.Target("nvidia/nvidia-h100"):
        bound = tvm.tir.transform.DefaultGPUSchedule()(mod)
    text = bound.script()
    assert 'thread="blockIdx.x"' in text and 'thread="threadIdx.x"' in text
    # Bound functions stay as they are; CPU targets leave every function.
    with tvm.target.Target("nvidia/nvidia-h100"):
        again = tvm.tir.transform.DefaultGPUSchedule()(bound)
    tvm.ir.assert_structural_equal(again, bound)
    with tvm.target.Target("llvm"):
        assert tvm.tir.transform.DefaultGPUSchedule()(mod) is mod
    with tvm.target.Target("cuda"):
        with pytest.raises(ValueError, match="names no max_threads_per_block"):
            tvm.tir.transform.DefaultGPUSchedule()(mod)


def test_default_cpu_schedule_parallelizes_and_vectorizes_without_changing_results():
    @T.prim_func
    def matmul(A: T.Buffer((64, 32), "float32"), B: T.Buffer((32, 48), "float32"),
               C: T.Buffer((64, 48), "float32")):
        for i, j, k in T.grid(64, 48, 32):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    mod = tvm.IRModule({"matmul": matmul})
    scheduled = tvm.tir.transform.DefaultCPUSchedule()(mod)
    text = scheduled.script()
    assert "T.parallel" in text and "T.vectorized" in text
    # The reduction runs in its order for each output: the same numbers.
    a = np.random.default_rng(0).standard_normal((64, 32)).astype("float32")
    b = np.random.default_rng(1).standard_normal((32, 48)).astype("float32")
    want, got = np.zeros((64, 48), "float32"), np.zeros((64, 48), "float32")
    tvm.build(mod)["matmul"](a, b, want)
    tvm.build(scheduled)["matmul"](a, b, got)
    np.testing.assert_allclose(got, want, rtol=1e-6)
    # Scheduled functions are left alone, and so is everything for a GPU.
    assert tvm.tir.transform.DefaultCPUSchedule()(scheduled) is scheduled
    with tvm.target.Target("nvidia/nvidia-h100"):
        assert tvm.tir.transform.DefaultCPUSchedule()(mod) is mod


def test_default_cpu_schedule_register_tiles_convolutions_and_matmuls():
    @T.prim_func
    def conv(A: T.Buffer((1, 16, 9, 9), "float32"), W: T.Buffer((32, 16, 3, 3), "float32"),
             C: T.Buffer((1, 32, 7, 7), "float32")):
        for n, f, y, x, c, r, s in T.grid(1, 32, 7, 7, 16, 3, 3):
            with T.block("conv"):
                vn, vf, vy, vx, vc, vr, vs = T.axis.remap("SSSSRRR", [n, f, y, x, c, r, s])
                with T.init():
                    C[vn, vf, vy, vx] = T.float32(0)
                C[vn, vf, vy, vx] = C[vn, vf, vy, vx] + A[vn, vc, vy + vr, vx + vs] * \
                    W[vf, vc, vr, vs]

    scheduled = tvm.tir.transform.default_cpu_schedule(conv)
    text = scheduled.script()
    # Eight output channels of a row of 7 pixels accumulate in a local tile
    # (the weights read once per channel, the pixels once for all eight).
    assert 'C_local = T.alloc_buffer((1, 32, 7, 7), "float32", scope="local")' in text
    assert "T.unroll(8)" in text and "T.vectorized(7)" in text and "T.parallel" in text
    rng = np.random.default_rng(2)
    a = rng.standard_normal((1, 16, 9, 9)).astype("float32")
    w = rng.standard_normal((32, 16, 3, 3)).astype("float32")
    want, got = np.zeros((1, 32, 7, 7), "float32"), np.zeros((1, 32, 7, 7), "float32")
    tvm.build(tvm.IRModule({"conv": conv}))["conv"](a, w, want)
    tvm.build(tvm.IRModule({"conv": scheduled}))["conv"](a, w, got)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    # A reduction with no tile that fits (no spatial extent of 8 rows) keeps
    # the plain schedule.
    @T.prim_func
    def rowsum(A: T.Buffer((5, 33), "float32"), B: T.Buffer((5,), "float32")):
        for i, k in T.grid(5, 33):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]

    assert "local" not in tvm.tir.transform.default_cpu_schedule(rowsum).script()


def test_default_cpu_schedule_vectorizes_along_tiled_weights():
    # A convolution whose weight is in tiles of 32 output channels (as
    # relax.transform.RewriteWeightLayouts lays constant weights out):
    # rows of 7 pixels, each two vectors of 16 channels, accumulate in a
    # local tile laid out channels last; pixels two apart (stride 2) are
    # broadcast, not gathered. The ReLU after it is done as the tile is
    # written back.
    @T.prim_func
    def conv(A: T.Buffer((1, 16, 15, 15), "float32"), W: T.Buffer((2, 16, 3, 3, 32), "float32"),
             C: T.Buffer((1, 64, 7, 7), "float32")):
        acc = T.alloc_buffer((1, 64, 7, 7), "float32")
        for n, f, y, x, c, r, s in T.grid(1, 64, 7, 7, 16, 3, 3):
            with T.block("conv"):
                vn, vf, vy, vx, vc, vr, vs = T.axis.remap("SSSSRRR", [n, f, y, x, c, r, s])
                with T.init():
                    acc[vn, vf, vy, vx] = T.float32(0)
                acc[vn, vf, vy, vx] = acc[vn, vf, vy, vx] + \
                    A[vn, vc, vy * 2 + vr, vx * 2 + vs] * W[vf // 32, vc, vr, vs, vf % 32]
        for n, f, y, x in T.grid(1, 64, 7, 7):
            with T.block("relu"):
                vn, vf, vy, vx = T.axis.remap("SSSS", [n, f, y, x])
                C[vn, vf, vy, vx] = T.max(acc[vn, vf, vy, vx], T.float32(0))

    scheduled = tvm.tir.transform.default_cpu_schedule(conv)
    text = scheduled.script()
    assert 'acc_local = T.alloc_buffer((1, 7, 7, 64), "float32", scope="local")' in text, text
    assert "T.unroll(7)" in text and "T.vectorized(32)" in text and "T.parallel" in text
    assert 'T.block("relu")' not in text and "T.max(acc_local[" in text, text
    rng = np.random.default_rng(6)
    a = rng.standard_normal((1, 16, 15, 15)).astype("float32")
    w = rng.standard_normal((2, 16, 3, 3, 32)).astype("float32")
    want, got = np.zeros((1, 64, 7, 7), "float32"), np.zeros((1, 64, 7, 7), "float32")
    tvm.build(tvm.IRModule({"conv": conv}))["conv"](a, w, want)
    tvm.build(tvm.IRModule({"conv": scheduled}))["conv"](a, w, got)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_default_cpu_schedule_interleaves_row_reductions_and_inlines_elementwise_steps():
    # A layer norm's shape: a mean along each row's contiguous axis, then
    # element-wise steps. The rows' sums run side by side (8 unrolled
    # inside the reduction loop), each in its order: the same numbers; the
    # element-wise steps become one pass.
    @T.prim_func
    def norm(A: T.Buffer((32, 64), "float32"), B: T.Buffer((64,), "float32"),
             D: T.Buffer((32, 64), "float32")):
        mean = T.alloc_buffer((32,), "float32")
        centered = T.alloc_buffer((32, 64), "float32")
        for i, k in T.grid(32, 64):
            with T.block("mean"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    mean[vi] = T.float32(0)
                mean[vi] = mean[vi] + A[vi, vk] * T.float32(1.0 / 64)
        for i, j in T.grid(32, 64):
            with T.block("centered"):
                vi, vj = T.axis.remap("SS", [i, j])
                centered[vi, vj] = A[vi, vj] - mean[vi]
        for i, j in T.grid(32, 64):
            with T.block("scaled"):
                vi, vj = T.axis.remap("SS", [i, j])
                D[vi, vj] = centered[vi, vj] * B[vj]

    scheduled = tvm.tir.transform.default_cpu_schedule(norm)
    text = scheduled.script()
    assert re.search(r"for k in range\(64\):\s+for i_1 in T\.unroll\(8\):", text), text
    assert 'T.block("centered")' not in text and 'T.block("scaled")' in text
    rng = np.random.default_rng(7)
    a = rng.standard_normal((32, 64)).astype("float32")
    b = rng.standard_normal(64).astype("float32")
    want, got = np.zeros((32, 64), "float32"), np.zeros((32, 64), "float32")
    tvm.build(tvm.IRModule({"norm": norm}))["norm"](a, b, want)
    tvm.build(tvm.IRModule({"norm": scheduled}))["norm"](a, b, got)
    np.testing.assert_array_equal(got, want)


def test_default_cpu_schedule_reads_a_transpose_tile_by_tile():
    # The output's vectors run along the input's rows (a transpose): the
    # input's contiguous axis runs inside the vectors' outer loop, so the
    # 16 rows a vector reads are read while they are in the cache, not one
    # element of each per output row (rows 1 KiB apart share a few cache
    # sets).
    @T.prim_func
    def transpose(A: T.Buffer((128, 4, 64), "float32"), B: T.Buffer((4, 64, 128), "float32")):
        for i, j, k in T.grid(4, 64, 128):
            with T.block("transpose"):
                vi, vj, vk = T.axis.remap("SSS", [i, j, k])
                B[vi, vj, vk] = A[vk, vi, vj]

    text = tvm.tir.transform.default_cpu_schedule(transpose).script()
    assert re.search(r"for i_k_0_fused in T\.parallel\(32\):\s+for j in range\(64\):"
                     r"\s+for k_1 in T\.vectorized\(16\):", text), text
    a = np.random.default_rng(3).standard_normal((128, 4, 64)).astype("float32")
    got = np.zeros((4, 64, 128), "float32")
    scheduled = tvm.tir.transform.default_cpu_schedule(transpose)
    tvm.build(tvm.IRModule({"transpose": scheduled}))["transpose"](a, got)
    np.testing.assert_array_equal(got, a.transpose(1, 2, 0))
    # Along the input's rows already (an element-wise step): no change.
    @T.prim_func
    def copy(A: T.Buffer((64, 32), "float32"), B: T.Buffer((64, 32), "float32")):
        for i, j in T.grid(64, 32):
            with T.block("copy"):
                vi, vj = T.axis.remap("SS", [i, j])
                B[vi, vj] = A[vi, vj]

    text = tvm.tir.transform.default_cpu_schedule(copy).script()
    assert re.search(r"for i in T\.parallel\(64\):\s+for j_0 in range\(2\):", text), text


def test_default_cpu_schedule_of_a_dynamic_batch_keeps_vectors_and_threads():
    @T.prim_func
    def mm(a: T.handle, b: T.handle, c: T.handle):
        n = T.int32()
        A = T.match_buffer(a, (n, 32))
        B = T.match_buffer(b, (32, 48))
        C = T.match_buffer(c, (n, 48))
        for i, j, k in T.grid(n, 48, 32):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    # No register tile (the rows are the batch, of no known size), but the
    # columns are vectors and the batch is parallel.
    text = tvm.tir.transform.schedule_by_default(mm).script()
    assert "T.parallel" in text and "T.vectorized" in text and "local" not in text
