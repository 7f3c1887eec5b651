"""The schedule a CPU kernel gets when no schedule touched it
(default_cpu_schedule, which tvm.compile applies to a model's untuned
prim_funcs): per leaf block, vector loops and parallel outer loops; a
reduction (a convolution, a matmul) register-tiled besides."""

__all__ = ["default_cpu_schedule", "schedule_default"]

# The register tile of a reduction: this many rows of accumulators, each a
# vector of at most `lanes` elements (8 of them fit the 16 registers of
# AVX2 with the operands beside).
_TILE_ROWS = 8


def _lanes(dtype, vector_bytes):
    bits = int("".join(c for c in dtype if c.isdigit()) or 32)
    return max(1, vector_bytes // max(1, bits // 8))


def _extent(sch, loop):
    """The loop's extent, or None where it is not a constant (a shape
    variable's)."""
    extent = getattr(sch.get(loop).extent, "value", sch.get(loop).extent)
    return extent if isinstance(extent, int) else None


def _vector_width(extent, lanes):
    """The vector of a register tile's rows: the largest divisor of the
    loop's extent that fits a register (14 of 56 pixels for 16 lanes: a
    vector LLVM pads beats a half-empty one of 8); 0 when that is under 4."""
    width = max(d for d in range(1, min(extent, lanes) + 1) if extent % d == 0)
    return width if width >= 4 else 0


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


def _tile_reduction(sch, block, loops, kinds, node, vector_bytes):
    """Register-tiles a reduction block whose loops are one per block
    variable: the innermost spatial loop v vectorized (a row), another
    spatial loop t split by _TILE_ROWS (the rows) where some operand read
    along v does not depend on t (it is loaded once for all rows); the
    tile accumulates in a local buffer across the reduction loops, the
    loops outside it fused and parallel. Returns False, the schedule
    untouched, when the block does not fit."""
    if not node.init or len(node.writes) != 1:
        return False
    dtype = node.writes[0].buffer.dtype
    if not dtype.startswith("float"):
        return False
    spatial = [k for k, kind in enumerate(kinds) if kind == 0]
    reduce = [k for k, kind in enumerate(kinds) if kind != 0]
    if len(spatial) < 2 or not reduce:
        return False
    v = spatial[-1]
    extent = _extent(sch, loops[v])
    width = _vector_width(extent, _lanes(dtype, vector_bytes)) if extent else 0
    if not width:
        return False
    var_of = [id(iv.var) for iv in node.iter_vars]
    reads = _block_vars_read(node)
    rows = [k for k in spatial[:-1] if (_extent(sch, loops[k]) or 1) % _TILE_ROWS == 0 and any(
        var_of[v] in used and var_of[k] not in used for used in reads)]
    if not rows:
        return False
    t = rows[-1]
    t_outer, t_inner = sch.split(loops[t], [None, _TILE_ROWS])
    v_outer, v_inner = sch.split(loops[v], [None, width])
    outer = [t_outer if k == t else loops[k] for k in spatial[:-1]]
    sch.reorder(*outer, v_outer, *[loops[k] for k in reduce], t_inner, v_inner)
    tile = sch.cache_write(block, 0, "local")
    sch.reverse_compute_at(tile, v_outer)
    sch.parallel(sch.fuse(*outer) if len(outer) > 1 else outer[0])
    sch.vectorize(v_inner)
    sch.unroll(t_inner)
    sch.vectorize(sch.get_loops(tile)[-1])
    sch.decompose_reduction(block, loops[reduce[0]])
    return True


def _vectorize_and_parallelize(sch, block, loops, kinds, node, vector_bytes):
    """The innermost spatial loop moved inside the reduction loops, split by
    a vector and vectorized; the two outermost other spatial loops fused and
    parallel. The order in which each output's reduction runs is kept."""
    spatial = [loop for loop, kind in zip(loops, kinds) if kind == 0]
    reduce = [loop for loop, kind in zip(loops, kinds) if kind != 0]
    if not spatial:
        return
    inner = spatial[-1]
    if reduce:
        sch.reorder(*spatial[:-1], *reduce, inner)
    extent = _extent(sch, inner)
    if extent is None:
        raise TypeError("the innermost spatial loop's extent is not a constant")
    dtype = node.writes[0].buffer.dtype if node.writes else "float32"
    lanes = _lanes(dtype, vector_bytes)
    # (Bool buffers stay scalar: a vector of i1 is not their bytes.)
    bools = any(r.buffer.dtype == "bool" for r in list(node.reads) + list(node.writes))
    if not bools and extent >= lanes > 1:
        _, vector = sch.split(inner, [None, lanes])
        sch.vectorize(vector)
    elif not bools and extent > 1 and not reduce:
        sch.vectorize(inner)
    outer = spatial[:-1]
    if outer:
        sch.parallel(sch.fuse(*outer[:2]) if len(outer) > 1 else outer[0])


def _apply(sch, vector_bytes, tile):
    """Schedules every leaf block of `sch` in place."""
    from .transform import _leaf_blocks
    for block in _leaf_blocks(sch):
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
