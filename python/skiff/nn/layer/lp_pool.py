"""LPPool1D, LPPool2D (Paddle's paddle.nn layers over nn.functional.lp_pool1d/lp_pool2d)."""
from .. import functional as F
from .layers import Layer

__all__ = ["LPPool1D", "LPPool2D"]


class _LPPool(Layer):
    def __init__(self, norm_type, kernel_size, stride, padding, ceil_mode, data_format):
        super().__init__()
        self.norm_type, self.kernel_size, self.stride = norm_type, kernel_size, stride
        self.padding, self.ceil_mode, self.data_format = padding, ceil_mode, data_format

    def extra_repr(self):
        return (f"norm_type={self.norm_type}, kernel_size={self.kernel_size}, "
                f"stride={self.stride}, padding={self.padding}")


class LPPool1D(_LPPool):
    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCL", name=None):
        super().__init__(norm_type, kernel_size, stride, padding, ceil_mode, data_format)

    def forward(self, x):
        return F.lp_pool1d(x, self.norm_type, self.kernel_size, self.stride, self.padding,
                           self.ceil_mode, self.data_format)


class LPPool2D(_LPPool):
    def __init__(self, norm_type, kernel_size, stride=None, padding=0, ceil_mode=False,
                 data_format="NCHW", name=None):
        super().__init__(norm_type, kernel_size, stride, padding, ceil_mode, data_format)

    def forward(self, x):
        return F.lp_pool2d(x, self.norm_type, self.kernel_size, self.stride, self.padding,
                           self.ceil_mode, self.data_format)
