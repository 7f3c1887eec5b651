"""Bad-input cases: TVMScript and MLIR text as the user writes them (arity,
malformed programs, MLIR text and files). test_bad_input.py runs them."""
from bad_input_case import py

CASES = [
    # ------------------------------------------------ TVMScript: arity
    py("axis_spatial_arity", "T.axis.spatial(8): no binding", "ScriptError",
       r"T\.axis\.spatial takes 2 arguments \(the domain and the binding", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8)  # <-
                   A[vi] = T.float32(0)
       """),
    py("axis_reduce_arity", "T.axis.reduce(8, k, 1): three arguments", "ScriptError",
       r"T\.axis\.reduce takes 2 arguments .*got 3", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for k in range(8):
               with T.block("B"):
                   vk = T.axis.reduce(8, k, 1)  # <-
                   A[0] = A[0] + T.float32(1)
       """),
    py("axis_remap_arity", 'T.axis.remap("SS"): no loop variables', "ScriptError",
       r"T\.axis\.remap takes 2 arguments", """
       @T.prim_func
       def f(A: T.Buffer((8, 8), "float32")):
           for i, j in T.grid(8, 8):
               with T.block("B"):
                   vi, vj = T.axis.remap("SS")  # <-
                   A[vi, vj] = T.float32(0)
       """),
    py("axis_remap_count", 'T.axis.remap("SS", [i]): fewer loops than kinds', "ScriptError",
       r"T\.axis\.remap takes a kind string .* and as many loop variables", """
       @T.prim_func
       def f(A: T.Buffer((8, 8), "float32")):
           for i, j in T.grid(8, 8):
               with T.block("B"):
                   vi, vj = T.axis.remap("SS", [i])  # <-
                   A[vi, vj] = T.float32(0)
       """),
    py("axis_unknown_kind", "T.axis.sideways(8, i)", "ScriptError",
       r"unknown axis kind T\.axis\.sideways", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.sideways(8, i)  # <-
                   A[vi] = T.float32(0)
       """),
    py("axis_domain_triple", "T.axis.spatial((0, 4, 8), i): a domain of three", "ScriptError",
       r"the domain of T\.axis\.spatial is an extent or a pair \(begin, end\), got 3", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial((0, 4, 8), i)  # <-
                   A[vi] = T.float32(0)
       """),
    py("max_arity", "T.max(x): one operand", "ScriptError",
       r"T\.max takes 2 arguments \(T\.max\(a, b\)\), got 1", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   A[vi] = T.max(A[vi])  # <-
       """),
    py("min_arity", "T.min(a, b, c): three operands", "ScriptError",
       r"T\.min takes 2 arguments .*got 3", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   A[vi] = T.min(A[vi], A[vi], A[vi])  # <-
       """),
    py("if_then_else_arity", "T.if_then_else(c, a): no else value", "ScriptError",
       r"T\.if_then_else takes 3 arguments \(T\.if_then_else\(cond, a, b\)\), got 2", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   A[vi] = T.if_then_else(vi < 4, A[vi])  # <-
       """),
    py("exp_arity", "T.exp(): no operand", "ScriptError", r"T\.exp takes 1 argument .*got 0", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   A[vi] = T.exp()  # <-
       """),
    py("cast_arity", 'T.Cast("float32"): no value', "ScriptError",
       r"T\.Cast takes 2 arguments", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   A[vi] = T.Cast("float32")  # <-
       """),
    py("floordiv_arity", "T.floordiv(x): one operand", "ScriptError",
       r"T\.floordiv takes 2 arguments", """
       @T.prim_func
       def f(A: T.Buffer((8,), "int32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   A[vi] = T.floordiv(A[vi])  # <-
       """),
    py("where_arity", "T.where(): no condition", "ScriptError", r"T\.where takes 1 argument, got 0", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   T.where()  # <-
                   A[vi] = T.float32(0)
       """),
    py("loop_no_extent", "for i in T.serial(): no extent", "ScriptError", r"a loop needs an extent", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in T.serial():  # <-
               A[i] = T.float32(0)
       """),
    py("evaluate_arity", "T.evaluate(1, 2)", "ScriptError", r"T\.evaluate takes one expression", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           T.evaluate(1, 2)  # <-
       """),
    # ------------------------------------------------ TVMScript: malformed
    py("undefined_name", "reads a buffer that does not exist", "ScriptError",
       r"undefined name 'C'", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   A[vi] = C[vi]  # <-
       """),
    py("missing_annotation", "a parameter without a type", "ScriptError",
       r"parameter 'A' needs a type annotation", """
       @T.prim_func
       def f(A):  # <-
           T.evaluate(0)
       """),
    py("unknown_dtype", 'T.Buffer((8,), "float7")', "ScriptError", r"unsupported dtype 'float7'", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float7")):  # <-
           T.evaluate(0)
       """),
    py("handle_without_match", "a T.handle never matched to a buffer", "ScriptError",
       r"T\.handle parameter 'a' has no T\.match_buffer", """
       @T.prim_func
       def f(a: T.handle):  # <-
           T.evaluate(0)
       """),
    py("unsupported_statement", "a while loop", "ScriptError",
       r"unsupported statement \(While\)", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           while True:  # <-
               A[0] = T.float32(0)
       """),
    py("unknown_loop_iterator", "for i in T.sideways(8)", "ScriptError",
       r"unsupported loop iterator T\.sideways", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in T.sideways(8):  # <-
               A[i] = T.float32(0)
       """),
    py("store_to_scalar", "a store into a scalar parameter", "ScriptError",
       r"'n' is not a buffer", """
       @T.prim_func
       def f(n: T.int32, A: T.Buffer((8,), "float32")):
           n[0] = 1  # <-
       """),
    py("block_name_not_string", "T.block(3)", "ScriptError", r"T\.block takes a name", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block(3):  # <-
                   vi = T.axis.spatial(8, i)
                   A[vi] = T.float32(0)
       """),
    py("unsized_shape_variable", "n = T.int32() that no buffer dimension defines, used",
       "ScriptError", r"shape variable 'n' is not the size of any buffer dimension", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):  # <-
           n = T.int32()
           A[0] = T.Cast("float32", n)
       """),
    py("inverted_domain", "T.axis.spatial((5, 4), i): a domain whose end is below its begin",
       "ValueError",
       r"'tir\.block' op iteration variable #0 has an inverted domain \[5, 4\): its upper "
       r"bound is below its lower bound", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):  # <-
                   vi = T.axis.spatial((5, 4), i)
                   A[vi] = T.float32(0)
       """),
    py("parallel_reduction", "T.parallel over a reduction loop (a data race), built",
       "ValueError",
       r"user\.py:5:9: error: 'tir\.for' op is parallel, so its iterations run at once, but it "
       r"feeds reduce variable "
       r"'vk' of block 'B'", """
       tvm.build(tvm.script.from_source(reduce_src("T.parallel"), "user.py"))
       """),
    py("vectorized_reduction", "T.vectorized over a reduction loop, built", "ValueError",
       r"user\.py:5:9: error: 'tir\.for' op is vectorized, so its iterations run at once, but "
       r"it feeds reduce variable 'vk'", """
       tvm.build(tvm.script.from_source(reduce_src("T.vectorized"), "user.py"))
       """),
    py("prim_func_without_source", "@T.prim_func on a function made by exec (a bare OSError "
       "before)", "ScriptError", r"@T\.prim_func needs the source of 'f' .*from_source", """
       exec('@T.prim_func\\ndef f(A: T.Buffer((8,), "float32")):\\n    T.evaluate(0)\\n')
       """),
    py("prim_func_on_a_class_instance", "@T.prim_func applied to a number", "ScriptError",
       r"@T\.prim_func decorates a Python function, got int", """
       T.prim_func(3)
       """),
    py("python_syntax_error", "from_source of text that is not Python", "SyntaxError",
       r"invalid syntax \(user\.py, line 1\)", """
       tvm.script.from_source("def (", "user.py")
       """),
    py("no_prim_func", "from_source of text without @T.prim_func or @R.function", "ScriptError",
       r"user\.py: no @T\.prim_func or @R\.function in the text", """
       tvm.script.from_source("x = 1", "user.py")
       """),
    # ------------------------------------------------ MLIR text and files
    py("mlir_garbage", "IRModule.from_mlir of garbage", "ValueError",
       r"<string>:1:1: error: custom op 'garbage' is unknown", """
       tvm.IRModule.from_mlir("garbage {")
       """),
    py("mlir_wrong_rank", "tir.load with one index into a 2-d buffer", "ValueError",
       r"user\.mlir:3:\d+: error: .*(indices|index)", """
       tvm.IRModule.from_mlir('''func.func @f(%A: memref<4x4xf32>, %i: index) {
         tir.block "B"() {
           %a = tir.load %A[%i] : memref<4x4xf32>
         }
         return
       }''', "user.mlir")
       """),
    py("mlir_verify_error_short", "a verifier error names the op, without the IR after it",
       "ValueError", r"(?s)\Auser\.mlir:3:\d+: error: 'tir\.load' op expects 2 indices for a "
       r"rank-2 buffer, got 1(?!.*see current operation)", """
       tvm.IRModule.from_mlir('''func.func @f(%A: memref<4x4xf32>, %i: index) {
         tir.block "B"() {
           %a = tir.load %A[%i] : memref<4x4xf32>
         }
         return
       }''', "user.mlir")
       """),
    py("mlir_not_bytes", "IRModule.from_mlir of bytes", "TypeError",
       r"from_mlir takes MLIR text \(str\), got bytes", """
       tvm.IRModule.from_mlir(b"module {}")
       """),
    py("load_missing_file", "IRModule.load of a file that does not exist", "FileNotFoundError",
       r"No such file or directory", """
       tvm.IRModule.load("/nonexistent/kernel.mlir")
       """),
    py("load_binary_file", "IRModule.load of a binary file", "ValueError",
       r"is not MLIR text: byte \d+ is not UTF-8", """
       open("garbage.mlir", "wb").write(bytes(range(256)))
       tvm.IRModule.load("garbage.mlir")
       """),
    py("load_module_garbage", "load_module of a garbage .so", "ValueError",
       r"cannot load 'garbage\.so'", """
       open("garbage.so", "wb").write(b"\\x7fELF" + bytes(100))
       tvm.load_module("garbage.so")
       """),
    py("load_module_foreign", "load_module of a shared library tir did not export", "ValueError",
       r"is not a library exported by tir \(it has no __tir_metadata symbol\)", """
       import _tensorir
       tvm.load_module(_tensorir.__file__)
       """),
    # ------------------------------------------------ TVMScript: division by zero
    py("where_floordiv_by_zero", "T.where(i // 0 < 4): a division by the constant 0",
       "ScriptError", r"// by zero \(the divisor is the constant 0\)", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   T.where(i // 0 < 4)  # <-
                   A[vi] = T.float32(0)
       """),
    py("index_floormod_by_zero", "A[vi % 0]: an index modulo the constant 0", "ScriptError",
       r"% by zero \(the divisor is the constant 0\)", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   A[vi % 0] = T.float32(0)  # <-
       """),
    py("value_floordiv_by_zero", "T.floordiv(A[vi], 0) in a stored value", "ScriptError",
       r"T\.floordiv by zero", """
       @T.prim_func
       def f(A: T.Buffer((8,), "int32")):
           for i in range(8):
               with T.block("B"):
                   vi = T.axis.spatial(8, i)
                   A[vi] = T.floordiv(A[vi], 0)  # <-
       """),
    py("extent_ceildiv_by_zero", "T.ceildiv(8, 0) as a loop extent", "ScriptError",
       r"T\.ceildiv by zero", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):
           for i in range(T.ceildiv(8, 0)):  # <-
               A[i] = T.float32(0)
       """),
]
