"""PostOrderApply: each schedule rule applied to every block, innermost
first (the MetaSchedule library's PostOrderApply)."""
from ..._ext import ext
from ...tir.schedule import Schedule
from ..utils import _bind, _wraps_native
from .space_generator import SpaceGenerator, _set_components

__all__ = ["PostOrderApply"]


def _block_node(sch, func_name, index):
    """The tir.Block at `index` among the blocks of function `func_name`
    in pre-order (-1: the function's root block)."""
    from ...tir.stmt import Block
    from ...tir.stmt_functor import pre_order_visit
    found = []
    pre_order_visit(sch.mod[func_name].body,
                    lambda n: found.append(n) if isinstance(n, Block) else None)
    return found[index + 1]


@_wraps_native(ext.PostOrderApply)
class PostOrderApply(SpaceGenerator):
    """TVM's PostOrderApply: for each rule, every schedule so far is given
    to the rule once per block (the last block of a function first, its
    root block last); f_block_filter(block) picks the blocks (a tir.Block:
    its name_hint, annotations, ...)."""

    def __init__(self, f_block_filter=None, sch_rules="default", postprocs="default",
                 mutator_probs="default"):
        if f_block_filter is not None and not callable(f_block_filter):
            raise TypeError("f_block_filter is a function of a block, or None")
        native_filter = None
        if f_block_filter is not None:
            def native_filter(native, func_name, index):
                sch = Schedule._from_native(native)
                return bool(f_block_filter(_block_node(sch, func_name, index)))
        native = ext.PostOrderApply(native_filter)
        _set_components(native, sch_rules, postprocs, mutator_probs)
        _bind(self, native)
