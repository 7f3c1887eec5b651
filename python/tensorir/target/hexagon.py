"""tvm.target.hexagon: a Hexagon target as TVM's helper builds it (the
HVX vector length, the VTCM capacity, the cores); tir does not generate
Hexagon code, but the auto-scheduler plans for such a target."""

__all__ = ["hexagon"]


def hexagon(cpu_ver="v68", **kwargs):
    """TVM's tvm.target.hexagon: the Target of Hexagon `cpu_ver` ("v68",
    "v69", ...). kwargs: hvx (vector bytes, 128), vtcm_capacity (bytes, 0:
    not set), num_cores, and TVM's other options (kept as given)."""
    from .target import Target
    if not str(cpu_ver).startswith("v"):
        raise ValueError(f"hexagon: cpu_ver is 'v' and a version number, got {cpu_ver!r}")
    options = {"kind": "hexagon", "mtriple": "hexagon", "mcpu": f"hexagon{cpu_ver}",
               "keys": ["hexagon", "cpu"], "hvx": int(kwargs.pop("hvx", 128))}
    vtcm = int(kwargs.pop("vtcm_capacity", 0))
    if vtcm:
        options["vtcm-capacity"] = vtcm
    if "num_cores" in kwargs:
        options["num-cores"] = int(kwargs.pop("num_cores"))
    for key, value in kwargs.items():
        options[key.replace("_", "-")] = value
    return Target(options)
