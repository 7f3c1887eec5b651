"""relax.frontend.torch: PyTorch models as graph modules.

    mod = from_exported_program(torch.export.export(model.eval(), (x,)))
    gm = torch.fx.symbolic_trace(model.eval())
    mod = from_fx(gm, [((1, 3, 32, 32), "float32")])

Operators (ATen's from torch.export; modules, functions and methods from
torch.fx) become relax.op's high-level operators or prim_funcs written in
te; parameters become constants (or, for from_exported_program with
keep_params_as_input, inputs). Anything else is refused by name."""
from .exported_program_translator import from_exported_program
from .fx_translator import from_fx

__all__ = ["from_exported_program", "from_fx"]
