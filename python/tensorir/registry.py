"""TVM's global function registry (tvm_ffi.register_global_func,
get_global_func): Python functions registered under a name, which
MetaSchedule looks up (a builder's or runner's function, a block's custom
schedule rule "<target kind>.<schedule_rule annotation>")."""
import threading

__all__ = ["get_global_func", "list_global_func_names", "register_global_func",
           "remove_global_func"]

_FUNCTIONS = {}
_LOCK = threading.Lock()


def register_global_func(func_name, f=None, override=False):
    """Registers `f` as `func_name`; without f, a decorator. A name already
    registered is refused unless `override`."""
    if callable(func_name) and f is None:
        f, func_name = func_name, func_name.__name__
    if not isinstance(func_name, str) or not func_name:
        raise ValueError("register_global_func takes a non-empty name")

    def register(function):
        if not callable(function):
            raise TypeError(f"register_global_func: {func_name!r} is not given a function")
        with _LOCK:
            if func_name in _FUNCTIONS and not override:
                raise ValueError(f"Global function {func_name} is already registered")
            _FUNCTIONS[func_name] = function
        return function

    return register if f is None else register(f)


def get_global_func(name, allow_missing=False):
    """The function registered as `name`; None (allow_missing) or
    ValueError when there is none."""
    with _LOCK:
        function = _FUNCTIONS.get(name)
    if function is None and not allow_missing:
        raise ValueError(f"Cannot find global function {name}")
    return function


def remove_global_func(name):
    with _LOCK:
        _FUNCTIONS.pop(name, None)


def list_global_func_names():
    with _LOCK:
        return sorted(_FUNCTIONS)
