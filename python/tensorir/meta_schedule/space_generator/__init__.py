"""tvm.meta_schedule.space_generator: design spaces."""
from .post_order_apply import PostOrderApply
from .schedule_fn import ScheduleFn
from .space_generator import PySpaceGenerator, SpaceGenerator
from .space_generator_union import SpaceGeneratorUnion

__all__ = ["PostOrderApply", "PySpaceGenerator", "ScheduleFn", "SpaceGenerator",
           "SpaceGeneratorUnion"]
