"""RandomFeatureExtractor: random features (TVM's), for testing cost
models."""
from ..utils import derived_object
from .feature_extractor import PyFeatureExtractor

__all__ = ["RandomFeatureExtractor"]


@derived_object
class RandomFeatureExtractor(PyFeatureExtractor):
    """TVM's RandomFeatureExtractor(feature_size=30, max_block_num=5,
    seed=0): per candidate, 1 to max_block_num rows of feature_size uniform
    values; the numpy random state is kept between calls."""

    def __init__(self, *, feature_size=30, max_block_num=5, seed=0):
        import numpy as np
        super().__init__()
        if max_block_num < 1:
            raise ValueError("Max block number must be greater or equal to one!")
        self.max_block_num = max_block_num
        self.feature_size = feature_size
        self.random_state = np.random.RandomState(seed).get_state()

    def extract_from(self, context, candidates):
        import numpy as np

        from ... import runtime
        rng = np.random.RandomState()
        rng.set_state(self.random_state)
        result = [rng.rand(rng.randint(1, self.max_block_num + 1), self.feature_size)
                  for _ in candidates]
        self.random_state = rng.get_state()
        return [runtime.tensor(x) for x in result]
