"""tvm.rpc: TVM's remote procedure calls to devices. tir does not speak
TVM's RPC protocol (remote builds and measurements go through a Ray
cluster, docs/scale.md); the names are here so that TVM's programs import,
and connecting refuses, saying so."""

__all__ = ["RPCSession", "connect", "connect_tracker"]

_UNSUPPORTED = ("tvm.rpc: TVM's RPC protocol is not supported by tir; measure on this "
                "machine (meta_schedule's LocalRunner) or on other machines with "
                "meta_schedule's RayBuilder and RayRunner on a Ray cluster (docs/scale.md)")


class RPCSession:
    """TVM's RPC session (a type for annotations: none can be opened)."""

    def __init__(self, *args, **kwargs):
        raise NotImplementedError(_UNSUPPORTED)


def connect(url, port, key="", session_timeout=0, session_constructor_args=None,
            enable_logging=False):
    """TVM's rpc.connect; not supported (NotImplementedError)."""
    raise NotImplementedError(_UNSUPPORTED)


def connect_tracker(url, port):
    """TVM's rpc.connect_tracker; not supported (NotImplementedError)."""
    raise NotImplementedError(_UNSUPPORTED)
