"""Bad-input cases: the Python API given wrong things (schedules, build and
targets, calls with wrong arrays). test_bad_input.py runs them."""
from bad_input_case import py

CASES = [
    # ------------------------------------------- IR nodes and Python passes
    py("pass_returns_wrong_type", "a prim_func_pass that returns the body, not a function",
       "TypeError", r"prim_func_pass 'body_only' returned a BlockRealize for 'main'; a PrimFunc "
       r"pass returns a PrimFunc", """
       @tvm.tir.transform.prim_func_pass(opt_level=0)
       def body_only(f, mod, ctx):
           return f.body
       body_only(tvm.IRModule({"main": example("vector_add")["main"]}))
       """),
    py("pass_context_unknown_config", "PassContext with a config key nothing reads", "ValueError",
       r"PassContext: unknown config option 'tir.UnrollLoop'; the options are "
       r"relax.default_cpu_schedule, tir.add_lower_pass, tir.disable_vectorize", """
       tvm.transform.PassContext(config={"tir.UnrollLoop": {"auto_max_step": 16}})
       """),
    py("node_store_rank", "a BufferStore with fewer indices than the buffer has dimensions",
       "ValueError", r"BufferStore to A: 1 indices for 2 dimensions", """
       A = tvm.tir.decl_buffer((4, 4), name="A")
       tvm.tir.BufferStore(A, 1.0, [tvm.tir.Var("i")])
       """),
    py("node_undefined_var", "a PrimFunc whose body uses a variable nothing defines", "ValueError",
       r"variable j is used where no statement defines it", """
       A = tvm.tir.decl_buffer((4,), name="A")
       a, j = tvm.tir.Var("a", "handle"), tvm.tir.Var("j")
       tvm.tir.PrimFunc([a], tvm.tir.BufferStore(A, 0.0, [j]), buffer_map={a: A})
       """),
    py("node_strided_param", "a PrimFunc parameter whose Buffer has strides other than row-major",
       "ValueError", r"buffer A: strides other than the row-major ones of its shape", """
       A = tvm.tir.decl_buffer((4, 4), name="A", strides=[8, 1])
       i = tvm.tir.Var("i")
       tvm.tir.PrimFunc([A.data], tvm.tir.For(i, 0, 4, tvm.tir.ForKind.SERIAL,
                        tvm.tir.BufferStore(A, 0.0, [i, 0])), buffer_map={A.data: A})
       """),
    py("add_lower_pass_phase", "tir.add_lower_pass at a phase that does not exist", "ValueError",
       r"tir.add_lower_pass: phase 5 is not 0, 1, 2 or 3", """
       p = tvm.transform.mlir_pass("canonicalize")
       with tvm.transform.PassContext(config={"tir.add_lower_pass": [(5, p)]}):
           tvm.lower(example("vector_add")["main"])
       """),
    # ------------------------------------------------ graph level (relax)
    py("relax_second_func_output", "a second emit_func_output in one function", "RuntimeError",
       r"function 'main' already has its output", """
       from tensorir import relax
       x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
       bb = relax.BlockBuilder()
       with bb.function("main", [x]):
           bb.emit_func_output(x)
           bb.emit_func_output(x)
       """),
    py("relax_params_twice", "parameters given at function() and at emit_func_output", "ValueError",
       r"the parameters were given at function\(\); give them once", """
       from tensorir import relax
       x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
       bb = relax.BlockBuilder()
       with bb.function("main", [x]):
           bb.emit_func_output(x, params=[x])
       """),
    py("relax_emit_outside_function", "emit_te outside any function", "RuntimeError",
       r"BlockBuilder.emit is called inside `with bb.function\(...\)`", """
       from tensorir import relax, topi
       x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
       relax.BlockBuilder().emit_te(topi.nn.relu, x)
       """),
    py("relax_output_sinfo_mismatch", "call_tir whose out_sinfo is not what the prim_func writes",
       "ValueError", r"output 0 is a tensor<8xf32>, but parameter 1 of '@relu' takes a memref<4xf32>", """
       from tensorir import relax, te, topi
       x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
       a = te.placeholder((4,), "float32", "A")
       f = te.create_prim_func([a, topi.nn.relu(a)], name="relu")
       bb = relax.BlockBuilder()
       with bb.function("main", [x]):
           g = bb.add_func(f, "relu")
           y = bb.emit(relax.call_tir(g, [x], relax.TensorStructInfo((8,), "float32")))
           bb.emit_func_output(y)
       bb.get()
       """),
    py("relax_symbolic_shape_static_operator",
       "a tensor of a symbolic shape given to an operator that takes static shapes",
       "ValueError", r"relax.op.nn.max_pool2d: data has the shape \(n, 3, 8, 8\) with shape "
       r"variables; this operator takes static shapes", """
       from tensorir import relax
       x = relax.Var("x", relax.TensorStructInfo(("n", 3, 8, 8), "float32"))
       relax.op.nn.max_pool2d(x, pool_size=(2, 2))
       """),
    py("relax_unknown_shape_variable", "a call_tir result sized by a shape variable no "
       "parameter has", "ValueError", r"the shape variable 'm' sizes no parameter's "
       "dimension", """
       from tensorir import relax, topi
       x = relax.Var("x", relax.TensorStructInfo(("n", 4), "float32"))
       bb = relax.BlockBuilder()
       gv = bb.add_func(tvm.te.create_prim_func(
           [a := tvm.te.placeholder((4,), name="a"),
            tvm.te.compute((4,), lambda i: a[i], name="b")]), "copy")
       with bb.function("main", [x]):
           y = bb.emit(relax.call_tir(gv, [x], relax.TensorStructInfo(("m", 4), "float32")))
           bb.emit_func_output(y)
       bb.get()
       """),
    py("relax_vm_wrong_shape", "a graph function called with an array of the wrong shape",
       "ValueError", r"argument 0 \('x'\) of 'main'.*shape", """
       from tensorir import relax, topi
       x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
       bb = relax.BlockBuilder()
       with bb.function("main", [x]):
           bb.emit_func_output(bb.emit_te(topi.nn.relu, x))
       vm = relax.VirtualMachine(relax.build(bb.get()), tvm.cpu())
       vm["main"](np.zeros((5,), "float32"))
       """),
    py("relax_packed_unregistered", "a graph function calling a packed function no one "
       "registered", "LookupError", r"no packed function named 'env\.nowhere' is registered", """
       from tensorir import relax
       x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
       bb = relax.BlockBuilder()
       with bb.function("main", [x]):
           y = bb.emit(relax.call_dps_packed("env.nowhere", [x],
                                             relax.TensorStructInfo((4,), "float32")))
           bb.emit_func_output(y)
       vm = relax.VirtualMachine(relax.build(bb.get()), tvm.cpu())
       vm["main"](np.zeros((4,), "float32"))
       """),
    py("relax_inplace_bad_index", "R.call_tir_inplace writing a result into an input of "
       "another shape", "ValueError", r"result 0 .* is written into input 1 of another shape", """
       from tensorir import relax
       x = relax.Var("x", relax.TensorStructInfo((4,), "float32"))
       y = relax.Var("y", relax.TensorStructInfo((2,), "float32"))
       relax.call_tir_inplace(relax.GlobalVar("f"), [x, y], [1],
                              relax.TensorStructInfo((4,), "float32"))
       """),
    # ------------------------------------------------ schedules
    py("stale_loop", "split a loop that an earlier split replaced", "ScheduleError",
       r"the loop no longer exists: split and fuse replace the loops they transform", """
       sch = tvm.tir.Schedule(example("matmul"))
       i, j, k = sch.get_loops(sch.get_block("C"))
       sch.split(i, factors=[2, None])
       sch.split(i, factors=[2, None])
       """),
    py("stale_fused_loop", "reorder a loop that fuse removed", "ScheduleError",
       r"the loop no longer exists", """
       sch = tvm.tir.Schedule(example("matmul"))
       i, j, k = sch.get_loops(sch.get_block("C"))
       sch.fuse(i, j)
       sch.reorder(k, i)
       """),
    py("foreign_handle", "a loop of one schedule given to another", "ScheduleError",
       r"the handle belongs to another schedule", """
       mod = example("matmul")
       sch = tvm.tir.Schedule(mod)
       i, j, k = sch.get_loops(sch.get_block("C"))
       tvm.tir.Schedule(mod).fuse(i, j)
       """),
    py("no_such_block", "get_block of a name that is not there", "ScheduleError",
       r"Cannot find a block with the name: nope", """
       tvm.tir.Schedule(example("matmul")).get_block("nope")
       """),
    py("split_factors_short", "split factors whose product is below the extent", "ScheduleError",
       r"the split factors multiply to 9, less than the extent 128 of loop 'j'", """
       sch = tvm.tir.Schedule(example("matmul"))
       i, j, k = sch.get_loops(sch.get_block("C"))
       sch.split(j, factors=[3, 3])
       """),
    py("split_two_open", "split with two open factors", "ScheduleError",
       r"split infers at most one factor", """
       sch = tvm.tir.Schedule(example("matmul"))
       i, j, k = sch.get_loops(sch.get_block("C"))
       sch.split(j, factors=[None, None])
       """),
    py("split_zero_factor", "split with a factor of 0", "ScheduleError",
       r"split factors must be positive, factor 1 is 0", """
       sch = tvm.tir.Schedule(example("matmul"))
       i, j, k = sch.get_loops(sch.get_block("C"))
       sch.split(j, factors=[None, 0])
       """),
    py("split_one_factor", "split with a single factor", "ScheduleError",
       r"split needs at least two factors, got 1", """
       sch = tvm.tir.Schedule(example("matmul"))
       i, j, k = sch.get_loops(sch.get_block("C"))
       sch.split(j, factors=[128])
       """),
    py("schedule_parallel_reduction", "sch.parallel on a reduction loop", "ScheduleError",
       r"parallel needs a loop that feeds only spatial iteration variables, but loop 'k' feeds "
       r"reduce variable 'vk'", """
       sch = tvm.tir.Schedule(example("matmul"))
       i, j, k = sch.get_loops(sch.get_block("C"))
       sch.parallel(k)
       """),
    py("cache_index_runtime_domain", "cache_index of a computation over a variable of runtime "
       "domain", "ScheduleError",
       r"cache_index: the domain of iteration variable 'vi' of block 'B' is not constant, so the "
       r"buffer of the computations using it would have no static shape", """
       @T.prim_func
       def f(a: T.handle, b: T.handle, n: T.int32):
           A = T.match_buffer(a, (n,), "float32")
           B = T.match_buffer(b, (n * 2,), "float32")
           for i in range(n * 2):
               with T.block("B"):
                   vi = T.axis.spatial(n * 2, i)
                   B[vi] = A[vi // 2]
       tvm.tir.Schedule(f).cache_index("B", "global")
       """),
    # ------------------------------------------------ build and targets
    py("target_cuda_unbound", "build for cuda with loops bound to no thread", "ValueError",
       r"accesses buffer 'A' in block 'B' on the host, outside every GPU kernel, but the "
       r"function's buffers are in GPU memory: bind the loops around it to blockIdx / "
       r"threadIdx \(did you forget to bind\?\)", """
       tvm.build(example("vector_add"), target="cuda")
       """),
    py("target_rocm", "build for target rocm", "ValueError",
       r"target 'rocm' is not supported; the runtime builds for the CPU \('llvm'\) and "
       r"NVIDIA GPUs \('cuda'\)", """
       tvm.build(example("vector_add"), target="rocm")
       """),
    py("target_not_text", "build with target=123", "ValueError", r"target '123' is not supported", """
       tvm.build(example("vector_add"), target=123)
       """),
    py("unknown_cpu", "llvm -mcpu=notacpu (an LLVM fatal error before)", "ValueError",
       r"unknown CPU 'notacpu'", """
       tvm.build(example("vector_add"), target="llvm -mcpu=notacpu")
       """),
    py("target_mattr", "llvm -mattr=+avx2 (ignored silently before)", "ValueError",
       r"-mattr is not supported by build", """
       tvm.build(example("vector_add"), target="llvm -mattr=+avx2")
       """),
    py("target_other_triple", "llvm -mtriple=aarch64-linux-gnu on another machine", "ValueError",
       r"-mtriple=\S+ is another machine; build compiles for this one", """
       import platform
       other = "aarch64-linux-gnu" if platform.machine() != "aarch64" else "x86_64-linux-gnu"
       tvm.build(example("vector_add"), target="llvm -mtriple=" + other)
       """),
    py("target_empty_cpu", "llvm -mcpu= with no CPU", "ValueError", r"-mcpu needs a CPU name", """
       tvm.build(example("vector_add"), target="llvm -mcpu=")
       """),
    py("build_not_module", "build(42)", "TypeError", r"build takes an IRModule or a PrimFunc, got int", """
       tvm.build(42)
       """),
    py("unroll_too_long", "T.unroll over 10^5 iterations (minutes before)", "ValueError",
       r"error: unrolling this loop fully \(100000 iterations .* exceeds the "
       r"limit of 16384 operations", """
       @T.prim_func
       def f(A: T.Buffer((100000,), "float32")):
           for i in T.unroll(100000):  # <-
               with T.block("B"):
                   vi = T.axis.spatial(100000, i)
                   A[vi] = A[vi] + T.float32(1)
       tvm.build(f)
       """),
    py("schedule_unroll_too_long", "sch.unroll of the 2^21-iteration fused matmul loop", "ValueError",
       r"matmul\.mlir:8:7: error: unrolling this loop fully \(2097152 iterations .* exceeds the "
       r"limit of 16384 operations[^\n]*$", """
       sch = tvm.tir.Schedule(example("matmul"))
       i, j, k = sch.get_loops(sch.get_block("C"))
       ij = sch.fuse(i, j)
       sch.reorder(k, ij)
       sch.unroll(sch.fuse(k, ij))
       tvm.build(sch.mod)
       """),
    # ------------------------------------------------ calls: wrong arrays
    py("wrong_shape", "an array of the wrong shape", "ValueError",
       r"argument 0 \('A'\) of 'main': expected shape \[8\], got \[4\]", """
       tvm.build(example("vector_add"))["main"](np.zeros(4, "float32"), np.zeros(8, "float32"))
       """),
    py("wrong_dtype", "an array of the wrong element type", "ValueError",
       r"argument 1 \('B'\) of 'main': expected element type float32, got int32", """
       tvm.build(example("vector_add"))["main"](np.zeros(8, "float32"), np.zeros(8, "int32"))
       """),
    py("wrong_rank", "a 2-d array for a 1-d buffer", "ValueError",
       r"argument 0 \('A'\) of 'main': expected rank 1 \[8\], got rank 2 \[2, 4\]", """
       tvm.build(example("vector_add"))["main"](np.zeros((2, 4), "float32"), np.zeros(8, "float32"))
       """),
    py("too_few_arguments", "one argument of two", "ValueError", r"'main' takes 2 arguments, got 1", """
       tvm.build(example("vector_add"))["main"](np.zeros(8, "float32"))
       """),
    py("too_many_arguments", "three arguments of two", "ValueError", r"'main' takes 2 arguments, got 3", """
       a = np.zeros(8, "float32")
       tvm.build(example("vector_add"))["main"](a, a.copy(), a.copy())
       """),
    py("scalar_too_large", "add_one(100, a8, b8): n larger than the arrays (heap corruption before)",
       "ValueError", r"argument 1 \('A'\) of 'add_one': dimension 0 has 8 elements, but tir\.load "
       r"in block 'B' reaches index 99 \(n = 100 \(argument 0\)\)", """
       tvm.build(example("vector_add_dynamic"))["add_one"](100, np.zeros(8, "float32"),
                                                           np.zeros(8, "float32"))
       """),
    py("output_too_small", "add_one(8, a8, b4): the output smaller than n", "ValueError",
       r"argument 2 \('B'\) of 'add_one': dimension 0 has 4 elements, but tir\.store in block "
       r"'B' reaches index 7", """
       tvm.build(example("vector_add_dynamic"))["add_one"](8, np.zeros(8, "float32"),
                                                           np.zeros(4, "float32"))
       """),
    py("scalar_negative", "add_one(-1, ...): a negative size", "ValueError",
       r"argument 0 \('n'\) of 'add_one' is -1, but it is the extent of the domain of "
       r"block 'B'; an extent is not negative", """
       tvm.build(example("vector_add_dynamic"))["add_one"](-1, np.zeros(8, "float32"),
                                                           np.zeros(8, "float32"))
       """),
    py("index_before_start", "B[i] = A[i + off] with off = -1: reads before A's start",
       "ValueError", r"argument 2 \('A'\) of 'shifted': tir\.load in block 'B' reaches index -1 "
       r"of dimension 0 \(off = -1 \(argument 1\)\), before the array's start", """
       path = os.path.join(ROOT, "test", "Integration", "Runtime", "Inputs", "shifted.mlir")
       f = tvm.build(tvm.IRModule.load(path))["shifted"]
       f(4, -1, np.zeros(8, "float32"), np.zeros(4, "float32"))
       """),
    py("scalar_overflows_int64", "add_one(2**70, ...)", "ValueError",
       r"argument 0 \('n'\) of 'add_one': 1180591620717411303424 does not fit a 64-bit integer", """
       tvm.build(example("vector_add_dynamic"))["add_one"](2**70, np.zeros(8, "float32"),
                                                           np.zeros(8, "float32"))
       """),
    py("scalar_float_for_int", "add_one(8.0, ...): a float for an integer", "ValueError",
       r"argument 0 \('n'\) of 'add_one': expected an integer \(int64\), got a float", """
       tvm.build(example("vector_add_dynamic"))["add_one"](8.0, np.zeros(8, "float32"),
                                                           np.zeros(8, "float32"))
       """),
    py("scalar_out_of_int8", "300 for an i8 parameter", "ValueError",
       r"argument 0 \('k'\) of 'f': 300 does not fit int8 \[-128, 127\]", """
       mod = tvm.IRModule.from_mlir('''func.func @f(%k: i8 {tir.name = "k"}, %A: memref<4xi8> {tir.name = "A"}) {
         tir.for %i = 0 to 4 {
           tir.block "A"(%vi = spatial(4, %i)) {
             tir.store %k, %A[%vi] : memref<4xi8>
           }
         }
         return
       }''')
       tvm.build(mod)["f"](300, np.zeros(4, "int8"))
       """),
    py("shape_variable_mismatch", "n = T.int32() sizes A and B; B shorter", "ValueError",
       r"argument 1 \('B'\) of 'f': dimension 0 has 4 elements, but tir\.store in block 'B' "
       r"reaches index 7 \('A' dimension 0 = 8\)", """
       @T.prim_func
       def f(a: T.handle, b: T.handle):
           n = T.int32()
           A = T.match_buffer(a, (n,), "float32")
           B = T.match_buffer(b, (n,), "float32")
           for i in range(n):
               with T.block("B"):
                   vi = T.axis.spatial(n, i)
                   B[vi] = A[vi]
       tvm.build(f)["f"](np.zeros(8, "float32"), np.zeros(4, "float32"))
       """),
    py("shape_variable_larger", "n = T.int32() sizes A and B; B longer (ran on part of B)",
       "ValueError",
       r"argument 1 \('B'\) of 'f': dimension 0 has 8 elements, but it is 'n', which is 4 "
       r"\('A' dimension 0 = 4\); every size named 'n' must be the same", """
       @T.prim_func
       def f(a: T.handle, b: T.handle):
           n = T.int32()
           A = T.match_buffer(a, (n,), "float32")
           B = T.match_buffer(b, (n,), "float32")
           for i in range(n):
               with T.block("B"):
                   vi = T.axis.spatial(n, i)
                   B[vi] = A[vi]
       tvm.build(f)["f"](np.zeros(4, "float32"), np.zeros(8, "float32"))
       """),
    py("scalar_smaller_than_arrays", "n: T.int32 sizes A and B; arrays longer than n",
       "ValueError",
       r"argument 1 \('A'\) of 'f': dimension 0 has 8 elements, but it is 'n', which is 4 "
       r"\(n = 4 \(argument 0\)\); every size named 'n' must be the same", """
       @T.prim_func
       def f(n: T.int32, a: T.handle, b: T.handle):
           A = T.match_buffer(a, (n,), "float32")
           B = T.match_buffer(b, (n,), "float32")
           for i in range(n):
               with T.block("B"):
                   vi = T.axis.spatial(n, i)
                   B[vi] = A[vi]
       tvm.build(f)["f"](4, np.zeros(8, "float32"), np.zeros(8, "float32"))
       """),
    py("shape_variables_2d", "m, n = T.int32(), T.int32(): C (m, n) with the wrong m",
       "ValueError",
       r"argument 1 \('C'\) of 'f': dimension 0 has 4 elements, but it is 'm', which is 3 "
       r"\('A' dimension 0 = 3\)", """
       @T.prim_func
       def f(a: T.handle, c: T.handle):
           m, n = T.int32(), T.int32()
           A = T.match_buffer(a, (m,), "float32")
           C = T.match_buffer(c, (m, n), "float32")
           for i, j in T.grid(m, n):
               with T.block("C"):
                   vi, vj = T.axis.remap("SS", [i, j])
                   C[vi, vj] = A[vi]
       tvm.build(f)["f"](np.zeros(3, "float32"), np.zeros((4, 5), "float32"))
       """),
    py("dim_vars_wrong_length", "IRModule.from_mlir: tir.dim_vars with too few entries",
       "ValueError",
       r"user\.mlir:1:\d+: error: 'tir\.dim_vars' of argument 0 has 1 entries for a rank-2 "
       r"buffer", """
       tvm.IRModule.from_mlir('func.func @f(%A: memref<?x?xf32> {tir.dim_vars = ["n"]}) '
                              '{ return }', "user.mlir")
       """),
    py("read_only_output", "a read-only array for the output (writes were lost)", "ValueError",
       r"argument 1 \('B'\) of 'main' is a read-only array, but the function writes it", """
       b = np.zeros(8, "float32")
       b.flags.writeable = False
       tvm.build(example("vector_add"))["main"](np.zeros(8, "float32"), b)
       """),
    py("object_array", "an object array", "TypeError",
       r"argument 0 \('A'\) of 'main': arrays of dtype object cannot be passed", """
       tvm.build(example("vector_add"))["main"](np.zeros(8, object), np.zeros(8, "float32"))
       """),
    py("string_array", "an array of strings", "TypeError", r"arrays of dtype <U1 cannot be passed", """
       tvm.build(example("vector_add"))["main"](np.array(list("abcdefgh")), np.zeros(8, "float32"))
       """),
    py("complex_array", "a complex array", "TypeError", r"arrays of dtype complex64 cannot be passed", """
       tvm.build(example("vector_add"))["main"](np.zeros(8, "complex64"), np.zeros(8, "float32"))
       """),
    py("big_endian_array", "an array in the other byte order", "ValueError",
       r"argument 0 \('A'\) of 'main' is (big|little)-endian", """
       other = ">f4" if np.little_endian else "<f4"
       tvm.build(example("vector_add"))["main"](np.zeros(8, other), np.zeros(8, "float32"))
       """),
    py("strided_view", "a non-contiguous view", "ValueError",
       r"argument 1 \('B'\) of 'main': expected strides \[1\] \(in elements\), got \[2\]", """
       tvm.build(example("vector_add"))["main"](np.zeros(8, "float32"), np.zeros(16, "float32")[::2])
       """),
    py("fortran_order_array", "a Fortran-order 2-d array", "ValueError",
       r"argument 0 \('A'\) of 'matmul': expected strides \[128, 1\] \(in elements\), got "
       r"\[1, 128\]", """
       a = np.zeros((128, 128), "float32")
       tvm.build(example("matmul"))["matmul"](np.asfortranarray(a), a.copy(), a.copy())
       """),
    py("time_evaluator_zero", "time_evaluator(number=0) (a ZeroDivisionError before)", "ValueError",
       r"time_evaluator: number is a positive integer, got 0", """
       tvm.build(example("vector_add")).time_evaluator("main", number=0)
       """),
    py("export_to_missing_dir", "export_library into a directory that does not exist", "ValueError",
       r"linking '/nonexistent/dir/lib\.so' failed", """
       tvm.build(example("vector_add")).export_library("/nonexistent/dir/lib.so")
       """),
    py("overlapping_arrays", "the same array as input and output", "ValueError",
       r"arguments 0 \('A'\) and 1 \('B'\) of 'main' overlap in memory", """
       a = np.zeros(8, "float32")
       tvm.build(example("vector_add"))["main"](a, a)
       """),
    py("list_argument", "a list for an array", "TypeError",
       r"argument 1 \('B'\) of 'main' is a list; tir functions take numpy arrays", """
       tvm.build(example("vector_add"))["main"](np.zeros(8, "float32"), [0.0] * 8)
       """),
    py("none_argument", "None for an array", "TypeError", r"argument 0 \('A'\) of 'main' is a NoneType", """
       tvm.build(example("vector_add"))["main"](None, np.zeros(8, "float32"))
       """),
    py("device_argument", "a Device object for an array", "TypeError",
       r"argument 0 \('A'\) of 'main' is a Device", """
       tvm.build(example("vector_add"))["main"](tvm.cpu(0), np.zeros(8, "float32"))
       """),
    py("gpu_no_driver", "tvm.nd.array on a GPU where there is no driver", "TIRError",
       r"no CUDA driver: cannot load '/nonexistent/libcuda.so.1'.*an NVIDIA driver is needed "
       r"to run on the GPU", """
       import os
       os.environ["TIR_CUDA_DRIVER"] = "/nonexistent/libcuda.so.1"
       tvm.nd.array(np.zeros(8, "float32"), tvm.cuda(0))
       """),
    py("gpu_array_to_cpu_function", "a GPU array passed to a CPU function", "ValueError",
       r"argument 0 \('A'\) of 'main': is on cuda\(0\); the function runs on the CPU: "
       r"copy it there first", """
       import os
       os.environ["TIR_CUDA_DRIVER"] = os.path.join(LIB_DIR, "libtir_fake_cuda.so")
       x = tvm.nd.array(np.zeros(8, "float32"), tvm.cuda(0))
       tvm.build(example("vector_add"))(x, np.zeros(8, "float32"))
       """),
    py("unknown_device", "tvm.runtime.Device('opencl', 0)", "ValueError",
       r"unknown device kind 'opencl'; the runtime knows 'cpu' and 'cuda'", """
       tvm.runtime.Device("opencl", 0)
       """),
    py("no_such_function", "lib['nope']", "KeyError", r"no function named 'nope'; the module has main", """
       tvm.build(example("vector_add"))["nope"]
       """),
]
