"""build, nd.array and calls checked against the signature."""
import os
import platform
import re
import subprocess

import numpy as np
import pytest
from conftest import ROOT

import tensorir as tvm
from tensorir.script import tir as T


def test_vector_add_arange(example):
    lib = tvm.build(example("vector_add"), target="llvm")
    a = tvm.nd.array(np.arange(8, dtype="float32"))
    b = tvm.nd.array(np.zeros(8, dtype="float32"))
    lib["main"](a, b)
    assert b.numpy().tolist() == [1, 2, 3, 4, 5, 6, 7, 8]


def test_dynamic_length_and_scalar(example):
    lib = tvm.build(example("vector_add_dynamic"))
    a = np.linspace(0, 1, 37, dtype="float32")
    b = np.zeros(37, dtype="float32")
    lib.add_one(37, a, b)
    np.testing.assert_array_equal(b, a + 1)


def test_wrong_arguments_name_the_argument(example):
    lib = tvm.build(example("vector_add"))
    with pytest.raises(ValueError, match=r"argument 0 \('A'\) of 'main': expected shape \[8\], got \[4\]"):
        lib["main"](np.zeros(4, "float32"), np.zeros(8, "float32"))
    with pytest.raises(ValueError, match=r"argument 1 \('B'\) of 'main': expected element type float32, got int32"):
        lib["main"](np.zeros(8, "float32"), np.zeros(8, "int32"))
    with pytest.raises(ValueError, match="takes 2 arguments, got 1"):
        lib["main"](np.zeros(8, "float32"))
    with pytest.raises(KeyError, match="no function named 'nope'"):
        lib["nope"]
    big = np.zeros(8, ">f4" if np.little_endian else "<f4")
    with pytest.raises(ValueError, match=r"argument 0 \('A'\) of 'main' is (big|little)-endian"):
        lib["main"](big, np.zeros(8, "float32"))
    with pytest.raises(TypeError, match=r"argument 0 \('A'\) of 'main': arrays of dtype object"):
        lib["main"](np.zeros(8, object), np.zeros(8, "float32"))


def test_scalar_sizes_are_checked_against_the_arrays(example):
    # add_one(n, A, B) loops to n over A[?] and B[?]: without the check,
    # n = 100 with 8-element arrays wrote past B (heap corruption).
    f = tvm.build(example("vector_add_dynamic"))["add_one"]
    a, b = np.arange(8, dtype="float32"), np.zeros(8, "float32")
    with pytest.raises(ValueError, match=r"argument 1 \('A'\) of 'add_one': dimension 0 has 8 "
                                         r"elements, but tir.load in block 'B' reaches index 99 "
                                         r"\(n = 100 \(argument 0\)\)"):
        f(100, a, b)
    with pytest.raises(ValueError, match=r"argument 2 \('B'\) of 'add_one': dimension 0 has 4 "
                                         r"elements, but tir.store in block 'B' reaches index 7"):
        f(8, a, np.zeros(4, "float32"))
    with pytest.raises(ValueError, match=r"argument 0 \('n'\) of 'add_one' is -1, but it is the extent of the domain "
                                         r"of block 'B'; an extent is not negative"):
        f(-1, a, b)
    with pytest.raises(ValueError, match=r"argument 0 \('n'\) of 'add_one': \d+ does not fit a "
                                         "64-bit integer"):
        f(2**70, a, b)
    with pytest.raises(ValueError, match=r"reaches index 4611686018427387903"):
        f(2**62, a, b)
    with pytest.raises(ValueError, match=r"argument 0 \('n'\) of 'add_one': expected an integer"):
        f(8.0, a, b)
    np.testing.assert_array_equal(b, 0)  # nothing ran
    f(np.int32(8), a, b)  # numpy integers are integers
    np.testing.assert_array_equal(b, a + 1)
    # A and B are declared of n elements (tir.dim_vars): larger arrays too
    # are refused, as TVM does.
    with pytest.raises(ValueError, match=r"dimension 0 has 8 elements, but it is 'n', which is 4"):
        f(4, a, b)
    f(0, np.zeros(0, "float32"), np.zeros(0, "float32"))  # and empty ones


def test_shape_variables_bind_every_array(example):
    from tensorir.script import tir as T

    @T.prim_func
    def f(a: T.handle, b: T.handle):
        n = T.int32()
        A = T.match_buffer(a, (n,), "float32")
        B = T.match_buffer(b, (n,), "float32")
        for i in range(n):
            with T.block("B"):
                vi = T.axis.spatial(n, i)
                B[vi] = A[vi] + T.float32(1)

    fn = tvm.build(f)["f"]
    with pytest.raises(ValueError, match=r"argument 1 \('B'\) of 'f': dimension 0 has 4 elements, "
                                         r"but tir.store in block 'B' reaches index 7 \('A' "
                                         r"dimension 0 = 8\)"):
        fn(np.ones(8, "float32"), np.zeros(4, "float32"))


def test_scalars_out_of_their_type_are_refused():
    mod = tvm.IRModule.from_mlir("""
    func.func @f(%k: i8 {tir.name = "k"}, %A: memref<4xi32> {tir.name = "A"}) {
      tir.for %i = 0 to 4 {
        tir.block "A"(%vi = spatial(4, %i)) {
          %w = arith.extsi %k : i8 to i32
          tir.store %w, %A[%vi] : memref<4xi32>
        }
      }
      return
    }""")
    f = tvm.build(mod)["f"]
    out = np.zeros(4, "int32")
    with pytest.raises(ValueError, match=r"argument 0 \('k'\) of 'f': 300 does not fit int8 "
                                         r"\[-128, 127\]"):
        f(300, out)
    f(-7, out)
    np.testing.assert_array_equal(out, -7)


def test_read_only_outputs_are_refused(example):
    f = tvm.build(example("vector_add"))["main"]
    a, b = np.ones(8, "float32"), np.zeros(8, "float32")
    a.flags.writeable = False
    f(a, b)  # an input may be read-only
    np.testing.assert_array_equal(b, 2)
    b.flags.writeable = False
    with pytest.raises(ValueError, match=r"argument 1 \('B'\) of 'main' is a read-only array, "
                                         "but the function writes it"):
        f(a, b)


def test_wrong_kinds_and_devices_are_refused(example):
    f = tvm.build(example("vector_add"))["main"]
    with pytest.raises(TypeError, match=r"argument 1 \('B'\) of 'main' is a list"):
        f(np.zeros(8, "float32"), [0.0] * 8)
    with pytest.raises(TypeError, match=r"argument 0 \('A'\) of 'main' is a Device"):
        f(tvm.cpu(0), np.zeros(8, "float32"))
    with pytest.raises(TypeError, match=r"arrays of dtype <U1 cannot be passed"):
        f(np.array(list("abcdefgh")), np.zeros(8, "float32"))
    with pytest.raises(ValueError, match=r"unknown device kind 'opencl'"):
        tvm.nd.array(np.zeros(8, "float32"), tvm.runtime.Device("opencl", 0))


def test_strided_views_are_checked(example):
    lib = tvm.build(example("vector_add"))
    wide = np.zeros(16, "float32")
    with pytest.raises(ValueError, match="expected strides"):
        lib["main"](np.zeros(8, "float32"), wide[::2])


def test_export_and_load(example, tmp_path):
    lib = tvm.build(example("matmul_relu"))
    path = str(tmp_path / "matmul_relu.so")
    lib.export_library(path)
    loaded = tvm.load_module(path)
    a = np.random.default_rng(0).uniform(-1, 1, (128, 128)).astype("float32")
    b = np.random.default_rng(1).uniform(-1, 1, (128, 128)).astype("float32")
    d = np.zeros((128, 128), "float32")
    loaded["matmul_relu"](a, b, d)
    np.testing.assert_allclose(d, np.maximum(a @ b, 0), rtol=1e-4, atol=1e-4)


def test_parameters_are_data_in_both_runtimes(example, tmp_path):
    """A function's parameters come from the runtime as data (the C API's
    tirModuleFunctionParam), the same through the extension and through
    tir_runtime's ctypes, with dynamic sizes and scalars."""
    import tir_runtime
    lib = tvm.build(example("vector_add_dynamic"))
    path = str(tmp_path / "dynamic.so")
    lib.export_library(path)
    native = [tir_runtime.make_param(*p) for p in lib._native.params("add_one")]
    loaded = tir_runtime.load_module(path)
    assert loaded.functions == ["add_one"]
    assert loaded.params("add_one") == native
    n, a, b = native
    assert (n.dtype, n.shape, n.written) == ("int64", None, False)
    assert (a.name, a.dtype, a.shape, a.written) == ("A", "float32", (None,), False)
    assert (b.name, b.shape, b.written, b.result) == ("B", (None,), True, False)
    with pytest.raises(KeyError, match="no function named 'nope'; the module has add_one"):
        loaded.params("nope")


@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"),
                    reason="checks x86 assembly")
def test_get_source_shows_llvm_ir_and_assembly(example, tmp_path):
    lib = tvm.build(example("vector_add"), target="llvm -mcpu=x86-64-v3")
    ir = lib.get_source()
    assert ir == lib.get_source("ll")
    # The optimized module: the function, its entry point for the runtime,
    # and the CPU it was built for.
    assert re.search(r"^define .*@main\(", ir, re.M), ir[:2000]
    assert '"target-cpu"="x86-64-v3"' in ir
    asm = lib.get_source("asm")
    assert asm == lib.get_source("s")
    assert re.search(r"^main:", asm, re.M) and "vaddps" in asm, asm[:2000]
    with pytest.raises(ValueError, match="get_source: unknown format 'ptx'"):
        lib.get_source("ptx")
    path = str(tmp_path / "vector_add.so")
    lib.export_library(path)
    with pytest.raises(ValueError, match="a loaded library has no source"):
        tvm.load_module(path).get_source()


def test_functions_keep_their_module_and_no_more(example):
    # A function keeps its module's code alive; the module keeps no
    # function, so deleting both frees it at once (no cycle left for the
    # garbage collector), and a name looked up again is the same function.
    import gc
    import weakref
    lib = tvm.build(example("vector_add"))
    a, b = np.arange(8, dtype="float32"), np.zeros(8, "float32")
    lib["main"](a, b)
    f = lib.main
    module = weakref.ref(lib)
    del lib
    f(a, b)
    np.testing.assert_array_equal(b, a + 1)
    assert module() is not None
    gc.disable()
    try:
        del f
        assert module() is None
    finally:
        gc.enable()


def test_compile_times_cover_every_phase(example, tmp_path):
    lib = tvm.build(example("matmul_relu"))
    times = lib.compile_times
    assert sorted(times) == ["codegen", "lower", "optimize", "translate"]
    # Each phase did work (a clock that was never started reads 0).
    assert all(0 < t < 60 for t in times.values()), times
    path = str(tmp_path / "matmul_relu.so")
    lib.export_library(path)
    assert tvm.load_module(path).compile_times == {}


def test_arrays_are_cache_line_aligned():
    # As TVM's NDArrays: a vectorized kernel's 64-byte accesses never
    # straddle two lines.
    for shape, dtype in [((3,), "float32"), ((17, 5), "int8"), ((1000, 1000), "float64")]:
        data = np.arange(np.prod(shape)).reshape(shape).astype(dtype)
        for arr in (tvm.nd.array(data), tvm.nd.empty(shape, dtype)):
            assert arr.shape == shape and arr.dtype == dtype
            assert arr._data.ctypes.data % 64 == 0 and arr._data.flags.c_contiguous
        np.testing.assert_array_equal(tvm.nd.array(data).numpy(), data)


def test_heap_buffers_are_reused_across_calls_and_threads():
    # Each iteration of the parallel loop has its own 80 KB buffer (on the
    # heap, through the module's caching allocator, --tir-cache-workspace):
    # many calls, on several threads at once, each see only their values.
    from tensorir.script import tir as T

    @T.prim_func
    def rows(A: T.Buffer((8, 20000), "float32"), S: T.Buffer((8,), "float32")):
        for i in T.parallel(8):
            with T.block("row"):
                vi = T.axis.spatial(8, i)
                W = T.alloc_buffer((20000,), "float32")
                for j in range(20000):
                    W[j] = A[vi, j] * T.float32(2)
                S[vi] = T.float32(0)
                for j in range(20000):
                    S[vi] = S[vi] + W[j]

    lib = tvm.build(rows)
    rng = np.random.default_rng(0)
    for call in range(20):
        a = rng.integers(-3, 4, (8, 20000)).astype("float32")
        s = np.zeros(8, "float32")
        lib["rows"](a, s)
        np.testing.assert_array_equal(s, 2 * a.sum(axis=1))


def test_time_evaluator(example):
    lib = tvm.build(example("matmul"))
    a, b, c = (np.ones((128, 128), "float32") for _ in range(3))
    result = lib.time_evaluator("matmul", tvm.cpu(0), number=3, repeat=2)(a, b, c)
    assert len(result.results) == 2 and result.mean > 0


def test_parse_error_is_located():
    with pytest.raises(ValueError, match=r"bad\.mlir:1:\d+: error"):
        tvm.IRModule.from_mlir("func.func @f(", "bad.mlir")


def test_unknown_cpu_and_feature_are_errors_not_crashes(example):
    # LLVM would end the process on some unknown CPUs; tir refuses first.
    import subprocess
    import sys
    code = ("import tensorir as tvm\n"
            f"mod = tvm.IRModule.load({os.path.join(ROOT, 'examples', 'vector_add.mlir')!r})\n"
            "for target in ('llvm -mcpu=notacpu',):\n"
            "    try:\n"
            "        tvm.build(mod, target=target)\n"
            "    except ValueError as e:\n"
            "        print('refused:', str(e).splitlines()[0])\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    assert "unknown CPU 'notacpu'" in run.stdout


def test_full_unrolling_is_limited_unless_asked_for():
    from tensorir.script import tir as T

    @T.prim_func
    def f(A: T.Buffer((5500,), "float32")):
        for i in T.unroll(5500):
            with T.block("B"):
                vi = T.axis.spatial(5500, i)
                A[vi] = A[vi] + T.float32(1)

    # 5500 iterations of 4 operations: over the limit of 16384.
    with pytest.raises(ValueError, match=r"test_build\.py:\d+:\d+: error: unrolling this loop "
                                         r"fully \(5500 iterations of 4 operations = 22000 "
                                         r"operations\) exceeds the limit of 16384"):
        tvm.build(f)
    # Asked for on the loop, through the schedule: built and right.
    sch = tvm.tir.Schedule(f)
    (loop,) = sch.get_loops(sch.get_block("B"))
    sch.annotate(loop, "unroll_limit", 0)
    a = np.arange(5500, dtype="float32")
    tvm.build(sch.mod)(a)
    np.testing.assert_array_equal(a, np.arange(5500, dtype="float32") + 1)


def test_dim_vars_round_trip_and_bind_sizes():
    """Shape variables and scalar parameters that size buffers are named in
    tir.dim_vars: printed back as TVMScript, parsed to the same IR, compared
    up to renaming, and checked at calls (a larger array is refused too)."""
    src = '''
from tensorir.script import tir as T

@T.prim_func
def f(k: T.int32, a: T.handle, b: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (n, k), "float32")
    B = T.match_buffer(b, (n,), "float32")
    for i in range(n):
        with T.block("B"):
            vi = T.axis.spatial(n, i)
            B[vi] = A[vi, 0]
'''
    mod = tvm.script.from_source(src).mod  # one @T.prim_func: a PrimFunc
    text = mod.mlir()
    assert 'tir.dim_vars = ["n", "k"]' in text and 'tir.dim_vars = ["n"]' in text
    script = mod.script()
    assert "n = T.int32()" in script and "(n, k)" in script
    again = tvm.script.from_source(script)
    tvm.ir.assert_structural_equal(mod, again)
    # Renamed shape variable: still equal; tied differently: not.
    renamed = tvm.script.from_source(re.sub(r"\bn\b", "m", src)).mod
    tvm.ir.assert_structural_equal(mod, renamed)
    untied = tvm.script.from_source(src.replace('B = T.match_buffer(b, (n,)',
                                                'B = T.match_buffer(b, (k,)')).mod
    with pytest.raises(ValueError):
        tvm.ir.assert_structural_equal(mod, untied)

    fn = tvm.build(mod)["f"]
    b = np.zeros(4, "float32")
    fn(2, np.ones((4, 2), "float32"), b)
    assert (b == 1).all()
    with pytest.raises(ValueError, match=r"argument 2 \('B'\) of 'f': dimension 0 has 6 elements, "
                                         r"but it is 'n', which is 4 \('A' dimension 0 = 4\)"):
        fn(2, np.ones((4, 2), "float32"), np.zeros(6, "float32"))
    with pytest.raises(ValueError, match=r"argument 1 \('A'\) of 'f': dimension 1 has 3 elements, "
                                         r"but it is 'k', which is 2 \(k = 2 \(argument 0\)\)"):
        fn(2, np.ones((4, 3), "float32"), b)


def _text_section(path, tmp_path):
    """The bytes of the .text section of the shared library at `path`."""
    out = tmp_path / (os.path.basename(path) + ".text")
    subprocess.run(["/usr/lib/llvm-22/bin/llvm-objcopy", f"--dump-section=.text={out}",
                    path, str(tmp_path / "discard.so")], check=True)
    return out.read_bytes()


@pytest.mark.parametrize("parallel", [False, True])
def test_export_links_the_machine_code_build_made(parallel, tmp_path):
    """A CPU build keeps the object file its JIT loaded; export_library
    links it (no second compilation), and the library has the machine code
    compiling the source again for export gives, byte for byte, the OpenMP
    runtime linked in when the code has parallel loops."""
    from tensorir import te
    from tensorir._ext import ext
    a = te.placeholder((64, 256), name="A")
    b = te.compute((64, 256), lambda i, j: a[i, j] * 2.0 + 1.0, name="B")
    sch = tvm.tir.Schedule(te.create_prim_func([a, b]))
    i, j = sch.get_loops(sch.get_block("B"))
    if parallel:
        sch.parallel(i)
    sch.vectorize(j)
    lib = tvm.build(sch.mod)
    assert lib._native.has_object
    kept, fresh = str(tmp_path / "kept.so"), str(tmp_path / "fresh.so")
    lib.export_library(kept)
    ext.export_library(lib._source._native, fresh, lib._target_cpu)
    assert _text_section(kept, tmp_path) == _text_section(fresh, tmp_path)
    needed = subprocess.run(["/usr/lib/llvm-22/bin/llvm-readelf", "-d", kept],
                            capture_output=True, text=True, check=True).stdout
    assert ("libomp" in needed) == parallel, needed
    x = np.random.default_rng(0).standard_normal((64, 256)).astype("float32")
    y = np.zeros_like(x)
    tvm.load_module(kept)["main"](x, y)
    np.testing.assert_allclose(y, x * 2 + 1, rtol=1e-6)


def test_a_private_function_given_a_global_symbol_is_built_and_exported():
    @T.prim_func(private=True)
    def double(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        for i in range(4):
            with T.block("B"):
                vi = T.axis.remap("S", [i])
                B[vi] = A[vi] * T.float32(2)

    # Private, a function of its module: a library exports nothing.
    assert double.is_private
    with pytest.raises(KeyError, match="no function named 'double'"):
        tvm.build(tvm.IRModule({"double": double}))["double"]  # noqa: B018
    # As in TVM, a global symbol makes it visible (a model's kernel taken
    # out of its module to be built and timed alone).
    public = double.with_attr("global_symbol", "double")
    assert not public.is_private and double.is_private
    a = np.arange(4, dtype="float32")
    b = np.zeros(4, "float32")
    tvm.build(tvm.IRModule({"double": public}))["double"](a, b)
    np.testing.assert_array_equal(b, a * 2)
