"""skiff.nn.utils (Paddle's paddle.nn.utils)."""
import numpy as np

from ..clip import clip_grad_norm_, clip_grad_value_  # noqa: F401
from .spectral_norm_hook import spectral_norm  # noqa: F401
from .weight_norm_hook import remove_weight_norm, weight_norm  # noqa: F401

__all__ = ["clip_grad_norm_", "clip_grad_value_", "parameters_to_vector", "vector_to_parameters",
           "weight_norm", "remove_weight_norm", "spectral_norm"]


def parameters_to_vector(parameters, name=None):
    """Concatenates the flattened parameters into one 1-D tensor."""
    from ... import _C
    return _C.ops.concat([_C.ops.reshape(p, [-1]) for p in parameters], 0)


def vector_to_parameters(vec, parameters, name=None):
    """Writes consecutive slices of the 1-D `vec` into the parameters (in place)."""
    from .._assign import assign_into
    arr = vec.numpy()
    offset = 0
    for p in parameters:
        n = int(np.prod(p.shape)) if p.shape else 1
        assign_into(p, arr[offset:offset + n].reshape(p.shape))
        offset += n
    if offset != arr.size:
        raise ValueError(f"vector_to_parameters: the vector has {arr.size} elements, the "
                         f"parameters {offset}")
