"""CUDA tensor-core intrinsics for `mma.sync` (sm_80 and later), under the
names of TVM's `tvm.tir.tensor_intrin.cuda`: `ldmatrix` loads of a 16 x k
tile from shared memory into a warp's fragment, the `m16n8k16` /
`m16n8k32` matrix multiply-accumulate on fragments, the zero fill and the
store of an accumulator.

A fragment is a "warp" buffer of shape (32, n): row `t` is what lane `t`
of the warp holds in its registers. The descriptions place element (i, j)
of a tile at (thread, local) by the layouts below (TVM's); the matching
(tensorize) compares them with the scheduled blocks, whose warp buffers
`transform_layout` has put in the same layout.

The implementations are tir: each runs in the 32 lanes of a warp (a loop
bound to threadIdx.x), the fills and stores as plain loads and stores of
the lane's row, `ldmatrix` and `mma` as calls the GPU lowering turns into
the instructions (NVVM's `ldmatrix` and `mma.sync`):

- `T.call_extern("", "tir.ptx_ldmatrix", frag.data, shared.data, row,
  col, transposed)`: the four 8 x 8 matrices of 16-bit elements whose rows
  start at (row, col) of `shared` (one row per lane) into the lane's
  fragment, in order (`ldmatrix.sync.aligned.m8n8.x4[.trans].b16`);
- `T.call_extern("", "tir.ptx_mma", shape, a, b, c, A.data, a_at, B.data,
  b_at, C.data, c_at)`: one `mma.sync.aligned.<shape>.row.col` with the
  lane's operands read from its fragments from those positions (A's whole
  fragment, half of B's, half of C's: the 16 x 16 tile is two m16n8
  products).

Float8 intrinsics are declared for matching; the lowering refuses them.
"""
from ...script import from_source
from ...script.values import ScriptError, DeferredScriptError
from ..function import TensorIntrin

WARP_SIZE = 32


# The layouts: where element (i, j) of a tile lives in a warp's fragment,
# as (lane, position in the lane's registers), and back.
def shared_16x16_to_ldmatrix_32x8_layout(i, j):
    return 4 * (i % 8) + (j % 8) // 2, 4 * (j // 8) + (i // 8) * 2 + (j % 2)


def shared_16x32_to_ldmatrix_32x16_layout(i, j):
    return 4 * (i % 8) + (j % 16) // 4, 8 * (j // 16) + (i // 8) * 4 + j % 4


def shared_32x16_to_ldmatrix_32x16_layout(i, j):
    return (i % 16) // 4 + 4 * (j % 8), 8 * (j // 8) + (i // 16) * 4 + i % 4


def ldmatrix_32x8_to_shared_16x16_layout(thread_id, local_id):
    row = 8 * (local_id % 4 // 2) + (thread_id // 4)
    col = 8 * (local_id // 4) + (thread_id % 4) * 2 + (local_id % 2)
    return row, col


# The same layouts as TVMScript text over named variables (the
# descriptions are generated as text).
_LAYOUT_TEXT = {
    "16x16": ("4 * ({i} % 8) + {j} % 8 // 2", "4 * ({j} // 8) + {i} // 8 * 2 + {j} % 2"),
    "16x32": ("4 * ({i} % 8) + {j} % 16 // 4", "8 * ({j} // 16) + {i} // 8 * 4 + {j} % 4"),
    "32x16": ("{i} % 16 // 4 + 4 * ({j} % 8)", "8 * ({j} // 8) + {i} // 16 * 4 + {i} % 4"),
}
# Inverse layouts, (row, col) of the element at (lane {t}, position {l}).
_INVERSE_TEXT = {
    "16x16": ("8 * ({l} % 4 // 2) + {t} // 4", "8 * ({l} // 4) + {t} % 4 * 2 + {l} % 2"),
    "16x32": ("8 * ({l} % 8 // 4) + {t} // 4", "16 * ({l} // 8) + {t} % 4 * 4 + {l} % 4"),
    "32x16": ("16 * ({l} % 8 // 4) + {t} % 4 * 4 + {l} % 4", "8 * ({l} // 8) + {t} // 4"),
}


def _at(layout, i, j):
    thread, local = _LAYOUT_TEXT[layout]
    return thread.format(i=i, j=j), local.format(i=i, j=j)


def _register(name, desc_text, impl_text):
    try:
        desc = from_source(desc_text, f"<{name} desc>")
        impl = from_source(impl_text, f"<{name} impl>")
    except ScriptError as e:
        desc = impl = DeferredScriptError(f"tensor intrinsic '{name}'", e)
    TensorIntrin.register(name, desc, impl, override=True)
    return name


# --------------------------------------------------------------- ldmatrix
_LDMATRIX_DESC = """
@T.prim_func
def desc(warp_handle: T.handle, shared_handle: T.handle):
    shared = T.match_buffer(shared_handle, ({rows}, {cols}), "{dtype}", align=64,
                            offset_factor={cols}, scope="{scope}")
    warp = T.match_buffer(warp_handle, (32, {local}), "{dtype}", align=64,
                          offset_factor={cols}, scope="warp")
    with T.block("root"):
        T.reads(shared[0:{rows}, 0:{cols}])
        T.writes(warp[0:32, 0:{local}])
        for ax0, ax1 in T.grid({rows}, {cols}):
            with T.block("shared_warp"):
                v0, v1 = T.axis.remap("SS", [ax0, ax1])
                T.reads(shared[v0, v1])
                T.writes(warp[{thread}, {position}])
                warp[{thread}, {position}] = shared[v0, v1]
"""

# Each lane calls ldmatrix with its row's address (`body`); without a
# matching ldmatrix (8-bit elements transposed), it reads its elements
# itself.
_LDMATRIX_IMPL = """
@T.prim_func
def impl(warp_handle: T.handle, shared_handle: T.handle):
    shared = T.match_buffer(shared_handle, ({rows}, {cols}), "{dtype}", align=64,
                            offset_factor={cols}, scope="{scope}")
    warp = T.match_buffer(warp_handle, (32, {local}), "{dtype}", align=64,
                          offset_factor={cols}, scope="warp")
    with T.block("root"):
        T.reads(shared[0:{rows}, 0:{cols}])
        T.writes(warp[0:32, 0:{local}])
        for tx in T.thread_binding(32, thread="threadIdx.x"):
{body}
"""
_LDMATRIX_CALL = """\
            T.evaluate(T.call_extern("", "tir.ptx_ldmatrix", warp.data, shared.data,
                                     {row}, {col}, {transposed}))"""
_LDMATRIX_LOOP = """\
            for l in T.serial({local}):
                warp[tx, l] = shared[{inv_row}, {inv_col}]"""


def ldmatrix_address(k_dim, operand, transposed):
    """Where lane `tx` points ldmatrix in the stored tile of `operand`
    ("A": 16 x k_dim, "B": k_dim x 16; `transposed`: stored the other way
    round): (row, column) as TVMScript text over `tx`, and whether the
    instruction transposes (.trans); None for the 8-bit B stored
    untransposed, which has no ldmatrix form. Lanes 8m to 8m + 7 give the
    rows of the m-th 8 x 8 block (16 bytes a row), the blocks in the order
    of the fragment's registers."""
    in_ldmatrix_transposed = transposed if operand == "A" else not transposed
    if k_dim == 16:
        # Lanes 0-15 give the rows of the tile's left half, 16-31 of its
        # right half; a transposed tile's blocks go row-block first.
        if transposed:
            return "8 * (tx // 16) + tx % 8", "8 * (tx % 16 // 8)", in_ldmatrix_transposed
        return "tx % 16", "8 * (tx // 16)", in_ldmatrix_transposed
    if operand == "B" and not transposed:
        return None
    if operand == "B":
        return "8 * (tx // 16) + tx % 8", "16 * (tx % 16 // 8)", False
    return "tx % 16", "16 * (tx // 16)", False


def lane_element(layout, lane, position):
    """(row, column) of the tile element that `lane` holds at `position`
    in a fragment of `layout` ("16x16", "16x32", "32x16")."""
    row, col = _INVERSE_TEXT[layout]
    names = {"t": "lane", "l": "position"}
    values = {"lane": lane, "position": position}
    return (eval(row.format(**names), {}, values),  # noqa: S307 - the layouts' own formulas
            eval(col.format(**names), {}, values))  # noqa: S307


def _register_ldmatrix(name, k_dim, dtype, operand, transposed, scope="shared"):
    """A 16 x k_dim tile of A (or k_dim x 16 of B; the transposed forms
    the other way round) from `scope` memory into a fragment."""
    local = 16 * k_dim // WARP_SIZE
    if operand == "A":
        rows, cols = (16, k_dim) if not transposed else (k_dim, 16)
    else:
        rows, cols = (k_dim, 16) if not transposed else (16, k_dim)
    if k_dim == 16:
        layout = "16x16"
    elif operand == "B" and not transposed:
        layout = "32x16"
    else:
        layout = "16x32"
    address = ldmatrix_address(k_dim, operand, transposed)
    row, col, in_ldmatrix_transposed = address or (None, None, False)
    thread, position = _at(layout, "v0", "v1")
    fields = dict(rows=rows, cols=cols, dtype=dtype, local=local, scope=scope, thread=thread,
                  position=position, row=row, col=col,
                  transposed=1 if in_ldmatrix_transposed else 0)
    if row is None:
        inv_row, inv_col = _INVERSE_TEXT[layout]
        body = _LDMATRIX_LOOP.format(inv_row=inv_row.format(t="tx", l="l"),
                                     inv_col=inv_col.format(t="tx", l="l"), **fields)
    else:
        body = _LDMATRIX_CALL.format(**fields)
    impl = _LDMATRIX_IMPL.format(body=body, **fields)
    return _register(name, _LDMATRIX_DESC.format(**fields), impl)


LDMATRIX_f16_A_INTRIN = _register_ldmatrix("mma_ldmatrix_f16_a", 16, "float16", "A", False)
LDMATRIX_f16_B_INTRIN = _register_ldmatrix("mma_ldmatrix_f16_b", 16, "float16", "B", False)
LDMATRIX_f16_A_TRANS_INTRIN = _register_ldmatrix("mma_ldmatrix_f16_a_trans", 16, "float16",
                                                 "A", True)
LDMATRIX_f16_B_TRANS_INTRIN = _register_ldmatrix("mma_ldmatrix_f16_b_trans", 16, "float16",
                                                 "B", True)
LDMATRIX_f16_A_DYN_INTRIN = _register_ldmatrix("mma_ldmatrix_f16_a_dyn", 16, "float16", "A",
                                               False, "shared.dyn")
LDMATRIX_f16_B_DYN_INTRIN = _register_ldmatrix("mma_ldmatrix_f16_b_dyn", 16, "float16", "B",
                                               False, "shared.dyn")
LDMATRIX_f16_A_TRANS_DYN_INTRIN = _register_ldmatrix("mma_ldmatrix_f16_a_trans_dyn", 16,
                                                     "float16", "A", True, "shared.dyn")
LDMATRIX_f16_B_TRANS_DYN_INTRIN = _register_ldmatrix("mma_ldmatrix_f16_b_trans_dyn", 16,
                                                     "float16", "B", True, "shared.dyn")
# bfloat16 (tir's; TVM registers none): as float16, 16-bit elements.
LDMATRIX_bf16_A_INTRIN = _register_ldmatrix("mma_ldmatrix_bf16_a", 16, "bfloat16", "A", False)
LDMATRIX_bf16_B_INTRIN = _register_ldmatrix("mma_ldmatrix_bf16_b", 16, "bfloat16", "B", False)
LDMATRIX_bf16_A_TRANS_INTRIN = _register_ldmatrix("mma_ldmatrix_bf16_a_trans", 16, "bfloat16",
                                                  "A", True)
LDMATRIX_bf16_B_TRANS_INTRIN = _register_ldmatrix("mma_ldmatrix_bf16_b_trans", 16, "bfloat16",
                                                  "B", True)
LDMATRIX_bf16_A_DYN_INTRIN = _register_ldmatrix("mma_ldmatrix_bf16_a_dyn", 16, "bfloat16", "A",
                                                False, "shared.dyn")
LDMATRIX_bf16_B_DYN_INTRIN = _register_ldmatrix("mma_ldmatrix_bf16_b_dyn", 16, "bfloat16", "B",
                                                False, "shared.dyn")
LDMATRIX_bf16_A_TRANS_DYN_INTRIN = _register_ldmatrix("mma_ldmatrix_bf16_a_trans_dyn", 16,
                                                      "bfloat16", "A", True, "shared.dyn")
LDMATRIX_bf16_B_TRANS_DYN_INTRIN = _register_ldmatrix("mma_ldmatrix_bf16_b_trans_dyn", 16,
                                                      "bfloat16", "B", True, "shared.dyn")
LDMATRIX_i8_A_INTRIN = _register_ldmatrix("mma_ldmatrix_i8_a", 32, "int8", "A", False)
LDMATRIX_i8_B_INTRIN = _register_ldmatrix("mma_ldmatrix_i8_b", 32, "int8", "B", False)
LDMATRIX_i8_B_TRANS_INTRIN = _register_ldmatrix("mma_ldmatrix_i8_b_trans", 32, "int8", "B", True)
LDMATRIX_e4m3_A_INTRIN = _register_ldmatrix("mma_ldmatrix_e4m3_a", 32, "float8_e4m3fn", "A",
                                            False)
LDMATRIX_e4m3_B_INTRIN = _register_ldmatrix("mma_ldmatrix_e4m3_b", 32, "float8_e4m3fn", "B",
                                            False)
LDMATRIX_e4m3_B_TRANS_INTRIN = _register_ldmatrix("mma_ldmatrix_e4m3_b_trans", 32,
                                                  "float8_e4m3fn", "B", True)
LDMATRIX_e5m2_A_INTRIN = _register_ldmatrix("mma_ldmatrix_e5m2_a", 32, "float8_e5m2", "A",
                                            False)
LDMATRIX_e5m2_B_INTRIN = _register_ldmatrix("mma_ldmatrix_e5m2_b", 32, "float8_e5m2", "B",
                                            False)
LDMATRIX_e5m2_B_TRANS_INTRIN = _register_ldmatrix("mma_ldmatrix_e5m2_b_trans", 32,
                                                  "float8_e5m2", "B", True)


# -------------------------------------------------------------------- mma
_MMA_DESC = """
@T.prim_func
def desc(a: T.handle, b: T.handle, c: T.handle):
    A = T.match_buffer(a, (32, {local}), "{a_dtype}", align=64, offset_factor={a_factor},
                       scope="warp")
    B = T.match_buffer(b, (32, {local}), "{b_dtype}", align=64, offset_factor={b_factor},
                       scope="warp")
    C = T.match_buffer(c, (32, 8), "{out_dtype}", align=64, offset_factor=16, scope="warp")
    with T.block("root"):
        T.reads(C[0:32, 0:8], A[0:32, 0:{local}], B[0:32, 0:{local}])
        T.writes(C[0:32, 0:8])
        for i, j, k in T.grid(16, 16, {k_dim}):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                T.reads(C[{c_thread}, {c_local}], A[{a_thread}, {a_local}],
                        B[{b_thread}, {b_local}])
                T.writes(C[{c_thread}, {c_local}])
                C[{c_thread}, {c_local}] = C[{c_thread}, {c_local}] + {a_value} * {b_value}
"""

_MMA_IMPL = """
@T.prim_func
def impl(a: T.handle, b: T.handle, c: T.handle):
    A = T.match_buffer(a, (32, {local}), "{a_dtype}", align=64, offset_factor={a_factor},
                       scope="warp")
    B = T.match_buffer(b, (32, {local}), "{b_dtype}", align=64, offset_factor={b_factor},
                       scope="warp")
    C = T.match_buffer(c, (32, 8), "{out_dtype}", align=64, offset_factor=16, scope="warp")
    with T.block("root"):
        T.reads(C[0:32, 0:8], A[0:32, 0:{local}], B[0:32, 0:{local}])
        T.writes(C[0:32, 0:8])
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            T.evaluate(T.call_extern("", "tir.ptx_mma", "{shape}", "{a_abbrv}", "{b_abbrv}",
                                     "{out_abbrv}", A.data, 0, B.data, 0, C.data, 0))
            T.evaluate(T.call_extern("", "tir.ptx_mma", "{shape}", "{a_abbrv}", "{b_abbrv}",
                                     "{out_abbrv}", A.data, 0, B.data, {half}, C.data, 4))
"""

_ABBREVIATIONS = {"float16": "fp16", "bfloat16": "bf16", "float32": "fp32", "int8": "int8",
                  "int32": "int32", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}


def _register_mma(name, k_dim, in_dtype, out_dtype, a_transposed, b_transposed):
    """C (16 x 16) += A (16 x k) * B (k x 16) on fragments, A or B stored
    transposed as the flags say."""
    local = 16 * k_dim // WARP_SIZE
    if k_dim == 16:
        layout_a = layout_b = "16x16"
    else:
        layout_a = "16x32"
        layout_b = "16x32" if b_transposed else "32x16"
    a_row, a_col = ("vk", "vi") if a_transposed else ("vi", "vk")
    b_row, b_col = ("vj", "vk") if b_transposed else ("vk", "vj")
    c_thread, c_local = _at("16x16", "vi", "vj")
    a_thread, a_local = _at(layout_a, a_row, a_col)
    b_thread, b_local = _at(layout_b, b_row, b_col)
    widen = out_dtype in ("float32", "int32")
    a_value = f"A[{a_thread}, {a_local}]"
    b_value = f"B[{b_thread}, {b_local}]"
    if widen:
        a_value = f'T.Cast("{out_dtype}", {a_value})'
        b_value = f'T.Cast("{out_dtype}", {b_value})'
    fields = dict(local=local, a_dtype=in_dtype, b_dtype=in_dtype, out_dtype=out_dtype,
                  a_factor=16 if a_transposed else k_dim, b_factor=k_dim if b_transposed else 16,
                  k_dim=k_dim, c_thread=c_thread, c_local=c_local, a_thread=a_thread,
                  a_local=a_local, b_thread=b_thread, b_local=b_local, a_value=a_value,
                  b_value=b_value, shape=f"m16n8k{k_dim}", a_abbrv=_ABBREVIATIONS[in_dtype],
                  b_abbrv=_ABBREVIATIONS[in_dtype], out_abbrv=_ABBREVIATIONS[out_dtype],
                  half=local // 2)
    return _register(name, _MMA_DESC.format(**fields), _MMA_IMPL.format(**fields))


MMA_f16f16f32_INTRIN = _register_mma("mma_f16f16f32", 16, "float16", "float32", False, False)
MMA_f16f16f32_TRANS_B_INTRIN = _register_mma("mma_f16f16f32_trans_b", 16, "float16", "float32",
                                             False, True)
MMA_f16f16f32_TRANS_A_INTRIN = _register_mma("mma_f16f16f32_trans_a", 16, "float16", "float32",
                                             True, False)
MMA_f16f16f32_TRANS_A_TRANS_B_INTRIN = _register_mma(
    "mma_f16f16f32_trans_a_trans_b", 16, "float16", "float32", True, True)
MMA_f16f16f16_INTRIN = _register_mma("mma_f16f16f16", 16, "float16", "float16", False, False)
MMA_f16f16f16_TRANS_B_INTRIN = _register_mma("mma_f16f16f16_trans_b", 16, "float16", "float16",
                                             False, True)
MMA_f16f16f16_TRANS_A_INTRIN = _register_mma("mma_f16f16f16_trans_a", 16, "float16", "float16",
                                             True, False)
MMA_f16f16f16_TRANS_A_TRANS_B_INTRIN = _register_mma(
    "mma_f16f16f16_trans_a_trans_b", 16, "float16", "float16", True, True)
MMA_bf16bf16f32_INTRIN = _register_mma("mma_bf16bf16f32", 16, "bfloat16", "float32", False,
                                       False)
MMA_bf16bf16f32_TRANS_B_INTRIN = _register_mma("mma_bf16bf16f32_trans_b", 16, "bfloat16",
                                               "float32", False, True)
MMA_bf16bf16f32_TRANS_A_INTRIN = _register_mma("mma_bf16bf16f32_trans_a", 16, "bfloat16",
                                               "float32", True, False)
MMA_bf16bf16f32_TRANS_A_TRANS_B_INTRIN = _register_mma(
    "mma_bf16bf16f32_trans_a_trans_b", 16, "bfloat16", "float32", True, True)
MMA_i8i8i32_INTRIN = _register_mma("mma_i8i8i32", 32, "int8", "int32", False, False)
MMA_i8i8i32_TRANS_B_INTRIN = _register_mma("mma_i8i8i32_trans_b", 32, "int8", "int32", False,
                                           True)
MMA_e5m2e5m2f32_INTRIN = _register_mma("mma_e5m2e5m2f32", 32, "float8_e5m2", "float32", False,
                                       False)
MMA_e5m2e5m2f32_TRANS_B_INTRIN = _register_mma("mma_e5m2e5m2f32_trans_b", 32, "float8_e5m2",
                                               "float32", False, True)
MMA_e4m3e4m3f32_INTRIN = _register_mma("mma_e4m3e4m3f32", 32, "float8_e4m3fn", "float32", False,
                                       False)
MMA_e4m3e4m3f32_TRANS_B_INTRIN = _register_mma("mma_e4m3e4m3f32_trans_b", 32, "float8_e4m3fn",
                                               "float32", False, True)


# ------------------------------------------------------------ fill, store
_FILL_DESC = """
@T.prim_func
def desc(a: T.handle):
    C_warp = T.match_buffer(a, (32, 8), "{dtype}", scope="warp")
    with T.block("root"):
        T.reads()
        T.writes(C_warp[0:32, 0:8])
        for i0, i1 in T.grid(16, 16):
            with T.block("C_warp"):
                i, j = T.axis.remap("SS", [i0, i1])
                T.reads()
                T.writes(C_warp[{thread}, {local}])
                C_warp[{thread}, {local}] = T.{dtype}(0)
"""

_FILL_IMPL = """
@T.prim_func
def impl(a: T.handle):
    C_warp = T.match_buffer(a, (32, 8), "{dtype}", scope="warp", offset_factor=1)
    with T.block("root"):
        T.reads()
        T.writes(C_warp[0:32, 0:8])
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            for l in T.serial(8):
                C_warp[tx, l] = T.{dtype}(0)
"""

_STORE_DESC = """
@T.prim_func
def desc(a: T.handle, c: T.handle):
    C_warp = T.match_buffer(a, (32, 8), "{dtype}", scope="warp")
    C = T.match_buffer(c, (16, 16), "{dtype}", scope="{scope}")
    with T.block("root"):
        T.reads(C_warp[0:32, 0:8])
        T.writes(C[0:16, 0:16])
        for i0, i1 in T.grid(16, 16):
            with T.block("C_warp"):
                v0, v1 = T.axis.remap("SS", [i0, i1])
                T.reads(C_warp[{thread}, {local}])
                T.writes(C[v0, v1])
                C[v0, v1] = C_warp[{thread}, {local}]
"""

# Each lane writes its 8 elements (pairs of neighbours in a row).
_STORE_IMPL = """
@T.prim_func
def impl(a: T.handle, c: T.handle):
    C_warp = T.match_buffer(a, (32, 8), "{dtype}", scope="warp", offset_factor=1)
    C = T.match_buffer(c, (16, 16), "{dtype}", scope="{scope}", offset_factor=1)
    with T.block("root"):
        T.reads(C_warp[0:32, 0:8])
        T.writes(C[0:16, 0:16])
        for tx in T.thread_binding(32, thread="threadIdx.x"):
            for l in T.serial(8):
                C[{inv_row}, {inv_col}] = C_warp[tx, l]
"""


def _register_fill(name, dtype):
    thread, local = _at("16x16", "i", "j")
    return _register(name, _FILL_DESC.format(dtype=dtype, thread=thread, local=local),
                     _FILL_IMPL.format(dtype=dtype))


def _register_store(name, dtype, scope):
    thread, local = _at("16x16", "v0", "v1")
    inv_row, inv_col = _INVERSE_TEXT["16x16"]
    fields = dict(dtype=dtype, scope=scope, thread=thread, local=local,
                  inv_row=inv_row.format(t="tx", l="l"), inv_col=inv_col.format(t="tx", l="l"))
    return _register(name, _STORE_DESC.format(**fields), _STORE_IMPL.format(**fields))


MMA_fill_16x16_f32_INTRIN = _register_fill("mma_fill_16x16_f32", "float32")
MMA_fill_16x16_f16_INTRIN = _register_fill("mma_fill_16x16_f16", "float16")
MMA_fill_16x16_i32_INTRIN = _register_fill("mma_fill_16x16_i32", "int32")

MMA_store_16x16_f32_global_INTRIN = _register_store("mma_store_16x16_f32_global_", "float32",
                                                    "global")
MMA_store_16x16_f32_shared_dyn_INTRIN = _register_store("mma_store_16x16_f32_shared_dyn_",
                                                        "float32", "shared.dyn")
MMA_store_16x16_f32_shared_dyn_INTRIN_SIMPLE = _register_store(
    "mma_store_16x16_f32_shared_dyn_simple_", "float32", "shared.dyn")
MMA_store_16x16_f16_shared_dyn_INTRIN_SIMPLE = _register_store(
    "mma_store_16x16_f16_shared_dyn_simple_", "float16", "shared.dyn")
MMA_store_16x16_f16_global_INTRIN = _register_store("mma_store_16x16_f16_global_", "float16",
                                                    "global")
MMA_store_16x16_i32_global_INTRIN = _register_store("mma_store_16x16_i32_global_", "int32",
                                                    "global")
# The "simple" stores (plain stores of each lane's elements, as all of
# these are) for every scope get_mma_intrin_group names by default; TVM
# registers only two of them, so its default group for a global store
# names an intrinsic it lacks.
for _dtype, _short in (("float32", "f32"), ("float16", "f16"), ("int32", "i32")):
    for _scope in ("global", "shared", "shared.dyn"):
        _name = f"mma_store_16x16_{_short}_{_scope.replace('.', '_')}_simple_"
        if TensorIntrin.get(_name, allow_missing=True) is None:
            _register_store(_name, _dtype, _scope)


def get_mma_intrin_group(load_scope, store_scope, in_dtype, out_dtype, trans_a, trans_b,
                         not_use_mma_store_intrinic=True, store_to_smem_dtype=None):
    """TVM's get_mma_intrin_group: the names of the five intrinsics of one
    mma.sync configuration ({"init", "load_a", "load_b", "compute",
    "store"})."""
    if load_scope not in ("shared", "shared.dyn"):
        raise ValueError(f"get_mma_intrin_group: load_scope is shared or shared.dyn, "
                         f"got {load_scope!r}")
    if store_scope not in ("global", "shared", "shared.dyn"):
        raise ValueError(f"get_mma_intrin_group: store_scope is global, shared or shared.dyn, "
                         f"got {store_scope!r}")
    shorts = {"float16": "f16", "bfloat16": "bf16", "float32": "f32", "int8": "i8",
              "int32": "i32", "float8_e4m3fn": "e4m3", "float8_e5m2": "e5m2"}
    if in_dtype not in ("float16", "bfloat16", "int8", "float8_e4m3fn", "float8_e5m2"):
        raise ValueError(f"get_mma_intrin_group: in_dtype is float16, bfloat16, int8 or a "
                         f"float8, got {in_dtype!r}")
    if out_dtype not in ("float16", "float32", "int32"):
        raise ValueError(f"get_mma_intrin_group: out_dtype is float16, float32 or int32, "
                         f"got {out_dtype!r}")
    store_dtype = store_to_smem_dtype or out_dtype
    i, o, s = shorts[in_dtype], shorts[out_dtype], shorts[store_dtype]
    dyn = "_dyn" if load_scope == "shared.dyn" else ""
    trans_a_suffix = "_trans" if trans_a else ""
    trans_b_suffix = "_trans" if trans_b else ""
    compute = f"mma_{i}{i}{o}" + ("_trans_a" if trans_a else "") + ("_trans_b" if trans_b else "")
    simple = "simple_" if not_use_mma_store_intrinic else ""
    names = {
        "init": f"mma_fill_16x16_{o}",
        "load_a": f"mma_ldmatrix_{i}_a{trans_a_suffix}{dyn}",
        "load_b": f"mma_ldmatrix_{i}_b{trans_b_suffix}{dyn}",
        "compute": compute,
        "store": f"mma_store_16x16_{s}_{store_scope.replace('.', '_')}_{simple}",
    }
    for role, intrin in names.items():
        if TensorIntrin.get(intrin, allow_missing=True) is None:
            raise ValueError(f"get_mma_intrin_group: no {role} intrinsic for this "
                             f"configuration ('{intrin}' is not registered)")
    return names


__all__ = sorted(name for name in dir() if name.endswith(("_INTRIN", "_INTRIN_SIMPLE"))) + [
    "shared_16x16_to_ldmatrix_32x8_layout", "shared_16x32_to_ldmatrix_32x16_layout",
    "shared_32x16_to_ldmatrix_32x16_layout", "ldmatrix_32x8_to_shared_16x16_layout",
    "get_mma_intrin_group", "ldmatrix_address", "lane_element"]
