"""The torch.export importer's network operators: linear algebra
(linear, addmm, matmul), convolutions, batch / layer / group norms,
pooling, attention, resizing, embedding, dropout, and the activations made
of several relax operators (leaky_relu, softplus, gelu, log_softmax).
ExportedProgramImporter takes them from this mixin."""
import numpy as np

from ... import op as R
from ...expr import const
from ...struct_info import SymDim, is_symbolic
from .base_translator import DTYPES


class NetworkOps:
    """Converters of ATen's network operators (each `convert(node)` gives
    the node's value, emitting through the importer's block builder)."""

    def _addmm(self, node):
        bias, a, b = (self.tensor(self.arg(node, i), node) for i in range(3))
        beta, alpha = node.kwargs.get("beta", 1), node.kwargs.get("alpha", 1)
        dtype = a.struct_info.dtype
        product = self.emit(R.matmul(a, b))
        if alpha != 1:
            product = self.emit(R.multiply(product, const(np.array(alpha, dtype))))
        if beta == 0:
            return product
        if beta != 1:
            bias = self.emit(R.multiply(bias, const(np.array(beta, dtype))))
        return self.emit(R.add(bias, product))

    def _log_softmax(self, node):
        return self.emit(R.nn.log_softmax(self.tensor(self.arg(node, 0), node),
                                          self.arg(node, 1, -1, "dim")))

    def _leaky_relu(self, node):
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.nn.leakyrelu(x, self.arg(node, 1, 0.01, "negative_slope")))

    def _scan(self, relax_op):
        """cumsum / cumprod along `dim`, converted to `dtype` first."""
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            dtype = node.kwargs.get("dtype")
            if dtype is not None:
                dtype = DTYPES.get(str(dtype).replace("torch.", ""))
            return self.emit(relax_op(x, axis=self.arg(node, 1, name="dim"), dtype=dtype))
        return convert

    def _einsum(self, node):
        """einsum(equation, tensors)."""
        tensors = [self.tensor(t, node) for t in self.arg(node, 1)]
        return self.emit(R.einsum(tensors, subscripts=self.arg(node, 0)))

    def _expm1(self, node):
        """exp(x) - 1, as TVM's importer writes it."""
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.subtract(self.emit(R.exp(x)),
                                    const(np.array(1.0, x.struct_info.dtype))))

    def _log1p(self, node):
        """log(x + 1), as TVM's importer writes it."""
        x = self.tensor(self.arg(node, 0), node)
        return self.emit(R.log(self.emit(R.add(x, const(np.array(1, x.struct_info.dtype))))))

    def _softplus(self, node):
        """log(1 + exp(beta x)) / beta, x itself where beta x > threshold."""
        x = self.tensor(self.arg(node, 0), node)
        beta = self.arg(node, 1, 1.0, "beta")
        threshold = self.arg(node, 2, 20.0, "threshold")
        dtype = x.struct_info.dtype
        scaled = self.emit(R.multiply(x, const(np.array(beta, dtype))))
        soft = self.emit(R.divide(self.emit(R.log(self.emit(R.add(
            self.emit(R.exp(scaled)), const(np.array(1.0, dtype)))))),
            const(np.array(beta, dtype))))
        large = self.emit(R.greater(scaled, const(np.array(threshold, dtype))))
        return self.emit(R.where(large, x, soft))

    def _group_norm(self, node):
        x = self.tensor(self.arg(node, 0), node)
        groups = self.arg(node, 1, 1, "num_groups")
        weight, bias = self.arg(node, 2, None, "weight"), self.arg(node, 3, None, "bias")
        eps = self.arg(node, 4, 1e-5, "eps")
        channels, dtype = int(x.shape[1]), x.struct_info.dtype
        weight = weight if weight is not None else const(np.ones(channels, dtype))
        bias = bias if bias is not None else const(np.zeros(channels, dtype))
        return self.emit(R.nn.group_norm(x, weight, bias, groups, 1,
                                         list(range(2, len(x.shape))), eps))

    def _native_group_norm(self, node):
        x = self.tensor(self.arg(node, 0), node)
        weight, bias = self.arg(node, 1), self.arg(node, 2)
        groups, eps = self.arg(node, 6), self.arg(node, 7)
        channels, dtype = int(x.shape[1]), x.struct_info.dtype
        weight = weight if weight is not None else const(np.ones(channels, dtype))
        bias = bias if bias is not None else const(np.zeros(channels, dtype))
        out = self.emit(R.nn.group_norm(x, weight, bias, groups, 1,
                                        list(range(2, len(x.shape))), eps))
        return (out, None, None)

    def _instance_norm(self, node):
        """instance_norm(x, weight, bias, running_mean, running_var,
        use_input_stats, momentum, eps, cudnn_enabled): each instance's
        statistics (use_input_stats), or a batch norm of the running ones."""
        x = self.tensor(self.arg(node, 0), node)
        channels, dtype = int(x.shape[1]), x.struct_info.dtype
        weight, bias = self.arg(node, 1), self.arg(node, 2)
        eps = self.arg(node, 7, 1e-5, "eps")
        if not self.arg(node, 5, True, "use_input_stats"):
            return self._batch_norm_of(node, x, weight, bias, self.arg(node, 3),
                                       self.arg(node, 4), eps)
        weight = const(np.ones(channels, dtype)) if weight is None else weight
        bias = const(np.zeros(channels, dtype)) if bias is None else bias
        return self.emit(R.nn.instance_norm(x, weight, bias, 1, list(range(2, len(x.shape))),
                                            eps))

    def _native_layer_norm(self, node):
        return (self._layer_norm(node), None, None)

    def _upsample(self, method, align_default=None):
        """upsample_nearest2d / upsample_bilinear2d (output size or scale
        factors) as image.resize2d with PyTorch's coordinates: nearest
        reads floor(o * in / out); bilinear half-pixel, or corners aligned."""
        def convert(node):
            x = self.tensor(self.arg(node, 0), node)
            size = self.arg(node, 1, None, "output_size")
            if method == "linear":
                align = self.arg(node, 2, align_default, "align_corners")
                scales = self.arg(node, 3, None, "scale_factors")
            else:
                align, scales = None, self.arg(node, 2, None, "scale_factors")
            if node.target.__name__.startswith("_upsample_bilinear2d_aa") and size is not None \
                    and (size[0] < int(x.shape[2]) or size[1] < int(x.shape[3])):
                raise NotImplementedError(f"{self.name}: '{node.name}' downsamples with "
                                          "antialiasing")
            if size is None:
                if scales is None:
                    raise NotImplementedError(f"{self.name}: '{node.name}' has neither an "
                                              "output size nor scale factors")
                size = [int(int(d) * s) for d, s in zip(x.shape[2:], scales)]
            if method == "nearest_neighbor":
                return self.emit(R.image.resize2d(x, list(size), method="nearest_neighbor",
                                                  coordinate_transformation_mode="asymmetric",
                                                  rounding_method="floor"))
            mode = "align_corners" if align else "half_pixel"
            return self.emit(R.image.resize2d(x, list(size), method="linear",
                                              coordinate_transformation_mode=mode))
        return convert

    def _product(self, dims, what):
        """The size of dimensions `dims` taken as one: a number, or the one
        shape variable among dimensions of 1."""
        size, variables = 1, []
        for d in dims:
            if isinstance(d, SymDim):
                variables.append(d)
            else:
                size *= int(d)
        if not variables:
            return size
        if len(variables) == 1 and size == 1:
            return variables[0]
        raise NotImplementedError(f"{self.name}: {what} takes dimensions {list(dims)} as "
                                  "one, a product of shape variables and sizes (not yet "
                                  "supported)")

    def _as_rows(self, x):
        """x (N-D, N > 2, of a symbolic shape: relax's matmul takes static N-D
        rows by a matrix as they are) as a matrix of its last dimension's
        rows, and the leading dimensions to put back."""
        dims = list(x.shape)
        rows = self._product(dims[:-1], "a matrix product of an N-D tensor")
        return self.emit(R.reshape(x, [rows, dims[-1]])), dims[:-1]

    def _linear(self, node):
        x = self.tensor(self.arg(node, 0), node)
        weight = self.tensor(self.arg(node, 1), node)
        bias = self.arg(node, 2, name="bias")
        if len(x.shape) <= 2 or not is_symbolic(x.shape):
            return self.emit(R.linear(x, weight, bias))
        rows, lead = self._as_rows(x)
        y = self.emit(R.linear(rows, weight, bias))
        return self.emit(R.reshape(y, list(lead) + [int(weight.shape[0])]))

    def _matmul(self, node):
        a = self.tensor(self.arg(node, 0), node)
        b = self.tensor(self.arg(node, 1, name="other"), node)
        ra, rb = len(a.shape), len(b.shape)
        if (ra, rb) in ((2, 2), (3, 3)) or (ra > 2 and rb == 2 and not is_symbolic(a.shape)):
            return self.emit(R.matmul(a, b))
        if ra > 2 and rb == 2:  # rows of a (of a symbolic shape) times b
            rows, lead = self._as_rows(a)
            y = self.emit(R.matmul(rows, b))
            return self.emit(R.reshape(y, list(lead) + [b.shape[1]]))
        sa, sb = list(a.shape), list(b.shape)
        if ra == rb > 3 and sa[:-2] == sb[:-2]:  # the leading dimensions as one batch
            batch = self._product(sa[:-2], f"'{node.name}'")
            y = self.emit(R.matmul(self.emit(R.reshape(a, [batch] + sa[-2:])),
                                   self.emit(R.reshape(b, [batch] + sb[-2:]))))
            return self.emit(R.reshape(y, sa[:-1] + [sb[-1]]))
        raise NotImplementedError(f"{self.name}: '{node.name}' multiplies shapes {sa} and "
                                  f"{sb} (broadcast batches are not supported)")

    def _conv(self, node, x, weight, bias, stride, padding, dilation, groups):
        """A 1-, 2- or 3-D convolution (its bias added after)."""
        dims = len(weight.shape) - 2
        relax_op = {1: R.nn.conv1d, 2: R.nn.conv2d, 3: R.nn.conv3d}.get(dims)
        if relax_op is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a {dims}-D convolution "
                                      "(1-, 2- and 3-D are supported)")
        if isinstance(padding, str):
            raise NotImplementedError(f"{self.name}: '{node.name}' pads {padding!r}; explicit "
                                      "sizes are supported")
        return self._with_bias(self.emit(relax_op(x, weight, strides=stride, padding=padding,
                                                  dilation=dilation, groups=groups)), bias)

    def _with_bias(self, y, bias, axis=1):
        """y plus `bias`, one value per element of y's `axis` (a
        convolution's channels), or y itself without a bias."""
        if bias is None:
            return y
        shape = [int(d) if k == axis else 1 for k, d in enumerate(y.struct_info.shape)]
        return self.emit(R.add(y, self.emit(R.reshape(bias, shape))))

    def _conv2d(self, node):
        weight = self.tensor(self.arg(node, 1), node)
        dims = len(weight.shape) - 2
        return self._conv(node, self.tensor(self.arg(node, 0), node), weight,
                          self.arg(node, 2), self.arg(node, 3, [1] * dims),
                          self.arg(node, 4, [0] * dims), self.arg(node, 5, [1] * dims),
                          self.arg(node, 6, 1))

    def _conv_transpose(self, node, x, weight, bias, stride, padding, output_padding, groups,
                        dilation):
        """A 1-, 2- or 3-D transposed convolution (its bias added after)."""
        dims = len(weight.shape) - 2
        relax_op = {1: R.nn.conv1d_transpose, 2: R.nn.conv2d_transpose,
                    3: R.nn.conv3d_transpose}.get(dims)
        if relax_op is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a {dims}-D transposed "
                                      "convolution (1-, 2- and 3-D are supported)")
        return self._with_bias(self.emit(relax_op(x, weight, strides=stride, padding=padding,
                                                  output_padding=output_padding,
                                                  dilation=dilation, groups=groups)), bias)

    def _conv_transpose_nd(self, node):
        """conv_transpose1d / 2d / 3d(input, weight, bias, stride, padding,
        output_padding, groups, dilation)."""
        weight = self.tensor(self.arg(node, 1), node)
        dims = len(weight.shape) - 2
        return self._conv_transpose(
            node, self.tensor(self.arg(node, 0), node), weight, self.arg(node, 2, None, "bias"),
            self.arg(node, 3, 1, "stride"), self.arg(node, 4, 0, "padding"),
            self.arg(node, 5, 0, "output_padding"), self.arg(node, 6, 1, "groups"),
            self.arg(node, 7, [1] * dims, "dilation"))

    def _convolution(self, node):
        if self.arg(node, 6):
            return self._conv_transpose(
                node, self.tensor(self.arg(node, 0), node), self.tensor(self.arg(node, 1), node),
                self.arg(node, 2), self.arg(node, 3), self.arg(node, 4), self.arg(node, 7),
                self.arg(node, 8, 1), self.arg(node, 5))
        return self._conv(node, self.tensor(self.arg(node, 0), node),
                          self.tensor(self.arg(node, 1), node), self.arg(node, 2),
                          self.arg(node, 3), self.arg(node, 4), self.arg(node, 5),
                          self.arg(node, 8, 1))

    def _batch_norm_of(self, node, x, weight, bias, mean, var, eps):
        channels = int(x.shape[1])
        if weight is None:
            weight = const(np.ones(channels, x.struct_info.dtype))
        if bias is None:
            bias = const(np.zeros(channels, x.struct_info.dtype))
        if mean is None or var is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a batch norm without "
                                      "running statistics")
        # (output, mean, variance) bound as a tuple, its output taken, as
        # Relax writes it.
        normalized = self.emit(R.nn.batch_norm(x, weight, bias, mean, var, axis=1, epsilon=eps))
        return self.emit(normalized[0])

    def _batch_norm(self, node):
        if self.arg(node, 5, name="training"):
            raise NotImplementedError(f"{self.name}: '{node.name}' is a batch norm in training "
                                      "mode; export the model after model.eval()")
        return self._batch_norm_of(node, self.tensor(self.arg(node, 0), node), self.arg(node, 1),
                                   self.arg(node, 2), self.arg(node, 3), self.arg(node, 4),
                                   self.arg(node, 7, 1e-5, "eps"))

    def _batch_norm_no_training(self, node):
        # (output, saved mean, saved inverse deviation): the last two are
        # empty in inference, and only the first is used.
        out = self._batch_norm_of(node, self.tensor(self.arg(node, 0), node),
                                  self.arg(node, 1), self.arg(node, 2), self.arg(node, 3),
                                  self.arg(node, 4), self.arg(node, 6, 1e-5, "eps"))
        return (out, None, None)

    def _max_pool(self, node):
        """max_pool2d / 3d (the dimension from the kernel's)."""
        kernel = self.arg(node, 1)
        stride = self.arg(node, 2, None) or kernel
        if self.arg(node, 5, False, "ceil_mode"):
            raise NotImplementedError(f"{self.name}: '{node.name}' pools with ceil_mode")
        x = self.tensor(self.arg(node, 0), node)
        relax_op = R.nn.max_pool3d if len(x.shape) == 5 else R.nn.max_pool2d
        return self.emit(relax_op(x, pool_size=kernel, strides=stride,
                                  padding=self.arg(node, 3, 0), dilation=self.arg(node, 4, 1)))

    def _avg_pool(self, node):
        """avg_pool2d / 3d (the dimension from the data's)."""
        x = self.tensor(self.arg(node, 0), node)
        kernel = self.arg(node, 1)
        stride = self.arg(node, 2, None, "stride") or kernel
        padding = self.arg(node, 3, 0, "padding")
        ceil_mode = self.arg(node, 4, False, "ceil_mode")
        divisor = self.arg(node, 6, None, "divisor_override")
        relax_op = R.nn.avg_pool3d if len(x.shape) == 5 else R.nn.avg_pool2d
        pooled = self.emit(relax_op(
            x, pool_size=kernel, strides=stride, padding=padding, ceil_mode=ceil_mode,
            count_include_pad=self.arg(node, 5, True, "count_include_pad")))
        if divisor is None:
            return pooled
        # Every window whole (no padding, no ceil_mode's last windows): the
        # mean times the window's size is the sum the divisor divides.
        dims = len(x.shape) - 2
        kernel = [kernel] if isinstance(kernel, int) else list(kernel)
        padding = [padding] if isinstance(padding, int) else list(padding)
        if any(padding) or ceil_mode:
            raise NotImplementedError(f"{self.name}: '{node.name}' pools with a "
                                      "divisor_override and padding or ceil_mode")
        area = int(np.prod(kernel * dims if len(kernel) == 1 else kernel))
        if area == divisor:
            return pooled
        return self.emit(R.multiply(pooled, const(np.array(area / divisor,
                                                           x.struct_info.dtype))))

    def _max_pool_with_indices(self, node):
        # (values, indices): the indices are not computed (zeros), as
        # inference never reads them.
        values = self._max_pool(node)
        return (values, self.emit(R.zeros_like(values)))

    def _adaptive_avg_pool(self, node):
        """adaptive_avg_pool2d / 3d (the dimension from the data's)."""
        x = self.tensor(self.arg(node, 0), node)
        relax_op = R.nn.adaptive_avg_pool3d if len(x.shape) == 5 else R.nn.adaptive_avg_pool2d
        return self.emit(relax_op(x, output_size=tuple(self.arg(node, 1))))

    def _layer_norm(self, node):
        x = self.tensor(self.arg(node, 0), node)
        normalized = list(self.arg(node, 1))
        weight, bias = self.arg(node, 2), self.arg(node, 3)
        eps = self.arg(node, 4, 1e-5, "eps")
        rank = len(x.shape)
        axes = list(range(rank - len(normalized), rank))
        dtype = x.struct_info.dtype
        if weight is None:
            weight = const(np.ones(normalized, dtype))
        if bias is None:
            bias = const(np.zeros(normalized, dtype))
        return self.emit(R.nn.layer_norm(x, weight, bias, axes, eps))

    def _gelu(self, node):
        approximate = node.kwargs.get("approximate", self.arg(node, 1, "none"))
        relax_op = {"none": R.nn.gelu, "tanh": R.nn.gelu_tanh}.get(approximate)
        if relax_op is None:
            raise NotImplementedError(f"{self.name}: '{node.name}' is a GELU with "
                                      f"approximate={approximate!r}")
        return self.emit(relax_op(self.tensor(self.arg(node, 0), node)))

    def _embedding(self, node):
        weight, indices = self.tensor(self.arg(node, 0), node), self.tensor(self.arg(node, 1),
                                                                            node)
        if indices.struct_info.dtype != "int32":
            indices = self.emit(R.astype(indices, "int32"))
        return self.emit(R.take(weight, indices, axis=0))

    def _dropout(self, node):
        if self.arg(node, 2, False, "train"):
            raise NotImplementedError(f"{self.name}: '{node.name}' is a dropout in training "
                                      "mode; export the model after model.eval()")
        return self.arg(node, 0)

    def _attention(self, node):
        """torch's (batch, heads, sequence, features) attention as
        nn.attention's (batch, sequence, heads, features)."""
        q, k, v = (self.tensor(self.arg(node, i), node) for i in range(3))
        mask = self.arg(node, 3, None, "attn_mask")
        if self.arg(node, 4, 0.0, "dropout_p"):
            raise NotImplementedError(f"{self.name}: '{node.name}' is an attention with "
                                      "dropout")
        causal = "TopLeft" if self.arg(node, 5, False, "is_causal") else None
        scale = self.arg(node, 6, None, "scale")
        rank = len(q.shape)
        if not 2 <= rank <= 4 or len(k.shape) != rank or len(v.shape) != rank:
            raise NotImplementedError(f"{self.name}: '{node.name}' is an attention of "
                                      f"ranks {len(q.shape)}, {len(k.shape)}, {len(v.shape)} "
                                      "(one rank of 2, 3 or 4 is supported)")
        # (sequence, features) and (batch, sequence, features): one head,
        # and a batch of one.
        lead = list(range(4 - rank))
        if lead:
            q, k, v = (self.emit(R.expand_dims(t, lead)) for t in (q, k, v))
            if mask is not None and len(self.tensor(mask, node).shape) == rank:
                mask = self.emit(R.expand_dims(self.tensor(mask, node), lead))
        q, k, v = (self.emit(R.permute_dims(t, [0, 2, 1, 3])) for t in (q, k, v))
        if mask is not None:
            mask = self.tensor(mask, node)
            if mask.struct_info.dtype == "bool":
                raise NotImplementedError(f"{self.name}: '{node.name}' masks with a bool "
                                          "tensor (an additive float mask is supported)")
            out = self.emit(R.nn.attention_bias(q, k, v, mask, scale, causal))
        else:
            out = self.emit(R.nn.attention(q, k, v, None, scale, causal))
        out = self.emit(R.permute_dims(out, [0, 2, 1, 3]))
        return self.emit(R.squeeze(out, lead)) if lead else out

