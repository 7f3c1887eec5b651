"""tvm.meta_schedule.testing.local_rpc: TVM's LocalRPC (a tracker and a
server on this machine for tests). tir does not speak TVM's RPC protocol,
so making one raises NotImplementedError, as tvm.rpc does."""
from ...rpc import _UNSUPPORTED

__all__ = ["LocalRPC"]


class LocalRPC:
    """TVM's LocalRPC; not supported (NotImplementedError)."""

    def __init__(self, tracker_key="key", silent=False, no_fork=False):
        raise NotImplementedError(_UNSUPPORTED)
