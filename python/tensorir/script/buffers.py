"""TVMScript buffer declarations: buffer parameters and T.match_buffer of
handles, T.alloc_buffer options, T.match_buffer of a region inside a block,
T.allocate_const with T.decl_buffer / T.Buffer(data=...) (also through a
Python helper of the enclosing scope). A mixin of the function parser."""
import ast

from .values import DTYPES, Buffer, ConstData, ScriptError, ShapeVar, Value


class BufferParser:
    @staticmethod
    def arg_attrs(buf, name):
        """The attributes of a buffer parameter: its name, the variables
        that size its dimensions (tir.dim_vars) and TVM's axis_separators
        when it has some."""
        attrs = f'tir.name = "{name}"'
        dim_vars = getattr(buf, "dim_vars", ())
        # Also when a dynamic dimension has no name (an expression such as
        # n * 4): "" there tells the printer not to name it after a scalar.
        dynamic = any(not isinstance(d, int) for d in getattr(buf, "shape", ()))
        if any(dim_vars) or (dynamic and dim_vars):
            attrs += ", tir.dim_vars = [" + ", ".join(f'"{v}"' for v in dim_vars) + "]"
        if buf.axis_separators:
            seps = ", ".join(str(x) for x in buf.axis_separators)
            attrs += f", tir.axis_separators = array<i64: {seps}>"
        if buf.dtype.startswith("uint"):
            attrs += f', tir.dtype = "{buf.dtype}"'
        return "{" + attrs + "}"

    def buffer_decl(self, ann, name):
        if isinstance(ann, ast.Call):
            return self.buffer_from_args(ann, ann.args, name, ann.keywords)
        # T.Buffer[(shape), "dtype"] (older spelling)
        items = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
        return self.buffer_from_args(ann, items, name)

    def buffer_from_args(self, node, args, name, keywords=()):
        if not args:
            self.error(node, "a buffer needs a shape")
        shape_node = args[0]
        dims = shape_node.elts if isinstance(shape_node, (ast.Tuple, ast.List)) else [shape_node]
        shape, defines = [], []
        # The variable that sizes each dimension ("" for none): a shape
        # variable or an integer scalar parameter, named in the signature
        # so that the runtime checks that the sizes agree.
        dim_vars = []
        for pos, d in enumerate(dims):
            dim_vars.append("")
            constant = self.static_value(d)
            if isinstance(constant, int) and not isinstance(constant, bool):
                shape.append(constant)
                continue
            if isinstance(d, ast.Name):
                value = self.lookup(d, d.id)
                if isinstance(value, ShapeVar):
                    if value.source is None:
                        defines.append((value, pos))
                    shape.append(value)
                    dim_vars[-1] = value.name
                    continue
                if self.in_signature and d.id in self.scalar_params:
                    dim_vars[-1] = d.id
                shape.append(value)
                continue
            # Any other expression: in the signature, a dynamic dimension
            # (memrefs do not record how it is computed); in the body, the
            # value that sizes the allocation.
            if self.in_signature:
                shape.append(Value("?", "index"))
            else:
                value = self.as_index(self.expr(d), d)
                if value is None:
                    self.error(d, "buffer dimensions are integer expressions")
                shape.append(self.materialize(value, d))
        dtype = "float32"
        if len(args) > 1:
            dtype = self.static_value(args[1])
        scope = None
        separators = ()
        # TVM's offset_factor without elem_offset=0 leaves the buffer's
        # offset free (a parameter of a tensor intrinsic, matched to a region
        # of a larger buffer): a compact strided layout with a dynamic offset,
        # so that `.elem_offset` reads it.
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
        buf = Buffer(self.ssa_name(name), shape, dtype,
                     scope=scope if scope not in ("", "global") else None)
        if free_offset:
            buf.strides = buf.element_strides()
        # TVM's axis_separators group dimensions into a multi-dimensional
        # physical layout; tir keeps them on the parameter or allocation (a
        # flat memref lowering needs none) and compares them structurally.
        buf.axis_separators = separators
        buf.dim_vars = tuple(dim_vars) if self.in_signature else ()
        for var, pos in defines:
            if var.source is None:
                var.source = (buf.ssa, buf.type, pos)
        return buf

    # ------------------------------------------------------------ statements

    def match_region(self, target, call):
        """`X = T.match_buffer(A[region], shape, dtype, strides=..., elem_offset=...)`
        inside a block: tir.match_buffer, a view with A's strides (the
        unit dimensions the shape leaves out are dropped from the left)."""
        if not call.args or not isinstance(call.args[0], ast.Subscript):
            self.error(call, "T.match_buffer inside a block takes a buffer region "
                             "(A[vi * 16 : vi * 16 + 16, 0:16])")
        if not isinstance(self.scopes[-1].get("__block__"), str):
            self.error(call, "T.match_buffer of a region is written at the start of a block")
        region, src = self.region_text(call.args[0], "T.match_buffer")
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
        scope, strides_node, offset_node = None, None, None
        for kw in call.keywords:
            if kw.arg == "dtype":
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
        if dtype != src.dtype and DTYPES.get(dtype) != src.element:
            self.error(call, f"T.match_buffer of a {src.dtype} buffer as {dtype}")
        if scope not in (None, "", "global") and scope != src.scope:
            self.error(call, f"T.match_buffer in scope {scope!r} of a buffer in scope "
                             f"{src.scope or 'global'!r}")
        if len(shape) > len(src.shape):
            self.error(call, "the matched shape has more dimensions than the buffer")
        strides = src.element_strides()[len(src.shape) - len(shape):]
        buf = Buffer(self.ssa_name(target.id), shape, src.dtype, scope=src.scope,
                     strides=strides)
        self.emit(f"{buf.ssa} = tir.match_buffer {region} : {src.type} -> {buf.type}"
                  + self.loc(call))
        self.bind(target.id, buf)
        # strides= / elem_offset=: constants must agree; names are defined.
        if strides_node is not None or (offset_node is not None
                                        and self.static_value(offset_node) is None):
            offset, stride_values = self.strided_metadata(buf, call)
        if strides_node is not None:
            items = strides_node.elts if isinstance(strides_node, (ast.List, ast.Tuple)) else None
            if items is None or len(items) != len(shape):
                self.error(strides_node, f"strides= lists {len(shape)} strides")
            for item, known, value in zip(items, strides, stride_values):
                self.define_layout_value(item, known, value, "stride")
        if offset_node is not None:
            if self.static_value(offset_node) is not None:
                self.error(offset_node, "the offset of a region inside a buffer is not a "
                                        "constant; name it (elem_offset=x with x = T.int32())")
            self.define_layout_value(offset_node, None, offset, "elem_offset")

    def define_layout_value(self, node, known, ssa, what):
        constant = self.static_value(node)
        if isinstance(constant, int):
            if known is not None and constant != known:
                self.error(node, f"{what} {constant} differs from the buffer's ({known})")
            return
        if isinstance(node, ast.Name):
            var = self.lookup(node, node.id)
            if isinstance(var, ShapeVar):
                self.bind(node.id, Value(ssa, "index", affine=True))
                return
        self.error(node, f"{what} is an integer or a variable declared with T.int32()")

    def allocate_const(self, target, call):
        """`B = T.allocate_const(data, dtype, extents)`: tir.allocate_const,
        a buffer holding the data (T.decl_buffer(..., data=B) or
        T.Buffer(..., data=B) then names it)."""
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
        buf = Buffer(self.ssa_name(target.id), list(extents), dtype)
        is_float = buf.element.startswith("f") or buf.element == "bf16"
        values = [repr(float(v)) if is_float else str(int(v)) for v in data]
        values = [v.replace("e", ".0e") if "e" in v and "." not in v else v for v in values]
        nested = values
        for e in reversed(extents[1:]):
            nested = ["[" + ", ".join(nested[i:i + e]) + "]" for i in range(0, len(nested), e)]
        self.emit(f"{buf.ssa} = tir.allocate_const : {buf.type} = dense<[{', '.join(nested)}]>"
                  + self.loc(call))
        self.bind(target.id, ConstData(buf))

    def is_python_call(self, call):
        return (isinstance(call.func, ast.Name) and not self.is_bound(call.func.id)
                and callable(self.env.get(call.func.id)))

    def declare_buffer(self, target, call):
        """`X = T.decl_buffer(shape, dtype, data=B)` / `T.Buffer(..., data=B)`
        over the data of T.allocate_const, also through a Python helper of
        the enclosing scope that returns one of them (TVM's
        meta-programming). The declared buffer is the constant buffer: same
        shape and dtype."""
        if self.is_python_call(call):
            fn = self.env[call.func.id]
            try:
                args = [self.python_arg(a) for a in call.args]
                kwargs = {kw.arg: self.python_arg(kw.value) for kw in call.keywords}
            except ScriptError:
                raise
            try:
                decl = fn(*args, **kwargs)
            except Exception as e:  # noqa: BLE001 - reported at the Python line
                self.error(call, f"calling '{call.func.id}' failed: {e}")
            from .tir import _BufferType
            if not isinstance(decl, _BufferType):
                self.error(call, f"'{call.func.id}(...)' returns a "
                                 f"{type(decl).__name__}, not a buffer declaration")
            shape, dtype, extra = decl.shape, decl.dtype, decl.kwargs
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
        if list(shape or ()) != list(const.shape) or (dtype or const.dtype) != const.dtype:
            self.error(call, f"a buffer of shape {list(shape or ())} and dtype {dtype} over "
                             f"constant data of shape {const.shape} and dtype {const.dtype} "
                             "(a reinterpreting view is not supported)")
        self.bind(target.id, const)

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
