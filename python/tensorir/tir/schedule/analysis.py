"""tvm.tir.schedule.analysis: questions about a schedule's blocks and loops
that the auto-scheduler's rules ask (the C++ schedule analyses)."""
from ..expr import IntImm
from ..stmt import For
from ..stmt_functor import post_order_visit


class TensorizeInfo:
    """TVM's TensorizeInfo: how the loops above a block line up with a
    tensor intrinsic's description loops. `loop_map`: the StmtSRef of each
    loop taken -> the description's For it stands for; `desc_loop_indexer`:
    each description For -> its position (outermost first);
    `block_iter_paddings`: per iteration variable, the multiple its extent
    is padded to (1: none), or None when no padding is needed."""

    def __init__(self, loop_map, desc_loop_indexer, block_iter_paddings):
        self.loop_map = loop_map
        self.desc_loop_indexer = desc_loop_indexer
        self.block_iter_paddings = block_iter_paddings

    def __repr__(self):
        return (f"TensorizeInfo(loop_map={len(self.loop_map)} loops, "
                f"block_iter_paddings={self.block_iter_paddings})")


def _description_loops(desc_func):
    """The For nodes of a description, outermost first (its nests in
    reverse post-order, as the C++ analysis numbers them)."""
    loops = []
    post_order_visit(desc_func.body, lambda n: loops.append(n) if isinstance(n, For) else None)
    return loops[::-1]


def get_tensorize_loop_mapping(sch, block, desc_func, allow_padding=False):
    """TVM's get_tensorize_loop_mapping: which loops above `block` (a
    BlockRV) the loops of `desc_func` (a tensor intrinsic's description)
    stand for, or None when they do not line up (the loops above the block
    are not one loop per iteration variable starting at 0, no iteration
    variable of the right kind, an extent that is not a multiple of the
    description's and no `allow_padding`). Unlike TVM, a description loop
    left without a loop gives None rather than a partial map."""
    from .schedule import BlockRV
    if not isinstance(block, BlockRV):
        raise TypeError(f"get_tensorize_loop_mapping takes a BlockRV, got "
                        f"{type(block).__name__}")
    handle = sch._handle(block)
    found = sch._native.tensorize_loop_mapping(handle, desc_func.mod._native, desc_func.name,
                                               bool(allow_padding))
    if found is None:
        return None
    pairs, paddings = found
    func_name, _ = handle.position
    desc_loops = _description_loops(desc_func)
    loop_map = {sch.state._sref(sch.mod, func_name, "loop", position): desc_loops[index]
                for position, index in pairs}
    indexer = {loop: k for k, loop in enumerate(desc_loops)}
    if paddings is not None:
        paddings = [IntImm("int32", p) for p in paddings]
    return TensorizeInfo(loop_map, indexer, paddings)


def is_output_block(sch, block):
    """TVM's is_output_block: whether `block` writes a buffer its scope
    (the enclosing block, or the function) does not allocate."""
    return sch._native.is_output_block(sch._handle(block))


__all__ = ["TensorizeInfo", "get_tensorize_loop_mapping", "is_output_block"]
