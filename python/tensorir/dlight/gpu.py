"""dlight's GPU rules (tvm.dlight.gpu): Matmul (tiled through shared
memory and registers, its element-wise epilogue inlined into the write
back), Reduction / GEMV (one reduction: its spatial loops over blocks, its
reduction loops across a block's threads), GeneralReduction (row by row,
intermediates in shared memory), Fallback (every block's loops fused over
blocks and threads). Every rule first inlines the element-wise blocks
writing intermediates: a kernel keeps them in registers."""
from ..target import Target
from ..tir.schedule import Schedule
from ..tir.transform import _bind_unbound_blocks, _leaf_blocks
from .base import ScheduleRule

__all__ = ["Fallback", "GEMV", "GeneralReduction", "Matmul", "Reduction"]

_SPATIAL, _REDUCE = 0, 2


def _threads_target(target):
    """`target` with max_threads_per_block (the kind's max_num_threads
    where it names none, as TVM's "cuda" does)."""
    if "max_threads_per_block" in target.attrs:
        return target
    copy = Target(target)
    copy.attrs["max_threads_per_block"] = _threads(target)
    return copy


def _kinds(sch, block):
    return [int(iv.iter_type) for iv in sch.get(block).iter_vars]


def _static_extents(sch, loops):
    extents = []
    for loop in loops:
        extent = sch.get(loop).extent
        value = getattr(extent, "value", extent)
        if not isinstance(value, int):
            return None
        extents.append(value)
    return extents


def _inline_spatial(sch, keep=()):
    """Element-wise and injective blocks writing intermediates inlined into
    their consumers (or, where that fails, into their producer): a GPU
    kernel keeps its intermediates in registers, not in global memory.
    `keep`: blocks a rule schedules itself."""
    changed = True
    while changed:
        changed = False
        for block in _leaf_blocks(sch):
            if any(sch.get(block).same_as(sch.get(k)) for k in keep) or \
                    _REDUCE in _kinds(sch, block):
                continue
            for inline in (sch.compute_inline, sch.reverse_compute_inline):
                try:
                    inline(block)
                except Exception:  # noqa: BLE001 - the primitive refuses: not this way
                    continue
                changed = True
                break
            if changed:
                break


def _bind_the_rest(sch, target):
    """Blocks no loop binds: fused and bound to blockIdx.x / threadIdx.x;
    False when one cannot be."""
    return _bind_unbound_blocks(sch, _threads_target(target))


def _threads(target):
    return int(target.attrs.get("max_threads_per_block",
                                target.attrs.get("max_num_threads", 1024)))


class Fallback(ScheduleRule):
    """Every block's loops fused, split by the target's threads per block
    and bound to blockIdx.x / threadIdx.x (a reduction runs inside a
    thread, the element-wise work on its result in the same thread and
    kernel, its intermediate in registers)."""

    def apply(self, func, target, tunable):
        sch = Schedule(func)
        _inline_spatial(sch)
        for block in _leaf_blocks(sch):
            consumers = sch.get_consumers(block)
            if _REDUCE not in _kinds(sch, block) or not consumers:
                continue
            loops = sch.get_loops(block)
            kinds = _kinds(sch, block)
            if len(loops) != len(kinds):
                continue
            spatial = [lp for lp, k in zip(loops, kinds) if k == _SPATIAL]
            reduce = [lp for lp, k in zip(loops, kinds) if k != _SPATIAL]
            if not spatial:
                continue
            sch.reorder(*spatial, *reduce)
            fused = sch.fuse(*spatial) if len(spatial) > 1 else spatial[0]
            # Threads that divide the elements where their number is known:
            # no predicate, so that the consumers can follow each thread
            # (reverse_compute_at takes only whole boxes).
            threads = min(_threads(target), 256)
            extent = _static_extents(sch, [fused])
            if extent is not None:
                threads = max(d for d in range(1, min(threads, extent[0]) + 1)
                              if extent[0] % d == 0)
            bx, tx = sch.split(fused, factors=[None, threads])
            sch.bind(bx, "blockIdx.x")
            sch.bind(tx, "threadIdx.x")
            try:
                for consumer in consumers:
                    sch.reverse_compute_at(consumer, tx)
                sch.set_scope(block, 0, "local")
            except Exception:  # noqa: BLE001 - its consumers get kernels of their own
                pass
        return sch if _bind_the_rest(sch, target) else None


class Reduction(ScheduleRule):
    """A function of one reduction (a sum over rows, a mean, a norm; the
    element-wise work before it inlined): its spatial loops fused and bound
    to blockIdx.x, its reduction loops fused and split so that a block's
    `threads` threads reduce together (threadIdx.x on the inner part: a
    cross-thread reduction). Takes reductions of at least `threads`
    elements (of a known count; the rows may be a runtime count)."""

    def __init__(self, threads=256):
        self.threads = int(threads)

    def _reduce_across_threads(self, sch, block):
        loops = sch.get_loops(block)
        kinds = _kinds(sch, block)
        if (len(loops) != len(kinds) or _REDUCE not in kinds
                or any(k not in (_SPATIAL, _REDUCE) for k in kinds)):
            return False
        spatial = [lp for lp, k in zip(loops, kinds) if k == _SPATIAL]
        reduce = [lp for lp, k in zip(loops, kinds) if k == _REDUCE]
        # The spatial loops may run a runtime count (rows of a dynamic
        # length, fused on blockIdx.x); the reduction's length is known.
        extents = _static_extents(sch, reduce)
        size = 1
        for e in extents or ():
            size *= e
        if not spatial or extents is None or size < self.threads:
            return False
        sch.reorder(*spatial, *reduce)
        sch.bind(sch.fuse(*spatial) if len(spatial) > 1 else spatial[0], "blockIdx.x")
        fused = sch.fuse(*reduce) if len(reduce) > 1 else reduce[0]
        _, inner = sch.split(fused, factors=[None, self.threads])
        sch.bind(inner, "threadIdx.x")
        return True

    def apply(self, func, target, tunable):
        sch = Schedule(func)
        _inline_spatial(sch)
        blocks = _leaf_blocks(sch)
        # One reduction (with what inlined into it): several blocks are
        # GeneralReduction's.
        if len(blocks) != 1 or not self._reduce_across_threads(sch, blocks[0]):
            return None
        return sch


class GEMV(Reduction):
    """A matrix-vector product: each output element's dot product reduced
    across a block's threads (the Reduction schedule)."""


class GeneralReduction(ScheduleRule):
    """Reductions and element-wise work row by row (softmax, layer norm):
    one GPU block per row of the output (its loops but the last, fused, on
    blockIdx.x), every other block computed inside that row loop with its
    intermediate in shared memory, each block's innermost loop split
    across the block's `threads` threads (a cross-thread reduction where it
    reduces). Takes functions of several blocks whose reductions each
    reduce over the output's last axis alone, and whose intermediates are
    of static shape."""

    def __init__(self, threads=256):
        self.threads = int(threads)

    def apply(self, func, target, tunable):
        sch = Schedule(func)
        _inline_spatial(sch)
        blocks = _leaf_blocks(sch)
        if len(blocks) < 2 or not any(_REDUCE in _kinds(sch, b) for b in blocks):
            return None
        out = blocks[-1]
        loops = sch.get_loops(out)
        kinds = _kinds(sch, out)
        if len(loops) < 2 or len(loops) != len(kinds) or kinds[0] != _SPATIAL:
            return None
        # Row by row: each reduction reduces over the output's last axis
        # alone (a softmax, a layer norm), and a row is every loop of the
        # output but the last (a block per (batch, position, ...) row, not
        # one block for all of a batch of 1).
        if not all(self._reduces_last_axis(sch, b, len(loops))
                   for b in blocks[:-1] if _REDUCE in _kinds(sch, b)):
            return None
        row = sch.fuse(*loops[:-1]) if len(loops) > 2 else loops[0]
        _, tx = sch.split(loops[-1], factors=[None, self.threads])
        sch.bind(tx, "threadIdx.x")
        for block in reversed(blocks[:-1]):
            try:
                sch.compute_at(block, row)
            except Exception:  # noqa: BLE001 - not a row-wise function
                return None
            inner = sch.get_loops(block)[-1]
            _, tx = sch.split(inner, factors=[None, self.threads])
            sch.bind(tx, "threadIdx.x")
            sch.set_scope(block, 0, "shared")
        # Bound once the rows' blocks are under it (compute_at proves the
        # rows apart on the loop as fused, before it is a grid).
        try:
            sch.bind(row, "blockIdx.x")
        except Exception:  # noqa: BLE001 - rows it cannot prove apart
            return None
        return sch

    @staticmethod
    def _reduces_last_axis(sch, block, rank):
        """Whether `block` has as many spatial variables as the output has
        leading axes (`rank - 1`), then one reduce variable."""
        kinds = _kinds(sch, block)
        return kinds == [_SPATIAL] * (rank - 1) + [_REDUCE]


class Matmul(ScheduleRule):
    """A matmul-like block (C[i, j] += A[i, k] * B[k, j], batched or not):
    a block of (bm / tm) x (bn / tn) threads computes a bm x bn tile of C,
    each thread a tm x tn tile kept in registers (cache_write "local"), the
    tiles of A and B copied through shared memory bk at a time by all the
    block's threads; the element-wise blocks after it inlined into the write
    back where they can be, the rest bound as Fallback binds them. Takes
    shapes that the tiles divide, the rows also a runtime count (the last
    row tile predicated)."""

    def __init__(self, tiles=((64, 64, 8, 4, 4), (32, 32, 8, 2, 2))):
        self.tiles = [tuple(int(v) for v in t) for t in tiles]

    @staticmethod
    def _matmul_block(sch):
        for block in _leaf_blocks(sch):
            node = sch.get(block)
            kinds = _kinds(sch, block)
            if (kinds.count(_REDUCE) == 1 and kinds[-1] == _REDUCE and len(kinds) in (3, 4)
                    and all(k == _SPATIAL for k in kinds[:-1]) and node.init is not None
                    and len(node.reads) == 2 and len(node.writes) == 1):
                return block
        return None

    def apply(self, func, target, tunable):
        sch = Schedule(func)
        block = self._matmul_block(sch)
        if block is None:
            return None
        # Element-wise work before it inlined into its reads.
        for producer in sch.get_producers(block):
            try:
                sch.compute_inline(producer)
            except Exception:  # noqa: BLE001 - left to be bound below
                pass
        loops = sch.get_loops(block)
        if len(loops) != len(_kinds(sch, block)):
            return None
        # The rows may be a runtime count (a prefill of any length): the
        # last tile is then predicated.
        extents = _static_extents(sch, loops[:-3] + loops[-2:])
        if extents is None:
            return None
        m = _static_extents(sch, loops[-3:-2])
        *batch, n, k = extents
        for bm, bn, bk, tm, tn in self.tiles:
            if (m is None or m[0] % bm == 0) and n % bn == 0 and k % bk == 0:
                break
        else:
            return None
        reads = sch.get(block).reads
        write_back = sch.cache_write(block, 0, "local")
        *b_loops, i, j, kk = sch.get_loops(block)
        ty, tx = bm // tm, bn // tn
        i0, i1, i2 = sch.split(i, factors=[None, ty, tm])
        j0, j1, j2 = sch.split(j, factors=[None, tx, tn])
        k0, k1 = sch.split(kk, factors=[None, bk])
        sch.reorder(*b_loops, i0, j0, i1, j1, k0, k1, i2, j2)
        sch.bind(sch.fuse(*b_loops, i0, j0), "blockIdx.x")
        threads = sch.fuse(i1, j1)
        sch.bind(threads, "threadIdx.x")
        sch.reverse_compute_at(write_back, threads)
        for index in range(len(reads)):
            cache = sch.cache_read(block, index, "shared")
            sch.compute_at(cache, k0)
            fused = sch.fuse(*sch.get_loops(cache)[-2:])
            _, tid = sch.split(fused, factors=[None, ty * tx])
            sch.bind(tid, "threadIdx.x")
        init = sch.decompose_reduction(block, k0)
        for loop in [k1, i2, j2] + sch.get_loops(init)[-2:] + sch.get_loops(write_back)[-2:]:
            sch.unroll(loop)
        # The element-wise work after it (bias, activation) done in the
        # write back, while the blocks inline.
        consumers = sch.get_consumers(write_back)
        while len(consumers) == 1:
            try:
                sch.reverse_compute_inline(consumers[0])
            except Exception:  # noqa: BLE001 - a block that does not inline is bound below
                break
            consumers = sch.get_consumers(write_back)
        if not _bind_the_rest(sch, target):
            return None
        return sch
