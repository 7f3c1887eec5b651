"""tvm.lower: a program through tir's lowering phases, with the passes a
PassContext adds (TVM's `tir.add_lower_pass`), to the last tir before code
generation.

The phases are tvm.tir.transform.LOWER_PHASES (docs/passes.md): after the
C++ passes of phase k, the passes added as (k, pass) run, in the order
given. What comes after phase 3 (--convert-tir-to-scf and on, in build)
leaves tir, so passes over tir's nodes have nothing to see there.
"""
from .ir.module import IRModule
from .ir.transform import Pass, PassContext

__all__ = ["lower"]


def _as_module(inp, args, name):
    from .script.tir import PrimFunc
    from .te import Schedule as TESchedule, create_prim_func
    if isinstance(inp, TESchedule):
        if args is None:
            raise TypeError("tvm.lower of a te schedule needs its arguments: "
                            "tvm.lower(sch, [a, b, c])")
        return IRModule({name or "main": create_prim_func(list(args), name=name or "main")})
    if isinstance(inp, PrimFunc):
        # Under its global symbol unless a name is given (which it takes).
        from .ir.module import global_symbol
        if name is None:
            return IRModule({global_symbol(inp) or inp.name: inp})
        return IRModule({name: inp.with_attr("global_symbol", name)})
    if isinstance(inp, IRModule):
        return inp
    raise TypeError(f"tvm.lower takes a te schedule, a PrimFunc or an IRModule, got "
                    f"{type(inp).__name__}")


def _added_passes(ctx):
    """{phase: [pass, ...]} of the context's tir.add_lower_pass."""
    phases = {0: [], 1: [], 2: [], 3: []}
    for item in ctx.config.get("tir.add_lower_pass", []):
        if not (isinstance(item, (list, tuple)) and len(item) == 2):
            raise TypeError(f"tir.add_lower_pass holds (phase, pass) pairs, got {item!r}")
        phase, p = item
        if phase not in phases:
            raise ValueError(f"tir.add_lower_pass: phase {phase!r} is not 0, 1, 2 or 3")
        if not isinstance(p, Pass):
            raise TypeError(f"tir.add_lower_pass: ({phase}, {p!r}) is not a pass (make one "
                            "with tvm.tir.transform.prim_func_pass or "
                            "tvm.transform.module_pass)")
        phases[phase].append(p)
    return phases


def lower(inp, args=None, name=None, binds=None, simple_mode=False):
    """The IRModule of `inp` (a te schedule with its arguments, a PrimFunc,
    or an IRModule) after tir's four lowering phases and the passes the
    current PassContext adds to them. `name` names the function (default:
    "main" for a te schedule, a PrimFunc's global symbol)."""
    from .tir import transform as tt
    if binds:
        raise ValueError("tvm.lower: binds (buffers bound to te tensors) are not supported; "
                         "declare the buffers in TVMScript instead")
    mod = _as_module(inp, args, name)
    ctx = PassContext.current()
    added = _added_passes(ctx)
    for phase in range(4):
        passes = tt.phase_passes(phase)
        if phase == 2 and ctx.config.get("tir.disable_vectorize"):
            passes.append(tt.DisableVectorize())
        for p in passes + added[phase]:
            mod = ctx._run(p, mod)
    return mod
