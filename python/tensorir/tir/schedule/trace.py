"""sch.trace: TVM's Trace, instructions and their decisions apart.

The C++ ScheduleState records each step as an instruction (TVM's
Instruction: a kind such as "Split", random variables in, random variables
out) and each sampling step's decision separately (TVM's Trace.decisions),
so that a trace replays with other decisions (with_decision, or a
decision_provider of apply_to_schedule). A trace prints as TVM's Python
(as_python) and as a transform script of transform.tir ops
(as_transform_script, each sampling op with its decision), which tir-opt
replays:

    tir-opt mod.mlir --transform-preload-library=transform-library-paths=s.mlir \\
        --transform-interpreter
"""
import json

from ..._ext import ext


def _decision_to_python(value):
    """A decision as TVM gives it: an IntImm, or a list of IntImms."""
    from ..expr import IntImm
    if value is None:
        return None
    if isinstance(value, list):
        return [IntImm("int32", v) for v in value]
    return IntImm("int32", value)


def _decision_from_python(value):
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return [int(getattr(v, "value", v)) for v in value]
    return int(getattr(value, "value", value))


class InstructionKind:
    """TVM's InstructionKind: `name` ("Split", "SamplePerfectTile", ...) and
    whether it is pure (queries and sampling: simplified drops them when
    nothing uses their outputs)."""

    def __init__(self, name, is_pure, mnemonic):
        self.name, self.is_pure, self._mnemonic = name, is_pure, mnemonic

    @staticmethod
    def get(name):
        found = ext.instruction_kind(name)
        if found is None:
            raise ValueError(f"no instruction kind named {name!r}")
        return InstructionKind(*found)

    def same_as(self, other):
        return isinstance(other, InstructionKind) and self.name == other.name

    def __eq__(self, other):
        return self.same_as(other)

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return f"InstructionKind({self.name})"


def _to_python(value):
    """A value of TVM's layout from the extension: random variables as
    BlockRV / LoopRV / ExprRV, lists item by item."""
    from .schedule import _rv_of
    if isinstance(value, ext.RandomVariable):
        return _rv_of(value)
    if isinstance(value, list):
        return [_to_python(v) for v in value]
    return value


def _with_expr_rvs(values):
    """`values` with each plain tir.Var (TVM's ExprRV is one) given a
    random variable of its own, the same each time the Var is used."""
    from ..expr import Var
    from .schedule import _RV
    for v in values:
        if isinstance(v, list):
            _with_expr_rvs(v)
        elif isinstance(v, Var) and not isinstance(v, _RV) and \
                not isinstance(getattr(v, "_rv", None), ext.RandomVariable):
            v._rv = ext.RandomVariable("expr")
    return values


class Instruction:
    """One instruction of a trace (TVM's Instruction): its kind, its inputs
    and attrs in TVM's layout (e.g. Split: inputs [loop, *factors], attrs
    [preserve_unit_iters, disable_predication]) and its output random
    variables; compared by identity."""

    def __init__(self, kind, inputs=None, attrs=None, outputs=None):
        if isinstance(kind, ext.Instruction):
            self._native = kind
            return
        name = kind.name if isinstance(kind, InstructionKind) else str(kind)
        self._native = ext.Instruction(name, _with_expr_rvs(list(inputs or [])),
                                       list(attrs or []),
                                       _with_expr_rvs(list(outputs or [])))

    @property
    def inputs(self):
        return _to_python(self._native.inputs)

    @property
    def attrs(self):
        return _to_python(self._native.attrs)

    @property
    def kind(self):
        return InstructionKind.get(self._native.kind_name)

    @property
    def outputs(self):
        from .schedule import _rv_of
        return [None if rv is None else _rv_of(rv) for rv in self._native.outputs]

    def same_as(self, other):
        return isinstance(other, Instruction) and self._native == other._native

    def __eq__(self, other):
        return self.same_as(other)

    def __hash__(self):
        return hash(self._native)

    def __str__(self):
        # TVM's form: every random variable is `_`.
        return self._native.as_python_anonymous()

    __repr__ = __str__


class _Float32(float):
    """A probability of a trace's JSON: a JSON number that prints as TVM's
    FloatImm does."""

    def __repr__(self):
        return f"T.float32({float(self)!r})"

    __str__ = __repr__


class Trace:
    """The instructions applied so far, in order, and the decisions of the
    sampling ones (TVM's Trace)."""

    def __init__(self, insts=None, decisions=None):
        """TVM's Trace(insts, decisions): `insts` Instructions in order,
        `decisions` {instruction: decision}."""
        if isinstance(insts, ext.TraceModel):
            self._native = insts
            return
        pairs = [(inst._native, _decision_from_python(d))
                 for inst, d in (decisions or {}).items()]
        self._native = ext.TraceModel([i._native for i in (insts or [])], pairs)

    @classmethod
    def from_transform_script(cls, text):
        """A trace from a transform script of transform.tir ops (as
        as_transform_script prints), e.g. to apply it to a Schedule."""
        return cls(ext.TraceModel.from_transform_script(ext.Trace.parse(text)))

    @property
    def insts(self):
        return [Instruction(n) for n in self._native.instructions]

    @property
    def decisions(self):
        """{instruction: decision} for the sampling instructions (an IntImm,
        or a list of IntImms for a tiling)."""
        return {Instruction(inst): _decision_to_python(d)
                for inst, d in self._native.decisions}

    def get_decision(self, inst):
        return _decision_to_python(self._native.get_decision(inst._native))

    def append(self, inst, decision=None):
        self._native.append(inst._native, _decision_from_python(decision))

    def pop(self):
        native = self._native.pop()
        return None if native is None else Instruction(native)

    def simplified(self, remove_postproc):
        """TVM's simplified: pure instructions (queries, sampling) whose
        outputs nothing later uses are dropped, and with remove_postproc
        everything from enter_postproc on."""
        return Trace(self._native.simplified(bool(remove_postproc)))

    def with_decision(self, inst, decision, remove_postproc):
        """TVM's with_decision: this trace (up to postprocessing with
        remove_postproc) with `decision` for `inst`."""
        return Trace(self._native.with_decision(
            inst._native, _decision_from_python(decision), bool(remove_postproc)))

    def as_python(self, remove_postproc=False):
        """The steps as TVM's Python, one `sch` call per line (a list)."""
        return list(self._native.as_python(bool(remove_postproc)))

    def as_transform_script(self, remove_postproc=False):
        """The steps as a transform script that tir-opt replays."""
        return self._native.as_transform_script(bool(remove_postproc))

    def as_json(self, remove_postproc=False):
        """TVM's as_json: [instructions, decisions], each instruction
        [kind, inputs, attrs, outputs] in TVM's layout (random variables by
        name, an input string quoted inside the string), each decision
        [instruction index, decision]."""
        data = json.loads(self._native.as_json(bool(remove_postproc)))
        for kind, _, attrs, _ in data[0]:
            if kind == "SampleCategorical":
                attrs[1] = [_Float32(p) for p in attrs[1]]
        return data

    @classmethod
    def from_json(cls, json_obj):
        """The trace `as_json` gave (the data or its JSON text)."""
        text = json_obj if isinstance(json_obj, str) else json.dumps(json_obj)
        return cls(ext.TraceModel.from_json(text))

    @staticmethod
    def apply_json_to_schedule(json_obj, sch):
        """TVM's Trace.apply_json_to_schedule: the steps of the JSON trace
        applied to `sch`."""
        Trace.from_json(json_obj).apply_to_schedule(sch)

    def show(self):
        print(str(self))

    def __str__(self):
        lines = self.as_python()
        body = "\n".join("  " + line for line in lines) if lines else "  pass"
        return "# from tvm import tir\ndef apply_trace(sch: tir.Schedule) -> None:\n" + body

    def apply_to_schedule(self, sch, remove_postproc=False, decision_provider=None):
        """TVM's Trace.apply_to_schedule: the instructions applied again, in
        order, to `sch` (a Schedule of the module this trace started from),
        with new random variables; they join sch's trace. A sampling
        instruction takes its recorded decision, or what
        `decision_provider(inst, inputs, attrs, decision)` returns (None:
        draw a new one from sch's random state); a stale tiling is repaired
        as TVM repairs it."""
        provider = None
        if decision_provider is not None:
            def provider(native_inst, inputs, attrs, decision):
                result = decision_provider(Instruction(native_inst), _to_python(inputs),
                                           attrs, _decision_to_python(decision))
                return _decision_from_python(result)
        sch._native.apply_trace(self._native, bool(remove_postproc), provider)
