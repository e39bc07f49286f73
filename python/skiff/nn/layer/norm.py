"""Normalization layers (Paddle's LayerNorm, BatchNorm*, GroupNorm, InstanceNorm*; RMSNorm)."""
import numbers

import numpy as np

from .. import functional as F
from ..initializer.initializer import Constant
from ..param_attr import ParamAttr
from .layers import Layer

__all__ = ["LayerNorm", "RMSNorm", "BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D",
           "GroupNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D",
           "LocalResponseNorm"]


def _default_dtype():
    from ... import get_default_dtype
    return get_default_dtype()


class LayerNorm(Layer):
    """Normalizes over the trailing `normalized_shape` dims; weight ones, bias zeros, both of
    shape [prod(normalized_shape)] (Paddle's layout)."""

    def __init__(self, normalized_shape, epsilon=1e-05, weight_attr=None, bias_attr=None,
                 name=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon = epsilon
        self._weight_attr = weight_attr
        self._bias_attr = bias_attr
        param_shape = [int(np.prod(self._normalized_shape))]
        self.weight = self.create_parameter(attr=weight_attr, shape=param_shape,
                                            dtype=_default_dtype(),
                                            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(attr=bias_attr, shape=param_shape,
                                          dtype=_default_dtype(), is_bias=True)

    def forward(self, input):
        return F.layer_norm(input, self._normalized_shape, self.weight, self.bias, self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class RMSNorm(Layer):
    """x / sqrt(mean(x^2) + epsilon) * weight over the trailing `normalized_shape` dims
    (weight ones); one fused kernel forward and backward."""

    def __init__(self, normalized_shape, epsilon=1e-06, weight_attr=None, name=None):
        super().__init__()
        if isinstance(normalized_shape, numbers.Integral):
            normalized_shape = [normalized_shape]
        self._normalized_shape = list(normalized_shape)
        self._epsilon = epsilon
        self.weight = self.create_parameter(attr=weight_attr,
                                            shape=[int(np.prod(self._normalized_shape))],
                                            dtype=_default_dtype(),
                                            default_initializer=Constant(1.0))

    def forward(self, x):
        return F.rms_norm(x, self._normalized_shape, self.weight, self._epsilon)

    def extra_repr(self):
        return f"normalized_shape={self._normalized_shape}, epsilon={self._epsilon}"


class _BatchNormBase(Layer):
    """weight (ones) and bias (zeros) are trained; _mean (zeros) and _variance (ones) are
    non-trainable parameters updated in training: running = momentum * running +
    (1 - momentum) * batch."""

    _expected_ranks = None

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", use_global_stats=None, name=None):
        super().__init__()
        self._num_features = num_features
        self._momentum = momentum
        self._epsilon = epsilon
        self._data_format = data_format
        self._use_global_stats = use_global_stats
        dtype = _default_dtype()
        self.weight = self.create_parameter(attr=weight_attr, shape=[num_features], dtype=dtype,
                                            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(attr=bias_attr, shape=[num_features], dtype=dtype,
                                          is_bias=True)
        if self.weight is not None and weight_attr is False:
            self.weight.stop_gradient = True
        self._mean = self.create_parameter(
            attr=ParamAttr(initializer=Constant(0.0), trainable=False, do_model_average=True),
            shape=[num_features], dtype=dtype)
        self._variance = self.create_parameter(
            attr=ParamAttr(initializer=Constant(1.0), trainable=False, do_model_average=True),
            shape=[num_features], dtype=dtype)

    def _check_input(self, x):
        if self._expected_ranks and len(x.shape) not in self._expected_ranks:
            raise ValueError(f"{type(self).__name__}: expected input of rank "
                             f"{' or '.join(map(str, self._expected_ranks))}, got shape "
                             f"{list(x.shape)}")

    def forward(self, input):
        self._check_input(input)
        fmt = self._data_format
        if len(input.shape) == 2:
            fmt = "NC"
        elif len(input.shape) == 3:
            fmt = "NCL" if fmt in ("NCHW", "NCL", "NCDHW", "NC") else "NLC"
        return F.batch_norm(input, self._mean, self._variance, weight=self.weight,
                            bias=self.bias, training=self.training, momentum=self._momentum,
                            epsilon=self._epsilon, data_format=fmt,
                            use_global_stats=self._use_global_stats)

    def extra_repr(self):
        return (f"num_features={self._num_features}, momentum={self._momentum}, "
                f"epsilon={self._epsilon}, data_format={self._data_format}")


class BatchNorm1D(_BatchNormBase):
    _expected_ranks = (2, 3)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCL", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm2D(_BatchNormBase):
    _expected_ranks = (4,)


class BatchNorm3D(_BatchNormBase):
    _expected_ranks = (5,)

    def __init__(self, num_features, momentum=0.9, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", use_global_stats=None, name=None):
        super().__init__(num_features, momentum, epsilon, weight_attr, bias_attr, data_format,
                         use_global_stats, name)


class BatchNorm(_BatchNormBase):
    """Paddle's older BatchNorm(num_channels, act=None, is_test=False, momentum=0.9, ...)."""

    def __init__(self, num_channels, act=None, is_test=False, momentum=0.9, epsilon=1e-05,
                 param_attr=None, bias_attr=None, dtype="float32", data_layout="NCHW",
                 in_place=False, moving_mean_name=None, moving_variance_name=None,
                 do_model_average_for_mean_and_var=True, use_global_stats=False,
                 trainable_statistics=False):
        super().__init__(num_channels, momentum, epsilon, param_attr, bias_attr, data_layout,
                         use_global_stats or None)
        self._act = act
        self._is_test = is_test

    def forward(self, input):
        y = super().forward(input)
        if self._act is not None:
            y = getattr(F, self._act)(y)
        return y


class GroupNorm(Layer):
    def __init__(self, num_groups, num_channels, epsilon=1e-05, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        if num_channels % num_groups != 0:
            raise ValueError(f"GroupNorm: num_channels {num_channels} is not divisible by "
                             f"num_groups {num_groups}")
        self._num_groups = num_groups
        self._num_channels = num_channels
        self._epsilon = epsilon
        self._data_format = data_format
        self.weight = self.create_parameter(attr=weight_attr, shape=[num_channels],
                                            dtype=_default_dtype(),
                                            default_initializer=Constant(1.0))
        self.bias = self.create_parameter(attr=bias_attr, shape=[num_channels],
                                          dtype=_default_dtype(), is_bias=True)

    def forward(self, input):
        return F.group_norm(input, self._num_groups, self._epsilon, self.weight, self.bias,
                            self._data_format)

    def extra_repr(self):
        return f"num_groups={self._num_groups}, num_channels={self._num_channels}, " \
               f"epsilon={self._epsilon}"


class _InstanceNormBase(Layer):
    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCHW", name=None):
        super().__init__()
        self._epsilon = epsilon
        self._data_format = data_format
        if weight_attr is False or bias_attr is False:
            self.scale = None
            self.bias = None
        else:
            self.scale = self.create_parameter(attr=weight_attr, shape=[num_features],
                                               dtype=_default_dtype(),
                                               default_initializer=Constant(1.0))
            self.bias = self.create_parameter(attr=bias_attr, shape=[num_features],
                                              dtype=_default_dtype(), is_bias=True)

    def forward(self, input):
        return F.instance_norm(input, weight=self.scale, bias=self.bias, eps=self._epsilon,
                               data_format=self._data_format)


class InstanceNorm1D(_InstanceNormBase):
    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCL", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class InstanceNorm2D(_InstanceNormBase):
    pass


class InstanceNorm3D(_InstanceNormBase):
    def __init__(self, num_features, epsilon=1e-05, momentum=0.9, weight_attr=None,
                 bias_attr=None, data_format="NCDHW", name=None):
        super().__init__(num_features, epsilon, momentum, weight_attr, bias_attr, data_format)


class LocalResponseNorm(Layer):
    def __init__(self, size, alpha=0.0001, beta=0.75, k=1.0, data_format="NCHW", name=None):
        super().__init__()
        self.size, self.alpha, self.beta, self.k = size, alpha, beta, k
        self.data_format = data_format

    def forward(self, input):
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k,
                                     self.data_format)
