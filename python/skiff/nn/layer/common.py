"""Common layers: Linear, Embedding, Dropout, Flatten, Identity, Pad2D, ... (Paddle's)."""
import numpy as np

from .. import functional as F
from ..functional._common_ops import ops as _ops
from .layers import Layer

__all__ = ["Linear", "Embedding", "Dropout", "Dropout2D", "Dropout3D", "AlphaDropout", "Flatten",
           "Unflatten", "Identity", "Pad1D", "Pad2D", "Pad3D", "ZeroPad2D", "CosineSimilarity",
           "Bilinear", "FeatureAlphaDropout", "ZeroPad1D", "ZeroPad3D"]


class Linear(Layer):
    """y = x @ weight + bias; weight [in_features, out_features] (Xavier uniform), bias zeros."""

    def __init__(self, in_features, out_features, weight_attr=None, bias_attr=None, name=None):
        super().__init__()
        self._dtype = _default_dtype()
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        self.in_features = in_features
        self.out_features = out_features
        self.weight = self.create_parameter(shape=[in_features, out_features], attr=weight_attr,
                                            dtype=self._dtype, is_bias=False)
        self.bias = self.create_parameter(shape=[out_features], attr=bias_attr, dtype=self._dtype,
                                          is_bias=True)
        self.name = name

    def forward(self, input):
        return _ops.linear(input, self.weight, self.bias)

    def extra_repr(self):
        name = f", name={self.name}" if self.name else ""
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"dtype={self._dtype}{name}")


class Embedding(Layer):
    """Lookup table [num_embeddings, embedding_dim] (Xavier uniform; the padding_idx row starts
    at zero and gets no gradient)."""

    def __init__(self, num_embeddings, embedding_dim, padding_idx=None, sparse=False,
                 weight_attr=None, name=None):
        super().__init__()
        if num_embeddings <= 0 or embedding_dim <= 0:
            raise ValueError("Embedding: num_embeddings and embedding_dim must be positive, got "
                             f"{num_embeddings} and {embedding_dim}")
        self._num_embeddings = num_embeddings
        self._embedding_dim = embedding_dim
        self._sparse = sparse
        if padding_idx is None:
            self._padding_idx = None
        else:
            if padding_idx >= num_embeddings or padding_idx < -num_embeddings:
                raise ValueError(f"Embedding: padding_idx must be within [-{num_embeddings}, "
                                 f"{num_embeddings}), got {padding_idx}")
            self._padding_idx = padding_idx + num_embeddings if padding_idx < 0 else padding_idx
        self._dtype = _default_dtype()
        self._size = [num_embeddings, embedding_dim]
        self._weight_attr = weight_attr
        self.weight = self.create_parameter(attr=weight_attr, shape=self._size, dtype=self._dtype,
                                            is_bias=False)
        if self._padding_idx is not None:
            from .._assign import assign_into
            arr = self.weight.numpy()
            arr[self._padding_idx] = 0
            assign_into(self.weight, arr)
        self._name = name

    def forward(self, x):
        return F.embedding(x, self.weight, padding_idx=self._padding_idx, sparse=self._sparse)

    def extra_repr(self):
        s = f"{self._num_embeddings}, {self._embedding_dim}"
        if self._padding_idx is not None:
            s += f", padding_idx={self._padding_idx}"
        if self._sparse:
            s += ", sparse=True"
        return s


class Dropout(Layer):
    def __init__(self, p=0.5, axis=None, mode="upscale_in_train", name=None):
        super().__init__()
        if not isinstance(p, (float, int)) or p < 0 or p > 1:
            raise ValueError(f"Dropout: p must be a float in [0, 1], got {p!r}")
        if mode not in ("upscale_in_train", "downscale_in_infer", "downgrade_in_infer"):
            raise ValueError("Dropout: mode must be 'upscale_in_train' or 'downscale_in_infer', "
                             f"got {mode!r}")
        self.p = p
        self.axis = axis
        self.mode = mode
        self.name = name

    def forward(self, input):
        return F.dropout(input, p=self.p, axis=self.axis, training=self.training, mode=self.mode)

    def extra_repr(self):
        return f"p={self.p}, axis={self.axis}, mode={self.mode}"


class Dropout2D(Layer):
    def __init__(self, p=0.5, data_format="NCHW", name=None):
        super().__init__()
        self.p = p
        self.data_format = data_format

    def forward(self, input):
        return F.dropout2d(input, p=self.p, training=self.training, data_format=self.data_format)

    def extra_repr(self):
        return f"p={self.p}, data_format={self.data_format}"


class Dropout3D(Layer):
    def __init__(self, p=0.5, data_format="NCDHW", name=None):
        super().__init__()
        self.p = p
        self.data_format = data_format

    def forward(self, input):
        return F.dropout3d(input, p=self.p, training=self.training, data_format=self.data_format)


class AlphaDropout(Layer):
    def __init__(self, p=0.5, name=None):
        super().__init__()
        self.p = p

    def forward(self, input):
        return F.alpha_dropout(input, p=self.p, training=self.training)


class FeatureAlphaDropout(Layer):
    def __init__(self, p=0.5, name=None):
        super().__init__()
        self.p = p

    def forward(self, input):
        return F.feature_alpha_dropout(input, p=self.p, training=self.training)


class Flatten(Layer):
    def __init__(self, start_axis=1, stop_axis=-1):
        super().__init__()
        self.start_axis = start_axis
        self.stop_axis = stop_axis

    def forward(self, input):
        return _ops.flatten(input, self.start_axis, self.stop_axis)

    def extra_repr(self):
        return f"start_axis={self.start_axis}, stop_axis={self.stop_axis}"


class Unflatten(Layer):
    def __init__(self, axis, shape, name=None):
        super().__init__()
        self.axis = axis
        self.shape = list(shape)

    def forward(self, input):
        rank = len(input.shape)
        ax = self.axis % rank
        new = list(input.shape[:ax]) + self.shape + list(input.shape[ax + 1:])
        return _ops.reshape(input, new)


class Identity(Layer):
    def __init__(self, *args, **kwargs):
        super().__init__()

    def forward(self, input):
        return input


class _PadNd(Layer):
    _rank = 2

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCHW", name=None):
        super().__init__()
        if isinstance(padding, int):
            padding = [padding] * (2 * self._rank)
        self._pad = list(padding)
        self._mode = mode
        self._value = value
        self._data_format = data_format

    def forward(self, x):
        return F.pad(x, self._pad, mode=self._mode, value=self._value,
                     data_format=self._data_format)

    def extra_repr(self):
        return f"padding={self._pad}, mode={self._mode}, value={self._value}, " \
               f"data_format={self._data_format}"


class Pad1D(_PadNd):
    _rank = 1

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCL", name=None):
        super().__init__(padding, mode, value, data_format, name)


class Pad2D(_PadNd):
    _rank = 2


class Pad3D(_PadNd):
    _rank = 3

    def __init__(self, padding, mode="constant", value=0.0, data_format="NCDHW", name=None):
        super().__init__(padding, mode, value, data_format, name)


class ZeroPad2D(_PadNd):
    _rank = 2

    def __init__(self, padding, data_format="NCHW", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class ZeroPad1D(_PadNd):
    _rank = 1

    def __init__(self, padding, data_format="NCL", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class ZeroPad3D(_PadNd):
    _rank = 3

    def __init__(self, padding, data_format="NCDHW", name=None):
        super().__init__(padding, "constant", 0.0, data_format, name)


class CosineSimilarity(Layer):
    def __init__(self, axis=1, eps=1e-8):
        super().__init__()
        self._axis = axis
        self._eps = eps

    def forward(self, x1, x2):
        return F.cosine_similarity(x1, x2, axis=self._axis, eps=self._eps)


class Bilinear(Layer):
    def __init__(self, in1_features, in2_features, out_features, weight_attr=None,
                 bias_attr=None, name=None):
        super().__init__()
        self._dtype = _default_dtype()
        self.weight = self.create_parameter([out_features, in1_features, in2_features],
                                            weight_attr, self._dtype, False)
        self.bias = self.create_parameter([1, out_features], bias_attr, self._dtype, True)

    def forward(self, x1, x2):
        return F.bilinear(x1, x2, self.weight, self.bias)


def _default_dtype():
    from ... import get_default_dtype
    return get_default_dtype()
