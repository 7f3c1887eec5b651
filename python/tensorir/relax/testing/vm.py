"""relax.testing.vm: check_saved_func."""
import numpy as np


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
