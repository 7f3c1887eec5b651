"""TVMScript buffer declarations as tir.Buffer nodes: buffer parameters and
T.match_buffer of handles, T.alloc_buffer options, T.match_buffer of a
region inside a block, T.allocate_const with T.decl_buffer /
T.Buffer(data=...) (also through a Python helper of the enclosing scope).
A mixin of the function parser."""
import ast

from ..ir.node import Range
from ..tir import expr as E
from ..tir.buffer import Buffer, BufferRegion, MatchBufferRegion
from ..tir.stmt import AllocateConst
from .values import DTYPES, ConstData, PendingVar, ScriptError


class BufferParser:
    def buffer_decl(self, ann, name):
        if isinstance(ann, ast.Call):
            return self.buffer_from_args(ann, ann.args, name, ann.keywords)
        # T.Buffer[(shape), "dtype"] (older spelling)
        items = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        return self.buffer_from_args(ann, items, name)

    def dimension(self, d):
        """A buffer dimension: a constant, a shape variable or scalar
        parameter, or (an allocation in a body) an integer expression."""
        constant = self.static_value(d)
        if isinstance(constant, int) and not isinstance(constant, bool):
            return E.IntImm("int64" if isinstance(d, ast.Call) and
                            self.t_name(d.func) == "int64" else "int32", constant)
        value = self.lookup(d, d.id) if isinstance(d, ast.Name) else None
        if isinstance(value, E.Var):
            return value
        value = self.expr(d)
        if value.dtype not in E.INT_DTYPES or value.dtype == "bool":
            self.error(d, "buffer dimensions are integer expressions")
        return value

    def buffer_from_args(self, node, args, name, keywords=()):
        # TVM's T.Buffer(shape, dtype, ...), either also by keyword.
        args = list(args)
        given = {kw.arg: kw.value for kw in keywords}
        if not args and "shape" in given:
            args.append(given["shape"])
        if len(args) == 1 and "dtype" in given:
            args.append(given["dtype"])
        keywords = [kw for kw in keywords if kw.arg not in ("shape", "dtype")]
        if not args:
            self.error(node, "a buffer needs a shape")
        shape_node = args[0]
        dims = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [shape_node]
        shape = [self.dimension(d) for d in dims]
        dtype = "float32"
        if len(args) > 1:
            dtype = self.static_value(args[1])
        scope = "global"
        separators = ()
        # TVM's offset_factor without elem_offset=0 leaves a parameter's
        # offset free (a parameter of a tensor intrinsic, matched to a region
        # of a larger buffer), so that `.elem_offset` reads it.
        free_offset = False
        for kw in keywords:
            if kw.arg == "offset_factor" and self.static_value(kw.value) not in (0, None):
                free_offset = self.in_signature and not any(
                    k.arg == "elem_offset" for k in keywords)
        for kw in keywords:
            if kw.arg == "dtype":
                dtype = self.static_value(kw.value)
            elif kw.arg == "scope":
                scope = self.static_value(kw.value)
                if not isinstance(scope, str):
                    self.error(kw.value, "scope is a string")
            elif kw.arg in ("align", "offset_factor"):
                pass  # alignment of the allocation: no effect on the program
            elif kw.arg == "elem_offset" and self.static_value(kw.value) == 0:
                pass  # the identity layout
            elif kw.arg == "axis_separators":
                seps = self.static_value(kw.value)
                if not isinstance(seps, (list, tuple)) or not all(
                        isinstance(x, int) and 0 < x < len(shape) for x in seps):
                    self.error(kw.value, "axis_separators is a list of dimension indices "
                                         "between 1 and the rank - 1")
                separators = tuple(seps)
            elif kw.arg in ("elem_offset", "strides", "buffer_type"):
                self.error(kw.value, f"{kw.arg}= is supported on T.match_buffer of a region "
                                     "inside a block only (buffers here have the identity "
                                     "layout)")
            else:
                self.error(kw.value, f"unsupported buffer option {kw.arg}=")
        if dtype not in DTYPES:
            self.error(node, f"unsupported dtype {dtype!r}")
        buf = Buffer(name, shape, dtype, scope or "global",
                     elem_offset=E.Var(f"{name}_elem_offset") if free_offset else None,
                     offset_factor=1 if free_offset else 0, span=self.span(node))
        # TVM's axis_separators group dimensions into a multi-dimensional
        # physical layout; tir keeps them on the parameter or allocation (a
        # flat memref lowering needs none) and compares them structurally.
        buf.axis_separators = list(separators)
        return buf

    # ---------------------------------------------------------------- regions
    def region(self, item, what):
        """The BufferRegion `A[lo:hi, i]`. A missing bound is the
        dimension's; an index that reads a buffer (TVM's nested access,
        `A[B[vi], vj]`) covers its whole dimension, since a region is index
        expressions over values in scope."""
        if not isinstance(item, ast.Subscript) or not isinstance(item.value, ast.Name):
            self.error(item, f"{what} takes buffer regions like A[vi, 0:4]")
        buf = self.lookup(item.value, item.value.id)
        if not isinstance(buf, Buffer):
            self.error(item, f"'{item.value.id}' is not a buffer")
        idx = item.slice.elts if isinstance(item.slice, ast.Tuple) else [item.slice]
        if len(idx) != len(buf.shape):
            self.error(item, f"{len(idx)} indices for the {len(buf.shape)}-dimensional "
                             f"buffer '{item.value.id}'")
        ranges = []
        for i, dim in zip(idx, buf.shape):
            if isinstance(i, ast.Slice):
                if i.step is not None:
                    self.error(i, "regions with a step are not supported")
                lower = E.IntImm("int32", 0) if i.lower is None else self.index(i.lower)
                upper = dim if i.upper is None else self.index(i.upper)
                lower, upper = self.unify(lower, upper, i)
                ranges.append(Range.from_min_extent(lower, E.make_binary(E.Sub, upper,
                                                                          lower)))
            elif any(isinstance(n, ast.Subscript) for n in ast.walk(i)):
                ranges.append(Range.from_min_extent(E.IntImm(dim.dtype, 0), dim))
            else:
                start = self.index(i)
                ranges.append(Range.from_min_extent(start, E.IntImm(start.dtype, 1)))
        return BufferRegion(buf, ranges, span=self.span(item))

    # ------------------------------------------------------------ statements
    def match_region(self, target, call):
        """`X = T.match_buffer(A[region], shape, dtype, strides=..., elem_offset=...)`
        inside a block: a view with A's strides (the unit dimensions the
        shape leaves out are dropped from the left)."""
        if not call.args or not isinstance(call.args[0], ast.Subscript):
            self.error(call, "T.match_buffer inside a block takes a buffer region "
                             "(A[vi * 16 : vi * 16 + 16, 0:16])")
        frame = self.frames[-1]
        if frame.scope_depth != len(self.scopes):
            self.error(call, "T.match_buffer of a region is written at the start of a block")
        source = self.region(call.args[0], "T.match_buffer")
        src = source.buffer
        shape_node = call.args[1] if len(call.args) > 1 else None
        for kw in call.keywords:
            if kw.arg == "shape":
                shape_node = kw.value
        if shape_node is None:
            self.error(call, "T.match_buffer needs the shape of the view")
        dims = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [shape_node]
        shape = []
        for d in dims:
            v = self.static_value(d)
            if not isinstance(v, int) or isinstance(v, bool):
                self.error(d, "the shape of a matched region is integer constants")
            shape.append(v)
        dtype = self.static_value(call.args[2]) if len(call.args) > 2 else src.dtype
        scope, strides_node, offset_node, separators = None, None, None, []
        for kw in call.keywords:
            if kw.arg == "axis_separators":
                seps = self.static_value(kw.value)
                if not isinstance(seps, (list, tuple)) or not all(
                        isinstance(x, int) and 0 <= x <= len(shape) for x in seps) or \
                        list(seps) != sorted(seps):
                    self.error(kw.value, "axis_separators of a view are ascending positions "
                                         f"between 0 and its rank ({len(shape)})")
                separators = list(seps)
            elif kw.arg == "dtype":
                dtype = self.static_value(kw.value)
            elif kw.arg == "scope":
                scope = self.static_value(kw.value)
            elif kw.arg == "strides":
                strides_node = kw.value
            elif kw.arg == "elem_offset":
                offset_node = kw.value
            elif kw.arg in ("align", "offset_factor", "shape"):
                pass  # alignment: no effect on the program
            else:
                self.error(kw.value, f"unsupported T.match_buffer option {kw.arg}=")
        if dtype != src.dtype and DTYPES.get(dtype) != DTYPES[src.dtype]:
            self.error(call, f"T.match_buffer of a {src.dtype} buffer as {dtype}")
        if scope not in (None, "", "global") and scope != src.scope():
            self.error(call, f"T.match_buffer in scope {scope!r} of a buffer in scope "
                             f"{src.scope()!r}")
        if len(shape) > len(src.shape):
            self.error(call, "the matched shape has more dimensions than the buffer")
        known = [self.stride_of(src, k) for k in range(len(src.shape))][len(src.shape)
                                                                           - len(shape):]
        # The view's layout is its source's: its strides and offset are
        # variables (those strides= / elem_offset= name, else fresh ones)
        # that read the layout where they are used.
        strides = [E.Var(f"{target.id}_s{k}") for k in range(len(shape))]
        if strides_node is not None:
            items = strides_node.elts if isinstance(strides_node, (ast.List, ast.Tuple)) \
                else None
            if items is None or len(items) != len(shape):
                self.error(strides_node, f"strides= lists {len(shape)} strides")
            named = [self.layout_value(item, k, "stride") for item, k in zip(items, known)]
            strides = [fresh if v is None else v for v, fresh in zip(named, strides)]
        offset = E.Var(f"{target.id}_elem_offset")
        if offset_node is not None:
            if self.static_value(offset_node) is not None:
                self.error(offset_node, "the offset of a region inside a buffer is not a "
                                        "constant; name it (elem_offset=x with x = T.int32())")
            offset = self.layout_value(offset_node, None, "elem_offset")
        view = Buffer(target.id, shape, src.dtype, src.scope(), strides=strides,
                      elem_offset=offset, span=self.span(call))
        view.axis_separators = separators
        frame.match_buffers.append(MatchBufferRegion(view, source, span=self.span(call)))
        self.bind(target.id, view)
        # The variables strides= / elem_offset= name are the view's fields.
        for node in ([offset_node] if offset_node is not None else []) + \
                (list(strides_node.elts) if strides_node is not None else []):
            if isinstance(node, ast.Name) and isinstance(self.lookup(node, node.id),
                                                         PendingVar):
                self.bind(node.id, self.lookup(node, node.id).var)

    def layout_value(self, node, known, what):
        """The variable a stride or offset of a matched view names (declared
        with T.int32(), or a string: a new variable of that name, as TVM's
        printer writes them), or None for a constant (which must be the
        layout's)."""
        constant = self.static_value(node)
        if isinstance(constant, str) and constant.isidentifier():
            return E.Var(constant)
        if isinstance(constant, int):
            if isinstance(known, E.IntImm) and constant != known.value:
                self.error(node, f"{what} {constant} differs from the buffer's ({known.value})")
            return None  # the layout's
        if isinstance(node, ast.Name):
            var = self.lookup(node, node.id)
            if isinstance(var, PendingVar):
                return var.var
        self.error(node, f"{what} is an integer, a variable declared with T.int32() or "
                         "a new variable's name")

    def allocate_const(self, target, call, rest):
        """`B = T.allocate_const(data, dtype, extents)`: constant data in
        scope for the statements after it, where a T.decl_buffer /
        T.Buffer(..., data=B) names the buffer holding it."""
        args = {k: v for k, v in zip(("data", "dtype", "extents"), call.args)}
        for kw in call.keywords:
            if kw.arg not in ("data", "dtype", "extents"):
                self.error(kw.value, f"unsupported T.allocate_const option {kw.arg}=")
            args[kw.arg] = kw.value
        if set(args) != {"data", "dtype", "extents"}:
            self.error(call, "T.allocate_const takes data, dtype and extents")
        data, dtype = self.static_value(args["data"]), self.static_value(args["dtype"])
        extents = self.static_value(args["extents"])
        if isinstance(extents, int):
            extents = (extents,)
        if not isinstance(data, tuple) or not all(isinstance(v, (int, float)) for v in data):
            self.error(args["data"], "T.allocate_const takes a list of numbers")
        if dtype not in DTYPES:
            self.error(args["dtype"], f"unsupported dtype {dtype!r}")
        if not isinstance(extents, tuple) or not all(isinstance(e, int) for e in extents):
            self.error(args["extents"], "T.allocate_const takes constant extents")
        count = 1
        for e in extents:
            count *= e
        if count != len(data):
            self.error(call, f"{len(data)} values for extents {list(extents)}")
        buf = Buffer(target.id, list(extents), dtype)
        self.bind(target.id, ConstData(buf.data, buf))
        body = self.statements(rest)
        return AllocateConst(buf.data, dtype, list(extents), list(data), body,
                             span=self.span(call))

    def is_python_call(self, call):
        return (isinstance(call.func, ast.Name) and not self.is_bound(call.func.id)
                and callable(self.env.get(call.func.id)))

    def declared_buffer(self, call):
        """The buffer `T.decl_buffer(shape, dtype, data=B)` /
        `T.Buffer(..., data=B)` declares over the data of T.allocate_const,
        also through a Python helper of the enclosing scope that returns one
        of them (TVM's meta-programming). It is the constant buffer: same
        shape and dtype."""
        if self.is_python_call(call):
            fn = self.env[call.func.id]
            args = [self.python_arg(a) for a in call.args]
            kwargs = {kw.arg: self.python_arg(kw.value) for kw in call.keywords}
            try:
                decl = fn(*args, **kwargs)
            except ScriptError:
                raise
            except Exception as e:  # noqa: BLE001 - reported at the Python line
                self.error(call, f"calling '{call.func.id}' failed: {e}")
            from .tir import _BufferType
            if not isinstance(decl, _BufferType):
                self.error(call, f"'{call.func.id}(...)' returns a "
                                 f"{type(decl).__name__}, not a buffer declaration")
            shape, dtype, extra = decl.shape, decl.dtype, dict(decl.kwargs)
        else:
            args = [self.static_value(a) for a in call.args]
            kwargs = {kw.arg: (self.python_arg(kw.value) if kw.arg == "data"
                               else self.static_value(kw.value)) for kw in call.keywords}
            shape = args[0] if args else kwargs.pop("shape", None)
            dtype = args[1] if len(args) > 1 else kwargs.pop("dtype", "float32")
            extra = kwargs
        data = extra.pop("data", None)
        if not isinstance(data, ConstData):
            self.error(call, "T.decl_buffer / T.Buffer in a body declares a buffer over "
                             "T.allocate_const data (data=...)")
        for key in extra:
            if key not in ("align", "offset_factor", "dtype"):
                self.error(call, f"unsupported buffer option {key}= over constant data")
        if isinstance(shape, int):
            shape = (shape,)
        const = data.buffer
        const_shape = [d.value for d in const.shape]
        if list(shape or ()) != const_shape or (dtype or const.dtype) != const.dtype:
            self.error(call, f"a buffer of shape {list(shape or ())} and dtype {dtype} over "
                             f"constant data of shape {const_shape} and dtype {const.dtype} "
                             "(a reinterpreting view is not supported)")
        return const

    def python_arg(self, node):
        """An argument for a Python helper called in a body: a constant,
        or the data of T.allocate_const."""
        if isinstance(node, ast.Name) and self.is_bound(node.id):
            value = self.lookup(node, node.id)
            if isinstance(value, ConstData):
                return value
            self.error(node, f"'{node.id}' cannot be passed to a Python function")
        value = self.static_value(node)
        if value is None:
            self.error(node, "arguments of a Python function called in a body are constants")
        return value
