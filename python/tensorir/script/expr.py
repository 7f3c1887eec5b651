"""TVMScript expressions to tir: index arithmetic kept as index-expression
text where tir's syntax can hold it, everything else as arith / math / tir
ops. Mixed into FunctionParser (parser.py), which provides emit, error,
lookup, fresh and the statement side."""
import ast

from .values import DTYPES, Buffer, Value


class ExprParser:
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
        tree = ast.parse(value.text.replace("%", "_p_").replace("floordiv", "//").replace("mod", "%"), mode="eval").body
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
                   ast.Mod: "mod"}
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

    def constant(self, number, type, node):
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
        self.emit(f"{name} = arith.constant {text} : {type}" + self.loc(node))
        return Value(name, type)

    def coerce(self, value, type, node):
        if value.type == type and not value.affine:
            return value
        if value.literal is not None:
            return self.constant(value.literal, type, node)
        value = self.materialize(value, node)
        if value.type == type:
            return value
        return self.cast(value, type, node)

    def cast(self, value, type, node):
        src = value.type
        name = self.fresh()
        is_float = lambda t: t.startswith("f") or t == "bf16"
        width = lambda t: 64 if t == "index" else int(t[1:]) if t[1:].isdigit() else 16
        if src == "index" and not is_float(type):
            op = "arith.index_cast"
        elif src == "index":
            mid = self.fresh()
            self.emit(f"{mid} = arith.index_cast {value.text} : index to i64" + self.loc(node))
            self.emit(f"{name} = arith.sitofp {mid} : i64 to {type}" + self.loc(node))
            return Value(name, type)
        elif type == "index":
            op = "arith.index_cast" if not is_float(src) else None
            if op is None:
                mid = self.fresh()
                self.emit(f"{mid} = arith.fptosi {value.text} : {src} to i64" + self.loc(node))
                self.emit(f"{name} = arith.index_cast {mid} : i64 to index" + self.loc(node))
                return Value(name, type)
        elif is_float(src) and is_float(type):
            op = "arith.extf" if width(type) > width(src) else "arith.truncf"
        elif is_float(src):
            op = "arith.fptosi"
        elif is_float(type):
            op = "arith.sitofp"
        else:
            op = "arith.extsi" if width(type) > width(src) else "arith.trunci"
        self.emit(f"{name} = {op} {value.text} : {src} to {type}" + self.loc(node))
        return Value(name, type)

    def unify(self, a, b, node):
        """Operands of one type: literals take the other side's type."""
        if a.literal is not None and b.literal is None:
            a = self.coerce(a, b.type, node)
        elif b.literal is not None and a.literal is None:
            b = self.coerce(b, a.type, node)
        elif a.literal is not None and b.literal is not None:
            t = "f32" if isinstance(a.literal, float) or isinstance(b.literal, float) else "i32"
            a, b = self.coerce(a, t, node), self.coerce(b, t, node)
        a, b = self.materialize(a, node), self.materialize(b, node)
        # Loop and block variables (index) meet integers of the buffers: the
        # variable takes the integer type, as TVM's int32 variables do.
        is_int = lambda t: t is not None and t.startswith("i") and t[1:].isdigit()
        if a.type == "index" and is_int(b.type):
            a = self.cast(a, b.type, node)
        elif b.type == "index" and is_int(a.type):
            b = self.cast(b, a.type, node)
        if a.type != b.type:
            self.error(node, f"operands of different types: {a.type} and {b.type}")
        return a, b

    def binary(self, op, a, b, node):
        literal_b = b if b.literal is not None else None
        a, b = self.unify(a, b, node)
        t = a.type
        is_float = t.startswith("f") or t == "bf16"
        if op == "mod" and not is_float:
            # Floor modulo, as Python's % and T.floormod: a - (a // b) * b
            # (a literal b is written out at each use, as the printer does).
            q = self.binary("floordiv", a, b, node)
            again = self.coerce(literal_b, t, node) if literal_b is not None else b
            return self.binary("sub", a, self.binary("mul", q, again, node), node)
        names = {
            "add": ("arith.addf", "arith.addi"), "sub": ("arith.subf", "arith.subi"),
            "mul": ("arith.mulf", "arith.muli"), "div": ("arith.divf", None),
            "floordiv": (None, "arith.floordivsi"), "mod": (None, None),
            "max": ("arith.maximumf", "arith.maxsi"), "min": ("arith.minimumf", "arith.minsi"),
        }
        if op == "div" and not is_float:
            self.error(node, "'/' of integers: use // (floor division) or T.floordiv")
        fop = names[op][0 if is_float else 1]
        if fop is None:
            self.error(node, f"{op} of floats is not supported")
        name = self.fresh()
        self.emit(f"{name} = {fop} {a.text}, {b.text} : {t}" + self.loc(node))
        return Value(name, t)

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
        if op in ("floordiv", "mod") and is_zero(b):
            return None
        symbol = {"add": "+", "sub": "-", "mul": "*", "floordiv": "floordiv",
                  "mod": "mod"}.get(op)
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
            return value
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
            preds = {ast.Lt: ("olt", "slt"), ast.LtE: ("ole", "sle"), ast.Gt: ("ogt", "sgt"),
                     ast.GtE: ("oge", "sge"), ast.Eq: ("oeq", "eq"), ast.NotEq: ("one", "ne")}
            pred = preds[type(node.ops[0])][0 if is_float else 1]
            name = self.fresh()
            op = "arith.cmpf" if is_float else "arith.cmpi"
            self.emit(f"{name} = {op} {pred}, {a.text}, {b.text} : {a.type}" + self.loc(node))
            return Value(name, "i1")
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
            return Value(name, buf.element)
        if isinstance(node, ast.Call):
            return self.call(node)
        self.error(node, f"unsupported expression ({type(node).__name__})")

    def call(self, node):
        name = self.t_name(node.func)
        if name in DTYPES:  # T.float32(0), T.float32("-inf")
            special = self.static_value(node.args[0]) if node.args else None
            if isinstance(special, str):
                return self.special_float(special, DTYPES[name], node)
            value = self.expr(node.args[0]) if node.args else Value(None, None, literal=0)
            return self.coerce(value, DTYPES[name], node)
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
            return self.constant(float(limit) if t.startswith("f") else int(limit), t, node)
        if name == "Cast":
            dtype = self.static_value(node.args[0])
            if dtype not in DTYPES:
                self.error(node, f"unsupported dtype {dtype!r}")
            return self.coerce(self.expr(node.args[1]), DTYPES[dtype], node)
        if name in ("max", "min"):
            return self.binary(name, self.expr(node.args[0]), self.expr(node.args[1]), node)
        if name in ("floordiv", "floormod"):
            a, b = self.expr(node.args[0]), self.expr(node.args[1])
            op = "floordiv" if name == "floordiv" else "mod"
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
            return self.coerce(self.expr(node.args[0]), DTYPES[dtype], node)
        if name in ("if_then_else", "Select"):
            cond = self.materialize(self.expr(node.args[0]), node)
            a, b = self.unify(self.expr(node.args[1]), self.expr(node.args[2]), node)
            result = self.fresh()
            self.emit(f"{result} = arith.select {cond.text}, {a.text}, {b.text} : {a.type}" + self.loc(node))
            return Value(result, a.type)
        self.error(node, f"unsupported call {ast.unparse(node.func)}")
