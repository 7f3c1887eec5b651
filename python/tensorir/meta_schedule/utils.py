"""tvm.meta_schedule.utils: derived_object (TVM's way of writing a schedule
rule, postprocessor, mutator or space generator as a Python class), and the
bookkeeping between the MetaSchedule library's objects and their Python
wrappers."""
import functools
import os
import weakref

__all__ = ["cpu_count", "derived_object", "get_global_func_with_default_on_worker"]

# Native class -> the Python class that wraps it.
_WRAPPERS = {}
# TVM's name of a library object (its repr: "meta_schedule.<Name>(0x...)")
# -> the Python class of that name, for objects of one native class
# (ScheduleRule, Postproc, Mutator) that TVM gives classes of their own.
_NAMED = {}


def _named_native(name):
    """Class decorator: library objects whose repr names `name` are
    instances of the class."""

    def register(cls):
        _NAMED[name] = cls
        return cls

    return register


def _wraps_native(native_class):
    """Class decorator: the class wraps objects of `native_class` (and of
    its subclasses that no other class wraps)."""

    def register(cls):
        _WRAPPERS[native_class] = cls
        return cls

    return register


def _bind(obj, native):
    """Makes `obj` the Python object of `native`."""
    object.__setattr__(obj, "_native", native)
    native._py_object = weakref.ref(obj)
    return obj


def _object_of(native):
    """The Python object of a native MetaSchedule object: the one that made
    it while it lives, else a new wrapper of its class."""
    if native is None:
        return None
    ref = getattr(native, "_py_object", None)
    obj = ref() if ref is not None else None
    if obj is not None:
        return obj
    text = str(native) if _NAMED else ""
    if text.startswith("meta_schedule.") and "(" in text:
        cls = _NAMED.get(text[len("meta_schedule."):text.index("(")])
        if cls is not None:
            return _bind(cls.__new__(cls), native)
    for klass in type(native).__mro__:
        cls = _WRAPPERS.get(klass)
        if cls is not None:
            return _bind(cls.__new__(cls), native)
    raise TypeError(f"no Python class wraps {type(native).__name__}")


def _native_of(obj, expected, what):
    """The native object of `obj`, an instance of `expected`."""
    if not isinstance(obj, expected):
        raise TypeError(f"{what} takes a {expected.__name__}, got {type(obj).__name__}")
    return obj._native


def _to_hex_address(value):
    return f"0x{value:016x}"


def _get_default_str(obj):
    """TVM's repr of a Python-defined object: meta_schedule.<Class>(0x...)."""
    outer = getattr(obj, "_outer", None)
    target = outer() if outer is not None else obj
    return f"meta_schedule.{obj.__class__.__name__}({_to_hex_address(id(target))})"


def derived_object(cls):
    """TVM's derived_object: `cls`, a subclass of one of the Py* classes
    (PyScheduleRule, PyPostproc, PyMutator, PySpaceGenerator, ...), becomes
    an object the MetaSchedule library calls: each method the class
    overrides is handed to the library; one it does not override makes the
    library say "<Py class>'s <Method> method not implemented!". Attributes
    are the instance's, as usual."""
    base = cls.__base__
    metadata = getattr(base, "_tvm_metadata", None)
    if metadata is None:
        raise TypeError(f"derived_object: {cls.__name__} derives from {base.__name__}, "
                        "which is not one of MetaSchedule's Py* classes")
    if getattr(cls, "_type", None) == "TVMDerivedObject":
        raise TypeError(f"derived_object: {cls.__name__} is derived already")
    native_class = metadata["cls"]
    fields = metadata.get("fields", [])
    methods = metadata["methods"]

    def extract(inst, name):
        # A method the class does not override is not given (except
        # __str__, which has a default).
        if getattr(base, name) is getattr(cls, name) and name != "__str__":
            return None

        def method(*args, **kwargs):
            return getattr(inst, name)(*args, **kwargs)

        return method

    class TVMDerivedObject(native_class):
        _cls = cls
        _type = "TVMDerivedObject"

        def __init__(self, *args, **kwargs):
            inst = cls(*args, **kwargs)
            object.__setattr__(self, "_inst", inst)
            native_class.__init__(self, *[getattr(inst, name) for name in fields],
                                  *[extract(inst, name) for name in methods])
            inst._outer = weakref.ref(self)

        def __getattr__(self, name):
            if name in ("_inst", "_native"):
                raise AttributeError(name)
            return getattr(self._inst, name)

        def __setattr__(self, name, value):
            if name in ("_inst", "_native"):
                object.__setattr__(self, name, value)
            else:
                setattr(self._inst, name, value)

    functools.update_wrapper(TVMDerivedObject.__init__, cls.__init__)
    TVMDerivedObject.__name__ = cls.__name__
    TVMDerivedObject.__qualname__ = cls.__qualname__
    TVMDerivedObject.__doc__ = cls.__doc__
    TVMDerivedObject.__module__ = cls.__module__
    for key, value in cls.__dict__.items():
        if isinstance(value, (classmethod, staticmethod)):
            setattr(TVMDerivedObject, key, value)
    return TVMDerivedObject


def cpu_count(logical=True):
    """The CPUs this process may run on: logical ones, or (logical=False)
    physical cores as Linux lists them; at least 1."""
    try:
        logical_cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        logical_cpus = os.cpu_count() or 1
    if logical:
        return max(1, logical_cpus)
    cores = set()
    try:
        allowed = os.sched_getaffinity(0)
        for cpu in allowed:
            base = f"/sys/devices/system/cpu/cpu{cpu}/topology"
            with open(f"{base}/physical_package_id") as f:
                package = f.read().strip()
            with open(f"{base}/core_id") as f:
                core = f.read().strip()
            cores.add((package, core))
    except (AttributeError, OSError):
        return max(1, logical_cpus)
    return max(1, len(cores) or logical_cpus)


def get_global_func_with_default_on_worker(name, default):
    """TVM's helper for runner and builder functions: `name` a function
    (returned), a registered function's name (looked up) or None (the
    `default`)."""
    from ..registry import get_global_func
    if name is None:
        return default
    if callable(name):
        return name
    try:
        return get_global_func(name)
    except ValueError as error:
        raise ValueError(f"Function '{name}' is not registered on the worker process. The "
                         f"build function and export function should be registered in "
                         f"worker process.") from error
