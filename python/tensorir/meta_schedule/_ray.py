"""The Ray cluster MetaSchedule's RayBuilder and RayRunner work on: the one
this process is connected to, a cluster at an address, or a local one
started on loopback. Ray is optional: only these components import it."""
import os
import warnings

__all__ = ["connect", "ray_module"]


def ray_module():
    """The ray package, or ImportError saying how to get it."""
    try:
        import ray
    except ImportError as error:
        raise ImportError(
            "MetaSchedule's Ray builder and runner need the ray package (pip install ray; "
            "scripts/python-venv.sh installs it into the project's virtual environment)"
        ) from error
    return ray


def connect(address=None, num_cpus=None):
    """Ray, connected: to the cluster this process already joined; else to
    `address` ("auto", "ray://host:10001" or "host:6379"); else to a local
    cluster started on loopback with `num_cpus` CPUs (default: all).
    Returns the ray module."""
    ray = ray_module()
    if ray.is_initialized():
        return ray
    # Ray's usage report would try to reach the internet; tuning has no
    # business there.
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    options = {"ignore_reinit_error": True, "include_dashboard": False,
               "log_to_driver": False, "configure_logging": False}
    with warnings.catch_warnings():
        # A notice of a default changing in a later Ray, about GPUs' visible
        # devices; tasks here ask for GPUs explicitly.
        warnings.simplefilter("ignore", FutureWarning)
        if address is not None:
            ray.init(address=address, **options)
        else:
            ray.init(num_cpus=num_cpus, _node_ip_address="127.0.0.1",
                     object_store_memory=256 * 1024 * 1024, **options)
    return ray
