"""What a generator sees (Context: the schedule, the RNG, the blocks and
the loops above them) and the helpers generators of several kinds share."""
import re
from collections import Counter

from nest import Nest
from steps import block_ref, cached_block, loop_ref


class Context:
    """What a generator sees: the schedule, the RNG and the kernel's blocks;
    `loops(block)` lists the extents (None: not a constant) of the loops
    above a block, outermost first; `nest` is the module's printed form read
    back (nest.py): which loops blocks share, annotations, allocated
    buffers."""

    def __init__(self, sch, rng, blocks):
        self.sch, self.rng = sch, rng
        self._loops = {}
        text = sch.mod.mlir()
        self.nest = Nest(text)
        # The blocks there now, by their current names (an inline removes
        # one, decompose_reduction renames one and adds its init block);
        # not a name two blocks share (two copy stages of one buffer), which
        # get_block refuses as ambiguous.
        counts = Counter(re.findall(r'tir\.block "([^"]*)"', text))
        self.blocks = [b for b in (list(self.nest.loops) or list(blocks))
                       if counts.get(b, 1) == 1]

    def loops(self, block):
        if block not in self._loops:
            rvs = self.sch.get_loops(cached_block(self.sch, block))
            self._loops[block] = [self.sch._native.loop_extent(rv._handle) for rv in rvs]
        return self._loops[block]

    def chance(self, p):
        return self.rng.random() < p

    def block(self):
        return self.rng.choice(self.blocks)

    def block_with_loops(self):
        candidates = [b for b in self.blocks if self.loops(b)]
        return self.rng.choice(candidates) if candidates else None

    def loop(self):
        """(ref, extent) of a random loop, or (None, None) when none is left."""
        block = self.block_with_loops()
        if block is None:
            return None, None
        extents = self.loops(block)
        index = self.rng.randrange(len(extents))
        return loop_ref(block, index), extents[index]

    def any_ref(self):
        """A block or a loop."""
        ref, _ = self.loop()
        return ref if ref is not None and self.chance(0.6) else block_ref(self.block())


def random_index_map(r, rank):
    """A lambda's source over `rank` indices: a permutation, a split of one
    index by a small factor (padding where it does not divide), or the
    identity."""
    names = [f"d{k}" for k in range(rank)]
    exprs = list(names)
    choice = r.random()
    if rank >= 2 and choice < 0.35:
        r.shuffle(exprs)
    elif rank and choice < 0.85:
        k = r.randrange(rank)
        f = r.choice([2, 3, 4, 8])
        exprs[k:k + 1] = [f"{names[k]} // {f}", f"{names[k]} % {f}"]
        if r.random() < 0.3:
            exprs.append(exprs.pop(k + 1))
    if not exprs:
        return "lambda: ()"
    return f"lambda {', '.join(names)}: ({', '.join(exprs)},)"
