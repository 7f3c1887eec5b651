"""relax.op's sorting operators (argsort, sort, topk, median, bucketize)
built from rank counts, against numpy: stable orders, ties, NaN placed as
PyTorch places it, several axes and dtypes; printed and parsed back."""
import numpy as np
import pytest

from tensorir import relax
from tensorir.script import from_source

from relax_helpers import graph, run


def _data(shape, dtype="float32", nan=True):
    rng = np.random.default_rng(7)
    x = rng.integers(-3, 4, size=shape).astype(dtype)  # many ties
    if nan and dtype.startswith("float"):
        x.flat[1] = np.nan
    return x


def _stable_argsort(x, axis, descending):
    # numpy puts NaN last in ascending order; descending (NaN first, ties
    # by index) sorts the negated keys stably, NaN kept largest.
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    keys = np.where(np.isnan(x), -np.inf, -x) if x.dtype.kind == "f" else -x
    return np.argsort(keys, axis=axis, kind="stable")


@pytest.mark.parametrize("shape,axis", [((9,), 0), ((4, 7), 1), ((4, 7), 0), ((2, 3, 5), 1)])
@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_argsort_and_sort_are_stable_with_nan_last(shape, axis, descending, dtype):
    x = _data(shape, dtype)
    mod = graph([(shape, dtype)], lambda a: [relax.op.argsort(a, axis, descending, "int64"),
                                             relax.op.sort(a, axis, descending)])
    order, values = run(mod, x)
    want = _stable_argsort(x, axis, descending)
    np.testing.assert_array_equal(order.numpy(), want)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, want, axis))


def test_topk_gives_the_first_k_of_the_order():
    x = _data((5, 8))
    mod = graph([((5, 8), "float32")],
                lambda a: [relax.op.topk(a, 3, 1, "values"),
                           relax.op.topk(a, 2, 0, "indices", largest=False, dtype="int64")])
    values, smallest = run(mod, x)
    want = _stable_argsort(x, 1, True)[:, :3]
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, want, 1))
    np.testing.assert_array_equal(smallest.numpy(), _stable_argsort(x, 0, False)[:2])
    assert smallest.numpy().dtype == np.int64


def test_median_is_the_lower_median_and_nan_when_there_is_one():
    x = _data((4, 6), nan=False)
    x[2, 3] = np.nan
    mod = graph([((4, 6), "float32")],
                lambda a: [*relax.op.median(a, 1, keepdims=True), relax.op.median(a)])
    values, indices, whole = run(mod, x)
    sorted_rows = np.sort(x, axis=1)
    want = sorted_rows[:, (6 - 1) // 2]
    want[2] = np.nan
    np.testing.assert_array_equal(values.numpy()[:, 0], want)
    picked = np.take_along_axis(x, indices.numpy(), 1)[:, 0]
    np.testing.assert_array_equal(picked, want)
    assert np.isnan(whole.numpy())


def test_bucketize_counts_the_boundaries_below():
    x = np.array([[-1.0, 0.0, 0.5, 1.0, np.nan, 3.0]], "float32")
    edges = np.array([0.0, 1.0, 2.0], "float32")
    mod = graph([((1, 6), "float32"), ((3,), "float32")],
                lambda a, b: [relax.op.bucketize(a, b),
                              relax.op.bucketize(a, b, out_int32=True, right=True)])
    left, right = run(mod, x, edges)
    np.testing.assert_array_equal(left.numpy(), [[0, 0, 1, 1, 3, 3]])
    np.testing.assert_array_equal(right.numpy(), [[0, 1, 1, 2, 3, 3]])
    assert right.numpy().dtype == np.int32


def test_sorting_operators_print_and_parse_back():
    mod = graph([((4, 7), "float32")],
                lambda a: [relax.op.argsort(a, 1), *relax.op.topk(a, 2, 0),
                           *relax.op.median(a, 1)])
    text = mod.script(show_meta=True)
    assert from_source(text).script(show_meta=True) == text


def test_sorting_refusals_name_the_operator():
    mod_args = [((4, 7), "float32")]
    with pytest.raises(ValueError, match=r"relax.op.topk: k is between 1 and the axis' size 7"):
        graph(mod_args, lambda a: relax.op.topk(a, 9, 1))
    with pytest.raises(ValueError, match="relax.op.argsort: dtype is int32 or int64"):
        graph(mod_args, lambda a: relax.op.argsort(a, 1, dtype="float32"))
    with pytest.raises(TypeError, match="relax.op.argsort: sorts numbers, not bool"):
        graph([((3,), "bool")], lambda a: relax.op.argsort(a))
    with pytest.raises(ValueError, match="relax.op.bucketize: boundaries are 1-D"):
        graph([((3,), "float32"), ((2, 2), "float32")], relax.op.bucketize)
