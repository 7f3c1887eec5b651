"""Bad-input cases: the command-line tools (tir-opt, tir-translate, tir-run)
and the C API through ctypes. test_bad_input.py runs them."""
from bad_input_case import capi, tool

CASES = [
    # ------------------------------------------------ command-line tools
    tool("tir_opt_garbage", "tir-opt on a text file that is not MLIR",
         r"garbage\.mlir:1:1: error", ["{bin}/tir-opt", "{tmp}/garbage.mlir"],
         {"garbage.mlir": b"this is not mlir {{{\n"}),
    tool("tir_opt_binary", "tir-opt on random bytes", r"error", ["{bin}/tir-opt", "{tmp}/random.mlir"],
         {"random.mlir": bytes((i * 73 + 41) % 256 for i in range(4096))}),
    tool("tir_opt_missing", "tir-opt on a file that does not exist",
         r"cannot open input file .*missing\.mlir.: No such file or directory",
         ["{bin}/tir-opt", "{tmp}/missing.mlir"]),
    tool("tir_opt_unroll", "--tir-unroll-loops on 10^5 iterations",
         r"exceeds the limit of 16384 operations",
         ["{bin}/tir-opt", "{tmp}/unroll.mlir", "--convert-tir-to-scf", "--tir-unroll-loops"],
         {"unroll.mlir": b"""func.func @f(%A: memref<100000xf32>) {
  tir.for %i = 0 to 100000 unrolled {
    tir.block "U"(%vi = spatial(100000, %i)) {
      %a = tir.load %A[%vi] : memref<100000xf32>
      tir.store %a, %A[%vi] : memref<100000xf32>
    }
  }
  return
}
"""}),
    tool("tir_opt_unknown_cpu", "--tir-lower-to-llvm with an unknown CPU and feature",
         r"error: unknown CPU 'notacpu' for .*llc -mcpu=help",
         ["{bin}/tir-opt", "{root}/examples/vector_add.mlir",
          "--tir-lower-to-llvm=target-cpu=notacpu target-features=+bogus"]),
    tool("tir_opt_unknown_feature", "--tir-set-llvm-target with an unknown feature",
         r"error: unknown CPU feature '\+bogus'",
         ["{bin}/tir-opt", "{root}/examples/vector_add.mlir", "--tir-lower-to-llvm",
          "--tir-set-llvm-target=cpu=x86-64 features=+bogus"]),
    tool("tir_translate_garbage", "tir-translate on garbage", r"error",
         ["{bin}/tir-translate", "--mlir-to-llvmir", "{tmp}/garbage.mlir"],
         {"garbage.mlir": b"func.func @f( {\n"}),
    tool("tir_run_garbage", "tir-run on NUL bytes and garbage",
         r"garbage\.mlir:1:2: error: unexpected character",
         ["{bin}/tir-run", "{tmp}/garbage.mlir"], {"garbage.mlir": b"\x00\x01garbage"}),
    tool("tir_run_garbage_so", "tir-run on a garbage .so", r"tir-run: error: cannot load",
         ["{bin}/tir-run", "{tmp}/garbage.so"], {"garbage.so": b"\x7fELF" + bytes(64)}),
    tool("tir_run_garbage_npy", "tir-run --input of a file that is not .npy",
         r"tir-run: error: '.*a\.npy' is not a \.npy file",
         ["{bin}/tir-run", "{root}/examples/vector_add.mlir", "--input", "A={tmp}/a.npy"],
         {"a.npy": b"not numpy at all"}),
    tool("tir_run_huge_npy", "tir-run --input of a .npy whose header claims 10^15 elements",
         r"tir-run: error: '.*a\.npy': fewer data bytes than its shape",
         ["{bin}/tir-run", "{root}/examples/vector_add.mlir", "--input", "A={tmp}/a.npy"],
         {"a.npy": b"\x93NUMPY\x01\x00\x46\x00{'descr': '<f4', 'fortran_order': False, "
                   b"'shape': (1000000000000000,), }   \n"}),
    tool("tir_run_negative_npy", "tir-run --input of a .npy with a negative shape",
         r"tir-run: error: '.*a\.npy': malformed shape \(-5,\)",
         ["{bin}/tir-run", "{root}/examples/vector_add.mlir", "--input", "A={tmp}/a.npy"],
         {"a.npy": b"\x93NUMPY\x01\x00\x46\x00{'descr': '<f4', 'fortran_order': False, "
                   b"'shape': (-5,), }              \n"}),
    tool("tir_run_bad_arg", "tir-run --arg n=abc", r"--arg n: 'abc' is not a number",
         ["{bin}/tir-run", "{root}/examples/vector_add_dynamic.mlir", "--arg", "n=abc",
          "--shape", "A=8", "--shape", "B=8"]),
    tool("tir_run_huge_arg", "tir-run --arg n=1e30", r"--arg n: '1e30' is not a 64-bit integer",
         ["{bin}/tir-run", "{root}/examples/vector_add_dynamic.mlir", "--arg", "n=1e30",
          "--shape", "A=8", "--shape", "B=8"]),
    tool("tir_run_bad_shape", "tir-run --shape A=4xfoo", r"--shape A: '4xfoo' is not a shape",
         ["{bin}/tir-run", "{root}/examples/vector_add_dynamic.mlir", "--arg", "n=4",
          "--shape", "A=4xfoo", "--shape", "B=8"]),
    tool("tir_run_huge_shape", "tir-run --shape A=10^14", r"needs more bytes than this machine's memory",
         ["{bin}/tir-run", "{root}/examples/vector_add_dynamic.mlir", "--arg", "n=4",
          "--shape", "A=100000000000000", "--shape", "B=8"]),
    tool("tir_run_scalar_too_large", "tir-run n=100 with 8-element arrays",
         r"argument 1 \('A'\) of 'add_one': dimension 0 has 8 elements",
         ["{bin}/tir-run", "{root}/examples/vector_add_dynamic.mlir", "--arg", "n=100",
          "--shape", "A=8", "--shape", "B=8"]),
    tool("tir_run_unknown_cpu", "tir-run --target-cpu=notacpu", r"unknown CPU 'notacpu'",
         ["{bin}/tir-run", "{root}/examples/vector_add.mlir", "--target-cpu=notacpu"]),
    # ------------------------------------------------ the C API (ctypes)
    capi("c_compile_garbage", "tirModuleCompile of garbage", r"<source>:1:1: error", """
       text = b"garbage {"
       check_ptr(C.tirModuleCompile(text, len(text), None))
       """),
    capi("c_compile_null", "tirModuleCompile(NULL, ...)", r"tirModuleCompile: source is NULL", """
       check_ptr(C.tirModuleCompile(None, 10, None))
       """),
    capi("c_unknown_cpu", "tirModuleCompile for CPU 'notacpu' (an LLVM fatal error before)",
         r"unknown CPU 'notacpu'", """
       text = open(os.path.join(EX, "vector_add.mlir"), "rb").read()
       check_ptr(C.tirModuleCompile(text, len(text), b"notacpu"))
       """),
    capi("c_load_missing", "tirModuleLoad of a missing file", r"cannot load '/nonexistent\.so'", """
       check_ptr(C.tirModuleLoad(b"/nonexistent.so"))
       """),
    capi("c_load_null", "tirModuleLoad(NULL)", r"tirModuleLoad: path is NULL", """
       check_ptr(C.tirModuleLoad(None))
       """),
    capi("c_export_no_path", "tirModuleExport with a NULL path", r"tirModuleExport: no output path", """
       text = open(os.path.join(EX, "vector_add.mlir"), "rb").read()
       C.tirModuleExport.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p]
       check(C.tirModuleExport(text, len(text), None, None))
       """),
    capi("c_call_null_module", "tirModuleCall(NULL, ...)", r"tirModuleCall: module is NULL", """
       check(C.tirModuleCall(None, b"main", None, 0))
       """),
    capi("c_call_null_name", "tirModuleCall with a NULL function name",
         r"tirModuleCall: function name is NULL", """
       m = compile_file("vector_add")
       check(C.tirModuleCall(m, None, None, 0))
       """),
    capi("c_call_null_args", "tirModuleCall with NULL args and a count of 2",
         r"tirModuleCall: args is NULL for 2 arguments", """
       m = compile_file("vector_add")
       check(C.tirModuleCall(m, b"main", None, 2))
       """),
    capi("c_call_negative_count", "tirModuleCall with a count of -1",
         r"tirModuleCall: negative argument count -1", """
       m = compile_file("vector_add")
       check(C.tirModuleCall(m, b"main", None, -1))
       """),
    capi("c_num_functions_null", "tirModuleNumFunctions(NULL)", r"tirModuleNumFunctions: module is NULL", """
       if C.tirModuleNumFunctions(None) == -1:
           raise CAPIError(C.tirGetLastError().decode())
       """),
    capi("c_num_params_range", "tirModuleFunctionNumParams of a function that is not there",
         r"tirModuleFunctionNumParams: no function 3", """
       m = compile_file("vector_add")
       if C.tirModuleFunctionNumParams(m, 3) == -1:
           raise CAPIError(C.tirGetLastError().decode())
       """),
    capi("c_returns_tuple_range", "tirModuleFunctionReturnsTuple of a function that is not there",
         r"tirModuleFunctionReturnsTuple: no function 3", """
       m = compile_file("vector_add")
       if C.tirModuleFunctionReturnsTuple(m, 0) != 0:
           raise AssertionError("vector_add's main returns no tuple")
       if C.tirModuleFunctionReturnsTuple(m, 3) == -1:
           raise CAPIError(C.tirGetLastError().decode())
       """),
    capi("c_param_null_out", "tirModuleFunctionParam with no place to write the parameter",
         r"tirModuleFunctionParam: out is NULL", """
       m = compile_file("vector_add")
       check(C.tirModuleFunctionParam(m, 0, 0, None))
       """),
    capi("c_missing_function", "a call to a function that is not there",
         r"no function named 'nope' in the module; it has 'main'", """
       m = compile_file("vector_add")
       a, b = np.zeros(8, "float32"), np.zeros(8, "float32")
       check(C.tirModuleCall(m, b"nope", args(buf(a), buf(b)), 2))
       """),
    capi("c_wrong_shape", "a 4-element buffer for an 8-element one",
         r"argument 0 \('A'\) of 'main': expected shape \[8\], got \[4\]", """
       m = compile_file("vector_add")
       a, b = np.zeros(4, "float32"), np.zeros(8, "float32")
       check(C.tirModuleCall(m, b"main", args(buf(a), buf(b)), 2))
       """),
    capi("c_unknown_dtype", "element type code 9", r"argument 0: element type code 9 with 32 bits is not "
         r"one the runtime knows", """
       m = compile_file("vector_add")
       a, b = np.zeros(8, "float32"), np.zeros(8, "float32")
       check(C.tirModuleCall(m, b"main", args(buf(a, code=9), buf(b)), 2))
       """),
    capi("c_unknown_kind", "argument kind 7", r"argument 0: unknown kind 7", """
       m = compile_file("vector_add")
       check(C.tirModuleCall(m, b"main", args(Arg(kind=7), Arg(kind=7)), 2))
       """),
    capi("c_null_data", "a buffer with NULL data", r"argument 0 \('A'\) of 'main': has no data", """
       m = compile_file("vector_add")
       a, b = np.zeros(8, "float32"), np.zeros(8, "float32")
       x = buf(a)
       x.buffer.data = None
       check(C.tirModuleCall(m, b"main", args(x, buf(b)), 2))
       """),
    capi("c_negative_rank", "a buffer of rank -1", r"argument 0: a buffer needs a shape", """
       m = compile_file("vector_add")
       a, b = np.zeros(8, "float32"), np.zeros(8, "float32")
       x = buf(a)
       x.buffer.ndim = -1
       check(C.tirModuleCall(m, b"main", args(x, buf(b)), 2))
       """),
    capi("c_dim_vars_mismatch", "n: T.int32 sizes A (tir.dim_vars); n = 4, A of 8",
         r"argument 1 \('A'\) of 'f': dimension 0 has 8 elements, but it is 'n', which is 4", """
       src = b'''func.func @f(%n: index {tir.name = "n"},
                %A: memref<?xf32> {tir.name = "A", tir.dim_vars = ["n"]}) {
         tir.for %i = 0 to %n {
           tir.block "B"(%vi = spatial(%n, %i)) {
             %z = arith.constant 0.0 : f32
             tir.store %z, %A[%vi] : memref<?xf32>
           }
         }
         return
       }'''
       m = check_ptr(C.tirModuleCompile(src, len(src), None))
       a = np.zeros(8, "float32")
       check(C.tirModuleCall(m, b"f", args(scalar(4), buf(a)), 2))
       """),
    capi("c_scalar_too_large", "add_one(100, a8, b8) through the C API",
         r"argument 1 \('A'\) of 'add_one': dimension 0 has 8 elements, but tir\.load in block 'B' "
         r"reaches index 99", """
       m = compile_file("vector_add_dynamic")
       a, b = np.zeros(8, "float32"), np.zeros(8, "float32")
       check(C.tirModuleCall(m, b"add_one", args(scalar(100), buf(a), buf(b)), 3))
       """),
]
