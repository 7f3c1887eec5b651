"""The Ray cluster MetaSchedule's RayBuilder and RayRunner work on: the one
this process is connected to, a cluster at an address, or a local one
started on loopback. Ray is optional: only these components import it."""
import os
import warnings

__all__ = ["check_picklable", "connect", "held_cpus", "hold_cpus", "ray_module"]

# CPUs this process's measuring actors hold for their whole life: builds
# cannot have them.
_held_cpus = 0.0


def hold_cpus(count):
    """Notes `count` more (or, negative, fewer) CPUs held by this process's
    measuring actors."""
    global _held_cpus
    _held_cpus = max(0.0, _held_cpus + count)


def held_cpus():
    """The CPUs this process's measuring actors hold."""
    return _held_cpus


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


def check_picklable(owner, **values):
    """TypeError naming `owner` and the argument when one of `values`
    (functions sent to Ray's workers) cannot be pickled: said when the
    component is made, not in the middle of a tuning."""
    from ray import cloudpickle
    for name, value in values.items():
        try:
            cloudpickle.dumps(value)
        except Exception as error:
            raise TypeError(f"{owner}: {name} is sent to Ray's workers and must pickle "
                            f"(a function that closes over no native object such as an "
                            f"IRModule): {error}") from None


def connect(address=None, num_cpus=None):
    """Ray, connected: to the cluster this process already joined (whatever
    `address` says); else to `address` ("auto", "ray://host:10001" or
    "host:6379"); else to a new local cluster on loopback with `num_cpus`
    CPUs (default: all). Returns the ray module."""
    global _held_cpus
    ray = ray_module()
    if ray.is_initialized():
        return ray
    _held_cpus = 0.0  # a new cluster: no actor of ours holds any
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
            ray.init(address="local", num_cpus=num_cpus, _node_ip_address="127.0.0.1",
                     object_store_memory=256 * 1024 * 1024, **options)
    return ray
