"""IRModule: a module of tir functions (TVM's tvm.ir.IRModule).

The module is an MLIR module of func.func ops, each named by its key in the
module (TVM's GlobalVar). TVM also gives a function a "global_symbol"
attribute, the name it is built under, which IRModule({"main": f}) keeps
from f (Schedule(prim_func) schedules IRModule({"main": prim_func}), and
the built library still has the function under its own name). The IR has
no function attributes yet, so the module keeps the global symbols that
differ from the keys beside the IR (`_symbols`), and build() names the
built functions by them.
"""
import re

from .._ext import ext

# `  func.func @name(` or `  func.func private @name(` at the module's top level.
_FUNC_LINE = re.compile(r'^  func\.func (?:(?:public|private|nested) )?@("?)([^"(\s]+)\1\(')
_ALIAS_LINE = re.compile(r"^([#!][A-Za-z_][\w$.-]*) = (.*)$")


def split_functions(text):
    """{name: the function's text} of a module printed as MLIR. The
    functions' texts are dedented to the top level and self-contained:
    attribute and type aliases the printer put before the module (#map =
    ...) are written out where they are used."""
    aliases = []
    functions = {}
    current, name, in_module = None, None, False
    for line in text.splitlines():
        if not in_module:
            match = _ALIAS_LINE.match(line)
            if match:
                aliases.append((match.group(1), match.group(2)))
            elif line.startswith("module"):
                in_module = True
            continue
        if current is None:
            match = _FUNC_LINE.match(line)
            if not match:
                continue
            name, current = match.group(2), [line]
            if not line.rstrip().endswith("{"):  # a declaration, no body
                functions[name], current = line[2:], None
        else:
            current.append(line)
            if line == "  }":
                functions[name] = "\n".join(l[2:] for l in current)
                current = None

    def expand(body):
        # Later aliases may use earlier ones: expand the latest first.
        for alias, value in reversed(aliases):
            body = re.sub(re.escape(alias) + r"(?![\w$.-])", lambda _: value, body)
        return body

    return {n: expand(body) for n, body in functions.items()}


def global_symbol(func):
    """A PrimFunc's global symbol: its name unless with_attr set another;
    None for a function built from IR nodes without one (a module names it
    by its key)."""
    if getattr(func, "_symbol_from_key", False) and not getattr(func, "_global_symbol", None):
        return None
    return getattr(func, "_global_symbol", None) or func.name


def _module_from_functions(functions):
    """(native module, {key: global symbol where it is not the key}) of
    `functions` ({name: PrimFunc or relax Function}): each function is
    named by its key and keeps its global symbol, as in TVM's
    IRModule({"main": f})."""
    from ..relax.function import Function
    from ..tir.function import PrimFunc
    symbols = {}
    # The prim_funcs a parsed graph function's R.emit_te calls made, where
    # the functions given leave them out.
    for func in list(functions.values()):
        for name, prim in getattr(func, "te_funcs", {}).items():
            if name not in functions and not any(
                    getattr(k, "name_hint", k) == name for k in functions):
                functions = {**functions, name: prim}
    if len(functions) == 1:
        # One function already under its key: its own module is the module
        # (no copy, and the source locations stay).
        (name, func), = functions.items()
        if isinstance(func, PrimFunc) and func.name == getattr(name, "name_hint", name):
            return func.mod._native, ({name: global_symbol(func)}
                                      if global_symbol(func) not in (name, None) else {})
    items, graphs = [], False
    for name, func in functions.items():
        name = getattr(name, "name_hint", name)  # a GlobalVar-like key
        if not isinstance(name, str):
            raise TypeError(f"IRModule keys are function names (str), got {type(name).__name__}")
        if isinstance(func, PrimFunc):
            items.append((func.mod._native, func.name, name))
        elif isinstance(func, Function):
            items.append((func._native, func.name, name))
            graphs = True
        else:
            raise TypeError(f"IRModule holds PrimFuncs and relax Functions; '{name}' is a "
                            f"{type(func).__name__}")
        if global_symbol(func) not in (name, None):
            symbols[name] = global_symbol(func)
    native = ext.Module.compose(items)
    if graphs:
        # A graph function verifies only with the prim_funcs it calls.
        native.verify()
    return native, symbols


class IRModule:
    """A module of tir functions (an MLIR module holding func.func ops).

    IRModule(native) wraps the extension's module; IRModule("mlir text")
    parses MLIR; IRModule({"main": prim_func, ...}) builds a module of
    PrimFuncs, each named by its key, as TVM's IRModule(dict) does."""

    def __init__(self, functions=None, attrs=None, global_infos=None):
        native = functions
        symbols = {}
        if native is None:
            native = ext.Module.empty()
        elif isinstance(native, str):
            native = ext.Module.parse(native, "<string>")
        elif isinstance(native, dict):
            native, symbols = _module_from_functions(native)
        elif isinstance(native, IRModule):
            native, symbols = native._native, dict(native._symbols)
        self._native = native
        self._symbols = symbols
        self.attrs = dict(attrs or {})
        # The functions handed out, so that mod["main"] is one object and
        # its IR nodes are read once (mod["main"].body is mod["main"].body).
        self._funcs = {}
        if isinstance(functions, dict) and len(functions) == 1:
            # As in TVM, the module's one function is the function given:
            # IRModule({"main": f})["main"] is f (its nodes, its name).
            from ..tir.function import PrimFunc
            (key, func), = functions.items()
            if isinstance(func, PrimFunc):
                self._funcs[getattr(key, "name_hint", key)] = func

    @staticmethod
    def from_mlir(text, name="<string>"):
        """Parses MLIR text (tir in its MLIR syntax). Raises ValueError with
        the parser's or verifier's message, located in `name`."""
        if not isinstance(text, str):
            raise TypeError(f"from_mlir takes MLIR text (str), got {type(text).__name__}")
        return IRModule(ext.Module.parse(text, name))

    @staticmethod
    def load(path):
        """Reads an MLIR file (OSError when it cannot be read, ValueError
        when it is not MLIR text or does not parse and verify)."""
        with open(path, "rb") as f:
            data = f.read()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise ValueError(f"'{path}' is not MLIR text: byte {e.start} is not UTF-8") from None
        return IRModule.from_mlir(text, path)

    @staticmethod
    def from_expr(expr, functions=None, type_defs=None):
        """A module holding the PrimFunc `expr` under its global symbol (its
        name, or the one with_attr("global_symbol", ...) set), plus
        `functions` ({name: PrimFunc}), as TVM's IRModule.from_expr."""
        funcs = {global_symbol(expr) or expr.name: expr}
        funcs.update(functions or {})
        return IRModule(funcs)

    # ------------------------------------------------------------ functions
    @property
    def functions(self):
        """{name: PrimFunc} of the module's functions, in order."""
        return {name: self[name] for name in self._native.functions()}

    def functions_items(self):
        """[(GlobalVar, function)] in order, as TVM's IRModule gives them."""
        from ..relax.expr import GlobalVar
        return [(GlobalVar(name), self[name]) for name in self._native.functions()]

    def get_global_vars(self):
        """TVM's get_global_vars: a GlobalVar per function (`gv.name_hint`
        its name; `mod[gv]` the function)."""
        from ..relax.expr import GlobalVar
        return [GlobalVar(name) for name in self._native.functions()]

    def function_names(self):
        """The functions' names, in the module's order."""
        return list(self._native.functions())

    def get_global_var(self, name):
        """TVM's get_global_var: the GlobalVar of function `name`
        (ValueError if the module has none)."""
        from ..relax.expr import GlobalVar
        if name not in self._native.functions():
            raise ValueError(f"Cannot find global var \"{name}\" in the Module")
        return GlobalVar(name)

    def __contains__(self, name):
        return getattr(name, "name_hint", name) in self._native.functions()

    def __iter__(self):
        return iter(self._native.functions())

    def __len__(self):
        return len(self._native.functions())

    def __getitem__(self, name):
        """The function `name`: a PrimFunc, or a relax Function for a graph
        function (KeyError if there is none)."""
        from ..relax.function import Function
        from ..tir.function import PrimFunc
        name = getattr(name, "name_hint", name)
        if name in self._funcs:
            return self._funcs[name]
        names = self._native.functions()
        if name not in names:
            raise KeyError(f"no function named '{name}' in the module; it has "
                           f"{', '.join(names) or 'none'}")
        if self._native.is_graph_function(name):
            func = Function(name, self._native.extract(name), "<module>")
            self._funcs[name] = func
            return func
        # The one-function module is the function: kept (with the source
        # locations it carries); otherwise a copy of the function alone.
        func = PrimFunc._of_native(name, self._native if len(names) == 1
                                   else self._native.extract(name), "<module>")
        if name in self._symbols:
            func._global_symbol = self._symbols[name]
        self._funcs[name] = func
        return func

    def __setitem__(self, name, func):
        """Adds or replaces the function `name` (the module's other
        functions are copied as they are)."""
        functions = self.functions
        functions[getattr(name, "name_hint", name)] = func
        self._native, self._symbols = _module_from_functions(functions)
        self._funcs = {}

    def update_func(self, name, func):
        self[name] = func

    def with_attr(self, attr_key, attr_value=None):
        """A copy with a module attribute set (kept on the Python object: the
        IR has no module attributes yet; they take no part in structural
        equality, printing or building)."""
        attrs = dict(attr_key) if isinstance(attr_key, dict) else {attr_key: attr_value}
        return IRModule(self, {**self.attrs, **attrs})

    def with_attrs(self, attrs):
        """A copy with the module attributes `attrs` (a dict) set."""
        return self.with_attr(dict(attrs))

    def without_attr(self, attr_key):
        return IRModule(self, {k: v for k, v in self.attrs.items() if k != attr_key})

    def with_global_symbols(self):
        """This module with each function named by its global symbol (what
        build() compiles; the same module when every key is its symbol)."""
        if not self._symbols:
            return self
        items, seen = [], set()
        for name in self._native.functions():
            symbol = self._symbols.get(name, name)
            if symbol in seen:
                raise ValueError(f"two functions have the global symbol '{symbol}'")
            seen.add(symbol)
            items.append((self._native, name, symbol))
        return IRModule(ext.Module.compose(items), self.attrs)

    def same_as(self, other):
        return isinstance(other, IRModule) and self._native is other._native

    # ------------------------------------------------------------- printing
    def mlir(self):
        """The module as MLIR text."""
        return str(self._native)

    def script(self, *args, show_meta=False, **kwargs):
        """The module as TVMScript, an @I.ir_module class (which
        tensorir.script parses back to the same IR). IR that TVMScript cannot
        express raises ValueError; mlir() always works. show_meta: print the
        graph functions' tensor constants after the module (parsing the text
        back needs them). TVM's other printing options are accepted and
        ignored."""
        return self._native.tvmscript(as_module=True, show_meta=bool(show_meta))

    def show(self, *args, **kwargs):
        print(self.script(*args, **kwargs))

    def __str__(self):
        return self.mlir()

    def __repr__(self):
        return f"IRModule({', '.join(self._native.functions())})"
