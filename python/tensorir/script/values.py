"""What the TVMScript parser works with besides IR nodes: dtypes, the
names it reads, its errors, and the markers for names that are not values
yet (a variable a T.match_buffer is to define, the data of
T.allocate_const)."""
import ast


def dotted_name(node, root):
    """"a.b" for the syntax `root.a.b` (T.axis.spatial, R.nn.relu), "" for
    `root` alone, None for anything else."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id == root:
        return ".".join(reversed(parts))
    return None


# TVM's scalar dtypes and their MLIR element types.
DTYPES = {
    "float16": "f16", "float32": "f32", "float64": "f64", "bfloat16": "bf16",
    # 8-bit floats (tensor-core operands; no arithmetic on the CPU).
    "float8_e4m3fn": "f8E4M3FN", "float8_e5m2": "f8E5M2",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "i8", "uint16": "i16", "uint32": "i32", "uint64": "i64",
    "bool": "i1",
}
ITER_KINDS = {"spatial": 0, "S": 0, "reduce": 2, "R": 2, "scan": 3, "opaque": 4}


class ScriptError(Exception):
    """A TVMScript construct the parser does not accept, located in the
    Python source."""


class DeferredScriptError:
    """A function whose TVMScript the parser refused where the refusal is
    to come at use, not at definition: @T.prim_func(check_well_formed=False)
    (TVM then defers its well-formedness check) and tensor intrinsics
    registered at import. Any use raises the parser's error."""

    def __init__(self, name, error):
        self._name, self._error = name, error

    def __getattr__(self, attr):
        self.raise_error()

    def raise_error(self):
        raise ScriptError(f"{self._name} cannot be used: {self._error}")


class PendingVar:
    """`x = T.int32()` in a body: a variable that a following
    T.match_buffer defines (elem_offset=x, strides=[x, ...]); `var` is the
    tir.Var it becomes."""

    def __init__(self, var):
        self.var = var


class ConstData:
    """The data of T.allocate_const (`var`, the handle of the constant
    buffer `buffer`), before a T.decl_buffer / T.Buffer declares a buffer
    over it."""

    def __init__(self, var, buffer):
        self.var, self.buffer = var, buffer
