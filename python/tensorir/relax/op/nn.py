"""relax.op.nn: relu and softmax."""
from ..expr import Call
from ._common import tensor_of


def relu(data):
    """max(data, 0) element-wise."""
    info = tensor_of(data, "nn.relu", "data")
    return Call("relax.nn.relu", [data], info)


def softmax(data, axis=-1):
    """exp(x) / sum(exp(x)) along `axis`."""
    info = tensor_of(data, "nn.softmax", "data")
    rank = len(info.shape)
    if not -rank <= int(axis) < rank:
        raise ValueError(f"relax.op.nn.softmax: axis {axis} is outside {rank} dimensions")
    return Call("relax.nn.softmax", [data], info, {"axis": int(axis) % rank})
