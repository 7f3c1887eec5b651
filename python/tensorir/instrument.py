"""tvm.instrument: code that runs around every pass of a PassContext.

A PassInstrument has enter_pass_ctx / exit_pass_ctx (when the context is
entered and left), should_run(mod, info) (False skips the pass),
run_before_pass(mod, info) and run_after_pass(mod, info) (and, not in
TVM, pass_raised(info) when a pass raised instead). `@pass_instrument`
makes any class with some of those methods an instrument.
PassTimingInstrument times each pass (render() gives the table);
PrintBeforeAll / PrintAfterAll print the module around each pass.
"""
import time

__all__ = ["PassInstrument", "pass_instrument", "PassTimingInstrument", "PrintBeforeAll",
           "PrintAfterAll", "PassPrintingInstrument"]


class PassInstrument:
    """The base of instruments; every hook does nothing by default."""

    def enter_pass_ctx(self):
        pass

    def exit_pass_ctx(self):
        pass

    def should_run(self, mod, info):
        return True

    def run_before_pass(self, mod, info):
        pass

    def run_after_pass(self, mod, info):
        pass

    def pass_raised(self, info):
        """The pass raised (run_after_pass does not run for it)."""


def pass_instrument(cls):
    """@tvm.instrument.pass_instrument: a class with some of the hooks as
    a PassInstrument subclass."""
    if not isinstance(cls, type):
        raise TypeError(f"@pass_instrument decorates a class, got {type(cls).__name__}")
    if issubclass(cls, PassInstrument):
        return cls
    return type(cls.__name__, (cls, PassInstrument), {"__doc__": cls.__doc__})


class PassTimingInstrument(PassInstrument):
    """Times every pass; render() lists them in the order they started,
    the passes a pass ran (a Sequential's) indented under it."""

    def __init__(self):
        self.records, self._open = [], []

    def enter_pass_ctx(self):
        self.records, self._open = [], []

    def run_before_pass(self, mod, info):
        self._open.append((info.name, time.perf_counter(), len(self._open),
                           len(self.records)))
        self.records.append(None)  # filled when the pass ends

    def run_after_pass(self, mod, info):
        name, start, depth, slot = self._open.pop()
        self.records[slot] = (name, time.perf_counter() - start, depth)

    def pass_raised(self, info):
        self._open.pop()

    def render(self):
        lines = ["pass timings:"]
        for record in self.records:
            if record is not None:
                name, seconds, depth = record
                lines.append(f"{'  ' * (depth + 1)}{name}: {seconds * 1e6:.0f}us")
        return "\n".join(lines)


class PassPrintingInstrument(PassInstrument):
    """Prints the module before the passes named in print_before_pass_names
    and after those in print_after_pass_names."""

    def __init__(self, print_before_pass_names=(), print_after_pass_names=()):
        self.before, self.after = set(print_before_pass_names), set(print_after_pass_names)

    def run_before_pass(self, mod, info):
        if info.name in self.before:
            print(f"Before running pass {info.name}:\n{_text(mod)}")

    def run_after_pass(self, mod, info):
        if info.name in self.after:
            print(f"After running pass {info.name}:\n{_text(mod)}")


class PrintBeforeAll(PassInstrument):
    """Prints the module before every pass."""

    def run_before_pass(self, mod, info):
        print(f"Before running pass {info.name}:\n{_text(mod)}")


class PrintAfterAll(PassInstrument):
    """Prints the module after every pass."""

    def run_after_pass(self, mod, info):
        print(f"After running pass {info.name}:\n{_text(mod)}")


def _text(mod):
    try:
        return mod.script()
    except ValueError:  # lowered past TVMScript
        return mod.mlir()
