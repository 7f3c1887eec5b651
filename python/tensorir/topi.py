"""tvm.topi: TVM's operator library, of which only the names TVM's
schedule tests use are here: argmax and argmin. Both need a te reduction
over (index, value) pairs (te.comm_reducer with tuple results), which
tensorir.te does not have yet, so they refuse when called, saying so."""

__all__ = ["argmax", "argmin"]


def _refuse(name):
    raise NotImplementedError(
        f"topi.{name} needs a te reduction over (index, value) pairs "
        "(te.comm_reducer with tuple results), which tensorir.te does not have yet")


def argmax(data, axis=None, keepdims=False, select_last_index=False):
    """Index of the maximum along `axis` (refused: see the module)."""
    _refuse("argmax")


def argmin(data, axis=None, keepdims=False, select_last_index=False):
    """Index of the minimum along `axis` (refused: see the module)."""
    _refuse("argmin")
