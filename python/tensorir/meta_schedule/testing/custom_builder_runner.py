"""tvm.meta_schedule.testing.custom_builder_runner: TVM's helpers that run
a built module on a device reached through TVM's RPC. tir does not speak
TVM's RPC protocol (tvm.rpc); run_module_via_rpc refuses, saying so."""
from ...rpc import _UNSUPPORTED

__all__ = ["run_module_via_rpc"]


def run_module_via_rpc(rpc_config, lib, dev_type, args, continuation=None,
                       backend="graph"):
    """TVM's run_module_via_rpc; not supported (NotImplementedError)."""
    raise NotImplementedError(_UNSUPPORTED)
