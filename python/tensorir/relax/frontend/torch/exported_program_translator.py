"""The torch.export importer: an ExportedProgram's graph of ATen operators
as a graph function "main" (its user inputs first, then, with
keep_params_as_input, its parameters and buffers)."""
import math
import operator

from ... import op as R
from ...block_builder import BlockBuilder
from ...expr import Expr, Tuple, Var, const
from ...struct_info import SymDim, TensorStructInfo
from .aten_nn import NetworkOps
from .aten_tensor import TensorOps
from .base_translator import DTYPES as _DTYPES
from .base_translator import BaseImporter, _torch

# ATen's element-wise operators and the relax operator each becomes.
_UNARY = {
    "abs": R.abs, "acos": R.acos, "acosh": R.acosh, "asin": R.asin, "asinh": R.asinh,
    "atan": R.atan, "atanh": R.atanh, "bitwise_not": R.bitwise_not, "ceil": R.ceil,
    "cos": R.cos, "cosh": R.cosh, "erf": R.erf, "exp": R.exp, "floor": R.floor,
    "isinf": R.isinf, "isnan": R.isnan, "log": R.log, "logical_not": R.logical_not,
    "neg": R.negative, "round": R.round, "rsqrt": R.rsqrt, "sigmoid": R.sigmoid,
    "sign": R.sign, "sin": R.sin, "sinh": R.sinh, "sqrt": R.sqrt, "square": R.square,
    "tan": R.tan, "tanh": R.tanh, "trunc": R.trunc, "silu": R.nn.silu,
}
_FLOAT_UNARY = {R.acos, R.acosh, R.asin, R.asinh, R.atan, R.atanh, R.cos, R.cosh, R.erf,
                R.exp, R.log, R.rsqrt, R.sigmoid, R.sin, R.sinh, R.sqrt, R.tan, R.tanh,
                R.nn.silu}
_BINARY = {
    "add": (R.add, operator.add), "sub": (R.subtract, operator.sub),
    "mul": (R.multiply, operator.mul), "div": (R.divide, operator.truediv),
    "floor_divide": (R.floor_divide, operator.floordiv), "pow": (R.power, operator.pow),
    "remainder": (R.floor_mod, operator.mod), "fmod": (R.mod, math.fmod),
    "maximum": (R.maximum, max), "minimum": (R.minimum, min),
    "bitwise_and": (R.bitwise_and, operator.and_), "bitwise_or": (R.bitwise_or, operator.or_),
    "bitwise_xor": (R.bitwise_xor, operator.xor),
    "logical_and": (R.logical_and, lambda a, b: a and b),
    "logical_or": (R.logical_or, lambda a, b: a or b),
    "eq": (R.equal, operator.eq), "ne": (R.not_equal, operator.ne), "lt": (R.less, operator.lt),
    "le": (R.less_equal, operator.le), "gt": (R.greater, operator.gt),
    "ge": (R.greater_equal, operator.ge),
}

# Operators torch.export's decompositions would take apart that the importer
# converts as they are.
_KEPT_WHOLE = ("linalg_vector_norm.default", "eye.default", "eye.m",
               "instance_norm.default")


class ExportedProgramImporter(NetworkOps, TensorOps, BaseImporter):
    """Walks an ExportedProgram's graph in order, one binding per ATen
    operator (the table in __init__; anything else is refused, naming the
    operator and the node)."""

    name = "from_exported_program"

    def __init__(self):
        super().__init__()
        same = self._identity
        self.aten = {
            "add.Tensor": self._add, "add_.Tensor": self._add, "sub.Tensor": self._sub,
            "mul.Tensor": self._mul, "div.Tensor": self._div, "matmul.default": self._matmul,
            "mm.default": self._matmul, "bmm.default": self._matmul,
            "linear.default": self._linear,
            "relu.default": self._relu, "relu_.default": self._relu,
            "softmax.int": self._softmax, "_softmax.default": self._softmax,
            "flatten.using_ints": self._flatten, "view.default": self._reshape,
            "sym_size.int": self._size,
            "reshape.default": self._reshape, "_unsafe_view.default": self._reshape,
            "permute.default": self._permute, "transpose.int": self._transpose,
            "t.default": self._t,
            "conv2d.default": self._conv2d, "conv1d.default": self._conv2d,
            "convolution.default": self._convolution,
            "batch_norm.default": self._batch_norm,
            "_native_batch_norm_legit_no_training.default": self._batch_norm_no_training,
            "max_pool2d.default": self._max_pool, "avg_pool2d.default": self._avg_pool,
            "max_pool3d.default": self._max_pool, "avg_pool3d.default": self._avg_pool,
            "max_pool2d_with_indices.default": self._max_pool_with_indices,
            "max_pool3d_with_indices.default": self._max_pool_with_indices,
            "adaptive_avg_pool2d.default": self._adaptive_avg_pool,
            "adaptive_avg_pool3d.default": self._adaptive_avg_pool,
            "_adaptive_avg_pool3d.default": self._adaptive_avg_pool,
            "conv3d.default": self._conv2d,
            "conv_transpose1d.default": self._conv_transpose_nd,
            "conv_transpose2d.input": self._conv_transpose_nd,
            "conv_transpose3d.input": self._conv_transpose_nd,
            "layer_norm.default": self._layer_norm, "gelu.default": self._gelu,
            "embedding.default": self._embedding, "dropout.default": self._dropout,
            "clone.default": same, "contiguous.default": same, "alias.default": same,
            "detach.default": same, "getitem": self._getitem,
            "scaled_dot_product_attention.default": self._attention,
            "squeeze.dim": self._squeeze, "squeeze.dims": self._squeeze,
            "unsqueeze.default": self._unsqueeze, "unflatten.int": self._unflatten,
            "select.int": self._select,
        }
        # Element-wise operators: one relax operator each.
        for name, relax_op in _UNARY.items():
            for overload in ("default", "Tensor"):
                self.aten.setdefault(f"{name}.{overload}", self._unary(relax_op))
                self.aten.setdefault(f"{name}_.{overload}", self._unary(relax_op))
        for name, (relax_op, python_op) in _BINARY.items():
            for overload in ("Tensor", "Scalar", "default", "Tensor_Scalar", "Scalar_Tensor",
                             "Tensor_Tensor"):
                convert = self._binary_op(relax_op, python_op)
                self.aten.setdefault(f"{name}.{overload}", convert)
                self.aten.setdefault(f"{name}_.{overload}", convert)
        for name, relax_op in (("sum", R.sum), ("mean", R.mean), ("amax", R.max),
                               ("amin", R.min), ("prod", R.prod)):
            for overload in ("default", "dim", "dim_IntList", "dim_int", "int"):
                self.aten.setdefault(f"{name}.{overload}", self._reduction(relax_op))
        self.aten.update({
            "addmm.default": self._addmm, "unsqueeze.default": self._unsqueeze,
            "squeeze.dim": self._squeeze, "squeeze.dims": self._squeeze,
            "squeeze.default": self._squeeze, "slice.Tensor": self._slice,
            "expand.default": self._expand, "zeros.default": self._full_of(0),
            "ones.default": self._full_of(1), "full.default": self._full,
            "zeros_like.default": self._full_like_of(0), "ones_like.default":
                self._full_like_of(1), "full_like.default": self._full_like,
            "new_zeros.default": self._new_full_of(0), "new_ones.default": self._new_full_of(1),
            "new_full.default": self._new_full, "arange.default": self._arange,
            "arange.start": self._arange, "arange.start_step": self._arange,
            "scalar_tensor.default": self._scalar_tensor,
            "_log_softmax.default": self._log_softmax, "log_softmax.int": self._log_softmax,
            "var.correction": self._var, "var.dim": self._var,
            "_assert_tensor_metadata.default": self._nothing,
            "_assert_async.msg": self._nothing, "_assert_scalar.default": self._nothing,
            "_adaptive_avg_pool2d.default": self._adaptive_avg_pool,
            "softplus.default": self._softplus, "expm1.default": self._expm1,
            "log1p.default": self._log1p, "cumsum.default": self._scan(R.cumsum),
            "cumprod.default": self._scan(R.cumprod), "einsum.default": self._einsum,
            "group_norm.default": self._group_norm,
            "native_group_norm.default": self._native_group_norm,
            "native_layer_norm.default": self._native_layer_norm,
            "leaky_relu.default": self._leaky_relu, "leaky_relu_.default": self._leaky_relu,
            "empty.memory_format": self._empty, "empty_like.default": self._empty_like,
            "empty_permuted.default": self._empty, "any.dim": self._any,
            "any.dims": self._any, "copy.default": self._copy, "index.Tensor": self._index,
            "gather.default": self._gather, "slice_scatter.default": self._slice_scatter,
            "upsample_nearest2d.vec": self._upsample("nearest_neighbor"),
            "upsample_nearest2d.default": self._upsample("nearest_neighbor"),
            "upsample_bilinear2d.vec": self._upsample("linear", False),
            "upsample_bilinear2d.default": self._upsample("linear", False),
            "_upsample_bilinear2d_aa.default": self._upsample("linear", False),
            "_upsample_bilinear2d_aa.vec": self._upsample("linear", False),
            "argmax.default": self._arg_extreme(R.argmax),
            "argmin.default": self._arg_extreme(R.argmin),
            "index_select.default": self._index_select, "take.default": self._take,
            "cat.default": self._cat, "concat.default": self._cat, "stack.default": self._stack,
            "tile.default": self._tile, "repeat.default": self._tile, "flip.default": self._flip,
            "split.Tensor": self._split, "split_with_sizes.default": self._split,
            "chunk.default": self._chunk, "unbind.int": self._unbind,
            "where.self": self._where, "clamp.default": self._clamp,
            "clamp.Tensor": self._clamp,
            "clip.default": self._clamp, "hardtanh.default": self._hardtanh,
            "div.Tensor_mode": self._div, "_to_copy.default": self._to_copy,
            "to.dtype": self._to_copy, "to.dtype_layout": self._to_copy,
            "to.device": self._to_copy, "constant_pad_nd.default": self._constant_pad,
            "pad.default": self._pad,
            "linalg_vector_norm.default": self._vector_norm, "eye.default": self._eye,
            "eye.m": self._eye, "_local_scalar_dense.default": self._item,
            "item.default": self._item,
            "one_hot.default": self._one_hot, "sort.default": self._sort,
            "sort.stable": self._sort, "argsort.default": self._argsort,
            "argsort.stable": self._argsort, "topk.default": self._topk,
            "max.dim": self._extreme_dim(True), "min.dim": self._extreme_dim(False),
            "median.default": self._median, "median.dim": self._median,
            "bucketize.Tensor": self._bucketize, "hamming_window.default": self._hamming_window,
            "hamming_window.periodic": self._hamming_window,
            "hamming_window.periodic_alpha": self._hamming_window,
            "hamming_window.periodic_alpha_beta": self._hamming_window,
            "instance_norm.default": self._instance_norm,
        })

    # ------------------------------------------------------------ helpers
    @property
    def block_builder(self):
        """The BlockBuilder the function is built with (TVM's name)."""
        return self.bb

    def _identity(self, node):
        return self.arg(node, 0)

    @staticmethod
    def _key(target):
        """"relu.default" for torch.ops.aten.relu.default; "getitem" for
        operator.getitem."""
        text = str(target)
        return text[len("aten."):] if text.startswith("aten.") else \
            getattr(target, "__name__", text)

    def _unary(self, relax_op):
        """relax_op on the tensor; an integer tensor is made float32 first
        for the operators of floating-point tensors (as PyTorch computes
        them)."""
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            if relax_op in _FLOAT_UNARY and not x.struct_info.dtype.startswith(("float",
                                                                                "bfloat")):
                x = self.emit(R.astype(x, "float32"))
            return self.emit(relax_op(x))
        return convert

    def _binary_op(self, relax_op, python_op):
        def convert(node):
            return self._binary(node, relax_op, python_op)
        return convert

    # ---------------------------------------------------------- operators
    def _nothing(self, node):
        return None

    # ------------------------------------------------------------- driver
    def _input_var(self, node, name):
        val = node.meta.get("val")
        if val is None or not hasattr(val, "shape"):
            raise NotImplementedError(f"{self.name}: input '{node.name}' is not a tensor")
        shape = []
        for d in val.shape:
            if isinstance(d, int):
                shape.append(d)
                continue
            # A dynamic dimension (torch.export's dynamic_shapes): the shape
            # variable of torch's symbol.
            symbol = str(getattr(getattr(d, "node", None), "expr", d))
            if not symbol.isidentifier():
                raise NotImplementedError(
                    f"{self.name}: input '{node.name}' has the dimension {symbol}, an "
                    "expression of torch's symbols; an input's dynamic dimension is one "
                    "symbol")
            shape.append(SymDim(symbol))
        dtype = _DTYPES.get(str(val.dtype).replace("torch.", ""))
        if dtype is None:
            raise NotImplementedError(f"{self.name}: input '{node.name}' is {val.dtype}")
        return Var(name, TensorStructInfo(tuple(shape), dtype))

    @staticmethod
    def _ranges(program, inputs):
        """{"tir_var_lower_bound": {name: lower}, "tir_var_upper_bound": {...}}
        of the shape variables the inputs have, from the program's range
        constraints (an unbounded upper end left out)."""
        names = {d.name for v in inputs for d in v.struct_info.shape if isinstance(d, SymDim)}
        lower, upper = {}, {}
        for symbol, value_range in getattr(program, "range_constraints", {}).items():
            name = str(symbol)
            if name not in names:
                continue
            try:
                lower[name] = int(value_range.lower)
                high = float(value_range.upper)
                if high != float("inf"):
                    upper[name] = int(value_range.upper)
            except (TypeError, ValueError, OverflowError, AttributeError):
                continue
        attrs = {}
        if lower:
            attrs["tir_var_lower_bound"] = lower
        if upper:
            attrs["tir_var_upper_bound"] = upper
        return attrs

    def translate(self, program, keep_params_as_input, unwrap_unit_return_tuple):
        torch = self.torch
        if not isinstance(program, torch.export.ExportedProgram):
            raise TypeError(f"from_exported_program takes a torch.export.ExportedProgram "
                            f"(torch.export.export(model, args)), got {type(program).__name__}")
        kinds = torch.export.graph_signature.InputKind
        specs = {s.arg.name: s for s in program.graph_signature.input_specs}
        self.bb = BlockBuilder()
        inputs, weights, weight_data = [], [], []
        for node in program.graph.nodes:
            if node.op != "placeholder":
                continue
            spec = specs[node.name]
            if spec.kind == kinds.USER_INPUT:
                self.env[node] = self._input_var(node, node.name)
                inputs.append(self.env[node])
                continue
            source = program.constants if spec.kind in (kinds.CONSTANT_TENSOR,) or \
                spec.target in program.constants else program.state_dict
            tensor = source[spec.target].detach().cpu()
            if tensor.dtype == torch.bfloat16:
                raise NotImplementedError(f"{self.name}: the weight '{spec.target}' is "
                                          "bfloat16 (weights of bfloat16 are not supported; "
                                          "bfloat16 inputs are)")
            data = tensor.numpy()
            if keep_params_as_input:
                var = self._input_var(node, node.name)
                weights.append(var)
                weight_data.append(data)
                self.env[node] = var
            else:
                self.env[node] = const(data)
        # With the weights as inputs, the function says how many inputs are
        # the user's (Relax's num_input); the dynamic dimensions' ranges are
        # tir_var_lower_bound / tir_var_upper_bound, as TVM records them.
        attrs = {"num_input": len(inputs)} if keep_params_as_input else {}
        attrs.update(self._ranges(program, inputs))
        # Only what the outputs read is computed: the checks torch.export
        # leaves behind (_assert_async of a reduction over the inputs) and
        # the values only they read have no effect on the results.
        needed, stack = set(), [n for n in program.graph.nodes if n.op == "output"]
        while stack:
            node = stack.pop()
            if node not in needed:
                needed.add(node)
                stack.extend(node.all_input_nodes)
        with self.bb.function("main", inputs + weights, attrs=attrs):
            with self.bb.dataflow():
                for node in program.graph.nodes:
                    if node.op == "call_function" and node not in needed:
                        continue
                    if node.op == "call_function":
                        key = self._key(node.target)
                        convert = self.aten.get(key)
                        if convert is None and "_." in key:
                            # An in-place operator (relu_, hardtanh_) whose
                            # result is used as its functional form's.
                            convert = self.aten.get(key.replace("_.", ".", 1))
                        if convert is None:
                            raise NotImplementedError(
                                f"{self.name}: operator {key} (node '{node.name}') is not "
                                "supported")
                        self.env[node] = convert(node)
                    elif node.op == "output":
                        results = self.value(node.args[0])
                        results = list(results) if isinstance(results, (list, tuple)) \
                            else [results]
                        for r in results:
                            if not isinstance(r, Expr):
                                raise NotImplementedError(f"{self.name}: the program returns "
                                                          f"{r!r}, not a tensor")
                        if unwrap_unit_return_tuple and len(results) == 1:
                            output = self.bb.emit_output(results[0])
                        else:
                            output = self.bb.emit_output(Tuple(results))
                    elif node.op != "placeholder":
                        raise NotImplementedError(f"{self.name}: node '{node.name}' is a "
                                                  f"{node.op}, which is not supported")
            self.bb.emit_func_output(output)
        mod = self.bb.get()
        if keep_params_as_input:
            mod = mod.with_attr("params", {"main": weight_data})
        return mod


def from_exported_program(exported_program, *, keep_params_as_input=False,
                          unwrap_unit_return_tuple=False, no_bind_return_tuple=False,
                          run_ep_decomposition=False, custom_convert_map=None):
    """An IRModule whose "main" computes `exported_program` (torch.export):
    the user inputs first; the parameters and buffers constants, or, with
    keep_params_as_input, inputs after them (their data in the module's
    "params" attribute, which relax.frontend.detach_params takes off). The
    result is a tuple, or its one tensor with unwrap_unit_return_tuple.

    `custom_convert_map` maps ATen operators ("add.Tensor") to functions
    `convert(node, importer)` returning the node's value, which they emit
    through `importer.block_builder` (its `env` maps the nodes before)."""
    if run_ep_decomposition:
        # Core ATen, except the operators converted whole (a norm as one
        # reduction rather than its decomposition's steps).
        torch = _torch()
        table = torch.export.default_decompositions()
        for kept in _KEPT_WHOLE:
            packet, overload = kept.split(".")
            table.pop(getattr(getattr(torch.ops.aten, packet), overload), None)
        exported_program = exported_program.run_decompositions(table)
    importer = ExportedProgramImporter()
    for key, convert in (custom_convert_map or {}).items():
        if not callable(convert):
            raise TypeError(f"from_exported_program: custom_convert_map[{key!r}] is not a "
                            "function (node, importer) -> value")
        importer.aten[key] = lambda node, convert=convert: convert(node, importer)
    return importer.translate(exported_program, keep_params_as_input,
                              unwrap_unit_return_tuple)
