"""IRModule: a module of tir functions."""
from .._ext import ext


class IRModule:
    """A module of tir functions (an MLIR module holding func.func ops)."""

    def __init__(self, native):
        if isinstance(native, str):
            native = ext.Module.parse(native, "<string>")
        elif isinstance(native, dict):
            # {"main": prim_func, ...} as tvm.IRModule takes it.
            from ..script.parser import parse_module_text
            texts = [f.with_name(name).text for name, f in native.items()]
            native = ext.Module.parse(parse_module_text(texts), "<module>")
        self._native = native

    @staticmethod
    def from_mlir(text, name="<string>"):
        """Parses MLIR text (tir in its MLIR syntax). Raises ValueError with
        the parser's or verifier's message, located in `name`."""
        return IRModule(ext.Module.parse(text, name))

    @staticmethod
    def load(path):
        with open(path) as f:
            return IRModule.from_mlir(f.read(), path)

    @property
    def functions(self):
        return self._native.functions()

    def __contains__(self, name):
        return name in self.functions

    def mlir(self):
        """The module as MLIR text."""
        return str(self._native)

    def script(self):
        """The module as TVMScript (which tensorir.script parses back to the
        same IR). IR that TVMScript cannot express raises ValueError; mlir()
        always works."""
        return self._native.tvmscript()

    def show(self):
        print(self.script())

    def __str__(self):
        return self.mlir()

    def __repr__(self):
        return f"IRModule({', '.join(self.functions)})"
