"""A step of a random schedule: a primitive, its operands named
symbolically, and its other arguments.

Operands are ("block", name) or ("loop", block, index): the index-th loop
of get_loops(block) at the time the step is applied. Naming them so, not by
handle, lets a step be replayed alone, after other steps were dropped (the
shrinker), and printed as a line of Python. A loop index past the loops a
block has makes the step inapplicable (StepSkipped): the schedule is not
asked.
"""
import json

from tensorir.tir import ScheduleError


def _is_lambda(key, value):
    """Whether a step's argument is a lambda's source (an index map, or a
    pad value computed from the indices)."""
    return key in ("index_map", "gen_new_ranges") or (
        key == "pad_value" and str(value).startswith("lambda"))


class StepSkipped(Exception):
    """The step's operands do not exist in this schedule."""


def block_ref(name):
    return ("block", name)


def loop_ref(block, index):
    return ("loop", block, index)


def cached_block(sch, name):
    """The block's handle, asked once per schedule (block handles stay
    valid across every primitive that keeps the block)."""
    cache = sch.__dict__.setdefault("_schedule_diff_blocks", {})
    if name in cache:
        try:
            sch.get(cache[name])
        except ScheduleError:
            # An inline removed the block and a later stage took its name.
            del cache[name]
    if name not in cache:
        try:
            cache[name] = sch.get_block(name)
        except ScheduleError as error:
            # A block a dropped step created or renamed (decompose_reduction).
            raise StepSkipped(f"no block {name!r}: {error}") from None
    return cache[name]


def _resolve(sch, ref):
    if ref[0] == "block":
        return cached_block(sch, ref[1])
    loops = sch.get_loops(cached_block(sch, ref[1]))
    if ref[2] >= len(loops):
        raise StepSkipped(f"block {ref[1]!r} has {len(loops)} loops, no loop {ref[2]}")
    return loops[ref[2]]


def _ref_python(ref):
    block = f"sch.get_block({ref[1]!r})"
    return block if ref[0] == "block" else f"sch.get_loops({block})[{ref[2]}]"


def _value_python(value):
    return repr(value)


class Step:
    def __init__(self, prim, ops, kw):
        self.prim, self.ops, self.kw = prim, [tuple(o) for o in ops], dict(kw)

    def to_json(self):
        return {"prim": self.prim, "ops": [list(o) for o in self.ops], "kw": self.kw}

    @classmethod
    def from_json(cls, data):
        return cls(data["prim"], data["ops"], data["kw"])

    def __eq__(self, other):
        return isinstance(other, Step) and self.to_json() == other.to_json()

    def __repr__(self):
        return json.dumps(self.to_json())

    def resolve(self, sch):
        """The operands' handles (get_block / get_loops steps of the trace);
        StepSkipped when they do not exist."""
        return [_resolve(sch, o) for o in self.ops]

    def apply(self, sch, ops):
        """Applies the step to `sch` with the handles `resolve` gave; raises
        the schedule's ScheduleError when it is refused."""
        if self.prim == "sample_perfect_tile":
            factors = sch.sample_perfect_tile(ops[0], **self.kw)
            # Replays draw the same tiling (the values the ExprRVs hold).
            self.kw["decision"] = [-1 if f is None else sch.get(f) for f in factors]
            return sch.split(ops[0], factors)
        if self.prim == "get_block":
            return sch.get_block(**self.kw)
        if self.prim == "annotate" and "pipeline_order" in self.kw:
            # A software pipeline: its stages and its order, one annotation
            # each (the build refuses one without the other).
            kw = dict(self.kw)
            order = kw.pop("pipeline_order")
            sch.annotate(ops[0], **kw)
            return sch.annotate(ops[0], "software_pipeline_order", order)
        if self.prim in ("cache_read", "cache_write"):
            return getattr(sch, self.prim)(ops[0], consumer_blocks=ops[1:] or None, **self.kw)
        if "gen_new_ranges" in self.kw:  # a lambda's source
            kw = dict(self.kw, gen_new_ranges=eval(self.kw["gen_new_ranges"]))  # noqa: S307
            return getattr(sch, self.prim)(*ops, **kw)
        if "index_map" in self.kw:      # a lambda's source (so may be the pad value)
            kw = dict(self.kw, index_map=eval(self.kw["index_map"]))  # noqa: S307
            if str(kw.get("pad_value", "")).startswith("lambda"):
                kw["pad_value"] = eval(kw["pad_value"])  # noqa: S307
            return getattr(sch, self.prim)(*ops, **kw)
        return getattr(sch, self.prim)(*ops, **self.kw)

    def python(self):
        """The step as Python lines over a Schedule `sch`."""
        ops = [_ref_python(o) for o in self.ops]
        kw = [f"{k}={v if _is_lambda(k, v) else _value_python(v)}"
              for k, v in self.kw.items()]
        if self.prim == "sample_perfect_tile":
            return (f"loop = {ops[0]}\n"
                    f"factors = sch.sample_perfect_tile(loop, {', '.join(kw)})\n"
                    f"sch.split(loop, factors)")
        if self.prim == "annotate" and "pipeline_order" in self.kw:
            order = _value_python(self.kw["pipeline_order"])
            kw = [k for k in kw if not k.startswith("pipeline_order=")]
            return (f"sch.annotate({', '.join(ops + kw)})\n"
                    f"sch.annotate({ops[0]}, \"software_pipeline_order\", {order})")
        if self.prim in ("cache_read", "cache_write") and len(ops) > 1:
            return (f"sch.{self.prim}({', '.join(ops[:1] + kw)}, "
                    f"consumer_blocks=[{', '.join(ops[1:])}])")
        return f"sch.{self.prim}({', '.join(ops + kw)})"

    def simpler(self):
        """Simpler variants of this step, for the shrinker: fewer operands
        (reorder, fuse), optional arguments left out, smaller split
        factors."""
        if self.prim in ("cache_read", "cache_write") and len(self.ops) > 1:
            for i in range(1, len(self.ops)):
                yield Step(self.prim, self.ops[:i] + self.ops[i + 1:], self.kw)
        if self.prim in ("reorder", "fuse") and len(self.ops) > 2:
            for i in range(len(self.ops)):
                yield Step(self.prim, self.ops[:i] + self.ops[i + 1:], self.kw)
        required = {"split": ["factors"], "sample_perfect_tile": ["n"],
                    "annotate": ["ann_key", "ann_val"], "unannotate": ["ann_key"],
                    "bind": ["thread_axis"], "get_block": ["name"],
                    "storage_align": ["buffer_index", "axis", "factor", "offset"],
                    "set_scope": ["buffer_index", "storage_scope"],
                    "unsafe_set_dtype": ["buffer_index", "dtype"],
                    "annotate_buffer_access": ["buffer_index", "buf_type", "gen_new_ranges"],
                    "read_at": ["read_buffer_index", "storage_scope"],
                    "write_at": ["write_buffer_index", "storage_scope"],
                    "rolling_buffer": ["write_buffer_index"],
                    "pad_einsum": ["padding"],
                    "cache_read": ["read_buffer_index", "storage_scope"],
                    "cache_write": ["write_buffer_index", "storage_scope"],
                    "cache_inplace": ["read_buffer_index", "storage_scope"],
                    "cache_index": ["storage_scope"],
                    "reindex": ["buffer"],
                    "transform_layout": ["buffer", "index_map"],
                    "transform_block_layout": ["index_map"],
                    "set_axis_separator": ["buffer", "axis_separators"],
                    "reindex_cache_read": ["read_buffer_index", "storage_scope", "index_map"],
                    "reindex_cache_write": ["write_buffer_index", "storage_scope",
                                            "index_map"]}
        for key in self.kw:
            if key not in required.get(self.prim, []):
                kw = dict(self.kw)
                del kw[key]
                yield Step(self.prim, self.ops, kw)
        if self.prim == "split":
            factors = self.kw["factors"]
            if len(factors) > 2:
                for i in range(len(factors)):
                    yield Step(self.prim, self.ops,
                               dict(self.kw, factors=factors[:i] + factors[i + 1:]))
            for i, f in enumerate(factors):
                for smaller in sorted({2, (f or 0) // 2, (f or 0) - 1}):
                    if f is not None and 1 < smaller < f:
                        yield Step(self.prim, self.ops,
                                   dict(self.kw, factors=factors[:i] + [smaller] + factors[i + 1:]))
