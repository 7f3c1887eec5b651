"""tvm.tir.schedule.transform: schedule transformations made of primitives
(each recorded in the trace as the user's own steps)."""


def tile_with_tensor_intrin(sch, block, intrin_name, allow_padding=False):
    """TVM's tile_with_tensor_intrin: splits the loops of `block` that
    the description of tensor intrinsic `intrin_name` (registered with
    tir.TensorIntrin.register) maps (get_tensorize_loop_mapping) by the
    description loops' extents, padding the block first (pad_einsum) where
    an extent is not a multiple and `allow_padding`, and moves the inner
    loops innermost in the description's order. Returns the LoopRV of the
    outermost of them (what blockize and tensorize take), or None when the
    block does not map to the intrinsic."""
    from ..function import TensorIntrin
    from .schedule import LoopRV
    if not isinstance(intrin_name, str):
        raise TypeError(f"tile_with_tensor_intrin: the intrinsic is given by its registered "
                        f"name, got {type(intrin_name).__name__}")
    TensorIntrin.get(intrin_name)  # registered (a clear error otherwise)
    handle = sch._native.tile_with_tensor_intrin(sch._handle(block), intrin_name,
                                                 bool(allow_padding))
    return None if handle is None else LoopRV._of(handle)


__all__ = ["tile_with_tensor_intrin"]
