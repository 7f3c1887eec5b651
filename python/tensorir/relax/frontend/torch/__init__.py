"""relax.frontend.torch: PyTorch models (torch.fx graphs) as graph modules.

    gm = torch.fx.symbolic_trace(model.eval())
    mod = from_fx(gm, [((1, 3, 32, 32), "float32")])

Modules, functions and methods become relax.op's high-level operators
(legalized into prim_funcs when built); parameters become constants.
Anything else is refused by name."""
from .fx_translator import from_fx

__all__ = ["from_fx"]
