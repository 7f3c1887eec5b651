"""Bad input from Python, C and the command line (issue 12, "Bad input").

Every case runs in its own process, so that a crash is a failed case and
not a dead pytest. A case passes when the process ends normally and:
- Python and C API cases: the user's code raised the expected exception
  (the C API cases raise CAPIError when a call returns its error code),
  whose message matches the case's regex and, where the case marks a line
  of the user's code with `# <-`, names that line (user.py:<line>);
- tool cases: the tool exited with a non-zero status (not a signal) and
  its error output matches the regex.

The table is data: `python3 python/tests/test_bad_input.py --table` prints
it as Markdown (docs/reliability.md carries it).
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
from dataclasses import dataclass, field

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@dataclass
class Case:
    name: str
    summary: str
    expect: str      # exception class (py, capi) or "exit" (tool)
    message: str     # regex the message (or the tool's stderr) must match
    code: str = ""   # py / capi: the user's code; `# <-` marks the line
    argv: list = field(default_factory=list)  # tool: {bin}, {tmp}, {root}
    files: dict = field(default_factory=dict)  # tool: {tmp}/name -> bytes
    kind: str = "py"


def py(name, summary, expect, message, code):
    return Case(name, summary, expect, message, textwrap.dedent(code).strip("\n"))


def capi(name, summary, message, code):
    return Case(name, summary, "CAPIError", message, textwrap.dedent(code).strip("\n"),
                kind="capi")


def tool(name, summary, message, argv, files=None):
    return Case(name, summary, "exit", message, argv=argv, files=files or {}, kind="tool")


# A reduction and an element-wise kernel the cases start from.
KERNELS = '''
def reduce_src(loop="range", extent=8):
    return f"""
@T.prim_func
def f(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8,), "float32")):
    for i in range(8):
        for k in {loop}({extent}):
            with T.block("B"):
                vi, vk = T.axis.remap("SR", [i, k])
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + A[vi, vk]
"""
EX = os.path.join(ROOT, "examples")
def example(name):
    return tvm.IRModule.load(os.path.join(EX, name + ".mlir"))
'''

PRELUDE = f'''import os
import numpy as np
import tensorir as tvm
from tensorir.script import tir as T
ROOT = {ROOT!r}
''' + KERNELS

CAPI_PRELUDE = PRELUDE + '''
import ctypes
import _tensorir
BUILD = os.path.dirname(os.path.dirname(os.path.abspath(_tensorir.__file__)))
C = ctypes.CDLL(os.path.join(BUILD, "lib", "libTIRCAPI.so"))

class Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("ndim", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8)]

class Arg(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_int32), ("buffer", Buffer),
                ("intValue", ctypes.c_int64), ("floatValue", ctypes.c_double)]

C.tirModuleCompile.restype = ctypes.c_void_p
C.tirModuleCompile.argtypes = [ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p]
C.tirModuleLoad.restype = ctypes.c_void_p
C.tirModuleLoad.argtypes = [ctypes.c_char_p]
C.tirModuleCall.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(Arg), ctypes.c_int32]
C.tirModuleNumFunctions.argtypes = [ctypes.c_void_p]
C.tirModuleFunctionSignature.restype = ctypes.c_char_p
C.tirModuleFunctionSignature.argtypes = [ctypes.c_void_p, ctypes.c_int32]
C.tirGetLastError.restype = ctypes.c_char_p

class CAPIError(Exception):
    pass

def check(status):
    """Raises CAPIError with tirGetLastError() for a call that returned an
    error code."""
    if status != 0:
        raise CAPIError(f"status {status}: " + C.tirGetLastError().decode())


def check_ptr(pointer):
    """Raises CAPIError with tirGetLastError() for a NULL result."""
    if not pointer:
        raise CAPIError("NULL: " + C.tirGetLastError().decode())
    return pointer

def compile_file(name):
    text = open(os.path.join(EX, name + ".mlir"), "rb").read()
    return check_ptr(C.tirModuleCompile(text, len(text), b"native"))

def buf(array, code=2, bits=32):
    shape = (ctypes.c_int64 * max(array.ndim, 1))(*array.shape)
    a = Arg(kind=0)
    a.buffer = Buffer(array.ctypes.data, array.ndim, shape, None, code, bits)
    a._keep = shape
    return a

def scalar(v):
    return Arg(kind=1, intValue=v)

def args(*items):
    return (Arg * len(items))(*items)
'''


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
    py("unused_shape_variable", "n = T.int32() that no buffer dimension defines", "ScriptError",
       r"shape variable 'n' is not the size of any buffer dimension", """
       @T.prim_func
       def f(A: T.Buffer((8,), "float32")):  # <-
           n = T.int32()
           T.evaluate(0)
       """),
    py("static_empty_domain", "a buffer and loop of extent 0 written with constants", "ValueError",
       r"'tir\.block' op iteration variable #0 has an empty domain \[0, 0\)", """
       @T.prim_func
       def f(A: T.Buffer((0, 4), "float32")):
           for i, j in T.grid(0, 4):
               with T.block("B"):  # <-
                   vi, vj = T.axis.remap("SS", [i, j])
                   A[vi, vj] = T.float32(0)
       """),
    py("parallel_reduction", "T.parallel over a reduction loop (a data race)", "ValueError",
       r"user\.py:5:9: error: 'tir\.for' op is parallel, so its iterations run at once, but it "
       r"feeds reduce variable "
       r"'vk' of block 'B'", """
       tvm.script.from_source(reduce_src("T.parallel"), "user.py")
       """),
    py("vectorized_reduction", "T.vectorized over a reduction loop", "ValueError",
       r"user\.py:5:9: error: 'tir\.for' op is vectorized, so its iterations run at once, but "
       r"it feeds reduce variable 'vk'", """
       tvm.script.from_source(reduce_src("T.vectorized"), "user.py")
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
    py("no_prim_func", "from_source of text without @T.prim_func", "ScriptError",
       r"user\.py: no @T\.prim_func in the text", """
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
       r"no block named 'nope'", """
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
    py("schedule_parallel_reduction", "sch.parallel on a reduction loop", "ScheduleError",
       r"parallel needs a loop that feeds only spatial iteration variables, but loop 'k' feeds "
       r"reduce variable 'vk'", """
       sch = tvm.tir.Schedule(example("matmul"))
       i, j, k = sch.get_loops(sch.get_block("C"))
       sch.parallel(k)
       """),
    # ------------------------------------------------ build and targets
    py("target_cuda", "build for target cuda", "ValueError",
       r"target 'cuda' is not supported; the runtime builds for the CPU", """
       tvm.build(example("vector_add"), target="cuda")
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
    py("gpu_device", "tvm.nd.array on a cuda device", "ValueError",
       r"device cuda\(0\): tensorir runs functions on the CPU only", """
       tvm.nd.array(np.zeros(8, "float32"), tvm.runtime.Device("cuda", 0))
       """),
    py("no_such_function", "lib['nope']", "KeyError", r"no function named 'nope'; the module has main", """
       tvm.build(example("vector_add"))["nope"]
       """),
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


def _user_line(code):
    """The line `# <-` marks in the user's file (prelude included)."""
    for number, line in enumerate(code.splitlines(), 1):
        if line.rstrip().endswith("# <-"):
            return number
    return None


_RUNNER = r'''
import json, runpy, sys, traceback
try:
    runpy.run_path(sys.argv[1], run_name="__main__")
    result = {"type": None}
except BaseException as e:  # noqa: BLE001 - every exception is reported
    result = {"type": type(e).__name__, "mro": [c.__name__ for c in type(e).__mro__],
              "message": str(e), "traceback": traceback.format_exc()}
print("@@RESULT@@" + json.dumps(result))
'''


def _bin_dir():
    import _tensorir
    return os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(_tensorir.__file__))),
                        "bin")


def run_case(case, tmp):
    """Runs one case in its own process; returns a list of problems (empty
    when it behaved)."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    if case.kind == "tool":
        for name, data in case.files.items():
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        argv = [a.format(bin=_bin_dir(), tmp=tmp, root=ROOT) for a in case.argv]
        proc = subprocess.run(argv, cwd=tmp, capture_output=True, timeout=300, env=env)
        stderr = proc.stderr.decode(errors="replace")
        problems = []
        if proc.returncode <= 0 or proc.returncode >= 128:
            problems.append(f"exit status {proc.returncode} (expected a clean non-zero exit)")
        if not re.search(case.message, stderr):
            problems.append(f"stderr does not match {case.message!r}:\n{stderr[-2000:]}")
        return problems
    prelude = CAPI_PRELUDE if case.kind == "capi" else PRELUDE
    source = prelude + case.code + "\n"
    path = os.path.join(tmp, "user.py")
    with open(path, "w") as f:
        f.write(source)
    proc = subprocess.run([sys.executable, "-c", _RUNNER, path], cwd=tmp, capture_output=True,
                          timeout=300, env=env)
    out = proc.stdout.decode(errors="replace")
    if proc.returncode != 0 or "@@RESULT@@" not in out:
        return [f"the process ended with status {proc.returncode}:\n"
                f"{proc.stderr.decode(errors='replace')[-3000:]}"]
    result = json.loads(out.split("@@RESULT@@", 1)[1])
    if result["type"] is None:
        return ["no exception was raised"]
    problems = []
    if case.expect not in result["mro"]:
        problems.append(f"raised {result['type']}, expected {case.expect}")
    if not re.search(case.message, result["message"]):
        problems.append(f"message does not match {case.message!r}: {result['message']!r}")
    line = _user_line(source)
    if line is not None and f"user.py:{line}:" not in result["message"]:
        problems.append(f"message does not point at user.py:{line}: {result['message']!r}")
    if problems:
        problems.append(result["traceback"][-3000:])
    return problems


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input(case):
    with tempfile.TemporaryDirectory() as tmp:
        problems = run_case(case, tmp)
    assert not problems, "\n".join(problems)


def test_names_are_unique_and_the_suite_is_large_enough():
    names = [c.name for c in CASES]
    assert len(names) == len(set(names))
    assert len(CASES) >= 60


def table():
    """The cases as a Markdown table."""
    rows = ["| Case | Input | Expected | Message (regex) |", "|---|---|---|---|"]
    for c in CASES:
        where = {"py": "Python", "capi": "C API", "tool": "tool"}[c.kind]
        expect = "non-zero exit" if c.expect == "exit" else c.expect
        if c.kind == "capi":
            expect = "error code (CAPIError)"
        message = c.message.replace("|", "\\|")
        line = " (at the user's line)" if _user_line(PRELUDE + c.code) else ""
        rows.append(f"| `{c.name}` | {where}: {c.summary} | {expect}{line} | `{message}` |")
    return "\n".join(rows)


if __name__ == "__main__":
    if "--table" in sys.argv:
        print(table())
    else:
        print(__doc__)
