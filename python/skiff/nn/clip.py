"""Gradient clipping (Paddle's paddle.nn.ClipGradByGlobalNorm / ByNorm / ByValue).

An optimizer built with grad_clip=... calls clip(params_grads) before its update; the clip
returns new (param, grad) pairs. Parameters with need_clip=False are left alone."""
from .functional._common_ops import ops as _ops

__all__ = ["ClipGradByGlobalNorm", "ClipGradByNorm", "ClipGradByValue", "clip_grad_norm_",
           "clip_grad_value_"]


class ClipGradBase:
    def __call__(self, params_grads):
        from .. import no_grad
        with no_grad():
            return self._clip(params_grads)

    def _clip(self, params_grads):
        raise NotImplementedError


def _need_clip(p):
    return getattr(p, "need_clip", True)


class ClipGradByValue(ClipGradBase):
    """Clips every gradient element into [min, max] (min defaults to -max)."""

    def __init__(self, max, min=None):  # noqa: A002 - Paddle's argument names
        if min is None:
            if max <= 0:
                raise ValueError(f"ClipGradByValue: argument 'max' expected > 0 when 'min' is "
                                 f"None, got {max}")
            min = -max
        self.max = float(max)
        self.min = float(min)

    def _clip(self, params_grads):
        out = []
        for p, g in params_grads:
            if g is None or not _need_clip(p):
                out.append((p, g))
                continue
            out.append((p, _ops.clip(g, self.min, self.max)))
        return out

    def __str__(self):
        return f"Clip Gradient By Value, min = {self.min:f}, max={self.max:f}"


class ClipGradByNorm(ClipGradBase):
    """Scales each gradient so that its own L2 norm is at most clip_norm."""

    def __init__(self, clip_norm):
        if clip_norm <= 0:
            raise ValueError(f"ClipGradByNorm: argument 'clip_norm' expected > 0, got {clip_norm}")
        self.clip_norm = float(clip_norm)

    def _clip(self, params_grads):
        out = []
        for p, g in params_grads:
            if g is None or not _need_clip(p):
                out.append((p, g))
                continue
            norm = _ops.sqrt(_ops.sum(_ops.square(g), [], None, False))
            limit = _ops.full([], self.clip_norm, norm.dtype)
            scale = _ops.divide(limit, _ops.maximum(norm, limit))
            out.append((p, _ops.multiply(g, _ops.cast(scale, g.dtype))))
        return out

    def __str__(self):
        return f"Gradient Clip By Norm, clip_norm={self.clip_norm:f}"


class ClipGradByGlobalNorm(ClipGradBase):
    """Scales all gradients by clip_norm / max(global_norm, clip_norm), global_norm being the
    L2 norm of all of them together (computed in float32)."""

    def __init__(self, clip_norm, group_name="default_group", auto_skip_clip=False):
        if clip_norm <= 0:
            raise ValueError("ClipGradByGlobalNorm: argument 'clip_norm' expected > 0, got "
                             f"{clip_norm}")
        self.clip_norm = float(clip_norm)
        self.group_name = group_name
        self.auto_skip_clip = auto_skip_clip
        self.last_global_norm = None

    def _global_norm(self, grads):
        from .. import float32
        total = None
        for g in grads:
            g32 = g if g.dtype == float32 else _ops.cast(g, float32)
            sq = _ops.sum(_ops.square(g32), [], None, False)
            total = sq if total is None else _ops.add(total, sq)
        return _ops.sqrt(total)

    def _clip(self, params_grads):
        grads = [g for p, g in params_grads if g is not None and _need_clip(p)]
        if not grads:
            return list(params_grads)
        norm = self._global_norm(grads)
        self.last_global_norm = norm
        limit = _ops.full([], self.clip_norm, norm.dtype)
        scale = _ops.divide(limit, _ops.maximum(norm, limit))
        out = []
        for p, g in params_grads:
            if g is None or not _need_clip(p):
                out.append((p, g))
                continue
            s = scale if scale.dtype == g.dtype else _ops.cast(scale, g.dtype)
            out.append((p, _ops.multiply(g, s)))
        return out

    def __str__(self):
        return f"Gradient Clip By GlobalNorm, global_norm={self.clip_norm:f}"


def clip_grad_norm_(parameters, max_norm, norm_type=2.0, error_if_nonfinite=False):
    """Scales the .grad of `parameters` in place so their joint norm is <= max_norm; returns
    the norm before clipping (paddle.nn.utils.clip_grad_norm_)."""
    from .. import Tensor, float32, no_grad
    from ._assign import assign_into
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    grads = [p.grad for p in parameters if p.grad is not None]
    if not grads:
        return _ops.full([], 0.0, float32)
    norm_type = float(norm_type)
    with no_grad():
        if norm_type == float("inf"):
            norms = [_ops.max(_ops.abs(_ops.cast(g, float32)), [], False) for g in grads]
            total = norms[0]
            for n in norms[1:]:
                total = _ops.maximum(total, n)
        else:
            total = None
            for g in grads:
                s = _ops.sum(_ops.pow(_ops.abs(_ops.cast(g, float32)), norm_type), [], None, False)
                total = s if total is None else _ops.add(total, s)
            total = _ops.pow(total, 1.0 / norm_type)
        if error_if_nonfinite and not bool(_ops.isfinite(total)):
            raise RuntimeError(f"The total norm of {norm_type} order of the gradients is "
                               "non-finite, so it cannot be clipped.")
        coef = _ops.divide(_ops.full([], float(max_norm), float32),
                           _ops.scale(total, 1.0, 1e-6, True))
        coef = _ops.minimum(coef, _ops.full([], 1.0, float32))
        for g in grads:
            assign_into(g, _ops.multiply(g, _ops.cast(coef, g.dtype)))
    return total


def clip_grad_value_(parameters, clip_value):
    from .. import Tensor, no_grad
    from ._assign import assign_into
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    with no_grad():
        for p in parameters:
            if p.grad is not None:
                assign_into(p.grad, _ops.clip(p.grad, -float(clip_value), float(clip_value)))
