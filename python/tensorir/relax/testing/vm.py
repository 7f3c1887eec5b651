"""relax.testing.vm: check_saved_func, and the packed functions TVM's VM
tests call by name ("test.vm.add", ...), registered on import."""
import numpy as np

from ...nd import array
from ...registry import register_global_func


def _register(name):
    def register(f):
        return register_global_func(name, f, override=True)
    return register


@_register("test.vm.move")
def move(src):
    return src


@_register("test.vm.add")
def add(a, b):
    return array(a.numpy() + b.numpy())


@_register("test.vm.mul")
def mul(a, b):
    return array(a.numpy() * b.numpy())


@_register("test.vm.equal_zero")
def equal_zero(a):
    return array(np.all(a.numpy() == 0))


@_register("test.vm.subtract_one")
def subtract_one(a):
    return array(a.numpy() - 1)


@_register("test.vm.identity")
def identity(a, b):
    """Copies a into b (destination-passing style)."""
    b.copyfrom(a)


@_register("test.vm.tile")
def tile(a, b):
    """a repeated twice along its last axis, into b."""
    b.copyfrom(np.tile(a.numpy(), (1, 2)))


def check_saved_func(vm, func_name, *inputs):
    """Calls vm[func_name] on `inputs` directly and through a closure saved
    with save_function; the two results are checked equal and the direct
    one returned (the function returns a tensor and is idempotent)."""
    saved_name = f"{func_name}_saved"
    vm.save_function(func_name, saved_name, *inputs)
    res1 = vm[func_name](*inputs)
    res2 = vm[saved_name]()
    np.testing.assert_allclose(res1.numpy(), res2.numpy(), rtol=1e-7, atol=1e-7)
    return res1
