"""What a decorated Python function gives the TVMScript parsers (@T.prim_func,
@R.function, @I.ir_module): its source, where it is, and the names it can
see."""
import inspect
import textwrap


def function_source(fn):
    """(source, filename, first line) of a Python function or class."""
    source = textwrap.dedent(inspect.getsource(fn))
    filename = inspect.getsourcefile(fn) or "<tvmscript>"
    _, line = inspect.getsourcelines(fn)
    return source, filename, line - 1


def python_env(fn):
    """The Python names a decorated function can see: its module's globals
    and the variables it closes over."""
    env = dict(getattr(fn, "__globals__", {}))
    try:
        env.update(inspect.getclosurevars(fn).nonlocals)
    except (TypeError, ValueError):
        pass
    return env
