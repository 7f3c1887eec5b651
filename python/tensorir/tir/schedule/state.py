"""tvm.tir.schedule.state: the debug mask a Schedule takes.

TVM's mask turns on consistency checks of its schedule state after each
primitive. The extension has no such state to check: it verifies the IR
itself after the primitives that restructure loops (split, fuse, reorder),
whatever the mask says. A Schedule accepts the mask, checks that it is a
mask, and records it (sch.debug_mask); it changes nothing else.
"""
import enum

__all__ = ["ScheduleDebugMask", "parse_debug_mask"]


class ScheduleDebugMask(enum.IntFlag):
    """TVM's flags: what a schedule checks after each primitive."""

    VERIFY_SREF_TREE = 1
    VERIFY_CACHED_FLAGS = 2


def parse_debug_mask(debug_mask):
    """"all" / "none" / an int (ScheduleDebugMask flags) as an int."""
    if isinstance(debug_mask, str):
        if debug_mask == "all":
            return -1
        if debug_mask == "none":
            return 0
        raise ValueError(f'debug_mask is "all", "none" or an int, got {debug_mask!r}')
    if isinstance(debug_mask, int):
        return int(debug_mask)
    raise TypeError(f"debug_mask is a str or an int, got {type(debug_mask).__name__}")
