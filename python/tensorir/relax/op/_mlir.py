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
    """Groups of `big`'s dimensions whose products are `small`'s, or None."""
    groups, k = [], 0
    for d in small:
        group, product = [], 1
        while k < len(big) and (product < d or not group or (big[k] == 1 and product == d
                                                             and len(groups) == len(small) - 1)):
            group.append(k)
            product *= big[k]
            k += 1
            if product == d and (k == len(big) or big[k] != 1 or len(groups) < len(small) - 1):
                break
        if product != d or not group:
            return None
        groups.append(group)
    while k < len(big) and big[k] == 1 and groups:
        groups[-1].append(k)
        k += 1
    return groups if k == len(big) else None


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
        e = empty()
        rank = len(info.shape)
        out_shape = tuple(info.shape)
        maps = [_broadcast_map(tuple(a.struct_info.shape), out_shape) for a in call.args]
        maps.append(_map(rank, [f"d{k}" for k in range(rank)]))
        iters = ", ".join(['"parallel"'] * rank)
        name = "relu" if op == "nn.relu" else op
        params = [writer._fresh("in") for _ in args] + [writer._fresh("out")]
        header = ", ".join(f"{p}: {elem}" for p in params)
        lines.append(f"    {ssa} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
                     f"iterator_types = [{iters}]}} ins({', '.join(args)} : {', '.join(types)}) "
                     f"outs({e} : {out_type}) attrs = {{tir.name = \"{name}\"}} {{")
        lines.append(f"    ^bb0({header}):")
        result = writer._fresh("v")
        if op == "nn.relu":
            z = writer._fresh("zero")
            lines.append(f"      {z} = arith.constant {_zero(info.dtype)} : {elem}")
            arith = "arith.maximumf" if _is_float(info.dtype) else "arith.maxsi"
            lines.append(f"      {result} = {arith} {params[0]}, {z} : {elem}")
        else:
            arith = (_FLOAT_OPS if _is_float(info.dtype) else _INT_OPS)[op]
            lines.append(f"      {result} = {arith} {params[0]}, {params[1]} : {elem}")
        lines.append(f"      linalg.yield {result} : {elem}")
        lines.append(f"    }} -> {out_type}")
    elif op == "nn.softmax":
        e = empty()
        lines.append(f"    {ssa} = linalg.softmax dimension({call.attrs['axis']}) "
                     f"ins({args[0]} : {types[0]}) outs({e} : {out_type}) -> {out_type}")
    elif op == "reshape":
        src = tuple(call.args[0].struct_info.shape)
        dst = tuple(info.shape)
        _reshape(writer, lines, ssa, args[0], src, dst, elem)
    else:
        raise NotImplementedError(f"operator {call.op} has no graph form")


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
