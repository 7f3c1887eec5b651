"""sch.trace: the steps of a schedule, as Python and as a transform script."""


class Instruction:
    def __init__(self, kind, inputs, attrs, outputs, group):
        self.kind, self.inputs, self.attrs = kind, inputs, attrs
        self.outputs, self.group = outputs, group


class Trace:
    """The primitives applied so far, in order (TVM's Trace)."""

    def __init__(self):
        self.insts = []
        # Names by Python object: every RV a primitive returns is a new one
        # (as in TVM), even when two refer to the same loop.
        self._names = {}
        self._keep = []

    def _record(self, kind, inputs, attrs, outputs, group=False):
        for rv in outputs:
            if id(rv) not in self._names:
                prefix = "l" if type(rv).__name__ == "LoopRV" else "b"
                self._names[id(rv)] = f"{prefix}{len(self._names)}"
                self._keep.append(rv)
        self.insts.append(Instruction(kind, list(inputs), dict(attrs),
                                      list(outputs), group))

    def _name(self, rv):
        if id(rv) not in self._names:
            raise ValueError(f"{rv!r} was not produced by this schedule")
        return self._names[id(rv)]

    # ---------------------------------------------------------------- Python
    def as_python(self):
        lines = []
        for inst in self.insts:
            args = [self._name(rv) for rv in inst.inputs]
            if inst.kind == "split":
                text = (f"sch.split(loop={args[0]}, factors={inst.attrs['factors']!r}, "
                        f"preserve_unit_iters={inst.attrs['preserve_unit_iters']}"
                        + (", disable_predication=True)"
                           if inst.attrs.get("disable_predication") else ")"))
            elif inst.kind == "get_block":
                func = inst.attrs["func_name"]
                text = f"sch.get_block(name={inst.attrs['name']!r}" + (
                    f", func_name={func!r})" if func else ")")
            elif inst.kind in ("get_loops", "get_producers", "get_consumers"):
                text = f"sch.{inst.kind}(block={args[0]})"
            elif inst.kind == "bind":
                text = f"sch.bind(loop={args[0]}, thread_axis={inst.attrs['thread_axis']!r})"
            elif inst.kind == "annotate":
                text = (f"sch.annotate({args[0]}, ann_key={inst.attrs['ann_key']!r}, "
                        f"ann_val={inst.attrs['ann_val']!r})")
            elif inst.kind == "unannotate":
                text = f"sch.unannotate({args[0]}, ann_key={inst.attrs['ann_key']!r})"
            elif inst.kind == "sample_perfect_tile":
                # Its factors are recorded where they are used (split), so
                # the Python form only replays the decision.
                text = (f"sch.sample_perfect_tile(loop={args[0]}, n={inst.attrs['n']}, "
                        f"max_innermost_factor={inst.attrs['max_innermost_factor']}, "
                        f"decision={inst.attrs['decision']!r})")
            elif inst.kind in ("compute_at", "reverse_compute_at"):
                text = (f"sch.{inst.kind}(block={args[0]}, loop={args[1]}, "
                        f"preserve_unit_loops={inst.attrs['preserve_unit_loops']}, "
                        f"index={inst.attrs['index']})")
            else:
                text = f"sch.{inst.kind}({', '.join(args)})"
            outs = [self._name(rv) for rv in inst.outputs]
            if inst.kind in ("get_loops", "split", "get_child_blocks",
                             "get_producers", "get_consumers"):
                lhs = ", ".join(outs) + ("," if len(outs) == 1 else "")
                text = (f"{lhs} = {text}" if outs else f"_ = {text}")
            elif outs:
                text = f"{outs[0]} = {text}"
            lines.append(text)
        return "\n".join(lines)

    def show(self):
        print(self.as_python())

    # ----------------------------------------------------------------- replay
    def apply_to_schedule(self, sch, remove_postproc=False, decision_provider=None):
        """Applies the steps again, in order, to `sch` (a Schedule of the
        module this trace's schedule started from), as TVM's
        Trace.apply_to_schedule. Nothing here is a postprocessing step or a
        sampling step whose decision matters (sample_perfect_tile's factors
        are recorded where split uses them), so remove_postproc and
        decision_provider change nothing (a decision_provider is refused)."""
        if decision_provider is not None:
            raise ValueError("apply_to_schedule: this trace's decisions are fixed")
        new_rvs = {}

        def lookup(rv):
            if id(rv) not in new_rvs:
                raise ValueError(f"{rv!r} is used before a step of the trace produced it")
            return new_rvs[id(rv)]

        for inst in self.insts:
            result = getattr(sch, inst.kind)(*[lookup(rv) for rv in inst.inputs],
                                             **inst.attrs)
            if result is None or inst.kind == "sample_perfect_tile":
                results = []
            elif isinstance(result, (list, tuple)):
                results = list(result)
            else:
                results = [result]
            if len(results) != len(inst.outputs):
                raise ValueError(f"replaying {inst.kind}: {len(results)} results where the "
                                 f"trace has {len(inst.outputs)}")
            for old, new in zip(inst.outputs, results):
                new_rvs[id(old)] = new

    def __str__(self):
        return self.as_python()

    # ------------------------------------------------------ transform script
    def as_transform_script(self):
        """The same steps as a transform.tir script that tir-opt replays:

            tir-opt mod.mlir --transform-preload-library=transform-library-paths=s.mlir \\
                --transform-interpreter
        """
        any_op = "!transform.any_op"
        body = []
        counter = [0]

        def fresh():
            counter[0] += 1
            return f"%r{counter[0]}"

        def handles(n):
            return "(" + ", ".join([any_op] * n) + ")"

        for inst in self.insts:
            ins = ["%" + self._name(rv) for rv in inst.inputs]
            outs = ["%" + self._name(rv) for rv in inst.outputs]
            k = inst.kind
            if k == "sample_perfect_tile":
                continue  # its decision is in the splits that use it
            if k == "get_block":
                if inst.attrs["func_name"]:
                    raise ValueError("get_block(func_name=...) has no transform-script form yet")
                body.append(f'{outs[0]} = transform.tir.get_block "{inst.attrs["name"]}" in %root '
                            f": ({any_op}) -> {any_op}")
            elif k == "get_loops":
                if not outs:
                    continue
                body.append(f"{', '.join(outs)} = transform.tir.get_loops {ins[0]} : "
                            f"({any_op}) -> {handles(len(outs))}")
            elif k in ("get_child_blocks", "get_producers", "get_consumers"):
                # One handle holds them all; split it into one per block.
                group = fresh()
                body.append(f"{group} = transform.tir.{k} {ins[0]} : ({any_op}) -> {any_op}")
                if outs:
                    body.append(f"{', '.join(outs)} = transform.split_handle {group} : "
                                f"({any_op}) -> {handles(len(outs))}")
            elif k == "split":
                if not all(f is None or isinstance(f, int) for f in inst.attrs["factors"]):
                    raise ValueError("split with scalable (T.vscale()) factors has no "
                                     "transform-script form yet")
                factors = ", ".join("-1" if f is None else str(f) for f in inst.attrs["factors"])
                options = []
                if not inst.attrs["preserve_unit_iters"]:
                    options.append("preserve_unit_iters = false")
                if inst.attrs.get("disable_predication"):
                    options.append("disable_predication = true")
                attr = " {" + ", ".join(options) + "}" if options else ""
                body.append(f"{', '.join(outs)} = transform.tir.split {ins[0]} [{factors}]{attr} : "
                            f"({any_op}) -> {handles(len(outs))}")
            elif k == "fuse":
                body.append(f"{outs[0]} = transform.tir.fuse {', '.join(ins)} : "
                            f"{handles(len(ins))} -> {any_op}")
            elif k == "reorder":
                result = fresh()
                body.append(f"{result}:{len(ins)} = transform.tir.reorder {', '.join(ins)} : "
                            f"{handles(len(ins))} -> {handles(len(ins))}")
            elif k == "add_unit_loop":
                body.append(f"{outs[0]} = transform.tir.add_unit_loop {ins[0]} : ({any_op}) -> {any_op}")
            elif k in ("parallel", "vectorize", "unroll"):
                body.append(f"transform.tir.{k} {ins[0]} : {any_op}")
            elif k == "bind":
                body.append(f'transform.tir.bind {ins[0]} "{inst.attrs["thread_axis"]}" : {any_op}')
            elif k == "annotate":
                from .schedule import _annotation_text
                value = _annotation_text(inst.attrs["ann_val"])
                body.append(f'transform.tir.annotate "{inst.attrs["ann_key"]}" = {value} to {ins[0]} : {any_op}')
            elif k == "unannotate":
                body.append(f'transform.tir.unannotate {ins[0]} "{inst.attrs["ann_key"]}" : {any_op}')
            elif k in ("compute_at", "reverse_compute_at"):
                options = []
                if inst.attrs["preserve_unit_loops"]:
                    options.append("preserve_unit_loops = true")
                if inst.attrs["index"] != -1:
                    options.append(f"index = {inst.attrs['index']}")
                attr = " {" + ", ".join(options) + "}" if options else ""
                body.append(f"transform.tir.{k} {ins[0]} at {ins[1]}{attr} : {any_op}, {any_op}")
            else:
                raise ValueError(f"no transform-script form for {k}")
        lines = ["module attributes {transform.with_named_sequence} {",
                 f"  transform.named_sequence @__transform_main(%root: {any_op} {{transform.readonly}}) {{"]
        lines += ["    " + b for b in body]
        lines += ["    transform.yield", "  }", "}"]
        return "\n".join(lines) + "\n"
