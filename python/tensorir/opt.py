"""tir-opt with Python passes: runs a pipeline that mixes tir's (and
MLIR's, and plugins') C++ passes with passes written in Python, on an MLIR
file, and prints the result.

    python3 -m tensorir.opt input.mlir \\
        --pipeline "tir-infer-access-regions,py:examples/python/intrinsic_pass.py:mark_intrinsic_loops,canonicalize" \\
        [--load-pass-plugin build/lib/TIRMarkIntrinsicLoops.so] [--tvmscript] [-o out.mlir]

Each pipeline element is either an MLIR pass pipeline element as
tir-opt's --pass-pipeline takes it inside builtin.module(...)
("tir-lower-init", "func.func(cse)", "tir-mark-intrinsic-loops{width=8}")
or `py:<file.py or module>:<name>`, a tvm.transform.Pass (or a pass class
taking no arguments) defined there. tir-opt itself is a C++ program without a
Python interpreter, so Python passes run from here (docs/passes.md).
"""
import argparse
import importlib
import importlib.util
import os
import sys

from ._text import split_top_level
from .ir.module import IRModule
from .ir.transform import Pass, mlir_pass, load_pass_plugin


def python_pass(spec):
    """The Pass named by `py:<file or module>:<name>`."""
    where, _, name = spec[3:].rpartition(":")
    if not where or not name:
        raise ValueError(f"'{spec}': write py:<file.py or module>:<name>")
    if where.endswith(".py") or os.sep in where:
        module_spec = importlib.util.spec_from_file_location("tir_opt_passes", where)
        if module_spec is None:
            raise ValueError(f"'{spec}': cannot load '{where}'")
        module = importlib.util.module_from_spec(module_spec)
        module_spec.loader.exec_module(module)
    else:
        try:
            module = importlib.import_module(where)
        except ImportError as e:
            raise ValueError(f"'{spec}': {e}") from None
    value = getattr(module, name, None)
    if isinstance(value, type) and issubclass(value, Pass):
        try:
            value = value()  # a pass class (a decorated one) taking no arguments
        except TypeError as e:
            raise ValueError(f"'{spec}': {e}") from None
    if not isinstance(value, Pass):
        raise ValueError(f"'{spec}': '{name}' in '{where}' is not a tvm.transform.Pass (a "
                         "pass, or a pass class taking no arguments)")
    return value


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m tensorir.opt", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("input")
    parser.add_argument("--pipeline", required=True)
    parser.add_argument("--load-pass-plugin", action="append", default=[])
    parser.add_argument("--tvmscript", action="store_true", help="print TVMScript, not MLIR")
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args(argv)
    try:
        for plugin in args.load_pass_plugin:
            load_pass_plugin(plugin)
        passes = [python_pass(item) if item.startswith("py:") else mlir_pass(item)
                  for item in (p.strip() for p in split_top_level(args.pipeline) if p.strip())]
        mod = IRModule.load(args.input)
        for p in passes:
            mod = p(mod)
        text = mod.script() if args.tvmscript else mod.mlir()
    except (ValueError, TypeError, OSError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
