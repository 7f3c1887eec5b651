"""Element-wise operators with numpy broadcasting, and reshape."""
from .. import te
from .._shapes import broadcast_shape, reshape_target


def _dim(d):
    """A dimension as a Python int, or the shape variable (expression) it is."""
    if isinstance(d, int):
        return d
    try:
        return int(d)
    except TypeError:
        return d


def _shape(x):
    return tuple(_dim(d) for d in x.shape) if isinstance(x, te.Tensor) else ()


def _operand(x, indices, out_shape):
    """x read at the output's `indices`: a tensor with its broadcast
    dimensions at 0, or a scalar as it is."""
    if not isinstance(x, te.Tensor):
        return x
    shape = _shape(x)
    offset = len(out_shape) - len(shape)
    # A dimension of size 1 the output has larger reads index 0; one of the
    # output's size reads the output's index (as TVM's topi reads it).
    index = [0 if isinstance(d, int) and d == 1 and out_shape[offset + k] is not d
             and out_shape[offset + k] != 1 else indices[offset + k]
             for k, d in enumerate(shape)]
    return x[tuple(index)] if index else x[()]


def _binary(name, combine):
    def op(lhs, rhs):
        if not isinstance(lhs, te.Tensor) and not isinstance(rhs, te.Tensor):
            return combine(lhs, rhs)
        shape = broadcast_shape(_shape(lhs), _shape(rhs), f"topi.{name}")
        return te.compute(shape, lambda *i: combine(_operand(lhs, i, shape),
                                                    _operand(rhs, i, shape)),
                          name=f"T_{name}")
    op.__name__ = name
    op.__doc__ = f"topi.{name}: element-wise, with numpy broadcasting (block T_{name})."
    return op


add = _binary("add", lambda a, b: a + b)
subtract = _binary("subtract", lambda a, b: a - b)
multiply = _binary("multiply", lambda a, b: a * b)
divide = _binary("divide", lambda a, b: a / b)
maximum = _binary("maximum", lambda a, b: te.max(a, b))
minimum = _binary("minimum", lambda a, b: te.min(a, b))
left_shift = _binary("left_shift", lambda a, b: a << b)
right_shift = _binary("right_shift", lambda a, b: a >> b)


def reshape(a, newshape):
    """topi.reshape: the same elements in row-major order, in `newshape`
    (one -1 takes what is left)."""
    shape = _shape(a)
    newshape = reshape_target(shape, newshape, "topi.reshape")

    def element(*i):
        flat = 0
        for d, k in zip(newshape, i):
            flat = flat * d + k
        index = []
        for d in reversed(shape):
            index.append(flat % d)
            flat = flat // d
        return a[tuple(reversed(index))]

    return te.compute(tuple(newshape), element, name="T_reshape")
