"""sch.trace: the steps of a schedule, as transform.tir ops.

The trace is kept by the C++ ScheduleState as a transform script (a
`transform.named_sequence @__transform_main`); it prints as TVM's Python
(as_python) and as that script (as_transform_script), which tir-opt
replays:

    tir-opt mod.mlir --transform-preload-library=transform-library-paths=s.mlir \\
        --transform-interpreter
"""
import json

from ..._ext import ext


class Trace:
    """The primitives applied so far, in order (TVM's Trace)."""

    def __init__(self, native):
        self._native = native

    @classmethod
    def from_transform_script(cls, text):
        """A trace from a transform script of transform.tir ops (as
        as_transform_script prints), e.g. to apply it to a Schedule."""
        return cls(ext.Trace.parse(text))

    def as_python(self):
        """The steps as TVM's Python, one call of `sch` per line."""
        return self._native.as_python().rstrip("\n")

    def as_json(self, remove_postproc=False):
        """The steps as JSON data (TVM's Trace.as_json): [instructions,
        decisions], each instruction [kind, inputs, attrs, outputs,
        [operand types, result types]] in MLIR's syntax; decisions are
        attributes of the sampling steps, so the list is empty."""
        return json.loads(self._native.as_json())

    @classmethod
    def from_json(cls, json_obj):
        """The trace `as_json` gave (the data or its JSON text)."""
        text = json_obj if isinstance(json_obj, str) else json.dumps(json_obj)
        return cls(ext.Trace.from_json(text))

    @staticmethod
    def apply_json_to_schedule(json_obj, sch):
        """TVM's Trace.apply_json_to_schedule: the steps of the JSON trace
        applied to `sch`."""
        Trace.from_json(json_obj).apply_to_schedule(sch)

    def as_transform_script(self):
        """The steps as a transform script that tir-opt replays."""
        return str(self._native)

    def show(self):
        print(self.as_python())

    def __str__(self):
        return self.as_python()

    def apply_to_schedule(self, sch, remove_postproc=False, decision_provider=None):
        """Applies the steps again, in order, to `sch` (a Schedule of the
        module this trace's schedule started from), as TVM's
        Trace.apply_to_schedule; they join sch's trace. Nothing here is a
        postprocessing step, and sampling decisions are recorded in the
        steps, so remove_postproc changes nothing and a decision_provider
        is refused."""
        if decision_provider is not None:
            raise ValueError("apply_to_schedule: this trace's decisions are fixed")
        sch._native.replay(self._native)
