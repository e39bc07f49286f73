"""Paddle's 1-D pooling (max_pool1d, avg_pool1d, adaptive_avg_pool1d, adaptive_max_pool1d):
pool2d over a unit height, x [N, C, L]."""
from ._common_ops import ops as _ops

__all__ = ["max_pool1d", "avg_pool1d", "adaptive_avg_pool1d", "adaptive_max_pool1d"]


def _one(v, fn, arg):
    if isinstance(v, int):
        return v
    v = list(v)
    if len(v) != 1:
        raise ValueError(f"(InvalidArgument) {fn}: argument '{arg}' expected an int or 1 int, "
                         f"got {v}")
    return int(v[0])


def _check_x(fn, x):
    if len(x.shape) != 3:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'x' expected a 3-D tensor [N, C, L], "
                         f"got shape {list(x.shape)}")


def _pads(padding, fn):
    if isinstance(padding, str):
        algo = padding.upper()
        if algo not in ("SAME", "VALID"):
            raise ValueError(f"(InvalidArgument) {fn}: argument 'padding' expected 'SAME', "
                             f"'VALID', an int or a list, got {padding!r}")
        return [0, 0, 0, 0], algo
    if isinstance(padding, int):
        return [0, 0, padding, padding], "EXPLICIT"
    p = [int(e) for e in padding]
    if len(p) == 1:
        return [0, 0, p[0], p[0]], "EXPLICIT"
    if len(p) == 2:
        return [0, 0, p[0], p[1]], "EXPLICIT"
    raise ValueError(f"(InvalidArgument) {fn}: argument 'padding' expected an int, 1 or 2 ints, "
                     f"got {padding}")


def _pool(fn, x, kernel_size, stride, padding, ceil_mode, exclusive, kind):
    _check_x(fn, x)
    k = _one(kernel_size, fn, "kernel_size")
    s = k if stride is None else _one(stride, fn, "stride")
    pads, algo = _pads(padding, fn)
    out = _ops.pool2d(_ops.unsqueeze(x, [2]), [1, k], [1, s], pads, ceil_mode, exclusive,
                      "NCHW", kind, False, False, algo)
    return _ops.squeeze(out, [2])


def max_pool1d(x, kernel_size, stride=None, padding=0, return_mask=False, ceil_mode=False,
               name=None):
    if return_mask:
        from .pool_mask import max_pool_with_mask
        fn = "max_pool1d"
        _check_x(fn, x)
        k = _one(kernel_size, fn, "kernel_size")
        s = k if stride is None else _one(stride, fn, "stride")
        pads, algo = _pads(padding, fn)
        if algo == "SAME":
            from .conv3d import _same_pads
            pads = [0, 0] + _same_pads(x.shape[2:], [k], [s], [1])
        elif algo == "VALID":
            pads = [0, 0, 0, 0]
        return max_pool_with_mask(fn, x, [k], [s], pads[2:], ceil_mode)
    return _pool("max_pool1d", x, kernel_size, stride, padding, ceil_mode, True, "max")


def avg_pool1d(x, kernel_size, stride=None, padding=0, exclusive=True, ceil_mode=False,
               name=None):
    return _pool("avg_pool1d", x, kernel_size, stride, padding, ceil_mode, exclusive, "avg")


def _adaptive(fn, x, output_size, kind):
    _check_x(fn, x)
    size = _one(output_size, fn, "output_size")
    if size <= 0:
        raise ValueError(f"(InvalidArgument) {fn}: argument 'output_size' expected a positive "
                         f"int, got {size}")
    out = _ops.pool2d(_ops.unsqueeze(x, [2]), [1, size], [1, 1], [0, 0], False, True, "NCHW",
                      kind, False, True, "EXPLICIT")
    return _ops.squeeze(out, [2])


def adaptive_avg_pool1d(x, output_size, name=None):
    return _adaptive("adaptive_avg_pool1d", x, output_size, "avg")


def adaptive_max_pool1d(x, output_size, return_mask=False, name=None):
    if return_mask:
        from .pool_mask import adaptive_max_pool_with_mask
        fn = "adaptive_max_pool1d"
        _check_x(fn, x)
        size = _one(output_size, fn, "output_size")
        if size <= 0:
            raise ValueError(f"(InvalidArgument) {fn}: argument 'output_size' expected a "
                             f"positive int, got {size}")
        return adaptive_max_pool_with_mask(fn, x, [size])
    return _adaptive("adaptive_max_pool1d", x, output_size, "max")
