"""relax.op.image.resize2d: an NCHW image resized to `size`, each output
pixel read at the source coordinate the coordinate transformation mode
gives, nearest (by the rounding method) or bilinear."""
from ..expr import Call
from ..struct_info import TensorStructInfo
from ._common import integers, tensor_of

__all__ = ["resize2d"]

_MODES = ("half_pixel", "pytorch_half_pixel", "align_corners", "asymmetric")
_ROUNDING = ("", "round", "floor", "ceil", "round_prefer_floor", "round_prefer_ceil")


def resize2d(data, size, roi=None, layout="NCHW", method="linear",
             coordinate_transformation_mode="half_pixel", rounding_method="round",
             cubic_alpha=-0.75, cubic_exclude=0, extrapolation_value=0.0, out_dtype=None):
    info = tensor_of(data, "image.resize2d", "data")
    if layout != "NCHW":
        raise NotImplementedError("relax.op.image.resize2d: NCHW only")
    if method not in ("linear", "nearest_neighbor"):
        raise NotImplementedError(f"relax.op.image.resize2d: method {method!r} (linear and "
                                  "nearest_neighbor are supported)")
    if coordinate_transformation_mode not in _MODES:
        raise NotImplementedError("relax.op.image.resize2d: coordinate_transformation_mode "
                                  f"{coordinate_transformation_mode!r} (one of {_MODES})")
    if rounding_method not in _ROUNDING:
        raise ValueError(f"relax.op.image.resize2d: rounding_method {rounding_method!r}")
    if roi is not None and any(float(getattr(r, "value", r)) for r in roi):
        raise NotImplementedError("relax.op.image.resize2d: a region of interest")
    if out_dtype not in (None, "", "void", info.dtype):
        raise NotImplementedError("relax.op.image.resize2d: out_dtype other than the data's")
    if len(info.shape) != 4:
        raise ValueError("relax.op.image.resize2d: data is 4-D (NCHW)")
    if not info.dtype.startswith(("float", "bfloat")):
        raise TypeError(f"relax.op.image.resize2d: takes floating-point tensors, not "
                        f"{info.dtype}")
    size = integers(size, "image.resize2d", "size")
    if len(size) == 1:
        size = size * 2
    if len(size) != 2 or min(size) < 1:
        raise ValueError(f"relax.op.image.resize2d: size is (height, width), got {size}")
    n, c = info.shape[:2]
    attrs = {"size": list(size), "method": method, "coordinate_transformation_mode":
             coordinate_transformation_mode}
    if method == "nearest_neighbor":
        attrs["rounding_method"] = rounding_method or "round"
    return Call("relax.image.resize2d", [data], TensorStructInfo((n, c, *size), info.dtype),
                attrs)
