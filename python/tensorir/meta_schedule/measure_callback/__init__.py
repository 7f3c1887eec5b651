"""tvm.meta_schedule.measure_callback: what follows each measured batch."""
from .measure_callback import (AddToDatabase, MeasureCallback, PyMeasureCallback,
                               RemoveBuildArtifact, UpdateCostModel)

__all__ = ["AddToDatabase", "MeasureCallback", "PyMeasureCallback", "RemoveBuildArtifact",
           "UpdateCostModel"]
