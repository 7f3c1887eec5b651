"""EvaluatorConfig: how a runner times a candidate."""
from collections import namedtuple

__all__ = ["EvaluatorConfig"]


class EvaluatorConfig(namedtuple("EvaluatorConfig", ["number", "repeat", "min_repeat_ms",
                                                     "enable_cpu_cache_flush"])):
    """TVM's EvaluatorConfig: `repeat` measurements, each the mean of
    `number` calls (more calls until it lasts min_repeat_ms), with the CPU
    caches flushed before each when enable_cpu_cache_flush."""

    def __new__(cls, number=3, repeat=1, min_repeat_ms=100, enable_cpu_cache_flush=False):
        for name, value in (("number", number), ("repeat", repeat)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"EvaluatorConfig: {name} is a positive integer, got {value!r}")
        if min_repeat_ms < 0:
            raise ValueError(f"EvaluatorConfig: min_repeat_ms is non-negative, got "
                             f"{min_repeat_ms!r}")
        return super().__new__(cls, number, repeat, min_repeat_ms, bool(enable_cpu_cache_flush))

    @staticmethod
    def _normalized(config):
        if config is None:
            return EvaluatorConfig()
        if isinstance(config, EvaluatorConfig):
            return config
        if isinstance(config, dict):
            return EvaluatorConfig(**config)
        raise TypeError(f"evaluator_config is an EvaluatorConfig, got {type(config).__name__}")
