"""RandomModel: scores drawn at random (TVM's RandomModel), for searches
without a learned model."""
from ..utils import derived_object
from .cost_model import PyCostModel

__all__ = ["RandomModel"]


@derived_object
class RandomModel(PyCostModel):
    """TVM's RandomModel(seed=None, path=None, max_range=100): uniform scores
    in [0, max_range); its numpy random state is what save and load
    keep."""

    def __init__(self, *, seed=None, path=None, max_range=100):
        import numpy as np
        super().__init__()
        if path is not None:
            self.load(path)
        else:
            self.random_state = np.random.RandomState(seed).get_state()
        self.max_range = max_range

    def load(self, path):
        import numpy as np
        self.random_state = tuple(np.load(path, allow_pickle=True))

    def save(self, path):
        import numpy as np
        np.save(path, np.array(self.random_state, dtype=object), allow_pickle=True)

    def update(self, context, candidates, results):
        pass

    def predict(self, context, candidates):
        import numpy as np
        rng = np.random.RandomState()
        rng.set_state(self.random_state)
        result = rng.rand(len(candidates)) * self.max_range
        self.random_state = rng.get_state()
        return result
