"""Forward-mode AD (Paddle's paddle.autograd.forward_mode): dual tensors and their tangents.

    with paddle.autograd.dual_level():
        inp = paddle.autograd.make_dual(x, v)
        y, jvp = paddle.autograd.unpack_dual(f(inp))     # jvp = J_f(x) v

Skiff computes tangents from the reverse-mode graph instead of carrying them through every op:
make_dual returns a tensor the autograd graph tracks (a view of `tensor`), and unpack_dual(out)
evaluates J v for out by the double-backward trick: g(u) = vjp(out, duals, u) is linear in u, so
d/du <g(u), v> = J v (the rule incubate.autograd.jvp uses). So any op with a VJP rule has a
forward derivative, and the result equals a real forward-mode pass; the price is that tangents
flow only through ops run with gradients recorded (not inside no_grad). Levels nest; exiting a
level forgets its duals, and unpack_dual outside every level gives (tensor, None).
"""
from collections import namedtuple
from contextlib import ContextDecorator

from .. import _C

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual",
           "unpack_dual", "dual_level"]


class UnpackedDualTensor(namedtuple("_UnpackedDualTensor", ["primal", "tangent"])):
    """What unpack_dual returns: the primal and the tangent of a dual tensor."""


class _Level:
    def __init__(self):
        self.duals = []     # (dual tensor, its tangent), in creation order
        self.computed = {}  # id(tensor) -> (tensor, tangent): unpack_dual's results


_levels = []  # the levels entered, innermost last
_current_level = -1


def enter_dual_level():
    """Enters a new forward grad level and makes it the default of the other functions."""
    global _current_level
    new_level = len(_levels)
    if new_level != _current_level + 1:
        raise RuntimeError(f"Try to entering a new forward AD level({new_level}) but the current "
                           f"level({_current_level}) is not valid. Make sure you did not modified "
                           f"it directly.")
    _levels.append(_Level())
    _current_level = new_level
    return new_level


def exit_dual_level(level=None):
    """Exits the innermost level (the only one that may be exited), forgetting its tangents."""
    global _current_level
    if level is None:
        level = _current_level
    if level != _current_level or level < 0:
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was "
                           "created. This is not supported.")
    _levels.pop()
    _current_level = level - 1


def _level(level, what):
    level = _current_level if level is None else level
    if not isinstance(level, int) or isinstance(level, bool):
        raise TypeError(f"(InvalidType) {what}: argument 'level' expected an int, got "
                        f"{type(level).__name__}")
    if level > _current_level:
        raise RuntimeError(f"(PreconditionNotMet) {what}: level {level} has not been entered "
                           f"(the current level is {_current_level})")
    return level


def make_dual(tensor, tangent, *, level=None):
    """A tensor sharing `tensor`'s memory whose tangent at `level` is `tangent` (used as is).
    Backward through it reaches `tensor`."""
    if not isinstance(tensor, _C.Tensor):
        raise TypeError(f"(InvalidType) make_dual: argument 'tensor' expected a Tensor, got "
                        f"{type(tensor).__name__}")
    if not isinstance(tangent, _C.Tensor):
        raise TypeError(f"(InvalidType) make_dual: argument 'tangent' expected a Tensor, got "
                        f"{type(tangent).__name__}")
    level = _level(level, "make_dual")
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, "
                           "make sure to enter_dual_level() first.")
    if not tensor.dtype.is_floating_point:
        raise TypeError(f"(InvalidType) make_dual: argument 'tensor' expected a floating point "
                        f"Tensor, got {tensor.dtype.name}")
    if list(tangent.shape) != list(tensor.shape) or tangent.dtype != tensor.dtype:
        raise ValueError(f"(InvalidArgument) make_dual: argument 'tangent' expected shape "
                         f"{list(tensor.shape)} and dtype {tensor.dtype.name} (those of "
                         f"'tensor'), got shape {list(tangent.shape)} and dtype "
                         f"{tangent.dtype.name}")
    with _C_grad(True):
        if tensor.stop_gradient:
            dual = tensor.detach()  # shares memory; a leaf the graph starts from
            dual.stop_gradient = False
        else:
            dual = _C.ops.reshape(tensor, list(tensor.shape))  # a view, differentiable
    _levels[level].duals.append((dual, tangent))
    return dual


class _C_grad:
    def __init__(self, on):
        self.on = on

    def __enter__(self):
        self.prev = _C.is_grad_enabled()
        _C.set_grad_enabled(self.on)

    def __exit__(self, *exc):
        _C.set_grad_enabled(self.prev)


def _tangent(tensor, lv):
    """J v for `tensor` with respect to the duals of level `lv` (None if it depends on none)."""
    for d, t in lv.duals:
        if d is tensor:
            return t
    if tensor.stop_gradient or not tensor.dtype.is_floating_point or not lv.duals:
        return None
    duals = [d for d, _ in lv.duals]
    outer = _C.is_grad_enabled()  # a differentiable tangent only where gradients are recorded
    with _C_grad(True):
        u = _C.ops.zeros_like(tensor)
        u.stop_gradient = False
        gs = _C.grad([tensor], duals, [u], True, True, True, None)
        reached = [(g, t) for g, (_, t) in zip(gs, lv.duals) if g is not None]
        if not reached:
            return None
        # a vjp that does not depend on u is J^T u = 0 (sign, floor, ...): no contribution
        used = [(g, t) for g, t in reached if not g.stop_gradient]
        jv = None
        if used:
            (jv,) = _C.grad([g for g, _ in used], [u], [t for _, t in used], True, outer, True,
                            None)
    if jv is None:  # depends on the duals, with a zero derivative (e.g. through sign)
        jv = _C.ops.zeros_like(tensor)
    return jv


def unpack_dual(tensor, *, level=None):
    """(primal, tangent) of `tensor` at `level`: tangent is J v for every dual of the level
    `tensor` was computed from (None when it depends on none). Outside every level: (tensor,
    None)."""
    if not isinstance(tensor, _C.Tensor):
        raise TypeError(f"(InvalidType) unpack_dual: argument 'tensor' expected a Tensor, got "
                        f"{type(tensor).__name__}")
    level = _level(level, "unpack_dual")
    if level < 0:
        return tensor, None
    lv = _levels[level]
    hit = lv.computed.get(id(tensor))
    if hit is not None and hit[0] is tensor:
        return UnpackedDualTensor(tensor, hit[1])
    tangent = _tangent(tensor, lv)
    lv.computed[id(tensor)] = (tensor, tangent)
    return UnpackedDualTensor(tensor, tangent)


class dual_level(ContextDecorator):  # noqa: N801 (Paddle's name)
    """Enters a forward grad level for the block (or the decorated function) and exits it."""

    def __init__(self):
        super().__init__()

    def __enter__(self):
        return enter_dual_level()

    def __exit__(self, exc_type, exc_value, traceback):
        exit_dual_level()
