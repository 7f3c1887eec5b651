"""The schedule's buffer primitives whose Python arguments need more than a
conversion: buffers given by position, name or node; index maps given as
functions; pad values; cache stages."""
from ..._ext import ext
from ..buffer import _ELEMENT_DTYPES
from ..expr import PrimExpr, Var
from .errors import BufferArgumentError, ScheduleError
from .random_variables import ExprRV


class BufferPrimitives:
    """Schedule's buffer methods (a mixin: the schedule's _apply and
    get_block do the work)."""

    # Primitives whose Python arguments need more than a conversion.
    def _buffer_position(self, block, buffer_index, kind, primitive):
        """A read / write buffer given by position or by name, as its
        position among the block's reads / writes (what the trace records)."""
        if isinstance(buffer_index, str):
            handle = (self.get_block(block) if isinstance(block, str) else block)._handle
            names = (handle.read_buffer_names if kind == "read"
                     else handle.write_buffer_names) or []
            if buffer_index not in names:
                raise ScheduleError(
                    f"{primitive}: block {handle.block_name!r} {kind}s no buffer "
                    f"named {buffer_index!r} (it {kind}s {names})")
            return names.index(buffer_index)
        if not isinstance(buffer_index, int) or isinstance(buffer_index, bool):
            raise TypeError(f"{primitive}: buffer_index is a {kind} buffer's position "
                            f"(int) or name (str), got {type(buffer_index).__name__}")
        return buffer_index

    def _buffer_arg(self, block, buffer, primitive, required_kind=None):
        """TVM's buffer argument: ("read" | "write", position), a position
        of `required_kind`, or a buffer (or its name) the block reads or
        writes (a buffer it does both to is its write, as in TVM). Returns
        (kind, position)."""
        handle = block._handle
        names = {"read": handle.read_buffer_names or [],
                 "write": handle.write_buffer_names or []}
        if isinstance(buffer, int) and not isinstance(buffer, bool):
            if required_kind is None:
                raise TypeError(f"{primitive}: a buffer position needs its kind: "
                                f'("read", i) or ("write", i)')
            buffer = (required_kind, buffer)
        if isinstance(buffer, (tuple, list)):
            if len(buffer) != 2 or buffer[0] not in names:
                raise ScheduleError(f"{primitive}: a buffer given by position is "
                                 f'("read", i) or ("write", i), got {buffer!r}')
            kind, index = buffer
            if not isinstance(index, int) or not 0 <= index < len(names[kind]):
                raise BufferArgumentError(
                    f"{primitive}: block {handle.block_name!r} has {len(names[kind])} "
                    f"{kind} buffers; there is no {kind} buffer {index!r}")
        else:
            name = buffer if isinstance(buffer, str) else getattr(buffer, "name", None)
            if not isinstance(name, str):
                raise TypeError(f"{primitive}: buffer is (kind, position), a name or a "
                                f"buffer, got {type(buffer).__name__}")
            found = None
            for kind in ("read", "write"):
                if name in names[kind]:
                    found = (kind, names[kind].index(name))
            if found is None:
                raise BufferArgumentError(
                    f"{primitive}: block {handle.block_name!r} accesses no buffer named "
                    f"{name!r} (it reads {names['read']}, writes {names['write']})")
            kind, index = found
        if required_kind is not None and kind != required_kind:
            raise ScheduleError(f"{primitive} needs a {required_kind} buffer, got the "
                                f"{kind} buffer {names[kind][index]!r}")
        return kind, index

    def reindex(self, block, buffer):
        """TVM's reindex: a copy `<buffer>_reindex` of a buffer the block
        reads or writes (("read" | "write", position), or its name), indexed
        by the block's variables; returns the stage that copies it."""
        if isinstance(block, str):
            block = self.get_block(block)
        kind, index = self._buffer_arg(block, buffer, "reindex")
        (stage,) = self._apply("reindex", [block],
                               {"buffer_index": index, "buffer_index_type": kind}, 1)
        return stage

    def _index_map(self, index_map, ndim, primitive, keep_sampled=False):
        """(IndexMap, axis separators) from a function of the indices or an
        IndexMap. ExprRVs in it (sampled values, TVM's idiom) are replaced
        by their values (the trace records the map with those values),
        unless `keep_sampled`."""
        from ..index_map import IndexMap
        if isinstance(index_map, IndexMap):
            separators = []
        elif callable(index_map):
            index_map, separators = IndexMap.from_func_with_separators(index_map, ndim=ndim)
        else:
            raise TypeError(f"{primitive}: index_map is a function of the indices or "
                            f"an IndexMap, got {type(index_map).__name__}")
        if keep_sampled:
            return index_map, separators
        return self._with_sampled_values(index_map), separators

    @staticmethod
    def _sampled_values_in(index_map):
        """The ExprRVs an index map uses, in order of first use."""
        from ..expr import PrimExpr
        from ..stmt_functor import post_order_visit
        found = {}
        for f in index_map.final_indices:
            if isinstance(f, PrimExpr):
                post_order_visit(f, lambda n: found.setdefault(id(n), n)
                                 if isinstance(n, ExprRV) else None)
        return list(found.values())

    def _with_sampled_values(self, index_map):
        from ..expr import PrimExpr
        from ..index_map import IndexMap
        from ..stmt_functor import post_order_visit, substitute
        found = {}
        for f in index_map.final_indices:
            if isinstance(f, PrimExpr):
                post_order_visit(f, lambda n: found.setdefault(id(n), n)
                                 if isinstance(n, ExprRV) else None)
        if not found:
            return index_map
        values = {rv: self.get(rv) for rv in found.values()}
        finals = [substitute(f, values) if isinstance(f, PrimExpr) else f
                  for f in index_map.final_indices]
        return IndexMap(index_map.initial_indices, finals)

    def transform_block_layout(self, block, index_map):
        """TVM's transform_block_layout: the block's iteration space
        remapped by `index_map` (a function of its variables, or an
        IndexMap)."""
        if isinstance(block, str):
            block = self.get_block(block)
        ndim = block._handle.num_iter_vars
        index_map, separators = self._index_map(index_map, ndim, "transform_block_layout")
        if separators:
            raise ScheduleError("transform_block_layout: an index map of a block's "
                                "iteration space has no axis separators")
        map_attr, symbols = index_map._symbolic_attribute()
        if symbols:
            raise ScheduleError(f"transform_block_layout: an index map over runtime values "
                                f"({', '.join(symbols)}) is not supported yet (its inverse "
                                f"over a runtime iteration space)")
        self._apply("transform_block_layout", [block], {"index_map": map_attr}, 0)

    def _pad_value_attr(self, pad_value, element_type, ndim):
        """A pad value as an attribute: a Python int takes an integer
        buffer's type and a float a float buffer's (TVM's conversion);
        otherwise its own type (int: i32, float: f32, IntImm / FloatImm:
        their dtype), which the primitive refuses if it is not the
        buffer's. A function of the `ndim` new indices (or an IndexMap)
        gives an affine map to one integer; one that gives a constant is
        that constant."""
        from ..expr import FloatImm, IntImm
        from ..index_map import IndexMap
        if callable(pad_value) or isinstance(pad_value, IndexMap):
            try:
                pad_map = (pad_value if isinstance(pad_value, IndexMap)
                           else IndexMap.from_func(pad_value, ndim=ndim))
            except TypeError as e:
                raise ScheduleError(
                    f"transform_layout: the pad value is an expression of the new "
                    f"indices (it may not read a buffer): {e}") from None
            if len(pad_map.final_indices) != 1:
                raise ScheduleError(
                    f"transform_layout: the pad value gives one value, got "
                    f"{len(pad_map.final_indices)}")
            if isinstance(pad_map.final_indices[0], int):
                pad_value = pad_map.final_indices[0]
            else:
                try:
                    return pad_map._attribute()
                except ValueError as e:
                    raise ScheduleError(
                        f"transform_layout: the pad value is an expression of the new "
                        f"indices (it may not read a buffer): {e}") from None
        is_float = element_type.startswith(("f", "bf"))
        buffer_dtype = _ELEMENT_DTYPES.get(element_type, element_type)
        if isinstance(pad_value, (IntImm, FloatImm)):
            value, dtype = pad_value.value, pad_value.dtype
        elif isinstance(pad_value, bool):
            raise TypeError("transform_layout: pad_value is a number, got a bool")
        elif isinstance(pad_value, int):
            value, dtype = pad_value, ("int32" if is_float else buffer_dtype)
        elif isinstance(pad_value, float):
            value, dtype = pad_value, (buffer_dtype if is_float else "float32")
        else:
            raise TypeError(f"transform_layout: pad_value is a number or a function of "
                            f"the new indices, got {type(pad_value).__name__}")
        number = float(value) if dtype.startswith(("float", "bfloat")) else int(value)
        try:
            return ext.Attribute.number(number, dtype)
        except ValueError as e:
            raise ValueError(f"transform_layout: pad_value {e}") from None

    def transform_layout(self, block, buffer, index_map, pad_value=None, *,
                         assume_injective_transform=False):
        """TVM's transform_layout: the buffer (("read" | "write", i), or its
        name) takes the layout `index_map` (a function of its indices, or
        an IndexMap) gives; IndexMap.AXIS_SEPARATOR in the result also sets
        its axis separators (set_axis_separator), as in TVM."""
        if isinstance(block, str):
            block = self.get_block(block)
        kind, index = self._buffer_arg(block, buffer, "transform_layout")
        handle = block._handle
        ranks = handle.read_buffer_ranks if kind == "read" else handle.write_buffer_ranks
        index_map, separators = self._index_map(index_map, ranks[index], "transform_layout",
                                                keep_sampled=True)
        # Sampled values (ExprRVs) are the step's parameters, the map's first
        # symbols: a replay with other decisions takes the new values. Other
        # Vars than the indices (a shape variable `n`) are found in the
        # function by name.
        params = self._sampled_values_in(index_map)
        map_attr, symbols = index_map._symbolic_attribute(leading=params)
        symbols = list(symbols)[len(params):]
        attrs = {"buffer_index": index, "buffer_index_type": kind,
                 "index_map": map_attr,
                 "assume_injective_transform": bool(assume_injective_transform)}
        if symbols:
            attrs["index_map_symbols"] = list(symbols)
        if pad_value is not None:
            types = (handle.read_buffer_element_types if kind == "read"
                     else handle.write_buffer_element_types)
            attrs["pad_value"] = self._pad_value_attr(pad_value, types[index],
                                                      len(index_map.final_indices))
        self._apply("transform_layout", [block, *params], attrs, 0)
        if separators:
            self.set_axis_separator(block, (kind, index), separators)

    def annotate_buffer_access(self, block, buffer_index, buf_type, gen_new_ranges):
        """TVM's annotate_buffer_access: the region the block reads
        (buf_type "read") or writes of its buffer_index-th such buffer is
        what gen_new_ranges gives, a function of the block's iteration
        variables returning, per dimension of the buffer, a (begin, end)
        pair or one index (a range of one)."""
        if isinstance(block, str):
            block = self.get_block(block)
        if buf_type not in ("read", "write"):
            raise ValueError(f"Invalid buf_type: {buf_type}. Expected 'read' or 'write'.")
        if not callable(gen_new_ranges):
            raise TypeError(f"annotate_buffer_access: gen_new_ranges is a function of the "
                            f"block's iteration variables, got {type(gen_new_ranges).__name__}")
        # The ranges are a function of the block's iteration variables: the
        # map takes them by position, so fresh variables serve (the
        # function's nodes are not needed).
        iter_vars = [Var(f"v{k}", "int32")
                     for k in range(self._handle(block).num_iter_vars)]
        spec = gen_new_ranges(*iter_vars)
        if not isinstance(spec, (list, tuple)):
            spec = [spec]
        bounds = []
        for rng in spec:
            if isinstance(rng, (tuple, list)):
                if len(rng) != 2:
                    raise ValueError("Tuple must have exactly 2 elements to represent "
                                     "(begin, end).")
                bounds.extend(rng)
            elif isinstance(rng, PrimExpr):
                bounds.extend([rng, rng + 1])
            else:
                raise TypeError(f"Expected PrimExpr or tuple of PrimExpr, got {type(rng)}")
        from ..index_map import IndexMap
        ranges = IndexMap(iter_vars, bounds)._attribute()
        self._apply("annotate_buffer_access", [block],
                    {"buffer_index": buffer_index, "buf_type": buf_type,
                     "gen_new_ranges": ranges}, 0)

    def set_axis_separator(self, block, buffer, axis_separators):
        """TVM's set_axis_separator: the buffer (("read" | "write", i), or
        its name) is flattened in groups starting at `axis_separators`."""
        if isinstance(block, str):
            block = self.get_block(block)
        kind, index = self._buffer_arg(block, buffer, "set_axis_separator")
        self._apply("set_axis_separator", [block],
                    {"buffer_index": index, "buffer_index_type": kind,
                     "axis_separators": ext.Attribute.i64_array(
                         [int(s) for s in (axis_separators or [])])}, 0)

    def set_scope(self, block, buffer_index, storage_scope):
        """TVM's set_scope: the block's write buffer `buffer_index` (its
        position among the block's writes, or the buffer's name) moves to
        `storage_scope`; the trace records the position."""
        if isinstance(block, str):
            block = self.get_block(block)
        buffer_index = self._buffer_position(block, buffer_index, "write", "set_scope")
        self._apply("set_scope", [block],
                    {"buffer_index": buffer_index, "storage_scope": storage_scope}, 0)

    def _cache(self, primitive, kind, block, buffer_index, storage_scope, consumer_blocks):
        consumers = [self.get_block(c) if isinstance(c, str) else c
                     for c in (consumer_blocks or [])]
        if isinstance(block, str):
            block = self.get_block(block)
        buffer_index = self._buffer_position(block, buffer_index, kind, primitive)
        (stage,) = self._apply(primitive, [block, *consumers],
                               {f"{kind}_buffer_index": buffer_index,
                                "storage_scope": storage_scope}, 1)
        return stage

    def cache_read(self, block, read_buffer_index, storage_scope, consumer_blocks=None):
        """TVM's cache_read: a cache of the block's read buffer
        `read_buffer_index` (position or name) in `storage_scope`, filled by
        a copy block, which is returned; `consumer_blocks` (blocks or names)
        limit the blocks that read the cache."""
        return self._cache("cache_read", "read", block, read_buffer_index, storage_scope,
                           consumer_blocks)

    def cache_write(self, block, write_buffer_index, storage_scope, consumer_blocks=None):
        """TVM's cache_write: the block writes a cache of its write buffer
        `write_buffer_index` (position or name) in `storage_scope`, and a
        copy block, which is returned, writes it back; `consumer_blocks`
        read the cache directly."""
        return self._cache("cache_write", "write", block, write_buffer_index, storage_scope,
                           consumer_blocks)

    def cache_inplace(self, block, read_buffer_index, storage_scope):
        """TVM's cache_inplace: the block, which reads and writes the buffer
        in place, works on a cache copied in right before it and back right
        after it; returns [copy in, copy out]."""
        read_buffer_index = self._buffer_position(block, read_buffer_index, "read",
                                                  "cache_inplace")
        return self._apply("cache_inplace", [block],
                           {"read_buffer_index": read_buffer_index,
                            "storage_scope": storage_scope}, 2)

    def _reindex_cache(self, primitive, kind, block, buffer_index, storage_scope, index_map):
        if isinstance(block, str):
            block = self.get_block(block)
        buffer_index = self._buffer_position(block, buffer_index, kind, primitive)
        index_map, separators = self._index_map(index_map, block._handle.num_iter_vars,
                                                primitive)
        if separators:
            raise ScheduleError(f"{primitive}: the index map has no axis separators")
        (stage,) = self._apply(primitive, [block],
                               {f"{kind}_buffer_index": buffer_index,
                                "storage_scope": storage_scope,
                                "index_map": index_map._attribute()}, 1)
        return stage

    def reindex_cache_read(self, block, read_buffer_index, storage_scope, index_map):
        """TVM's reindex_cache_read: cache_read of the block's read buffer
        (position or name) into a cache laid out by `index_map` over the
        block's variables; returns the copy block."""
        return self._reindex_cache("reindex_cache_read", "read", block, read_buffer_index,
                                   storage_scope, index_map)

    def reindex_cache_write(self, block, write_buffer_index, storage_scope, index_map):
        """TVM's reindex_cache_write: the write side of reindex_cache_read."""
        return self._reindex_cache("reindex_cache_write", "write", block, write_buffer_index,
                                   storage_scope, index_map)

    def pad_einsum(self, block, padding):
        """TVM's pad_einsum: the einsum block's iteration extents rounded up
        to multiples of `padding` (one size per iteration variable), its
        buffers padded through copies."""
        self._apply("pad_einsum", [block],
                    {"padding": ext.Attribute.i64_array(
                        [int(getattr(p, "value", p)) for p in padding])}, 0)
