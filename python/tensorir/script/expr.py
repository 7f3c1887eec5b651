"""TVMScript expressions to tvm.tir expression nodes. Mixed into
FunctionParser (parser.py), which provides error, lookup, static_value and
the statement side.

The nodes carry TVM's dtypes; the extension (python/extension/FromNodes.cpp)
decides what becomes an index expression and what an arith op, by the same
rules for every producer of nodes (this parser, te, IR built by hand).
"""
import ast

from ..ir.node import Span
from ..tir import expr as E
from ..tir.buffer import Buffer
from .values import DTYPES, ConstData, PendingVar

# TVM builtins that take their result dtype first (with no dtype= keyword).
_DTYPE_FIRST = ("call_extern", "call_pure_extern", "call_llvm_intrin", "call_llvm_pure_intrin")
# Fixed-point multiplies (int32 results unless dtype= says otherwise).
_INT32_RESULT = ("q_multiply_shift", "q_multiply_shift_per_axis")
# TVM's builtins whose result is a handle unless dtype= says otherwise (a
# pointer, or the fragment a tensor-core builtin writes).
_HANDLE_RESULT = ("tvm_access_ptr", "address_of", "tvm_fill_fragment", "tvm_load_matrix_sync",
                  "tvm_store_matrix_sync", "tvm_mma_sync", "tvm_bmma_sync")
_OPAQUE = _DTYPE_FIRST + _INT32_RESULT + ("call_packed", "call_intrin", "address_of",
                                          "assume")
_MATH = ("exp", "sqrt", "log", "tanh", "sin", "cos", "abs", "rsqrt", "floor", "ceil",
         "round", "exp2", "log2", "erf")
_BITWISE = ("shift_left", "shift_right", "bitwise_and", "bitwise_or", "bitwise_xor")
_COMPARE = {ast.Lt: E.LT, ast.LtE: E.LE, ast.Gt: E.GT, ast.GtE: E.GE, ast.Eq: E.EQ,
            ast.NotEq: E.NE}
_BINARY = {ast.Add: E.Add, ast.Sub: E.Sub, ast.Mult: E.Mul, ast.Div: E.Div,
           ast.FloorDiv: E.FloorDiv, ast.Mod: E.FloorMod}


def is_vector_dtype(dtype):
    """Whether `dtype` is a vector of a scalar dtype ("int8x4")."""
    base, _, lanes = dtype.partition("x")
    return base in DTYPES and lanes.isdigit()


def literal(value):
    """A Python number as TVMScript reads it: a bool, an int32 (int64 past
    its range), a float32."""
    if isinstance(value, bool):
        return E.IntImm("bool", value)
    if isinstance(value, int):
        return E.IntImm("int32" if -2**31 <= value < 2**31 else "int64", value)
    return E.FloatImm("float32", value)


def _is_int(dtype):
    return dtype in E.INT_DTYPES and dtype != "bool"


def _is_float(dtype):
    return dtype in E.FLOAT_DTYPES


class ExprParser:
    # -------------------------------------------------------------- locations
    def span(self, node):
        """Where `node` is in the Python source (TVM's Span)."""
        line = getattr(node, "lineno", 1) + self.line_offset
        col = getattr(node, "col_offset", 0) + 1
        return Span(self.filename, line, line, col, col)

    # ----------------------------------------------------------------- typing
    def unify(self, a, b, node):
        """Operands of one dtype (tir.expr.unify_dtypes, TVM's rules); a
        literal takes the other side's dtype, wrapped to its bits."""
        if a.dtype == b.dtype:
            return a, b
        # An integer expression with a float literal computes in float, as
        # TVM's binary operators promote (`T.floor(v * 2 + 0.5)`).
        if isinstance(b, E.FloatImm) and _is_int(a.dtype) and \
                not isinstance(a, (E.IntImm, E.FloatImm)):
            return self.cast(a, b.dtype), b
        if isinstance(a, E.FloatImm) and _is_int(b.dtype) and \
                not isinstance(b, (E.IntImm, E.FloatImm)):
            return a, self.cast(b, a.dtype)
        if isinstance(b, (E.IntImm, E.FloatImm)) and not isinstance(a, (E.IntImm, E.FloatImm)):
            return a, self.constant(b.value, a.dtype, node)
        if isinstance(a, (E.IntImm, E.FloatImm)) and not isinstance(b, (E.IntImm, E.FloatImm)):
            return self.constant(a.value, b.dtype, node), b
        try:
            return E.unify_dtypes(a, b)
        except TypeError:
            self.error(node, f"operands of different types: {a.dtype} and {b.dtype}")

    def constant(self, value, dtype, node):
        """The number `value` as a constant of `dtype`."""
        if isinstance(value, float) and _is_int(dtype) and not value.is_integer():
            self.error(node, f"{value!r} is not a value of {dtype}")
        if _is_int(dtype):
            # The bits of the number, signed or unsigned (T.uint8(-126) is
            # 130: integers are signless in tir, and print so).
            bits = int(dtype.lstrip("uint"))
            value = int(value)
            if -2**(bits - 1) <= value < 2**bits:
                value %= 2**bits
                if not dtype.startswith("u") and value >= 2**(bits - 1):
                    value -= 2**bits
        try:
            return E.const(float(value) if _is_float(dtype) else int(value), dtype)
        except ValueError as e:
            self.error(node, str(e))

    @staticmethod
    def cast(value, dtype):
        """`value` as `dtype` (itself when it is one)."""
        return value if value.dtype == dtype else E.Cast(dtype, value)

    def binary(self, cls, a, b, node):
        a, b = self.unify(a, b, node)
        if cls is E.Div and _is_int(a.dtype):
            self.error(node, "'/' of integers: use // (floor division) or T.floordiv")
        self.check_divisor(cls.__name__, b, node)
        return E.make_binary(cls, a, b)

    def check_divisor(self, what, divisor, node):
        """A division or modulo by the constant 0 is refused where it is
        written (in an index, a T.where, a value alike)."""
        if what in ("Div", "Mod", "FloorDiv", "FloorMod", "truncdiv", "truncmod",
                    "floordiv", "floormod", "ceildiv") \
                and isinstance(divisor, (E.IntImm, E.FloatImm)) and divisor.value == 0:
            spelled = {"Div": "/", "Mod": "T.truncmod", "FloorDiv": "//", "FloorMod": "%"}
            self.error(node, f"{spelled.get(what, 'T.' + what)} by zero (the divisor is the "
                             "constant 0)")

    def as_index(self, value, node, message="indices are integer expressions"):
        if not _is_int(value.dtype):
            self.error(node, message)
        return value

    def index(self, node, message="indices are integer expressions"):
        return self.as_index(self.expr(node), node, message)

    # ------------------------------------------------------------ expressions
    def expr(self, node):
        """The PrimExpr that `node` computes."""
        if isinstance(node, ast.Constant):
            if isinstance(node.value, (bool, int, float)):
                return literal(node.value)
            self.error(node, f"unsupported constant {node.value!r}")
        if isinstance(node, ast.Name):
            value = self.lookup(node, node.id)
            if isinstance(value, Buffer):
                self.error(node, f"buffer '{node.id}' used as a value; index it")
            if isinstance(value, PendingVar):
                self.error(node, f"'{node.id}' = T.int32() is not defined here (a "
                                 "T.match_buffer in a block defines it with elem_offset= "
                                 "or strides=)")
            if isinstance(value, ConstData):
                self.error(node, f"'{node.id}' is the data of T.allocate_const; declare a "
                                 "buffer over it with T.decl_buffer(..., data=...)")
            return value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr == "access_ptr" and isinstance(node.func.value, ast.Name) \
                and isinstance(self.lookup(node, node.func.value.id), Buffer):
            return self.access_ptr(node, self.lookup(node, node.func.value.id))
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and self.is_bound(node.value.id):
            buf = self.lookup(node.value, node.value.id)
            if isinstance(buf, Buffer):
                return self.buffer_attribute(node, buf)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            operand = self.expr(node.operand)
            if operand.dtype != "bool":
                self.error(node, "'not' takes a condition")
            return E.Not(operand)
        if isinstance(node, ast.BoolOp):
            values = [self.expr(v) for v in node.values]
            if any(v.dtype != "bool" for v in values):
                self.error(node, "'and' / 'or' take conditions")
            cls = E.And if isinstance(node.op, ast.And) else E.Or
            acc = values[0]
            for v in values[1:]:
                acc = cls(acc, v)
            return acc
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            operand = self.expr(node.operand)
            if isinstance(operand, (E.IntImm, E.FloatImm)):
                return type(operand)(operand.dtype, -operand.value)
            return E.make_binary(E.Sub, self.constant(0, operand.dtype, node), operand)
        if isinstance(node, ast.BinOp):
            cls = _BINARY.get(type(node.op))
            if cls is None:
                self.error(node, "unsupported operator")
            return self.binary(cls, self.expr(node.left), self.expr(node.right), node)
        if isinstance(node, ast.Compare):
            terms = [node.left] + list(node.comparators)
            parts = []
            for left, op, right in zip(terms, node.ops, terms[1:]):
                cls = _COMPARE.get(type(op))
                if cls is None:
                    self.error(node, "unsupported comparison")
                a, b = self.unify(self.expr(left), self.expr(right), node)
                parts.append(cls(a, b))
            acc = parts[0]
            for p in parts[1:]:  # a < b < c is a < b and b < c
                acc = E.And(acc, p)
            return acc
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "strides" and isinstance(node.value.value, ast.Name):
            buf = self.lookup(node.value, node.value.value.id)
            k = self.static_value(node.slice)
            if not isinstance(buf, Buffer) or not isinstance(k, int) \
                    or not 0 <= k < len(buf.shape):
                self.error(node, "A.strides[k] takes a buffer and a dimension")
            return self.stride_of(buf, k)
        if isinstance(node, ast.Subscript):
            if not isinstance(node.value, ast.Name):
                self.error(node, "loads read buffers")
            buf = self.lookup(node.value, node.value.id)
            if not isinstance(buf, Buffer):
                self.error(node, f"'{node.value.id}' is not a buffer")
            return E.BufferLoad(buf, self.indices(node, buf))
        if isinstance(node, ast.Call):
            return self.call(node)
        self.error(node, f"unsupported expression ({type(node).__name__})")

    def indices(self, node, buf):
        """The indices of `A[i, j]` (a load or a store's target)."""
        idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if any(isinstance(i, ast.Slice) for i in idx):
            self.error(node, "a load or store takes indices, not a region")
        if len(idx) != len(buf.shape):
            self.error(node, f"{len(idx)} indices for the {len(buf.shape)}-dimensional "
                             f"buffer '{buf.name}'")
        return [self.index(i) for i in idx]

    # ------------------------------------------------------ buffer attributes
    def buffer_attribute(self, node, buf):
        """`A.data` (the buffer's handle, as calls take it), `A.elem_offset`
        (0 for the identity layout)."""
        if node.attr == "data":
            return buf.data
        if node.attr == "elem_offset":
            # (An index value: a call reads it as an operand.)
            return buf.elem_offset if buf.elem_offset is not None else E.IntImm("int64", 0)
        self.error(node, f"unsupported buffer attribute '.{node.attr}'")

    @staticmethod
    def stride_of(buf, k):
        """A.strides[k]: the given stride, else the row-major one (an index
        value, int64)."""
        if buf.strides:
            return buf.strides[k]
        stride = E.IntImm("int64", 1)
        for d in buf.shape[k + 1:]:
            stride = E.make_binary(E.Mul, stride, d)
        return stride

    def access_ptr(self, node, buf):
        """`B.access_ptr("r", extent=128)`: TVM's tvm_access_ptr (element
        type, buffer, offset, extent, read/write mask)."""
        kws = {kw.arg: kw.value for kw in node.keywords}
        names = ("access_mask", "ptr_type", "content_lanes", "offset", "extent")
        for name, arg in zip(names, node.args):
            kws[name] = arg
        for key in kws:
            if key not in names:
                self.error(node, f"access_ptr takes no keyword '{key}'")
        mask = self.static_value(kws["access_mask"]) if "access_mask" in kws else None
        masks = {"r": 1, "w": 2, "rw": 3}
        if mask not in masks and not isinstance(mask, int):
            self.error(node, 'access_ptr takes an access mask "r", "w" or "rw"')
        if self.static_value(kws.get("ptr_type", ast.Constant("handle"))) != "handle" or \
                self.static_value(kws.get("content_lanes", ast.Constant(1))) != 1:
            self.error(node, "access_ptr with a ptr_type or content_lanes is not supported")
        offset = self.index(kws["offset"]) if "offset" in kws else E.IntImm("int32", 0)
        if "extent" in kws:
            extent = self.index(kws["extent"])
        else:
            size = 1
            for d in buf.shape:
                if not isinstance(d, E.IntImm):
                    self.error(node, "access_ptr of a dynamic buffer needs extent=")
                size *= d.value
            extent = E.IntImm("int32" if size < 2**31 else "int64", size)
        return E.Call("handle", "tir.tvm_access_ptr",
                      [E.Call(buf.dtype, "tir.type_annotation", []), buf.data, offset, extent,
                       E.IntImm("int32", masks.get(mask, mask))])

    # ----------------------------------------------------------------- calls
    def is_opaque_call(self, call):
        name = self.t_name(call.func)
        return name is not None and (name in _OPAQUE or name.startswith("tvm_")
                                     or name.startswith("ptx_"))

    def opaque_call(self, call):
        """A call of a TVM builtin or an external function: the callee is
        the builtin's name, the arguments as written (strings and numbers
        as literals, buffers' .data as the buffer). Its dtype is "void"
        when the call gives none."""
        name = self.t_name(call.func)
        args = list(call.args)
        dtype = None
        for kw in call.keywords:
            if kw.arg != "dtype":
                self.error(kw.value, f"T.{name} takes no keyword '{kw.arg}'")
            dtype = self.static_value(kw.value)
        if dtype is None and name in _INT32_RESULT:
            dtype = "int32"
        if dtype is None and name in _HANDLE_RESULT:
            dtype = "handle"
        if dtype is None and name in _DTYPE_FIRST:
            if not args or not isinstance(self.static_value(args[0]), str):
                self.error(call, f"T.{name} takes the result dtype first")
            dtype, args = self.static_value(args[0]), args[1:]
        dtype = dtype or "void"
        if dtype not in ("void", "handle") and dtype not in DTYPES \
                and not is_vector_dtype(dtype):
            self.error(call, f"unsupported dtype {dtype!r}")
        values = []
        for arg in args:
            literal = self.call_literal(arg)
            if literal is not None:
                values.append(literal)
                continue
            value = self.expr(arg)
            if value.dtype == "void":
                self.error(arg, "this call returns nothing (give it a dtype)")
            values.append(value)
        return E.Call(dtype, "tir." + name, values)

    def call_literal(self, node):
        """A literal call argument as a constant node (a string, a number,
        T.type_annotation(dtype=...)), else None."""
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, str):
                return E.StringImm(v)
            if isinstance(v, (bool, int, float)):
                return literal(v)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
                and isinstance(node.operand, ast.Constant) \
                and isinstance(node.operand.value, (int, float)) \
                and not isinstance(node.operand.value, bool):
            inner = self.call_literal(node.operand)
            return type(inner)(inner.dtype, -inner.value)
        if isinstance(node, ast.Name) and not self.is_bound(node.id) \
                and isinstance(self.env.get(node.id), str):
            return E.StringImm(self.env[node.id])
        # T.bool(False) is the literal False (TVM prints bool IntImms so).
        if isinstance(node, ast.Call) and self.t_name(node.func) == "bool" \
                and len(node.args) == 1 and not node.keywords \
                and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, bool):
            return self.call_literal(node.args[0])
        if isinstance(node, ast.Call) and self.t_name(node.func) == "type_annotation":
            dtype = None
            for kw in node.keywords:
                if kw.arg == "dtype":
                    dtype = self.static_value(kw.value)
            if node.args:
                dtype = self.static_value(node.args[0])
            if dtype != "handle" and dtype not in DTYPES and not is_vector_dtype(str(dtype)):
                self.error(node, f"unsupported dtype {dtype!r}")
            return E.Call(dtype, "tir.type_annotation", [])
        return None

    # How many positional arguments each T.<name> of an expression takes:
    # (least, most, how to write it).
    ARITY = {
        **{n: (2, 2, f"T.{n}(a, b)") for n in (
            "max", "min", "floordiv", "floormod", "ceildiv", "shift_left",
            "shift_right", "bitwise_and", "bitwise_or", "bitwise_xor", "truncdiv", "truncmod",
            "Add", "Sub", "Mul", "FloorDiv", "FloorMod", "Min", "Max",
            "LT", "LE", "GT", "GE", "EQ", "NE", "And", "Or")},
        **{n: (1, 1, f"T.{n}(x)") for n in _MATH + ("sigmoid", "likely")},
        "min_value": (1, 1, 'T.min_value("dtype")'),
        "max_value": (1, 1, 'T.max_value("dtype")'),
        "Cast": (2, 2, 'T.Cast("dtype", x)'),
        "cast": (1, 2, 'T.cast(x, "dtype")'),
        "if_then_else": (3, 3, "T.if_then_else(cond, a, b)"),
        "Select": (3, 3, "T.Select(cond, a, b)"),
    }

    # TVMScript's constructors of binary nodes (T.Add(a, b) is a + b).
    NODE_BINARY = {"Add": E.Add, "Sub": E.Sub, "Mul": E.Mul, "FloorDiv": E.FloorDiv,
                   "FloorMod": E.FloorMod, "Min": E.Min, "Max": E.Max}
    NODE_COMPARE = {"LT": E.LT, "LE": E.LE, "GT": E.GT, "GE": E.GE, "EQ": E.EQ, "NE": E.NE}

    def check_arity(self, node, name):
        """A clear error, at the user's line, for a T.<name>(...) call with
        the wrong number of arguments."""
        arity = self.ARITY.get(name)
        if arity is None:
            return
        least, most, form = arity
        given = len(node.args)
        if least <= given <= most:
            return
        takes = str(least) if least == most else f"{least} or {most}"
        self.error(node, f"T.{name} takes {takes} argument{'s' if most > 1 else ''} "
                         f"({form}), got {given}")

    def dtype_arg(self, node, dtype):
        if dtype not in DTYPES:
            self.error(node, f"unsupported dtype {dtype!r}")
        return dtype

    def call(self, node):
        name = self.t_name(node.func)
        if name is None:
            func = self.python_callee(node.func)
            if callable(func):
                return self.call_helper(node, func)
        self.check_arity(node, name)
        if name in DTYPES:  # T.float32(0), T.float32("-inf"), T.int64(n)
            special = self.static_value(node.args[0]) if node.args else None
            if isinstance(special, str):
                key = special.strip().lower()
                if not _is_float(name) or key not in ("inf", "-inf", "nan"):
                    self.error(node, f"T.{name}({special!r}) is not inf, -inf or nan")
                return E.FloatImm(name, float(key))
            value = self.expr(node.args[0]) if node.args else E.IntImm("int32", 0)
            if isinstance(value, (E.IntImm, E.FloatImm)):
                return self.constant(value.value, name, node)
            return self.cast(value, name)
        if name in ("min_value", "max_value"):
            import numpy
            dtype = self.dtype_arg(node, self.static_value(node.args[0]))
            if dtype == "bool":
                return E.IntImm("bool", name == "max_value")
            info = numpy.finfo(dtype) if _is_float(dtype) else numpy.iinfo(dtype)
            limit = info.min if name == "min_value" else info.max
            return E.const(float(limit) if _is_float(dtype) else int(limit), dtype)
        if name == "Cast":
            dtype = self.dtype_arg(node, self.static_value(node.args[0]))
            return self.cast(self.expr(node.args[1]), dtype)
        if name == "cast":  # T.cast(value, dtype)
            dtype = self.static_value(node.args[1]) if len(node.args) > 1 else None
            for kw in node.keywords:
                if kw.arg == "dtype":
                    dtype = self.static_value(kw.value)
            return self.cast(self.expr(node.args[0]), self.dtype_arg(node, dtype))
        if name in self.NODE_BINARY:  # T.Add(a, b): the node written by name
            return self.binary(self.NODE_BINARY[name], self.expr(node.args[0]),
                               self.expr(node.args[1]), node)
        if name in self.NODE_COMPARE:  # T.LT(a, b) is a < b
            a, b = self.unify(self.expr(node.args[0]), self.expr(node.args[1]), node)
            return self.NODE_COMPARE[name](a, b)
        if name in ("And", "Or"):
            a, b = self.expr(node.args[0]), self.expr(node.args[1])
            if a.dtype != "bool" or b.dtype != "bool":
                self.error(node, f"T.{name} takes conditions")
            return (E.And if name == "And" else E.Or)(a, b)
        if name in ("max", "min"):
            return self.binary(E.Max if name == "max" else E.Min, self.expr(node.args[0]),
                               self.expr(node.args[1]), node)
        if name in ("floordiv", "floormod", "truncdiv", "truncmod"):
            cls = {"floordiv": E.FloorDiv, "floormod": E.FloorMod, "truncdiv": E.Div,
                   "truncmod": E.Mod}[name]
            a, b = self.unify(self.expr(node.args[0]), self.expr(node.args[1]), node)
            if name.startswith("trunc") and not _is_int(a.dtype):
                self.error(node, f"T.{name} takes integers, got {a.dtype}")
            self.check_divisor(name, b, node)
            return E.make_binary(cls, a, b)
        if name == "ceildiv":
            a, b = self.unify(self.expr(node.args[0]), self.expr(node.args[1]), node)
            self.check_divisor(name, b, node)
            return E.ceildiv(a, b)
        if self.is_opaque_call(node):
            return self.opaque_call(node)
        if name == "sigmoid":
            # TVM's intrinsic, written out as its lowering writes it:
            # 1 / (1 + exp(-x)).
            value = self.expr(node.args[0])
            if not _is_float(value.dtype):
                self.error(node, "T.sigmoid takes a floating-point value")
            one = E.FloatImm(value.dtype, 1.0)
            neg = E.make_binary(E.Sub, E.FloatImm(value.dtype, 0.0), value)
            return E.make_binary(E.Div, one, E.make_binary(
                E.Add, one, E.Call(value.dtype, "tir.exp", [neg])))
        if name in _MATH:
            value = self.expr(node.args[0])
            if isinstance(value, E.IntImm):
                value = E.FloatImm("float32", value.value)
            if not _is_float(value.dtype):
                self.error(node, f"T.{name} takes a floating-point value")
            return E.Call(value.dtype, "tir." + name, [value])
        if name in _BITWISE:
            a, b = self.unify(self.expr(node.args[0]), self.expr(node.args[1]), node)
            if not _is_int(a.dtype):
                self.error(node, f"T.{name} takes integers of a fixed width, got {a.dtype}")
            return E.Call(a.dtype, "tir." + name, [a, b])
        if name == "vscale":
            if node.args or node.keywords:
                self.error(node, "T.vscale() takes no arguments")
            return E.Call("int32", "tir.vscale", [])
        if name == "likely":
            return self.expr(node.args[0])
        if name == "if_then_else":
            # Only the side the condition picks is evaluated (the padding
            # idiom reads out of bounds on the other side).
            cond = self.expr(node.args[0])
            if cond.dtype != "bool":
                self.error(node, f"T.if_then_else needs a boolean condition, got {cond.dtype}")
            a, b = self.unify(self.expr(node.args[1]), self.expr(node.args[2]), node)
            return E.Call(a.dtype, "tir.if_then_else", [cond, a, b])
        if name == "Select":  # both sides evaluated, as TVM's Select
            cond = self.expr(node.args[0])
            a, b = self.unify(self.expr(node.args[1]), self.expr(node.args[2]), node)
            return E.Select(cond, a, b)
        self.error(node, f"unsupported call {ast.unparse(node.func)}")

    # --------------------------------------------------------- Python helpers
    def python_callee(self, node):
        """The Python callable `node` names (a name of the script's scope,
        an attribute of one, or a call of one with constant arguments);
        None when it names none."""
        if isinstance(node, ast.Name):
            if self.is_bound(node.id) or node.id not in self.env:
                return None
            return self.env[node.id]
        if isinstance(node, ast.Attribute):
            if self.t_name(node) is not None:
                return None
            base = self.python_callee(node.value)
            return getattr(base, node.attr, None) if base is not None else None
        if isinstance(node, ast.Call):
            func = self.python_callee(node.func)
            if not callable(func):
                return None
            args = [self.static_value(a) for a in node.args]
            kwargs = {kw.arg: self.static_value(kw.value) for kw in node.keywords}
            if any(a is None for a in args) or any(v is None for v in kwargs.values()):
                return None
            return func(*args, **kwargs)
        return None

    def call_helper(self, node, func):
        """A call of a plain Python function of the script's scope (TVM's
        meta-programming, as tensor intrinsics' converters): it runs on
        the arguments (constants as Python values, expressions as nodes)
        and its result, an expression, stands for the call."""
        def argument(arg):
            constant = self.static_value(arg)
            return constant if constant is not None else self.expr(arg)

        args = [argument(a) for a in node.args]
        kwargs = {kw.arg: argument(kw.value) for kw in node.keywords}
        try:
            result = E.convert(func(*args, **kwargs))
        except Exception as e:  # the helper's own error, at the script's line
            self.error(node, f"the Python helper {ast.unparse(node.func)} failed: {e}")
        return result
