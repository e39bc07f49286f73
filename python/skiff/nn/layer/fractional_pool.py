"""FractionalMaxPool2D, FractionalMaxPool3D (Paddle's paddle.nn layers over
nn.functional.fractional_max_pool2d/3d)."""
from .. import functional as F
from .layers import Layer

__all__ = ["FractionalMaxPool2D", "FractionalMaxPool3D"]


class _FractionalMaxPool(Layer):
    _fn = None

    def __init__(self, output_size, kernel_size=None, random_u=None, return_mask=False,
                 name=None):
        super().__init__()
        self._output_size, self._kernel_size = output_size, kernel_size
        self._random_u, self._return_mask = random_u, return_mask

    def forward(self, x):
        return type(self)._fn(x, self._output_size, self._kernel_size, self._random_u,
                              self._return_mask)

    def extra_repr(self):
        return (f"output_size={self._output_size}, kernel_size={self._kernel_size}, "
                f"random_u={self._random_u}, return_mask={self._return_mask}")


class FractionalMaxPool2D(_FractionalMaxPool):
    _fn = staticmethod(F.fractional_max_pool2d)


class FractionalMaxPool3D(_FractionalMaxPool):
    _fn = staticmethod(F.fractional_max_pool3d)
