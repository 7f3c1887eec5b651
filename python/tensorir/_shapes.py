"""Shape arithmetic that topi and relax.op share: numpy broadcasting and
reshape targets, with errors naming the operator (`what`)."""


def broadcast_shape(a, b, what):
    """numpy's broadcast of two shapes: sizes, or shape variables (te's
    tir.Var), which broadcast against 1 and against themselves."""
    def same(x, y):
        if isinstance(x, int) and isinstance(y, int):
            return x == y
        return x is y or (not isinstance(x, int) and not isinstance(y, int)
                          and str(x) == str(y))

    out = []
    for i in range(max(len(a), len(b))):
        da = a[len(a) - 1 - i] if i < len(a) else 1
        db = b[len(b) - 1 - i] if i < len(b) else 1
        if isinstance(da, int) and da == 1:
            out.append(db)
            continue
        if not same(da, db) and not (isinstance(db, int) and db == 1):
            raise ValueError(f"{what}: shapes {tuple(a)} and {tuple(b)} do not broadcast "
                             f"(dimension {da} against {db})")
        out.append(db if da == 1 else da)
    return tuple(reversed(out))


def _symbolic_reshape(shape, newshape, what):
    """reshape_target where shape variables size dimensions: the element
    counts must be equal whatever the variables are (the same variables on
    both sides, the same product of the sizes), a -1 resolved so."""
    from .relax.struct_info import SymDim

    def factors(dims):
        names, size = [], 1
        for d in dims:
            if isinstance(d, SymDim):
                names.append(d.name)
            elif int(d) != -1:
                size *= int(d)
        return sorted(names), size

    newshape = [d if isinstance(d, SymDim) else int(d) for d in newshape]
    if sum(1 for d in newshape if not isinstance(d, SymDim) and d == -1) > 1:
        raise ValueError(f"{what}: at most one dimension is -1")
    (have, size), (want, known) = factors(shape), factors(newshape)
    if have != want:
        raise ValueError(
            f"{what}: cannot reshape {tuple(shape)} into {tuple(newshape)}: the shape "
            "variables differ, so the element counts are not known to be equal (a reshape "
            "keeps the shape variables it has)")
    if -1 in newshape:
        if known == 0 or size % known:
            raise ValueError(f"{what}: cannot reshape {tuple(shape)} into {tuple(newshape)}")
        newshape[newshape.index(-1)] = size // known
    elif size != known:
        raise ValueError(f"{what}: cannot reshape {tuple(shape)} into {tuple(newshape)} "
                         f"({size} and {known} elements per value of the shape variables)")
    return tuple(newshape)


def reshape_target(shape, newshape, what):
    """`newshape` with its -1 (at most one) resolved against the size of
    `shape`; ValueError when the sizes differ."""
    from .relax.struct_info import SymDim
    if any(isinstance(d, SymDim) for d in list(shape) + list(newshape)):
        return _symbolic_reshape(shape, newshape, what)
    size = 1
    for d in shape:
        size *= d
    newshape = [int(d) for d in newshape]
    if newshape.count(-1) > 1:
        raise ValueError(f"{what}: at most one dimension is -1")
    known = 1
    for d in newshape:
        known *= d if d != -1 else 1
    if -1 in newshape:
        if known == 0 or size % known:
            raise ValueError(f"{what}: cannot reshape {tuple(shape)} into {tuple(newshape)}")
        newshape[newshape.index(-1)] = size // known
    total = 1
    for d in newshape:
        total *= d
    if total != size:
        raise ValueError(f"{what}: cannot reshape {tuple(shape)} ({size} elements) into "
                         f"{tuple(newshape)} ({total})")
    return tuple(newshape)
