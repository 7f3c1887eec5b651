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
