"""Activation layers (Paddle's paddle.nn activations); each calls its nn.functional."""
from .. import functional as F
from ..initializer.initializer import Constant
from .layers import Layer


def _name_suffix(name, first=False):
    if not name:
        return ""
    return ("name=" if first else ", name=") + name


__all__ = ["ReLU", "ReLU6", "LeakyReLU", "ELU", "SELU", "CELU", "GELU", "SiLU", "Swish", "Sigmoid",
           "LogSigmoid", "Tanh", "Softplus", "Softsign", "Hardswish", "Hardsigmoid", "Hardtanh",
           "Hardshrink", "Softshrink", "ThresholdedReLU", "Mish", "Tanhshrink", "Softmax",
           "LogSoftmax", "GLU", "Maxout", "PReLU", "Silu", "RReLU", "Softmax2D"]


class ReLU(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.relu(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class ReLU6(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.relu6(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class LeakyReLU(Layer):
    def __init__(self, negative_slope=0.01, name=None):
        super().__init__()
        self._negative_slope = negative_slope
        self._name = name

    def forward(self, x):
        return F.leaky_relu(x, negative_slope=self._negative_slope)

    def extra_repr(self):
        return f"negative_slope={self._negative_slope}" + _name_suffix(self._name)


class ELU(Layer):
    def __init__(self, alpha=1.0, name=None):
        super().__init__()
        self._alpha = alpha
        self._name = name

    def forward(self, x):
        return F.elu(x, alpha=self._alpha)

    def extra_repr(self):
        return f"alpha={self._alpha}" + _name_suffix(self._name)


class SELU(Layer):
    def __init__(self, scale=1.0507009873554805,
                 alpha=1.6732632423543772, name=None):
        super().__init__()
        self._scale = scale
        self._alpha = alpha
        self._name = name

    def forward(self, x):
        return F.selu(x, scale=self._scale, alpha=self._alpha)

    def extra_repr(self):
        return f"scale={self._scale}, alpha={self._alpha}" + _name_suffix(self._name)


class CELU(Layer):
    def __init__(self, alpha=1.0, name=None):
        super().__init__()
        self._alpha = alpha
        self._name = name

    def forward(self, x):
        return F.celu(x, alpha=self._alpha)

    def extra_repr(self):
        return f"alpha={self._alpha}" + _name_suffix(self._name)


class GELU(Layer):
    def __init__(self, approximate=False, name=None):
        super().__init__()
        self._approximate = approximate
        self._name = name

    def forward(self, x):
        return F.gelu(x, approximate=self._approximate)

    def extra_repr(self):
        return f"approximate={self._approximate}" + _name_suffix(self._name)


class SiLU(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.silu(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class Silu(SiLU):
    """Paddle's older spelling of SiLU."""


class RReLU(Layer):
    """Randomized leaky ReLU: random negative slopes in training, their mean in eval."""

    def __init__(self, lower=1.0 / 8.0, upper=1.0 / 3.0, name=None):
        super().__init__()
        self._lower, self._upper, self._name = lower, upper, name

    def forward(self, x):
        return F.rrelu(x, self._lower, self._upper, training=self.training)

    def extra_repr(self):
        return f"lower={self._lower}, upper={self._upper}" + _name_suffix(self._name)


class Softmax2D(Layer):
    """Softmax over the channels (axis -3) of a [N, C, H, W] or [C, H, W] input."""

    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        if len(x.shape) not in (3, 4):
            raise ValueError(f"(InvalidArgument) Softmax2D: argument 'x' expected a 3-D or 4-D "
                             f"tensor, got shape {list(x.shape)}")
        return F.softmax(x, axis=-3)


class Swish(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.swish(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class Sigmoid(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.sigmoid(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class LogSigmoid(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.log_sigmoid(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class Tanh(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.tanh(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class Softplus(Layer):
    def __init__(self, beta=1, threshold=20, name=None):
        super().__init__()
        self._beta = beta
        self._threshold = threshold
        self._name = name

    def forward(self, x):
        return F.softplus(x, beta=self._beta, threshold=self._threshold)

    def extra_repr(self):
        return f"beta={self._beta}, threshold={self._threshold}" + _name_suffix(self._name)


class Softsign(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.softsign(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class Hardswish(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.hardswish(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class Hardsigmoid(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.hardsigmoid(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class Hardtanh(Layer):
    def __init__(self, min=-1.0, max=1.0, name=None):
        super().__init__()
        self._min = min
        self._max = max
        self._name = name

    def forward(self, x):
        return F.hardtanh(x, min=self._min, max=self._max)

    def extra_repr(self):
        return f"min={self._min}, max={self._max}" + _name_suffix(self._name)


class Hardshrink(Layer):
    def __init__(self, threshold=0.5, name=None):
        super().__init__()
        self._threshold = threshold
        self._name = name

    def forward(self, x):
        return F.hardshrink(x, threshold=self._threshold)

    def extra_repr(self):
        return f"threshold={self._threshold}" + _name_suffix(self._name)


class Softshrink(Layer):
    def __init__(self, threshold=0.5, name=None):
        super().__init__()
        self._threshold = threshold
        self._name = name

    def forward(self, x):
        return F.softshrink(x, threshold=self._threshold)

    def extra_repr(self):
        return f"threshold={self._threshold}" + _name_suffix(self._name)


class ThresholdedReLU(Layer):
    def __init__(self, threshold=1.0, name=None):
        super().__init__()
        self._threshold = threshold
        self._name = name

    def forward(self, x):
        return F.thresholded_relu(x, threshold=self._threshold)

    def extra_repr(self):
        return f"threshold={self._threshold}" + _name_suffix(self._name)


class Mish(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.mish(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class Tanhshrink(Layer):
    def __init__(self, name=None):
        super().__init__()
        self._name = name

    def forward(self, x):
        return F.tanhshrink(x)

    def extra_repr(self):
        return _name_suffix(self._name, first=True)


class Softmax(Layer):
    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.softmax(x, axis=self._axis)

    def extra_repr(self):
        return f"axis={self._axis}" + _name_suffix(self._name)


class LogSoftmax(Layer):
    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.log_softmax(x, axis=self._axis)

    def extra_repr(self):
        return f"axis={self._axis}" + _name_suffix(self._name)


class GLU(Layer):
    def __init__(self, axis=-1, name=None):
        super().__init__()
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.glu(x, axis=self._axis)

    def extra_repr(self):
        return f"axis={self._axis}" + _name_suffix(self._name)


class Maxout(Layer):
    def __init__(self, groups, axis=1, name=None):
        super().__init__()
        self._groups = groups
        self._axis = axis
        self._name = name

    def forward(self, x):
        return F.maxout(x, groups=self._groups, axis=self._axis)

    def extra_repr(self):
        return f"groups={self._groups}, axis={self._axis}" + _name_suffix(self._name)


class PReLU(Layer):
    """Learned negative slope: num_parameters 1 (shared) or the channel count."""

    def __init__(self, num_parameters=1, init=0.25, weight_attr=None, data_format="NCHW",
                 name=None):
        super().__init__()
        from ... import get_default_dtype
        self._num_parameters = num_parameters
        self._init = init
        self._data_format = data_format
        self._weight = self.create_parameter(attr=weight_attr, shape=[num_parameters],
                                             dtype=get_default_dtype(), is_bias=False,
                                             default_initializer=Constant(init))

    def forward(self, x):
        return F.prelu(x, self._weight, data_format=self._data_format)

    def extra_repr(self):
        return f"num_parameters={self._num_parameters}, data_format={self._data_format}, " \
               f"init={self._init}"
