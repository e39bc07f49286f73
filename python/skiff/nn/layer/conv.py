"""Conv2D (Paddle's paddle.nn.Conv2D)."""
import numpy as np

from .. import functional as F
from ..initializer.initializer import Normal
from .layers import Layer

__all__ = ["Conv2D"]


def _pair(v):
    return [v, v] if isinstance(v, int) else list(v)


class Conv2D(Layer):
    """weight [out_channels, in_channels/groups, kh, kw] initialized Normal(0, sqrt(2/fan_in))
    as Paddle does; bias zeros."""

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCHW"):
        super().__init__()
        if groups <= 0 or in_channels % groups != 0 or out_channels % groups != 0:
            raise ValueError(f"Conv2D: in_channels {in_channels} and out_channels {out_channels} "
                             f"must be divisible by groups {groups}")
        if padding_mode not in ("zeros", "reflect", "replicate", "circular"):
            raise ValueError("Conv2D: padding_mode must be one of 'zeros', 'reflect', "
                             f"'replicate', 'circular', got {padding_mode!r}")
        self._in_channels = in_channels
        self._out_channels = out_channels
        self._kernel_size = _pair(kernel_size)
        self._stride = stride
        self._padding = padding
        self._dilation = dilation
        self._groups = groups
        self._padding_mode = padding_mode
        self._data_format = data_format
        shape = [out_channels, in_channels // groups] + self._kernel_size
        fan_in = int(np.prod(shape[1:]))
        from ... import get_default_dtype
        self.weight = self.create_parameter(shape=shape, attr=weight_attr,
                                            dtype=get_default_dtype(),
                                            default_initializer=Normal(0.0, (2.0 / fan_in) ** 0.5))
        self.bias = self.create_parameter(attr=bias_attr, shape=[out_channels],
                                          dtype=get_default_dtype(), is_bias=True)

    def forward(self, x):
        padding = self._padding
        if self._padding_mode != "zeros":
            p = _pair(padding) if not isinstance(padding, str) else [0, 0]
            if len(p) == 2:
                p = [p[1], p[1], p[0], p[0]]
            x = F.pad(x, p, mode=self._padding_mode, data_format=self._data_format)
            padding = 0
        return F.conv2d(x, self.weight, self.bias, self._stride, padding, self._dilation,
                        self._groups, self._data_format)

    def extra_repr(self):
        return (f"{self._in_channels}, {self._out_channels}, kernel_size={self._kernel_size}, "
                f"stride={self._stride}, padding={self._padding}, data_format={self._data_format}")
