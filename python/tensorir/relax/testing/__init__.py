"""relax.testing: helpers TVM's tests use (nn's placeholders, the
VirtualMachine's saved-function check)."""
from . import nn, vm

__all__ = ["nn", "vm"]
