"""What a bad-input case is (Case and its three constructors) and the names
a case's code can use (the preludes its process runs first). The cases are
in bad_input_cases_*.py; test_bad_input.py runs them and prints the table."""
import os
import textwrap
from dataclasses import dataclass, field

from conftest import BUILD_DIR, ROOT


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
LIB_DIR = {os.path.join(BUILD_DIR, "lib")!r}
''' + KERNELS

# The C API library of the build folder (conftest.BUILD_DIR), through ctypes.
CAPI_PRELUDE = PRELUDE + f"\nimport ctypes\nBUILD = {BUILD_DIR!r}\n" + '''
C = ctypes.CDLL(os.path.join(BUILD, "lib", "libTIRCAPI.so"))

class Buffer(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("ndim", ctypes.c_int32),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("strides", ctypes.POINTER(ctypes.c_int64)),
                ("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                ("deviceType", ctypes.c_int32), ("deviceId", ctypes.c_int32)]

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
C.tirModuleFunctionNumParams.argtypes = [ctypes.c_void_p, ctypes.c_int32]
C.tirModuleFunctionParam.argtypes = [ctypes.c_void_p, ctypes.c_int32, ctypes.c_int32,
                                     ctypes.c_void_p]
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
    a.buffer = Buffer(array.ctypes.data, array.ndim, shape, None, code, bits, 1, 0)
    a._keep = shape
    return a

def scalar(v):
    return Arg(kind=1, intValue=v)

def args(*items):
    return (Arg * len(items))(*items)
'''

