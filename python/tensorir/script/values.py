"""What the TVMScript parser works with: dtypes, values, buffers, errors,
and the MLIR form of annotation values (shared with Schedule.annotate)."""
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


DTYPES = {
    "float16": "f16", "float32": "f32", "float64": "f64", "bfloat16": "bf16",
    "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64",
    "uint8": "i8", "uint16": "i16", "uint32": "i32", "uint64": "i64",
    "bool": "i1",
}
LOOP_KINDS = {"serial": "", "parallel": " parallel", "vectorized": " vectorized",
              "unroll": " unrolled"}
ITER_KINDS = {"spatial": "spatial", "S": "spatial", "reduce": "reduce",
              "R": "reduce", "scan": "scan", "opaque": "opaque"}


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


class Value:
    """An SSA value (`text` is its name) or, for index arithmetic kept in
    affine form, an affine expression over SSA names. `type` is an MLIR type;
    `literal` is the Python number of an untyped literal; `unsigned` marks an
    integer of a uint dtype (MLIR's integers are signless: the ops that
    read it say how)."""

    def __init__(self, text, type, affine=False, literal=None, unsigned=False):
        self.text, self.type, self.affine, self.literal = text, type, affine, literal
        self.unsigned = unsigned

    @property
    def is_index(self):
        return self.type == "index"


class Buffer:
    """A buffer: its SSA name, shape (ints and index Values), dtype, and
    optionally a storage scope (the memref's memory space) and strides (a
    strided layout with a dynamic offset, for a buffer matched to a region;
    None entries are dynamic strides)."""

    def __init__(self, ssa, shape, dtype, scope=None, strides=None):
        self.ssa, self.shape, self.dtype = ssa, shape, dtype
        self.scope, self.strides = scope, strides

    @property
    def element(self):
        return DTYPES[self.dtype]

    @property
    def unsigned(self):
        """Whether the elements are unsigned integers (uint8 ... uint64)."""
        return self.dtype.startswith("uint")

    def memref(self, dims):
        parts = [str(d) if isinstance(d, int) else "?" for d in dims]
        text = "memref<" + "x".join(parts + [self.element])
        if self.strides is not None:
            strides = ", ".join("?" if s is None else str(s) for s in self.strides)
            text += f", strided<[{strides}], offset: ?>"
        if self.scope and self.scope != "global":
            text += f', "{self.scope}"'
        return text + ">"

    @property
    def type(self):
        return self.memref(self.shape)

    def element_strides(self):
        """The stride of each dimension in elements (None where unknown)."""
        if self.strides is not None:
            return list(self.strides)
        strides, step = [], 1
        for d in reversed(self.shape):
            strides.append(step)
            step = step * d if isinstance(d, int) and step is not None else None
        return strides[::-1]


class ScopedBuffer(Buffer):
    """A buffer whose memref type text is given."""

    def __init__(self, buf, type_text):
        super().__init__(buf.ssa, buf.shape, buf.dtype, buf.scope, buf.strides)
        self._type = type_text

    @property
    def type(self):
        return self._type


class ConstData:
    """The data of T.allocate_const, before a T.decl_buffer / T.Buffer
    declares the buffer over it (`buffer` is the constant buffer)."""

    def __init__(self, buffer):
        self.buffer = buffer


class ShapeVar:
    """A shape variable (`n = T.int32()`) before a buffer dimension defines
    it; `source` is (buffer SSA name, buffer type, dimension) once one
    does."""

    def __init__(self, name):
        self.name, self.source = name, None


def annotation_attr(value):
    """An annotation value as MLIR attribute text: bool, int (i64), float
    (f64), str, and lists / tuples / dicts (string keys) of them, nested.
    Raises TypeError for anything else."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value} : i64"
    if isinstance(value, float):
        return f"{value!r} : f64"
    if isinstance(value, str):
        escaped = value.replace("\\", "\\\\").replace('"', '\\"')
        return f'"{escaped}"'
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(annotation_attr(v) for v in value) + "]"
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise TypeError("annotation keys are strings")
        return "{" + ", ".join(f'"{k}" = {annotation_attr(v)}' for k, v in value.items()) + "}"
    raise TypeError(f"annotation values are bool, int, float, str, or lists and dicts "
                    f"of them, got {type(value).__name__}")
