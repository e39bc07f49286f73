"""Upsample, UpsamplingNearest2D, UpsamplingBilinear2D, PixelShuffle, PixelUnshuffle, Unfold,
Fold, ChannelShuffle (Paddle's paddle.nn layers over nn.functional.vision)."""
from .. import functional as F
from .layers import Layer

__all__ = ["Upsample", "UpsamplingNearest2D", "UpsamplingBilinear2D", "PixelShuffle",
           "PixelUnshuffle", "Unfold", "Fold", "ChannelShuffle"]


class Upsample(Layer):
    def __init__(self, size=None, scale_factor=None, mode="nearest", align_corners=False,
                 align_mode=0, data_format=None, name=None):
        super().__init__()
        self.size, self.scale_factor, self.mode = size, scale_factor, mode.lower()
        self.align_corners, self.align_mode, self.data_format = (align_corners, align_mode,
                                                                 data_format)

    def forward(self, x):
        return F.interpolate(x, self.size, self.scale_factor, self.mode, self.align_corners,
                             self.align_mode, self.data_format)

    def extra_repr(self):
        what = f"scale_factor={self.scale_factor}" if self.size is None else f"size={self.size}"
        return f"{what}, mode={self.mode}, align_corners={self.align_corners}"


class UpsamplingNearest2D(Upsample):
    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__(size, scale_factor, "nearest", False, 0, data_format)


class UpsamplingBilinear2D(Upsample):
    """Bilinear with align_corners=True, as Paddle's."""

    def __init__(self, size=None, scale_factor=None, data_format="NCHW", name=None):
        super().__init__(size, scale_factor, "bilinear", True, 0, data_format)


class PixelShuffle(Layer):
    def __init__(self, upscale_factor, data_format="NCHW", name=None):
        super().__init__()
        if not isinstance(upscale_factor, int) or upscale_factor <= 0:
            raise ValueError(f"PixelShuffle: upscale_factor expected a positive int, got "
                             f"{upscale_factor}")
        self._factor, self._data_format = upscale_factor, data_format

    def forward(self, x):
        return F.pixel_shuffle(x, self._factor, self._data_format)

    def extra_repr(self):
        return f"upscale_factor={self._factor}"


class PixelUnshuffle(Layer):
    def __init__(self, downscale_factor, data_format="NCHW", name=None):
        super().__init__()
        if not isinstance(downscale_factor, int) or downscale_factor <= 0:
            raise ValueError(f"PixelUnshuffle: downscale_factor expected a positive int, got "
                             f"{downscale_factor}")
        self._factor, self._data_format = downscale_factor, data_format

    def forward(self, x):
        return F.pixel_unshuffle(x, self._factor, self._data_format)

    def extra_repr(self):
        return f"downscale_factor={self._factor}"


class Unfold(Layer):
    def __init__(self, kernel_sizes, dilations=1, paddings=0, strides=1, name=None):
        super().__init__()
        self.kernel_sizes, self.dilations = kernel_sizes, dilations
        self.paddings, self.strides = paddings, strides

    def forward(self, x):
        return F.unfold(x, self.kernel_sizes, self.strides, self.paddings, self.dilations)


class Fold(Layer):
    def __init__(self, output_sizes, kernel_sizes, dilations=1, paddings=0, strides=1,
                 name=None):
        super().__init__()
        self.output_sizes, self.kernel_sizes = output_sizes, kernel_sizes
        self.dilations, self.paddings, self.strides = dilations, paddings, strides

    def forward(self, x):
        return F.fold(x, self.output_sizes, self.kernel_sizes, self.strides, self.paddings,
                      self.dilations)


class ChannelShuffle(Layer):
    def __init__(self, groups, data_format="NCHW", name=None):
        super().__init__()
        self._groups, self._data_format = groups, data_format

    def forward(self, x):
        return F.channel_shuffle(x, self._groups, self._data_format)

    def extra_repr(self):
        return f"groups={self._groups}, data_format={self._data_format}"
