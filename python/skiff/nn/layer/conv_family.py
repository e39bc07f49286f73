"""Conv1D, Conv1DTranspose, Conv2DTranspose (Paddle's paddle.nn layers over
nn.functional.conv1d / conv1d_transpose / conv2d_transpose)."""
import numpy as np

from .. import functional as F
from ..initializer.initializer import Normal
from .layers import Layer

__all__ = ["Conv1D", "Conv1DTranspose", "Conv2DTranspose"]


def _ints(v, n):
    return [v] * n if isinstance(v, int) else list(v)


class _ConvNd(Layer):
    """weight [out, in/groups, *k] (transposed: [in, out/groups, *k]), Normal(0, sqrt(2/fan_in))
    with Paddle's fan_in (in_channels/groups * prod(k) for both kinds); bias zeros."""

    def __init__(self, name, dims, transposed, in_channels, out_channels, kernel_size, stride,
                 padding, dilation, groups, padding_mode, weight_attr, bias_attr, data_format,
                 output_padding=0):
        super().__init__()
        if groups <= 0 or in_channels % groups != 0 or out_channels % groups != 0:
            raise ValueError(f"{name}: in_channels {in_channels} and out_channels "
                             f"{out_channels} must be divisible by groups {groups}")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError(f"{name}: padding_mode must be one of 'zeros', 'reflect', "
                             f"'replicate', 'circular', got {padding_mode!r}")
        self._in_channels, self._out_channels = in_channels, out_channels
        self._kernel_size = _ints(kernel_size, dims)
        self._stride, self._padding, self._dilation = stride, padding, dilation
        self._groups, self._padding_mode, self._data_format = groups, padding_mode, data_format
        self._output_padding = output_padding
        if transposed:
            shape = [in_channels, out_channels // groups] + self._kernel_size
        else:
            shape = [out_channels, in_channels // groups] + self._kernel_size
        fan_in = in_channels // groups * int(np.prod(self._kernel_size))
        from ... import get_default_dtype
        self.weight = self.create_parameter(shape=shape, attr=weight_attr,
                                            dtype=get_default_dtype(),
                                            default_initializer=Normal(0.0, (2.0 / fan_in) ** 0.5))
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels],
                                          dtype=get_default_dtype(), is_bias=True)

    def extra_repr(self):
        return (f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}, "
                f"stride={self._stride}, padding={self._padding}, data_format={self._data_format}")


class Conv1D(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        super().__init__("Conv1D", 1, False, in_channels, out_channels, kernel_size, stride,
                         padding, dilation, groups, padding_mode, weight_attr, bias_attr,
                         data_format)

    def forward(self, x):
        padding = self._padding
        if self._padding_mode != "zeros":
            p = _ints(padding, 1) if not isinstance(padding, str) else [0]
            p = p * 2 if len(p) == 1 else p
            x = F.pad(x, p, mode=self._padding_mode, data_format=self._data_format)
            padding = 0
        return F.conv1d(x, self.weight, self.bias, self._stride, padding, self._dilation,
                        self._groups, self._data_format)


class Conv1DTranspose(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, groups=1, dilation=1, weight_attr=None, bias_attr=None,
                 data_format="NCL"):
        super().__init__("Conv1DTranspose", 1, True, in_channels, out_channels, kernel_size,
                         stride, padding, dilation, groups, "zeros", weight_attr, bias_attr,
                         data_format, output_padding)

    def forward(self, x, output_size=None):
        return F.conv1d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self._output_padding, self._groups, self._dilation,
                                  output_size, self._data_format)


class Conv2DTranspose(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        super().__init__("Conv2DTranspose", 2, True, in_channels, out_channels, kernel_size,
                         stride, padding, dilation, groups, "zeros", weight_attr, bias_attr,
                         data_format, output_padding)

    def forward(self, x, output_size=None):
        return F.conv2d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self._output_padding, self._groups, self._dilation,
                                  self._data_format, output_size)
