"""tvm.meta_schedule.cost_model: how the search ranks candidates."""
from .cost_model import CostModel, PyCostModel
from .random_model import RandomModel
from .xgb_model import XGBConfig, XGBModel

__all__ = ["CostModel", "PyCostModel", "RandomModel", "XGBConfig", "XGBModel"]
