"""tvm.tir.schedule.analysis: questions about a schedule's blocks and loops
that the auto-scheduler's rules ask (the C++ schedule analyses)."""
from ..expr import IntImm, Var
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


class AutoTensorizeMappingInfo:
    """TVM's AutoTensorizeMappingInfo: `mappings`, the index maps (one)
    that reshape the block's iteration space into the description's;
    `lhs_buffer_map`, each buffer of the block -> the description's buffer
    it stands for; `rhs_buffer_indices`, each description buffer -> its
    indices; `lhs_iters` / `rhs_iters`, the iteration variables of the
    block and of the description's block."""

    def __init__(self, mappings, lhs_buffer_map, rhs_buffer_indices, lhs_iters, rhs_iters):
        self.mappings = mappings
        self.lhs_buffer_map = lhs_buffer_map
        self.rhs_buffer_indices = rhs_buffer_indices
        self.lhs_iters = lhs_iters
        self.rhs_iters = rhs_iters

    def __repr__(self):
        return f"AutoTensorizeMappingInfo(mappings={self.mappings})"


def _description_block(desc_func):
    """The description's compute block: the last block under its root."""
    from ..stmt import Block, BlockRealize
    root = desc_func.body.block
    # The function's root, then the description's own root block.
    while isinstance(root.body, BlockRealize) and not root.body.block.iter_vars:
        root = root.body.block
    blocks = []
    post_order_visit(root.body, lambda n: blocks.append(n) if isinstance(n, Block) else None)
    return blocks[-1] if blocks else None


def get_auto_tensorize_mapping_info(sch, block, desc_func):
    """TVM's get_auto_tensorize_mapping_info: when `block` computes what
    the description of a tensor intrinsic computes (the same operations
    over buffers of the same element types; indices free), the index map
    over its iteration variables that makes its iteration space the
    description's: each variable goes to the description variable that
    indexes the same buffers, those going to one fused (outer first), the
    others first; None otherwise (or when a variable could go to two)."""
    from ..function import node_classes
    from ..index_map import IndexMap
    from .schedule import BlockRV
    if not isinstance(block, BlockRV):
        raise TypeError(f"get_auto_tensorize_mapping_info takes a BlockRV, got "
                        f"{type(block).__name__}")
    node = sch.get(block)
    lhs_iters = list(node.iter_vars)
    variables = [Var(iv.var.name, "int32") for iv in lhs_iters]
    found = sch._native.auto_tensorize_mapping(sch._handle(block), desc_func.mod._native,
                                               desc_func.name, variables, node_classes())
    if found is None:
        return None
    finals, buffers = found
    desc_block = _description_block(desc_func)
    by_name = {region.buffer.name: region.buffer for region in list(node.reads) + list(node.writes)}
    lhs_buffer_map, rhs_buffer_indices = {}, {}
    for name, param in buffers:
        rhs = desc_func.buffer_map[desc_func.params[param]]
        lhs_buffer_map[by_name.get(name, name)] = rhs
    for region in list(desc_block.reads) + list(desc_block.writes):
        rhs_buffer_indices.setdefault(region.buffer, [r.min for r in region.region])
    return AutoTensorizeMappingInfo([IndexMap(variables, finals)], lhs_buffer_map,
                                    rhs_buffer_indices, lhs_iters, list(desc_block.iter_vars))


def suggest_index_map(buffer, indices, loops, predicate):
    """TVM's suggest_index_map: a layout of `buffer` in which the access
    `buffer[indices]` made under `loops` (tir.For nodes, starting at 0)
    walks the buffer in loop order: the flattened access read as digits of
    the loops (`(i // 16) % 2`), the new dimensions those digits ordered by
    loop, outer digits first. An IndexMap with its inverse, or None when the
    access is not such a sum (a digit of no single loop, gaps between
    digits, a constant access). The predicate is not used: the digits are
    read from the loops' full ranges."""
    from ..function import node_classes
    from ..index_map import IndexMap
    from ..._ext import ext

    def static(values, what):
        out = []
        for v in values:
            v = getattr(v, "value", v)
            if not isinstance(v, int):
                raise ValueError(f"suggest_index_map: the buffer's {what} are constants")
            out.append(v)
        return out

    shape = static(buffer.shape, "shape")
    strides = static(buffer.strides or [], "strides")
    for loop in loops:
        if getattr(loop.min, "value", loop.min) != 0:
            return None
    extents = static([loop.extent for loop in loops], "loop extents")

    def make_vars(count):
        return [Var(f"i{k}", "int32") for k in range(count)]
    found = ext.suggest_index_map(shape, strides, list(indices),
                                  [loop.loop_var for loop in loops], extents, make_vars,
                                  node_classes())
    if found is None:
        return None
    (fvars, finals), (ivars, inverse) = found
    return IndexMap(fvars, finals, inverse_index_map=IndexMap(ivars, inverse))


def is_output_block(sch, block):
    """TVM's is_output_block: whether `block` writes a buffer its scope
    (the enclosing block, or the function) does not allocate."""
    return sch._native.is_output_block(sch._handle(block))


__all__ = ["AutoTensorizeMappingInfo", "TensorizeInfo", "get_auto_tensorize_mapping_info",
           "get_tensorize_loop_mapping", "is_output_block", "suggest_index_map"]
