"""MeasureCandidate: a schedule to build and measure, with its
arguments."""

__all__ = ["MeasureCandidate"]


class MeasureCandidate:
    """TVM's MeasureCandidate(sch, args_info)."""

    def __init__(self, sch, args_info):
        from ...tir.schedule import Schedule
        if not isinstance(sch, Schedule):
            raise TypeError(f"MeasureCandidate takes a Schedule, got {type(sch).__name__}")
        self.sch = sch
        self.args_info = None if args_info is None else list(args_info)
