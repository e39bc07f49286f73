"""Conv3D, Conv3DTranspose (Paddle's paddle.nn layers over nn.functional.conv3d /
conv3d_transpose); weights and initialisation as the other conv layers (conv_family._ConvNd)."""
from .. import functional as F
from .conv_family import _ConvNd, _ints

__all__ = ["Conv3D", "Conv3DTranspose"]


class Conv3D(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1,
                 groups=1, padding_mode="zeros", weight_attr=None, bias_attr=None,
                 data_format="NCDHW"):
        super().__init__("Conv3D", 3, False, in_channels, out_channels, kernel_size, stride,
                         padding, dilation, groups, padding_mode, weight_attr, bias_attr,
                         data_format)

    def forward(self, x):
        padding = self._padding
        if self._padding_mode != "zeros":
            if isinstance(padding, str) or len(_ints(padding, 3)) != 3:
                raise ValueError("(InvalidArgument) Conv3D: padding_mode other than 'zeros' "
                                 f"expected an int or 3 ints as padding, got {padding!r}")
            pd, ph, pw = _ints(padding, 3)
            x = F.pad(x, [pw, pw, ph, ph, pd, pd], mode=self._padding_mode,
                      data_format=self._data_format)
            padding = 0
        return F.conv3d(x, self.weight, self.bias, self._stride, padding, self._dilation,
                        self._groups, self._data_format)


class Conv3DTranspose(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0,
                 output_padding=0, dilation=1, groups=1, weight_attr=None, bias_attr=None,
                 data_format="NCDHW"):
        super().__init__("Conv3DTranspose", 3, True, in_channels, out_channels, kernel_size,
                         stride, padding, dilation, groups, "zeros", weight_attr, bias_attr,
                         data_format, output_padding)

    def forward(self, x, output_size=None):
        return F.conv3d_transpose(x, self.weight, self.bias, self._stride, self._padding,
                                  self._output_padding, self._groups, self._dilation,
                                  output_size, self._data_format)
