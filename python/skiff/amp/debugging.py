"""paddle.amp.debugging basics: checking tensors for inf/nan."""
from .. import Tensor
from .. import _C

__all__ = ["check_numerics", "check_layer_numerics"]


def check_numerics(tensor, op_type="", var_name="", debug_mode=None):
    """Counts the nan, inf and zero elements of `tensor` (Paddle's check_numerics): returns
    (stats, values) where stats is int64 [num_nan, num_inf, num_zero] and values float32
    [max, min, mean] over the finite elements. Raises RuntimeError naming op_type and var_name
    when nan or inf is found."""
    if not isinstance(tensor, Tensor):
        raise TypeError("check_numerics: argument 'tensor' expected a Tensor, got "
                        f"{type(tensor).__name__}")
    import numpy as np
    x = _C.ops.cast(tensor, "float32").numpy()
    nan, inf, zero = int(np.isnan(x).sum()), int(np.isinf(x).sum()), int((x == 0).sum())
    finite = x[np.isfinite(x)]
    vals = [float(finite.max()), float(finite.min()), float(finite.mean())] if finite.size \
        else [0.0, 0.0, 0.0]
    if nan or inf:
        raise RuntimeError(f"check_numerics: op '{op_type}' var '{var_name}' holds {nan} nan "
                           f"and {inf} inf of {x.size} elements")
    from .. import to_tensor
    return to_tensor(np.array([nan, inf, zero], np.int64)), to_tensor(np.array(vals, np.float32))


def check_layer_numerics(func):
    """A decorator for a Layer's forward: checks its Tensor inputs and outputs for inf/nan."""
    import functools

    @functools.wraps(func)
    def wrapper(self, *args, **kwargs):
        for i, a in enumerate(args):
            if isinstance(a, Tensor) and a.dtype != _bool_dtype():
                check_numerics(a, type(self).__name__, f"input{i}")
        out = func(self, *args, **kwargs)
        outs = out if isinstance(out, (list, tuple)) else [out]
        for i, o in enumerate(outs):
            if isinstance(o, Tensor):
                check_numerics(o, type(self).__name__, f"output{i}")
        return out
    return wrapper


def _bool_dtype():
    from .. import bool as b
    return b
