"""relax.transform: module passes over graph modules."""
from ..ir import IRModule


class LegalizeOps:
    """Relax's LegalizeOps: each high-level operator of the graph functions
    becomes a private prim_func (one TensorIR block, named after the
    operator) and a call_tir of it (--tir-legalize-ops). The prim_funcs can
    then be scheduled like any other; build() legalizes what is left."""

    def __call__(self, mod):
        if not isinstance(mod, IRModule):
            raise TypeError(f"LegalizeOps takes an IRModule, got {type(mod).__name__}")
        return IRModule(mod._native.legalize_ops())


class FuseOps:
    """Relax's FuseOps + FuseTIR in one step: legalizes the high-level
    operators as LegalizeOps does, an operator and the element-wise ones
    that consume its result in turn (each the only user of the value before
    it) becoming one prim_func `fused_<names>` of one block per operator
    (--tir-legalize-ops=fuse). matmul, bias add and ReLU are one call."""

    def __call__(self, mod):
        if not isinstance(mod, IRModule):
            raise TypeError(f"FuseOps takes an IRModule, got {type(mod).__name__}")
        return IRModule(mod._native.legalize_ops(fuse=True))
