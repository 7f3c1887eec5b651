"""The schedule a CPU kernel gets when no schedule touched it
(default_cpu_schedule, which tvm.compile applies to a model's untuned
prim_funcs): per leaf block, vector loops and parallel outer loops; a
reduction (a convolution, a matmul) register-tiled besides."""

__all__ = ["default_cpu_schedule", "schedule_default"]

# The register tile of a reduction: at most this many rows of
# accumulators (each row one or two vectors), and at most this many
# accumulator registers of the vector unit's (AVX-512 has 32, AVX2 16;
# the rest hold the operands).
_TILE_ROWS = 8
_ACCUMULATORS = {64: 24, 32: 12}


def _lanes(dtype, vector_bytes):
    bits = int("".join(c for c in dtype if c.isdigit()) or 32)
    return max(1, vector_bytes // max(1, bits // 8))


def _extent(sch, loop):
    """The loop's extent, or None where it is not a constant (a shape
    variable's)."""
    extent = getattr(sch.get(loop).extent, "value", sch.get(loop).extent)
    return extent if isinstance(extent, int) else None


def _tile_divisor(extent, limit):
    """A tile's extent along a loop of `extent`: its largest divisor up to
    `limit`, 0 when that is under 4. For a vector of a tile's row, 14 of
    56 pixels for 16 lanes (a vector LLVM pads beats a half-empty one of
    8); for the rows, 7 of a 7 x 7 map's."""
    size = max(d for d in range(1, min(extent, limit) + 1) if extent % d == 0)
    return size if size >= 4 else 0


def _block_vars_read(node):
    """For each buffer the block reads, the ids of the block variables its
    indices use."""
    from .analysis import undefined_vars
    own = {id(iv.var) for iv in node.iter_vars}
    reads = []
    for region in node.reads:
        used = set()
        for rng in region.region:
            used.update(id(v) for v in undefined_vars(rng.min) if id(v) in own)
        reads.append(used)
    return reads


def _contiguous_runs(node):
    """{id of a block variable: how many elements along it some buffer the
    block reads holds one after another}: the variable is that buffer's
    last index (no limit, None), or its last index is the variable modulo
    a constant (the buffer tiled along it: relax.transform.
    RewriteWeightLayouts lays constant weights out so)."""
    from .expr import FloorMod, IntImm
    runs = {}
    for region in node.reads:
        if not region.region:
            continue
        last = region.region[-1].min
        if isinstance(last, FloorMod) and isinstance(last.b, IntImm):
            runs.setdefault(id(last.a), last.b.value)
        else:
            runs[id(last)] = None
    return runs


def _contiguous_axis(sch, loops, spatial, node, lanes):
    """(k, run): the spatial loop, innermost first, that some buffer the
    block reads is contiguous along (a vector along it is one load: a
    matmul's columns, a convolution's output channels once the weights
    are laid out for it) and whose extent is a multiple of `lanes`, and the
    length of those runs (None: the whole extent); None if there is none."""
    runs = _contiguous_runs(node)
    for k in reversed(spatial):
        extent = _extent(sch, loops[k])
        var = id(node.iter_vars[k].var)
        if var in runs and extent and extent % lanes == 0 and (runs[var] or lanes) % lanes == 0:
            return k, runs[var]
    return None


def _tile_shape(sch, loops, spatial, node, vector_bytes):
    """(v, width, max_rows): the loop the tile's rows are vectors along, the
    vector's width and how many rows fit the registers; None when no loop
    fits. A loop read contiguously (_contiguous_axis) takes rows of one
    or two vectors; otherwise the innermost spatial loop a row of up to
    one vector (_tile_divisor)."""
    dtype = node.writes[0].buffer.dtype
    lanes = _lanes(dtype, vector_bytes)
    budget = _ACCUMULATORS.get(vector_bytes, 12)
    contiguous = _contiguous_axis(sch, loops, spatial, node, lanes)
    if contiguous is not None:
        v, run = contiguous
        vectors = 2 if _extent(sch, loops[v]) % (2 * lanes) == 0 and (
            run or 2 * lanes) % (2 * lanes) == 0 else 1
        return v, vectors * lanes, min(_TILE_ROWS, budget // vectors)
    v = spatial[-1]
    extent = _extent(sch, loops[v])
    width = _tile_divisor(extent, lanes) if extent else 0
    return (v, width, _TILE_ROWS) if width else None


def _tile_reduction(sch, block, loops, kinds, node, vector_bytes):
    """Register-tiles a reduction block whose loops are one per block
    variable: a spatial loop v vectorized (a row: _tile_shape), another
    spatial loop t split into rows (_tile_divisor) where some operand read
    along v does not depend on t (it is loaded once for all rows); the
    tile accumulates in a local buffer (laid out with v last) across the
    reduction loops, starting from its first step (no separate zeroing),
    the loops outside it fused and parallel. Returns
    False, the schedule untouched, when the block does not fit."""
    from .schedule import ScheduleError
    if not node.init or len(node.writes) != 1:
        return False
    dtype = node.writes[0].buffer.dtype
    if not dtype.startswith("float"):
        return False
    spatial = [k for k, kind in enumerate(kinds) if kind == 0]
    reduce = [k for k, kind in enumerate(kinds) if kind != 0]
    if len(spatial) < 2 or not reduce:
        return False
    shape = _tile_shape(sch, loops, spatial, node, vector_bytes)
    if shape is None:
        return False
    v, width, max_rows = shape
    var_of = [id(iv.var) for iv in node.iter_vars]
    reads = _block_vars_read(node)
    # (Read before the schedule changes: the nodes are then read anew.)
    written = [id(r.min) for r in node.writes[0].region]
    rows = [(k, _tile_divisor(_extent(sch, loops[k]) or 1, max_rows)) for k in spatial
            if k != v and any(var_of[v] in used and var_of[k] not in used for used in reads)]
    rows = [(k, count) for k, count in rows if count]
    if not rows:
        return False
    t, count = rows[-1]
    t_outer, t_inner = sch.split(loops[t], [None, count])
    v_outer, v_inner = sch.split(loops[v], [None, width])
    outer = [t_outer if k == t else v_outer if k == v else loops[k] for k in spatial]
    sch.reorder(*outer, *[loops[k] for k in reduce], t_inner, v_inner)
    tile = sch.cache_write(block, 0, "local")
    # The accumulators as rows of vectors: v's dimension of the tile last.
    if var_of[v] in written and written.index(var_of[v]) != len(written) - 1:
        dim = written.index(var_of[v])
        order = [d for d in range(len(written)) if d != dim] + [dim]
        sch.transform_layout(block, ("write", 0), lambda *i: [i[d] for d in order])
    # The element-wise step after the reduction (a bias, a batch norm, a
    # ReLU: one block once _inline_elementwise ran) done as the tile is
    # written back, not as a pass of its own over the result.
    consumers = sch.get_consumers(tile)
    if len(consumers) == 1 and _is_spatial(sch, consumers[0]):
        try:
            sch.reverse_compute_inline(consumers[0])
        except ScheduleError:
            pass  # it reads the result other than element by element
    sch.reverse_compute_at(tile, outer[-1])
    sch.parallel(sch.fuse(*outer) if len(outer) > 1 else outer[0])
    sch.vectorize(v_inner)
    sch.unroll(t_inner)
    sch.vectorize(sch.get_loops(tile)[-1])
    # The init stays in the block: --tir-partition-loops peels the first
    # step of the reduction, so the tile starts from zeroed registers
    # instead of being zeroed in memory and read back.
    return True


def _interleave_rows(sch, spatial, reduce):
    """A reduction along its operands' contiguous axis (a row sum, a
    softmax's maximum): rows of the innermost spatial loop (_tile_divisor)
    reduced side by side, unrolled inside the reduction loops, each
    row's additions in their order; the spatial loops outside fused and
    parallel. False when the loop has no such rows."""
    extent = _extent(sch, spatial[-1])
    rows = _tile_divisor(extent, _TILE_ROWS) if extent else 0
    if not rows:
        return False
    row_outer, row = sch.split(spatial[-1], [None, rows])
    outer = [*spatial[:-1], row_outer]
    sch.reorder(*outer, *reduce, row)
    sch.unroll(row)
    sch.parallel(sch.fuse(*outer) if len(outer) > 1 else outer[0])
    return True


def _read_across(node, kinds, inner_var):
    """The block variable (its index) that some buffer the block reads is
    contiguous along where that buffer is read across `inner_var` (an
    index other than its last uses it: a transpose's input); None when
    every read along `inner_var` is contiguous or the variable is not
    spatial."""
    from .analysis import undefined_vars
    own = [id(iv.var) for iv in node.iter_vars]
    for region in node.reads:
        if len(region.region) < 2:
            continue
        used = [{id(v) for v in undefined_vars(r.min)} for r in region.region]
        last = [own.index(v) for v in used[-1] if v in own]
        if inner_var in used[-1] or not any(inner_var in u for u in used[:-1]):
            continue
        if len(last) == 1 and kinds[last[0]] == 0:
            return last[0]
    return None


def _vectorize_and_parallelize(sch, block, loops, kinds, node, vector_bytes):
    """The innermost spatial loop moved inside the reduction loops, split by
    a vector and vectorized (or, where the operands are contiguous along
    the reduction instead, _interleave_rows); the two outermost other
    spatial loops fused and parallel. The order in which each output's
    reduction runs is kept."""
    spatial = [loop for loop, kind in zip(loops, kinds) if kind == 0]
    reduce = [loop for loop, kind in zip(loops, kinds) if kind != 0]
    if not spatial:
        return
    inner = spatial[-1]
    inner_var = id(node.iter_vars[max(k for k, kind in enumerate(kinds) if kind == 0)].var)
    if reduce and inner_var not in _contiguous_runs(node) and _interleave_rows(
            sch, spatial, reduce):
        return
    if reduce:
        sch.reorder(*spatial[:-1], *reduce, inner)
    extent = _extent(sch, inner)
    if extent is None:
        raise TypeError("the innermost spatial loop's extent is not a constant")
    dtype = node.writes[0].buffer.dtype if node.writes else "float32"
    lanes = _lanes(dtype, vector_bytes)
    # (Bool buffers stay scalar: a vector of i1 is not their bytes.)
    bools = any(r.buffer.dtype == "bool" for r in list(node.reads) + list(node.writes))
    outer = spatial[:-1]
    # (Read before the schedule changes the block.)
    across = None if reduce else _read_across(node, kinds, inner_var)
    if not bools and extent >= lanes > 1:
        vector_outer, vector = sch.split(inner, [None, lanes])
        sch.vectorize(vector)
        if across is not None:
            # A transpose: the loop its input is contiguous along runs
            # inside the vectors' outer loop, so that a tile of `lanes`
            # input rows is read while it is in the cache.
            u = spatial[[k for k, kind in enumerate(kinds) if kind == 0].index(across)]
            outer = [loop for loop in outer if loop != u] + [vector_outer]
            sch.reorder(*outer, u, vector)
    elif not bools and extent > 1 and not reduce:
        sch.vectorize(inner)
    if outer:
        sch.parallel(sch.fuse(*outer[:2]) if len(outer) > 1 else outer[0])


def _is_spatial(sch, block):
    node = sch.get(block)
    return not node.init and all(iv.iter_type == 0 for iv in node.iter_vars)


def _exists(sch, block):
    from .schedule import ScheduleError
    try:
        sch.get(block)
    except (ScheduleError, ValueError, KeyError):
        return False
    return True


def _inline_elementwise(sch):
    """Inlines each block that computes an intermediate buffer from spatial
    variables alone into its consumers when they are such blocks too (a
    convolution's batch norm, residual add and ReLU become one pass over
    its output; a layer norm's arithmetic one pass over its rows). A
    block feeding a reduction stays: inlined, it would be recomputed at
    every step of the reduction."""
    from .schedule import ScheduleError
    from .transform import _leaf_blocks
    for block in _leaf_blocks(sch):
        if not _is_spatial(sch, block):
            continue
        consumers = sch.get_consumers(block)
        if not consumers or not all(_is_spatial(sch, c) for c in consumers):
            continue
        try:
            sch.compute_inline(block)
        except ScheduleError:
            pass  # a function's output, or not inlinable as TVM rules


def _apply(sch, vector_bytes, tile):
    """Schedules every leaf block of `sch` in place."""
    from .transform import _leaf_blocks
    _inline_elementwise(sch)
    for block in _leaf_blocks(sch):
        # (A block a reduction's tile took in is done.)
        if not _exists(sch, block):
            continue
        loops = sch.get_loops(block)
        node = sch.get(block)
        kinds = [iv.iter_type for iv in node.iter_vars]
        if not loops or len(loops) != len(kinds):
            continue
        if tile and _tile_reduction(sch, block, loops, kinds, node, vector_bytes):
            continue
        _vectorize_and_parallelize(sch, block, loops, kinds, node, vector_bytes)
    return sch


def schedule_default(sch, vector_bytes=64):
    """The default schedule applied to (a copy of) the schedule `sch`: the
    scheduled copy, its trace what was done (a candidate MetaSchedule
    measures beside its own, see relax.transform.MetaScheduleTuneIRMod);
    without tiles where tiling a block fails, unscheduled where the plain
    schedule fails too."""
    from .schedule import ScheduleError
    try:
        return _apply(sch.copy(), vector_bytes, tile=True)
    except (ScheduleError, TypeError):
        pass
    try:
        return _apply(sch.copy(), vector_bytes, tile=False)
    except (ScheduleError, TypeError):
        # A block the heuristic misreads (loops not in its variables'
        # order): the function as it was.
        return sch.copy()


def default_cpu_schedule(func, vector_bytes=64):
    """The schedule a CPU kernel without one gets, per block whose loops
    are one per block variable: a reduction register-tiled where it fits
    (_tile_reduction: a convolution's output channels by its rows'
    pixels, a matmul's rows by its columns); any other block its innermost
    spatial loop moved inside the reduction loops, split by a vector of
    `vector_bytes` and vectorized, its two outermost other spatial loops
    fused and parallel. Returns the scheduled function; where tiling a
    block fails, the function is scheduled without tiles."""
    from .schedule import Schedule
    return schedule_default(Schedule(func), vector_bytes).mod["main"]
