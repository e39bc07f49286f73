"""Paddle's affine_grid: the sampling grid of a batch of affine maps, for grid_sample.

The base grid holds normalised coordinates in [-1, 1] (align_corners=True: the centres of the
corner pixels; False: their outer edges, so the coordinates shrink by (n - 1) / n), ordered
(x, y[, z]) with x along the last spatial axis; each point [x, y, 1] is multiplied by theta^T.
"""
import numpy as np

from ._common_ops import ops as _ops

__all__ = ["affine_grid"]


def _axis(n, align_corners):
    v = np.linspace(-1.0, 1.0, n) if n > 1 else np.zeros([max(n, 0)])
    return v if align_corners else v * (n - 1) / n


def affine_grid(theta, out_shape, align_corners=True, name=None):
    """theta [N, 2, 3] with out_shape [N, C, H, W] gives [N, H, W, 2]; theta [N, 3, 4] with
    out_shape [N, C, D, H, W] gives [N, D, H, W, 3]."""
    from ... import Tensor
    from ...tensor.creation import to_tensor
    fn = "affine_grid"
    if isinstance(out_shape, Tensor):
        out_shape = out_shape.numpy().reshape([-1]).tolist()
    if not isinstance(out_shape, (list, tuple)):
        raise TypeError(f"(InvalidArgument) {fn}: argument 'out_shape' expected a list, tuple or "
                        f"Tensor, got {type(out_shape).__name__}")
    out_shape = [int(v) for v in out_shape]
    if len(out_shape) not in (4, 5):
        raise ValueError(f"(InvalidArgument) {fn}: argument 'out_shape' expected 4 or 5 values, "
                         f"got {out_shape}")
    dims = len(out_shape) - 2
    want = [out_shape[0], dims, dims + 1]
    if list(theta.shape) != want:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'theta' expected shape {want} for "
                         f"out_shape {out_shape}, got {list(theta.shape)}")
    if theta.dtype not in ("float32", "float64"):
        raise TypeError(f"(InvalidArgument) {fn}: argument 'theta' expected dtype float32 or "
                        f"float64, got {theta.dtype}")
    spatial = out_shape[2:]
    axes = [_axis(n, align_corners) for n in spatial]
    mesh = np.meshgrid(*axes, indexing="ij")  # D, H, W order
    coords = [m.reshape([-1]) for m in reversed(mesh)]  # x (W) first
    base = np.stack(coords + [np.ones_like(coords[0])], axis=1)  # [prod(spatial), dims + 1]
    base_t = _ops.cast(to_tensor(np.ascontiguousarray(base)), theta.dtype)
    grid = _ops.matmul(base_t, theta, False, True)  # broadcast over N: [N, P, dims]
    return _ops.reshape(grid, [out_shape[0]] + spatial + [dims])
