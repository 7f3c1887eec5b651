"""TVMScript expressions to tir: index arithmetic kept as index-expression
text where tir's syntax can hold it, everything else as arith / math / tir
ops. Mixed into FunctionParser (parser.py), which provides emit, error,
lookup, fresh and the statement side."""
import ast

from .helpers import call_helper, python_callee
from .values import DTYPES, Buffer, ShapeVar, Value

# PrimExpr operations -> the parser's binary operations
_PRIM_OPS = {"add": "add", "sub": "sub", "mul": "mul", "floordiv": "floordiv",
             "floormod": "mod", "ceildiv": "ceildiv", "min": "min", "max": "max"}


# TVM builtins that take their result dtype first (with no dtype= keyword).
_DTYPE_FIRST = ("call_extern", "call_pure_extern", "call_llvm_intrin", "call_llvm_pure_intrin")
# Fixed-point multiplies (int32 results unless dtype= says otherwise).
_INT32_RESULT = ("q_multiply_shift", "q_multiply_shift_per_axis")
_OPAQUE = _DTYPE_FIRST + _INT32_RESULT + ("call_packed", "call_intrin", "address_of",
                                          "assume")


def mlir_type(dtype):
    """The MLIR type of a TVM dtype: scalars, "handle" (a pointer),
    vectors such as "int8x4"; None for "" / "void"."""
    import re
    if dtype in ("", "void", None):
        return None
    if dtype == "handle":
        return "!llvm.ptr"
    if dtype in DTYPES:
        return DTYPES[dtype]
    match = re.fullmatch(r"([a-z]+\d+)x(\d+)", dtype)
    if match and match.group(1) in DTYPES:
        return f"vector<{match.group(2)}x{DTYPES[match.group(1)]}>"
    return False


class ExprParser:
    # ----------------------------------------------------------- opaque calls
    def is_opaque_call(self, call):
        name = self.t_name(call.func)
        return name is not None and (name in _OPAQUE or name.startswith("tvm_")
                                     or name.startswith("ptx_"))

    def opaque_call(self, call, statement=False):
        """A call to a TVM builtin or an external function, as tir.call:
        callee is the builtin's name, arguments as written (strings and
        numbers as literals, buffers' .data as the buffer). Returns the
        result Value, or None when the call returns nothing. As a statement
        (`statement`), a "handle" result is dropped: TVM evaluates the call
        for its effect, and prints it without the dtype."""
        name = self.t_name(call.func)
        args = list(call.args)
        dtype = None
        for kw in call.keywords:
            if kw.arg != "dtype":
                self.error(kw.value, f"T.{name} takes no keyword '{kw.arg}'")
            dtype = self.static_value(kw.value)
        if dtype is None and name in _INT32_RESULT:
            dtype = "int32"
        if dtype is None and name in _DTYPE_FIRST:
            if not args or not isinstance(self.static_value(args[0]), str):
                self.error(call, f"T.{name} takes the result dtype first")
            dtype, args = self.static_value(args[0]), args[1:]
        result_type = mlir_type(dtype)
        if result_type is False:
            self.error(call, f"unsupported dtype {dtype!r}")
        if statement and dtype == "handle":
            result_type = None
        texts, operands, types = [], [], []
        for arg in args:
            literal = self.call_literal(arg)
            if literal is not None:
                texts.append(literal)
                continue
            if isinstance(arg, ast.Call) and self.is_opaque_call(arg):
                value = self.opaque_call(arg)
                if value is None:
                    self.error(arg, "this call returns nothing (give it a dtype)")
            else:
                value = self.materialize(self.expr(arg), arg)
                if value.type is None:
                    value = self.coerce(value, "f32", arg)
            texts.append(value.text)
            types.append(value.type)
        result = self.fresh() if result_type else None
        text = (f"{result} = " if result else "") + f'tir.call "{name}"({", ".join(texts)})'
        text += f" : ({', '.join(types)}) -> {result_type or '()'}"
        self.emit(text + self.loc(call))
        return Value(result, result_type, unsigned=dtype.startswith("uint")) \
            if result else None

    def call_literal(self, node):
        """MLIR attribute text for a literal call argument (a string, an
        int, a float, T.type_annotation(dtype=...)), else None."""
        if isinstance(node, ast.Constant):
            v = node.value
            if isinstance(v, str):
                escaped = v.replace("\\", "\\\\").replace('"', '\\"')
                return f'"{escaped}"'
            if isinstance(v, bool):
                return "true" if v else "false"
            if isinstance(v, int):
                return f"{v} : {'i32' if -2**31 <= v < 2**31 else 'i64'}"
            if isinstance(v, float):
                text = repr(v)
                if "e" in text and "." not in text:
                    text = text.replace("e", ".0e")
                return f"{text} : f32"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub) \
                and isinstance(node.operand, ast.Constant) \
                and isinstance(node.operand.value, (int, float)) \
                and not isinstance(node.operand.value, bool):
            inner = self.call_literal(node.operand)
            return "-" + inner
        if isinstance(node, ast.Name) and not self.is_bound(node.id) \
                and isinstance(self.env.get(node.id), str):
            return self.call_literal(ast.Constant(self.env[node.id]))
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
            t = mlir_type(dtype)
            if not t:
                self.error(node, f"unsupported dtype {dtype!r}")
            return t
        return None

    # ------------------------------------------------------ buffer attributes
    def buffer_attribute(self, node, buf):
        """`A.data` (the buffer itself, as calls take it), `A.elem_offset`
        and `A.strides[i]` (from the buffer's layout)."""
        if node.attr == "data":
            return Value(buf.ssa, buf.type)
        if node.attr == "elem_offset":
            if buf.strides is None:
                return Value("0", "index", affine=True, literal=0)  # identity layout
            offset, _ = self.strided_metadata(buf, node)
            return Value(offset, "index", affine=True)
        self.error(node, f"unsupported buffer attribute '.{node.attr}'")

    def access_ptr(self, node, buf):
        """`B.access_ptr("r", extent=128)`: TVM's tvm_access_ptr (element
        type, buffer, offset, extent, read/write mask) as an opaque call."""
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
        offset = self.materialize(self.as_index(self.expr(kws["offset"]), node), node) \
            if "offset" in kws else None
        if "extent" in kws:
            extent = self.materialize(self.as_index(self.expr(kws["extent"]), node), node)
        else:
            size = 1
            for d in buf.shape:
                if not isinstance(d, int):
                    self.error(node, "access_ptr of a dynamic buffer needs extent=")
                size *= d
            extent = self.constant(size, "index", node)
        if offset is None:
            offset = self.constant(0, "index", node)
        result = self.fresh()
        self.emit(f'{result} = tir.call "tvm_access_ptr"({buf.element}, {buf.ssa}, '
                  f'{offset.text}, {extent.text}, {masks.get(mask, mask)} : i32) : '
                  f"({buf.type}, index, index) -> !llvm.ptr" + self.loc(node))
        return Value(result, "!llvm.ptr")

    def strided_metadata(self, buf, node):
        """(offset SSA, [stride SSA]) of a buffer, read with
        memref.extract_strided_metadata."""
        rank = len(buf.shape)
        base, offset, sizes, strides = (self.fresh("base"), self.fresh("offset"),
                                        self.fresh("sizes"), self.fresh("strides"))
        base_type = f"memref<{buf.element}" + (
            f', "{buf.scope}"' if buf.scope and buf.scope != "global" else "") + ">"
        results = f"{base}, {offset}, {sizes}:{rank}, {strides}:{rank}" if rank else \
            f"{base}, {offset}"
        self.emit(f"{results} = "
                  f"memref.extract_strided_metadata {buf.ssa} : {buf.type} -> {base_type}, "
                  + ", ".join(["index"] * (1 + 2 * rank)) + self.loc(node))
        return offset, [f"{strides}#{k}" for k in range(rank)]

    def vscale_value(self, node):
        """The function's `vector.vscale` (one, at function entry)."""
        if self.vscale is None:
            if self.entry_index is None:
                self.error(node, "T.vscale() in a parameter annotation is not supported; "
                                 "use T.handle and T.match_buffer")
            name = "vscale"
            while any(name in used for used in self.names_in_use):
                name += "_"
            self.names_in_use[0].add(name)
            self.vscale = Value("%" + name, "index")
            self.lines.insert(self.entry_index,
                              f"  %{name} = vector.vscale" + self.loc(node))
        return self.vscale

    def prim_expr(self, expr, node):
        """An index Value for a PrimExpr from the Python scope
        (`4 * T.vscale()`): index-expression text where tir's syntax holds
        it, arith ops otherwise (T.min / T.max)."""
        try:
            text = expr.index_text(lambda leaf: self.vscale_value(node).text)
            return Value(text, "index", affine=True)
        except ValueError:
            pass
        from ..tir.size_expr import BinaryExpr, VScale  # tir imports this module

        def build(e):
            if isinstance(e, int):
                return Value(str(e), "index", affine=True, literal=e)
            if isinstance(e, VScale):
                return self.vscale_value(node)
            if isinstance(e, BinaryExpr):
                a, b = build(e.a), build(e.b)
                op = _PRIM_OPS[e.op]
                return self.affine_binary(op, a, b) or self.binary(op, a, b, node)
            self.error(node, f"unsupported symbolic expression {e!r}")
        return build(expr)

    def materialize(self, value, node):
        """An SSA value for `value` (affine index text becomes arith ops)."""
        if value.literal is not None and not value.affine:
            return self.constant(value.literal, value.type or "f32", node)
        if not value.affine:
            return value
        if value.text.lstrip("-").isdigit():
            return self.constant(int(value.text), "index", node)
        if value.text.startswith("%") and " " not in value.text:
            return value  # a plain SSA name
        if value.text.startswith("symbol(%") and value.text.count("(") == 1:
            return Value(value.text[len("symbol("):-1], "index")
        # Rebuild the affine expression with arith ops.
        text = (value.text.replace("%", "_p_").replace(" floordiv ", " // ")
                .replace(" ceildiv ", " @ ").replace(" mod ", " % "))
        tree = ast.parse(text, mode="eval").body
        return self.arith_from_tree(tree, node)

    def arith_from_tree(self, tree, node):
        if isinstance(tree, ast.Name):
            return Value(tree.id.replace("_p_", "%"), "index")
        if (isinstance(tree, ast.Call) and isinstance(tree.func, ast.Name)
                and tree.func.id == "symbol" and len(tree.args) == 1):
            return self.arith_from_tree(tree.args[0], node)
        if isinstance(tree, ast.Constant):
            return Value(str(tree.value), "index", affine=True, literal=tree.value)
        if isinstance(tree, ast.UnaryOp) and isinstance(tree.op, ast.USub):
            zero = self.constant(0, "index", node)
            return self.binary("sub", zero, self.arith_from_tree(tree.operand, node), node)
        if isinstance(tree, ast.BinOp):
            ops = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.FloorDiv: "floordiv",
                   ast.Mod: "mod", ast.MatMult: "ceildiv"}
            return self.binary(ops[type(tree.op)], self.arith_from_tree(tree.left, node),
                               self.arith_from_tree(tree.right, node), node)
        self.error(node, "unsupported index expression")

    def special_float(self, text, type, node):
        bits = {("f32", "inf"): "0x7F800000", ("f32", "-inf"): "0xFF800000",
                ("f32", "nan"): "0x7FC00000", ("f64", "inf"): "0x7FF0000000000000",
                ("f64", "-inf"): "0xFFF0000000000000", ("f64", "nan"): "0x7FF8000000000000",
                ("f16", "inf"): "0x7C00", ("f16", "-inf"): "0xFC00", ("f16", "nan"): "0x7E00"}
        key = (type, text.strip().lower())
        if key not in bits:
            self.error(node, f"T.{type}({text!r}) is not inf, -inf or nan")
        name = self.fresh("c")
        self.emit(f"{name} = arith.constant {bits[key]} : {type}" + self.loc(node))
        return Value(name, type)

    def constant(self, number, type, node, unsigned=False):
        if type.startswith("f") or type == "bf16":
            text = repr(float(number))
            if text in ("inf", "-inf", "nan"):
                return self.special_float(text, type, node)
            if "e" in text and "." not in text:
                text = text.replace("e", ".0e")  # MLIR wants 1.0e+300
        elif type == "i1":
            text = "true" if number else "false"
        else:
            text = str(int(number))
        name = self.fresh("c")
        suffix = "" if type == "i1" else f" : {type}"  # `true` / `false` are i1
        self.emit(f"{name} = arith.constant {text}{suffix}" + self.loc(node))
        return Value(name, type, unsigned=unsigned)

    def coerce(self, value, type, node, unsigned=False):
        """`value` as a value of `type` (`unsigned`: of a uint dtype). An
        integer of the same width changes only its signedness, as TVM's
        Cast between int8 and uint8 keeps the bits."""
        if value.literal is not None:
            if value.type == type and not value.affine:
                return value
            return self.constant(value.literal, type, node, unsigned)
        value = self.materialize(value, node)
        if value.type != type:
            return self.cast(value, type, node, unsigned)
        if value.unsigned == unsigned:
            return value
        return Value(value.text, type, unsigned=unsigned)

    def dtype_value(self, value, dtype, node):
        """`value` as a value of TVM dtype `dtype` (T.Cast, T.uint8(x))."""
        return self.coerce(value, DTYPES[dtype], node, dtype.startswith("uint"))

    def cast(self, value, type, node, unsigned=False):
        """An op converting `value` to `type`. The source's signedness
        picks extension and integer-to-float conversion (a bool extends
        with zeros: True is 1), the result's (`unsigned`) float-to-integer
        conversion."""
        src = value.type
        name = self.fresh()
        is_float = lambda t: t.startswith("f") or t == "bf16"
        width = lambda t: 64 if t == "index" else int(t[1:]) if t[1:].isdigit() else 16
        from_unsigned = value.unsigned or src == "i1"
        if src == "index" and not is_float(type):
            op = "arith.index_cast"
        elif src == "index":
            mid = self.fresh()
            self.emit(f"{mid} = arith.index_cast {value.text} : index to i64" + self.loc(node))
            self.emit(f"{name} = arith.sitofp {mid} : i64 to {type}" + self.loc(node))
            return Value(name, type)
        elif type == "index":
            op = ("arith.index_castui" if from_unsigned else "arith.index_cast") \
                if not is_float(src) else None
            if op is None:
                mid = self.fresh()
                self.emit(f"{mid} = arith.fptosi {value.text} : {src} to i64" + self.loc(node))
                self.emit(f"{name} = arith.index_cast {mid} : i64 to index" + self.loc(node))
                return Value(name, type)
        elif is_float(src) and is_float(type):
            op = "arith.extf" if width(type) > width(src) else "arith.truncf"
        elif is_float(src):
            op = "arith.fptoui" if unsigned else "arith.fptosi"
        elif is_float(type):
            op = "arith.uitofp" if from_unsigned else "arith.sitofp"
        elif width(type) > width(src):
            op = "arith.extui" if from_unsigned else "arith.extsi"
        else:
            op = "arith.trunci"
        self.emit(f"{name} = {op} {value.text} : {src} to {type}" + self.loc(node))
        return Value(name, type, unsigned=unsigned)

    def branch(self, expr_node):
        """Evaluates `expr_node` into lines of its own, one level deeper:
        (value, lines). Lines inserted at function entry stay there."""
        mark = object()
        self.lines.append(mark)
        self.indent += 1
        try:
            value = self.expr(expr_node)
        finally:
            self.indent -= 1
        at = self.lines.index(mark)
        lines = self.lines[at + 1:]
        del self.lines[at:]
        return value, lines

    def in_lines(self, lines, fn):
        """Runs `fn` with its emitted lines appended to `lines` (one level
        deeper)."""
        saved, self.lines = self.lines, lines
        self.indent += 1
        try:
            return fn()
        finally:
            self.indent -= 1
            self.lines = saved

    def if_then_else(self, node):
        """TVM's T.if_then_else evaluates only the side its condition picks
        (the padding idiom reads out of bounds on the other side): an
        scf.if yielding the chosen value."""
        cond = self.materialize(self.expr(node.args[0]), node)
        if cond.type != "i1":
            self.error(node, f"T.if_then_else needs a boolean condition, got {cond.type}")
        a, a_lines = self.branch(node.args[1])
        b, b_lines = self.branch(node.args[2])
        # The type both sides take, found as unify would (on scratch lines).
        scratch = []
        unified = self.in_lines(scratch, lambda: self.unify(a, b, node))[0]
        result_type, unsigned = unified.type, unified.unsigned
        a = self.in_lines(a_lines, lambda: self.materialize(
            self.coerce(a, result_type, node, unsigned), node))
        b = self.in_lines(b_lines, lambda: self.materialize(
            self.coerce(b, result_type, node, unsigned), node))
        result = self.fresh()
        loc = self.loc(node)
        self.emit(f"{result} = scf.if {cond.text} -> ({result_type}) {{")
        self.lines.extend(a_lines)
        self.emit(f"  scf.yield {a.text} : {result_type}" + loc)
        self.emit("} else {")
        self.lines.extend(b_lines)
        self.emit(f"  scf.yield {b.text} : {result_type}" + loc)
        self.emit("}" + loc)
        return Value(result, result_type, unsigned=unsigned)

    def unify(self, a, b, node):
        """Operands of one type: literals take the other side's type (and
        signedness); integers of one width, one signed and one unsigned,
        are both unsigned (TVM's and C's rule)."""
        if a.literal is not None and b.literal is None:
            a = self.coerce(a, b.type, node, b.unsigned)
        elif b.literal is not None and a.literal is None:
            b = self.coerce(b, a.type, node, a.unsigned)
        elif a.literal is not None and b.literal is not None:
            t = "f32" if isinstance(a.literal, float) or isinstance(b.literal, float) else "i32"
            a, b = self.coerce(a, t, node), self.coerce(b, t, node)
        a, b = self.materialize(a, node), self.materialize(b, node)
        # Loop and block variables (index) meet integers of the buffers: the
        # variable takes the integer type, as TVM's int32 variables do.
        is_int = lambda t: t is not None and t.startswith("i") and t[1:].isdigit()
        is_float = lambda t: t is not None and (t.startswith("f") or t == "bf16")
        if a.type == "index" and is_int(b.type):
            a = self.cast(a, b.type, node, b.unsigned)
        elif b.type == "index" and is_int(a.type):
            b = self.cast(b, a.type, node, a.unsigned)
        elif is_float(a.type) and (b.type == "index" or is_int(b.type)):
            b = self.cast(b, a.type, node)  # TVM converts the integer operand
        elif is_float(b.type) and (a.type == "index" or is_int(a.type)):
            a = self.cast(a, b.type, node)
        if a.type != b.type:
            self.error(node, f"operands of different types: {a.type} and {b.type}")
        if a.unsigned != b.unsigned:
            a, b = self.coerce(a, a.type, node, True), self.coerce(b, b.type, node, True)
        return a, b

    def binary(self, op, a, b, node):
        literal_b = b if b.literal is not None else None
        a, b = self.unify(a, b, node)
        t = a.type
        is_float = t.startswith("f") or t == "bf16"
        if op == "mod" and not is_float and not a.unsigned:
            # Signed floor modulo, as Python's % and T.floormod: a - (a // b) * b
            # (a literal b is written out at each use, as the printer does).
            q = self.binary("floordiv", a, b, node)
            again = self.coerce(literal_b, t, node) if literal_b is not None else b
            return self.binary("sub", a, self.binary("mul", q, again, node), node)
        names = {
            "add": ("arith.addf", "arith.addi"), "sub": ("arith.subf", "arith.subi"),
            "mul": ("arith.mulf", "arith.muli"), "div": ("arith.divf", None),
            "floordiv": (None, "arith.floordivsi"), "mod": (None, None),
            "ceildiv": (None, "arith.ceildivsi"),
            "max": ("arith.maximumf", "arith.maxsi"), "min": ("arith.minimumf", "arith.minsi"),
        }
        # Unsigned division rounds down already: floor modulo is remainder.
        unsigned_names = {"floordiv": "arith.divui", "mod": "arith.remui",
                          "ceildiv": "arith.ceildivui", "max": "arith.maxui",
                          "min": "arith.minui"}
        if op == "div" and not is_float:
            self.error(node, "'/' of integers: use // (floor division) or T.floordiv")
        fop = unsigned_names.get(op, names[op][1]) if a.unsigned else \
            names[op][0 if is_float else 1]
        if fop is None:
            self.error(node, f"{op} of floats is not supported")
        name = self.fresh()
        self.emit(f"{name} = {fop} {a.text}, {b.text} : {t}" + self.loc(node))
        return Value(name, t, unsigned=a.unsigned)

    def as_index(self, value, node):
        """`value` as an index value (an int32 / int64 expression is cast, as
        tir computes every index in `index`), or None for non-integers."""
        if value.is_index:
            return value
        if value.literal is not None and isinstance(value.literal, int):
            return Value(str(value.literal), "index", affine=True, literal=value.literal)
        if value.type and value.type.startswith("i") and value.type[1:].isdigit() \
                and value.type != "i1":
            return self.cast(self.materialize(value, node), "index", node)
        return None

    @staticmethod
    def index_expr_text(value):
        """The index-expression text of an index value, or None: index
        expressions (`%i * 4 + %j`) and plain SSA names of index type."""
        if value.type != "index":
            return None
        if value.affine:
            return value.text
        if value.text and value.text.startswith("%") and " " not in value.text:
            return value.text
        return None

    def affine_binary(self, op, a, b):
        """Index arithmetic kept as tir index-expression text: + - * and
        floor division / modulo (tir's syntax holds non-affine forms too)."""
        at, bt = self.index_expr_text(a), self.index_expr_text(b)
        if at is None or bt is None:
            return None
        is_zero = lambda v: v.literal is not None and v.literal == 0
        if op in ("floordiv", "mod", "ceildiv") and is_zero(b):
            return None
        if isinstance(a.literal, int) and isinstance(b.literal, int) \
                and not isinstance(a.literal, bool) and not isinstance(b.literal, bool):
            # Python integers (constants, closure values) fold, as TVM's
            # parser evaluates `H + 2` in Python: shapes and extents stay static.
            x, y = a.literal, b.literal
            folded = {"add": lambda: x + y, "sub": lambda: x - y, "mul": lambda: x * y,
                      "floordiv": lambda: x // y, "mod": lambda: x % y,
                      "ceildiv": lambda: -(-x // y)}.get(op)
            if folded is not None:
                r = folded()
                return Value(str(r), "index", affine=True, literal=r)
        symbol = {"add": "+", "sub": "-", "mul": "*", "floordiv": "floordiv",
                  "mod": "mod", "ceildiv": "ceildiv"}.get(op)
        if symbol is None:
            return None
        return Value(f"({at} {symbol} {bt})", "index", affine=True)

    def expr(self, node):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, bool):
                return Value(None, "i1", literal=int(node.value))
            if isinstance(node.value, int):
                return Value(str(node.value), "index", affine=True, literal=node.value)
            if isinstance(node.value, float):
                return Value(None, None, literal=node.value)
            self.error(node, f"unsupported constant {node.value!r}")
        if isinstance(node, ast.Name):
            value = self.lookup(node, node.id)
            if isinstance(value, Buffer):
                self.error(node, f"buffer '{node.id}' used as a value; index it")
            if isinstance(value, ShapeVar):
                self.error(node, f"'{node.id}' = T.int32() is not defined here (a "
                                 "T.match_buffer in a block defines it with elem_offset= "
                                 "or strides=)")
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
            operand = self.materialize(self.expr(node.operand), node)
            if operand.type != "i1":
                self.error(node, "'not' takes a condition")
            true = self.constant(1, "i1", node)
            name = self.fresh()
            self.emit(f"{name} = arith.xori {operand.text}, {true.text} : i1" + self.loc(node))
            return Value(name, "i1")
        if isinstance(node, ast.BoolOp):
            op = "arith.andi" if isinstance(node.op, ast.And) else "arith.ori"
            values = [self.materialize(self.expr(v), v) for v in node.values]
            if any(v.type != "i1" for v in values):
                self.error(node, "'and' / 'or' take conditions")
            acc = values[0]
            for v in values[1:]:
                name = self.fresh()
                self.emit(f"{name} = {op} {acc.text}, {v.text} : i1" + self.loc(node))
                acc = Value(name, "i1")
            return acc
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            operand = self.expr(node.operand)
            if operand.literal is not None:
                return Value(str(-operand.literal) if operand.affine else None, operand.type,
                             affine=operand.affine, literal=-operand.literal)
            if operand.affine:
                return Value(f"(0 - {operand.text})", "index", affine=True)
            zero = self.constant(0, operand.type, node)
            return self.binary("sub", zero, operand, node)
        if isinstance(node, ast.BinOp):
            ops = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div",
                   ast.FloorDiv: "floordiv", ast.Mod: "mod"}
            op = ops.get(type(node.op))
            if op is None:
                self.error(node, "unsupported operator")
            a, b = self.expr(node.left), self.expr(node.right)
            if a.is_index and b.is_index:
                affine = self.affine_binary(op, a, b)
                if affine is not None:
                    return affine
            return self.binary(op, a, b, node)
        if isinstance(node, ast.Compare) and len(node.ops) > 1:
            # a < b < c is a < b and b < c
            parts = [ast.copy_location(ast.Compare(left=l, ops=[o], comparators=[r]), node)
                     for l, o, r in zip([node.left] + node.comparators[:-1], node.ops,
                                        node.comparators)]
            return self.expr(ast.copy_location(ast.BoolOp(op=ast.And(), values=parts), node))
        if isinstance(node, ast.Compare):
            a, b = self.unify(self.expr(node.left), self.expr(node.comparators[0]), node)
            is_float = a.type.startswith("f") or a.type == "bf16"
            preds = {ast.Lt: ("olt", "slt", "ult"), ast.LtE: ("ole", "sle", "ule"),
                     ast.Gt: ("ogt", "sgt", "ugt"), ast.GtE: ("oge", "sge", "uge"),
                     ast.Eq: ("oeq", "eq", "eq"), ast.NotEq: ("one", "ne", "ne")}
            pred = preds[type(node.ops[0])][0 if is_float else 2 if a.unsigned else 1]
            name = self.fresh()
            op = "arith.cmpf" if is_float else "arith.cmpi"
            self.emit(f"{name} = {op} {pred}, {a.text}, {b.text} : {a.type}" + self.loc(node))
            return Value(name, "i1")
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "strides" and isinstance(node.value.value, ast.Name):
            buf = self.lookup(node.value, node.value.value.id)
            k = self.static_value(node.slice)
            if not isinstance(buf, Buffer) or not isinstance(k, int) \
                    or not 0 <= k < len(buf.shape):
                self.error(node, "A.strides[k] takes a buffer and a dimension")
            known = buf.element_strides()[k]
            if known is not None:
                return Value(str(known), "index", affine=True, literal=known)
            _, strides = self.strided_metadata(buf, node)
            return Value(strides[k], "index", affine=True)
        if isinstance(node, ast.Subscript):
            if not isinstance(node.value, ast.Name):
                self.error(node, "loads read buffers")
            buf = self.lookup(node.value, node.value.id)
            if not isinstance(buf, Buffer):
                self.error(node, f"'{node.value.id}' is not a buffer")
            idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            indices = ", ".join(self.index_text(i) for i in idx)
            name = self.fresh()
            self.emit(f"{name} = tir.load {buf.ssa}[{indices}] : {buf.type}" + self.loc(node))
            return Value(name, buf.element, unsigned=buf.unsigned)
        if isinstance(node, ast.Call):
            return self.call(node)
        self.error(node, f"unsupported expression ({type(node).__name__})")

    # How many positional arguments each T.<name> of an expression takes:
    # (least, most, how to write it).
    ARITY = {
        **{n: (2, 2, f"T.{n}(a, b)") for n in (
            "max", "min", "floordiv", "floormod", "ceildiv", "shift_left",
            "shift_right", "bitwise_and", "bitwise_or", "bitwise_xor", "truncdiv", "truncmod")},
        **{n: (1, 1, f"T.{n}(x)") for n in (
            "rsqrt", "floor", "ceil", "round", "exp2", "log2", "erf", "sigmoid",
            "exp", "sqrt", "log", "tanh", "sin", "cos", "abs", "likely")},
        "min_value": (1, 1, 'T.min_value("dtype")'),
        "max_value": (1, 1, 'T.max_value("dtype")'),
        "Cast": (2, 2, 'T.Cast("dtype", x)'),
        "cast": (1, 2, 'T.cast(x, "dtype")'),
        "if_then_else": (3, 3, "T.if_then_else(cond, a, b)"),
        "Select": (3, 3, "T.Select(cond, a, b)"),
    }

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

    def call(self, node):
        name = self.t_name(node.func)
        if name is None:
            func = python_callee(self, node.func)
            if callable(func):
                return call_helper(self, node, func)
        self.check_arity(node, name)
        if name in DTYPES:  # T.float32(0), T.float32("-inf")
            special = self.static_value(node.args[0]) if node.args else None
            if isinstance(special, str):
                return self.special_float(special, DTYPES[name], node)
            value = self.expr(node.args[0]) if node.args else Value(None, None, literal=0)
            if (name.startswith("int") or name.startswith("uint")) and value.affine \
                    and isinstance(value.literal, int):
                # T.int64(16): an integer literal, which index arithmetic
                # takes as an index (tir computes indices in `index`) and
                # other arithmetic in the other operand's type.
                return value
            return self.dtype_value(value, name, node)
        if name in ("min_value", "max_value"):
            dtype = self.static_value(node.args[0])
            if dtype not in DTYPES:
                self.error(node, f"unsupported dtype {dtype!r}")
            t = DTYPES[dtype]
            if t.startswith("f"):
                import numpy
                info = numpy.finfo(dtype)
            else:
                import numpy
                info = numpy.iinfo(dtype)
            limit = info.min if name == "min_value" else info.max
            return self.constant(float(limit) if t.startswith("f") else int(limit), t, node,
                                 dtype.startswith("uint"))
        if name == "Cast":
            dtype = self.static_value(node.args[0])
            if dtype not in DTYPES:
                self.error(node, f"unsupported dtype {dtype!r}")
            return self.dtype_value(self.expr(node.args[1]), dtype, node)
        if name in ("max", "min"):
            return self.binary(name, self.expr(node.args[0]), self.expr(node.args[1]), node)
        if self.is_opaque_call(node):
            value = self.opaque_call(node)
            if value is None:
                self.error(node, f"T.{name} returns nothing here (give it a dtype)")
            return value
        if name in ("rsqrt", "floor", "ceil", "round", "exp2", "log2", "erf", "sigmoid"):
            value = self.materialize(self.expr(node.args[0]), node)
            if value.type is None:
                value = self.coerce(value, "f32", node)
            if not (value.type.startswith("f") or value.type == "bf16"):
                self.error(node, f"T.{name} takes a floating-point value")
            op = {"round": "math.roundeven"}.get(name, f"math.{name}")
            if name == "sigmoid":
                self.error(node, "T.sigmoid is not mapped to an op yet")
            result = self.fresh()
            self.emit(f"{result} = {op} {value.text} : {value.type}" + self.loc(node))
            return Value(result, value.type)
        if name in ("shift_left", "shift_right", "bitwise_and", "bitwise_or", "bitwise_xor"):
            a, b = self.unify(self.expr(node.args[0]), self.expr(node.args[1]), node)
            if not (a.type.startswith("i") and a.type[1:].isdigit()):
                self.error(node, f"T.{name} takes integers of a fixed width, got {a.type}")
            op = {"shift_left": "arith.shli",
                  "shift_right": "arith.shrui" if a.unsigned else "arith.shrsi",
                  "bitwise_and": "arith.andi", "bitwise_or": "arith.ori",
                  "bitwise_xor": "arith.xori"}[name]
            result = self.fresh()
            self.emit(f"{result} = {op} {a.text}, {b.text} : {a.type}" + self.loc(node))
            return Value(result, a.type, unsigned=a.unsigned)
        if name == "vscale":
            if node.args or node.keywords:
                self.error(node, "T.vscale() takes no arguments")
            return self.vscale_value(node)
        if name in ("truncdiv", "truncmod"):
            # C's division and remainder (TVM's tir.Div / tir.Mod on integers).
            a, b = self.unify(self.materialize(self.expr(node.args[0]), node.args[0]),
                              self.materialize(self.expr(node.args[1]), node.args[1]), node)
            if not (a.type == "index" or (a.type.startswith("i") and a.type[1:].isdigit())):
                self.error(node, f"T.{name} takes integers, got {a.type}")
            op = {"truncdiv": ("arith.divsi", "arith.divui"),
                  "truncmod": ("arith.remsi", "arith.remui")}[name][bool(a.unsigned)]
            result = self.fresh()
            self.emit(f"{result} = {op} {a.text}, {b.text} : {a.type}" + self.loc(node))
            return Value(result, a.type, unsigned=a.unsigned)
        if name in ("floordiv", "floormod", "ceildiv"):
            a, b = self.expr(node.args[0]), self.expr(node.args[1])
            op = {"floordiv": "floordiv", "floormod": "mod", "ceildiv": "ceildiv"}[name]
            if a.is_index and b.is_index:
                affine = self.affine_binary(op, a, b)
                if affine is not None:
                    return affine
            return self.binary(op, a, b, node)
        if name in ("exp", "sqrt", "log", "tanh", "sin", "cos", "abs"):
            value = self.materialize(self.expr(node.args[0]), node)
            if value.type is None:
                value = self.coerce(value, "f32", node)
            op = {"abs": "math.absf"}.get(name, f"math.{name}")
            result = self.fresh()
            self.emit(f"{result} = {op} {value.text} : {value.type}" + self.loc(node))
            return Value(result, value.type)
        if name == "likely":
            return self.expr(node.args[0])
        if name == "cast":  # T.cast(value, dtype)
            dtype = self.static_value(node.args[1]) if len(node.args) > 1 else None
            for kw in node.keywords:
                if kw.arg == "dtype":
                    dtype = self.static_value(kw.value)
            if dtype not in DTYPES:
                self.error(node, f"unsupported dtype {dtype!r}")
            return self.dtype_value(self.expr(node.args[0]), dtype, node)
        if name == "if_then_else":
            return self.if_then_else(node)
        if name == "Select":  # both sides evaluated, as TVM's Select
            cond = self.materialize(self.expr(node.args[0]), node)
            a, b = self.unify(self.expr(node.args[1]), self.expr(node.args[2]), node)
            result = self.fresh()
            self.emit(f"{result} = arith.select {cond.text}, {a.text}, {b.text} : {a.type}" + self.loc(node))
            return Value(result, a.type, unsigned=a.unsigned)
        self.error(node, f"unsupported call {ast.unparse(node.func)}")
