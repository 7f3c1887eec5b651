"""What the relax operator tests share: a graph function of one or several
operator outputs built with BlockBuilder, and running a module on the
VirtualMachine."""
import tensorir as tvm
from tensorir import relax


def graph(infos, body):
    """A module whose main(x0, x1, ...) (infos: (shape, dtype) each) returns
    body(x0, x1, ...): one value, or a tuple of a list of them."""
    params = [relax.Var(f"x{k}", relax.TensorStructInfo(shape, dtype))
              for k, (shape, dtype) in enumerate(infos)]
    bb = relax.BlockBuilder()
    with bb.function("main", params):
        with bb.dataflow():
            out = body(*params)
            if isinstance(out, (list, tuple)):
                out = bb.emit_output(tuple(bb.emit(o) for o in out))
            else:
                out = bb.emit_output(bb.emit(out))
        bb.emit_func_output(out)
    return bb.get()


def run(mod, *args):
    """main of `mod` built for the CPU and called on `args`."""
    return relax.VirtualMachine(relax.build(mod, target="llvm"), tvm.cpu())["main"](*args)
