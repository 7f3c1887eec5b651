"""The MLIR of high-level operators: upstream linalg ops on tensors (and
tensor reshapes), written by FunctionWriter for a binding."""
from ..struct_info import MLIR_TYPES

_FLOAT_OPS = {"add": "arith.addf", "subtract": "arith.subf", "multiply": "arith.mulf",
              "divide": "arith.divf", "maximum": "arith.maximumf",
              "minimum": "arith.minimumf"}
_INT_OPS = {"add": "arith.addi", "subtract": "arith.subi", "multiply": "arith.muli",
            "divide": "arith.divsi", "maximum": "arith.maxsi", "minimum": "arith.minsi"}


def _is_float(dtype):
    return dtype.startswith(("float", "bfloat"))


def _zero(dtype):
    return "0.0" if _is_float(dtype) else "0"


def _map(rank, results):
    dims = ", ".join(f"d{k}" for k in range(rank))
    return f"affine_map<({dims}) -> ({', '.join(results)})>"


def _broadcast_map(in_shape, out_shape):
    """The indexing map reading an operand of `in_shape` at the output's
    indices: leading dimensions dropped, size-1 dimensions at 0."""
    offset = len(out_shape) - len(in_shape)
    results = ["0" if d == 1 and out_shape[offset + k] != 1 else f"d{offset + k}"
               for k, d in enumerate(in_shape)]
    return _map(len(out_shape), results)


def _reassociation(small, big):
    """Groups of `big`'s dimensions whose products are `small`'s, or None:
    each group takes dimensions until its product reaches its size; trailing
    dimensions of 1 join the last group."""
    groups, k = [], 0
    for d in small:
        group, product = [], 1
        while k < len(big) and (not group or product < d):
            group.append(k)
            product *= big[k]
            k += 1
        if product != d or not group:
            return None
        groups.append(group)
    while k < len(big) and big[k] == 1 and groups:
        groups[-1].append(k)
        k += 1
    return groups if k == len(big) else None


def _generic(writer, ssa, name, maps, iters, ins, in_types, init, out_type, elem, hints,
             body):
    """Appends `ssa = linalg.generic {...} ins(...) outs(init) attrs =
    {tir.name = name}` whose block arguments are named after `hints` (one
    per input, then the output); `body(args)` gives the body's lines (ops
    on scalars of `elem`) and the value it yields."""
    args = [writer._fresh(h) for h in hints]
    writer.lines.append(
        f"    {ssa} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
        f"iterator_types = [{', '.join(f'{chr(34)}{i}{chr(34)}' for i in iters)}]}} "
        f"ins({', '.join(ins)} : {', '.join(in_types)}) outs({init} : {out_type}) "
        f"attrs = {{tir.name = \"{name}\"}} {{")
    writer.lines.append(f"    ^bb0({', '.join(f'{a}: {elem}' for a in args)}):")
    lines, result = body(args)
    writer.lines.extend(f"      {line}" for line in lines)
    writer.lines.append(f"      linalg.yield {result} : {elem}")
    writer.lines.append(f"    }} -> {out_type}")


def write(writer, call, ssa):
    """Appends to `writer` the ops computing `call` into `ssa`."""
    op = call.op[len("relax."):]
    info = call.struct_info
    out_type = info.mlir()
    elem = MLIR_TYPES[info.dtype]
    lines = writer.lines
    args = [writer.value(a) for a in call.args]
    types = [a.struct_info.mlir() for a in call.args]

    def empty():
        name = writer._fresh("empty")
        lines.append(f"    {name} = tensor.empty() : {out_type}")
        return name

    def zero_filled():
        e, z, f = empty(), writer._fresh("zero"), writer._fresh("init")
        lines.append(f"    {z} = arith.constant {_zero(info.dtype)} : {elem}")
        lines.append(f"    {f} = linalg.fill ins({z} : {elem}) outs({e} : {out_type}) -> {out_type}")
        return f

    if op == "matmul":
        f = zero_filled()
        kind = "linalg.matmul" if len(info.shape) == 2 else "linalg.batch_matmul"
        lines.append(f"    {ssa} = {kind} ins({args[0]}, {args[1]} : {types[0]}, {types[1]}) "
                     f"outs({f} : {out_type}) -> {out_type}")
    elif op == "permute_dims":
        e = empty()
        perm = ", ".join(str(a) for a in call.attrs["axes"])
        lines.append(f"    {ssa} = linalg.transpose ins({args[0]} : {types[0]}) "
                     f"outs({e} : {out_type}) permutation = [{perm}]")
    elif op in _FLOAT_OPS or op == "nn.relu":
        rank = len(info.shape)
        maps = [_broadcast_map(tuple(a.struct_info.shape), tuple(info.shape))
                for a in call.args]
        maps.append(_map(rank, [f"d{k}" for k in range(rank)]))

        def body(a):
            result = writer._fresh("v")
            if op == "nn.relu":
                z = writer._fresh("zero")
                arith = "arith.maximumf" if _is_float(info.dtype) else "arith.maxsi"
                return [f"{z} = arith.constant {_zero(info.dtype)} : {elem}",
                        f"{result} = {arith} {a[0]}, {z} : {elem}"], result
            arith = (_FLOAT_OPS if _is_float(info.dtype) else _INT_OPS)[op]
            return [f"{result} = {arith} {a[0]}, {a[1]} : {elem}"], result

        _generic(writer, ssa, "relu" if op == "nn.relu" else op, maps, ["parallel"] * rank,
                 args, types, empty(), out_type, elem, ["in"] * len(args) + ["out"], body)
    elif op == "nn.softmax":
        e = empty()
        lines.append(f"    {ssa} = linalg.softmax dimension({call.attrs['axis']}) "
                     f"ins({args[0]} : {types[0]}) outs({e} : {out_type}) -> {out_type}")
    elif op == "nn.pad":
        widths = call.attrs["pad_width"]
        low = ", ".join(str(w) for w in widths[0::2])
        high = ", ".join(str(w) for w in widths[1::2])
        c = writer._fresh("padv")
        lines.append(f"    {c} = arith.constant {_float_text(call.attrs['pad_value'], elem)} : {elem}")
        idx = ", ".join(f"{writer._fresh('p')}: index" for _ in widths[0::2])
        lines.append(f"    {ssa} = tensor.pad {args[0]} low[{low}] high[{high}] {{")
        lines.append(f"    ^bb0({idx}):")
        lines.append(f"      tensor.yield {c} : {elem}")
        lines.append(f"    }} : {types[0]} to {out_type}")
    elif op == "nn.conv2d":
        f = zero_filled()
        lines.append(f"    {ssa} = linalg.conv_2d_nchw_fchw {{dilations = "
                     f"{_i64s(call.attrs['dilation'])}, strides = {_i64s(call.attrs['strides'])}}} "
                     f"ins({args[0]}, {args[1]} : {types[0]}, {types[1]}) outs({f} : {out_type}) "
                     f"-> {out_type}")
    elif op == "nn.max_pool2d":
        e, lowest, f = empty(), writer._fresh("lowest"), writer._fresh("init")
        lines.append(f"    {lowest} = arith.constant {_float_text(float('-inf'), elem)} : {elem}")
        lines.append(f"    {f} = linalg.fill ins({lowest} : {elem}) outs({e} : {out_type}) "
                     f"-> {out_type}")
        kh, kw = call.attrs["pool_size"]
        window = writer._fresh("window")
        wtype = f"tensor<{kh}x{kw}x{elem}>"
        lines.append(f"    {window} = tensor.empty() : {wtype}")
        lines.append(f"    {ssa} = linalg.pooling_nchw_max {{dilations = "
                     f"{_i64s(call.attrs['dilation'])}, strides = {_i64s(call.attrs['strides'])}}} "
                     f"ins({args[0]}, {window} : {types[0]}, {wtype}) outs({f} : {out_type}) "
                     f"-> {out_type}")
    elif op == "nn.adaptive_avg_pool2d":
        f = zero_filled()
        n, c, h, w = call.args[0].struct_info.shape
        oh, ow = call.attrs["output_size"]
        kh, kw = h // oh, w // ow
        # The window (an empty tensor, as linalg's pooling takes) gives the
        # reduction loops their ranges; its values are not read.
        window = writer._fresh("window")
        wtype = f"tensor<{kh}x{kw}x{elem}>"
        lines.append(f"    {window} = tensor.empty() : {wtype}")
        maps = [_map(6, ["d0", "d1", f"d2 * {kh} + d4", f"d3 * {kw} + d5"]),
                _map(6, ["d4", "d5"]), _map(6, ["d0", "d1", "d2", "d3"])]

        def body(a):
            k, m, r = writer._fresh("scale"), writer._fresh("m"), writer._fresh("v")
            return [f"{k} = arith.constant {_float_text(1.0 / (kh * kw), elem)} : {elem}",
                    f"{m} = arith.mulf {a[0]}, {k} : {elem}",
                    f"{r} = arith.addf {a[2]}, {m} : {elem}"], r

        _generic(writer, ssa, "adaptive_avg_pool2d", maps, ["parallel"] * 4 + ["reduction"] * 2,
                 [args[0], window], [types[0], wtype], f, out_type, elem, ["in", "w", "out"],
                 body)
    elif op == "nn.batch_norm":
        rank, axis = len(info.shape), call.attrs["axis"]
        identity = _map(rank, [f"d{k}" for k in range(rank)])
        maps = [identity] + [_map(rank, [f"d{axis}"])] * 4 + [identity]

        def body(a):
            x, g, b, mean, var = a[:5]
            eps, t, v, sd, nrm, sc, r = (writer._fresh(n) for n in
                                         ("eps", "t", "v", "sd", "n", "s", "r"))
            return [f"{eps} = arith.constant {_float_text(call.attrs['epsilon'], elem)} : {elem}",
                    f"{t} = arith.subf {x}, {mean} : {elem}",
                    f"{v} = arith.addf {var}, {eps} : {elem}",
                    f"{sd} = math.sqrt {v} : {elem}",
                    f"{nrm} = arith.divf {t}, {sd} : {elem}",
                    f"{sc} = arith.mulf {nrm}, {g} : {elem}",
                    f"{r} = arith.addf {sc}, {b} : {elem}"], r

        _generic(writer, ssa, "batch_norm", maps, ["parallel"] * rank, args, types, empty(),
                 out_type, elem, ["x", "gamma", "beta", "mean", "var", "out"], body)
    elif op == "reshape":
        src = tuple(call.args[0].struct_info.shape)
        dst = tuple(info.shape)
        _reshape(writer, lines, ssa, args[0], src, dst, elem)
    else:
        raise NotImplementedError(f"operator {call.op} has no graph form")


def _i64s(values):
    return f"dense<[{', '.join(str(int(v)) for v in values)}]> : tensor<{len(values)}xi64>"


def _float_text(value, elem):
    """A float constant MLIR parses exactly: infinities in hex."""
    import math
    import struct
    if math.isinf(value) or math.isnan(value):
        if elem == "f32":
            return "0x" + struct.pack(">f", value).hex().upper()
        if elem == "f64":
            return "0x" + struct.pack(">d", value).hex().upper()
        if elem == "f16":
            return "0x" + struct.pack(">e", value).hex().upper()
        raise NotImplementedError(f"an infinite constant of {elem}")
    return mlir_float(value)


def mlir_float(value):
    """repr of a finite float in MLIR's syntax, which wants a '.' before an
    exponent (1.0e-05, not 1e-05)."""
    text = repr(float(value))
    if "." not in text and "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}.0e{exponent}"
    return text


def _shape_type(shape, elem):
    return f"tensor<{''.join(f'{d}x' for d in shape)}{elem}>"


def _groups_text(groups):
    return "[" + ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups) + "]"


def _reshape(writer, lines, ssa, value, src, dst, elem):
    """A reshape as tensor.collapse_shape / expand_shape (views once
    bufferized); through 1-D when neither alone does it."""
    if src == dst:
        lines.append(f"    {ssa} = tensor.collapse_shape {value} "
                     f"{_groups_text([[k] for k in range(len(src))])} : "
                     f"{_shape_type(src, elem)} into {_shape_type(dst, elem)}")
        return
    if len(dst) < len(src) and dst:
        groups = _reassociation(dst, src)
        if groups is not None:
            lines.append(f"    {ssa} = tensor.collapse_shape {value} {_groups_text(groups)} : "
                         f"{_shape_type(src, elem)} into {_shape_type(dst, elem)}")
            return
    if len(dst) > len(src) and src:
        groups = _reassociation(src, dst)
        if groups is not None:
            lines.append(f"    {ssa} = tensor.expand_shape {value} {_groups_text(groups)} "
                         f"output_shape [{', '.join(map(str, dst))}] : "
                         f"{_shape_type(src, elem)} into {_shape_type(dst, elem)}")
            return
    size = 1
    for d in src:
        size *= d
    flat = writer._fresh("flat")
    _reshape(writer, lines, flat, value, src, (size,), elem)
    _reshape(writer, lines, ssa, flat, (size,), dst, elem)
