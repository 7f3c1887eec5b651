"""tvm.meta_schedule.runner.rpc_runner: TVM's RPCRunner, which measures on
devices reached through TVM's RPC tracker. tir does not speak TVM's RPC
protocol: remote measurement goes through a Ray cluster instead (see
docs/scale.md). The names are here so that TVM's programs import; an
RPCRunner refuses to be made, saying what to use."""
from collections import namedtuple

from .local_runner import (T_ARG_INFO_JSON_OBJ, T_ARG_INFO_JSON_OBJ_LIST, T_ARGUMENT,
                           T_ARGUMENT_LIST)
from .local_runner import default_alloc_argument as _local_alloc_argument

__all__ = ["RPCConfig", "RPCRunner", "T_ARG_INFO_JSON_OBJ", "T_ARG_INFO_JSON_OBJ_LIST",
           "T_ARGUMENT", "T_ARGUMENT_LIST", "default_alloc_argument"]

_UNSUPPORTED = ("RPCRunner: TVM's RPC tracker protocol is not supported by tir; measure "
                "on this machine with LocalRunner, or on other machines with RayRunner "
                "(ms.runner.RayRunner on a Ray cluster, docs/scale.md)")


class RPCConfig(namedtuple("RPCConfig", ["tracker_host", "tracker_port", "tracker_key",
                                         "session_priority", "session_timeout_sec"])):
    """TVM's RPCConfig: where TVM's RPC tracker is and how to hold a
    session (kept for TVM's programs; see the module's note)."""

    def __new__(cls, tracker_host=None, tracker_port=None, tracker_key=None,
                session_priority=1, session_timeout_sec=10):
        return super().__new__(cls, tracker_host, tracker_port, tracker_key,
                               session_priority, session_timeout_sec)


class RPCRunner:
    """TVM's RPCRunner. Not supported: making one raises NotImplementedError
    naming what to use instead."""

    def __init__(self, rpc_config=None, evaluator_config=None, cooldown_sec=0.0,
                 alloc_repeat=1, f_create_session=None, f_upload_module=None,
                 f_alloc_argument=None, f_run_evaluator=None, f_cleanup=None,
                 max_workers=None, initializer=None):
        raise NotImplementedError(_UNSUPPORTED)


def default_alloc_argument(session, device, args_info, alloc_repeat):
    """TVM's RPC default_alloc_argument: the tensors are allocated on this
    machine (there is no remote session)."""
    if session is not None:
        raise NotImplementedError(_UNSUPPORTED)
    return _local_alloc_argument(device, args_info, alloc_repeat)
