"""Parameters: Tensors that a Layer owns and an optimizer updates (Paddle's EagerParamBase)."""
import numpy as np

from .. import Tensor
from . import unique_name

__all__ = ["Parameter", "EagerParamBase", "create_parameter"]


class EagerParamBase(Tensor):
    """A trainable Tensor: stop_gradient=False unless trainable=False, persistable, with
    optimize_attr {'learning_rate': multiplier}, regularizer and need_clip.

    EagerParamBase(value, name=None, trainable=True, ...) wraps `value` (a Tensor: the same
    memory, no copy) or builds one from array data."""

    def __init__(self, value, name=None, trainable=True, optimize_attr=None, regularizer=None,
                 do_model_average=None, need_clip=True, is_distributed=False):
        if isinstance(value, Tensor):
            super().__init__(value.detach())
        else:
            super().__init__(np.asarray(value))
        self.name = name if name is not None else unique_name.generate("eager_tmp")
        self.persistable = True
        self.optimize_attr = dict(optimize_attr) if optimize_attr else {"learning_rate": 1.0}
        self.regularizer = regularizer
        self.do_model_average = do_model_average
        self.need_clip = need_clip
        self.is_distributed = is_distributed
        self.trainable = trainable
        from ..static.program import register_parameter
        register_parameter(self)

    @property
    def trainable(self):
        return not self.stop_gradient

    @trainable.setter
    def trainable(self, value):
        if not isinstance(value, bool):
            raise ValueError(f"The type of trainable MUST be bool, but the type is {type(value)}")
        self.stop_gradient = not value

    def _is_initialized(self):
        return self.__dict__.get("_lazy_init") is None and Tensor._is_initialized(self)

    def initialize(self):
        """Runs the initializer of a parameter made under paddle.LazyGuard (once)."""
        init = self.__dict__.get("_lazy_init")
        if init is None:
            raise RuntimeError(f"(PreconditionNotMet) initialize: parameter '{self.name}' is "
                               f"already initialized (only parameters made under "
                               f"paddle.LazyGuard are initialized later)")
        from .. import _C, no_grad
        trainable = self.trainable
        with no_grad():
            value = init()
        _C._rebase(self, value.detach())
        self.stop_gradient = not trainable
        del self.__dict__["_lazy_init"]

    def __str__(self):
        if not self._is_initialized():
            return f"Parameter(name={self.name}, shape={self.shape}, dtype={self.dtype.name}, " \
                   f"not initialized: call initialize())"
        return "Parameter containing:\n" + Tensor.__repr__(self)

    __repr__ = __str__

    def __deepcopy__(self, memo):
        new = type(self)(self.detach().clone(), name=unique_name.generate(self.name + "_deepcopy"),
                         trainable=self.trainable, optimize_attr=self.optimize_attr,
                         regularizer=self.regularizer, do_model_average=self.do_model_average,
                         need_clip=self.need_clip, is_distributed=self.is_distributed)
        memo[id(self)] = new
        return new

    def __reduce__(self):
        # Pickled as its data (skiff.save turns Tensors into (name, ndarray) itself)
        return (_rebuild_parameter, (self.numpy(), self.name, self.trainable))


def _rebuild_parameter(array, name, trainable):
    from .. import to_tensor
    return EagerParamBase(to_tensor(array), name=name, trainable=trainable)


Parameter = EagerParamBase


def _resolve_dtype(dtype):
    from .. import get_default_dtype
    return get_default_dtype() if dtype is None else dtype


def _param_of(value, name, attr):
    """A parameter over `value` with the ParamAttr's training settings."""
    return EagerParamBase(value, name=name, trainable=attr.trainable,
                          optimize_attr={"learning_rate": attr.learning_rate},
                          regularizer=attr.regularizer, do_model_average=attr.do_model_average,
                          need_clip=attr.need_clip)


def make_parameter(shape, attr, dtype, is_bias, default_initializer, name_prefix=None):
    """The core of Layer.create_parameter / skiff.create_parameter."""
    from .initializer.initializer import Constant, XavierUniform, global_initializer
    from .param_attr import ParamAttr
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        return None
    shape = [int(s) for s in shape]
    for s in shape:
        if s < 0:
            raise ValueError(f"create_parameter: argument 'shape' expected non-negative sizes, got "
                             f"{shape}")
    dtype = _resolve_dtype(dtype)
    init = attr.initializer or global_initializer(is_bias) or default_initializer
    if init is None:
        init = Constant(0.0) if is_bias else XavierUniform()
    name = attr.name
    if name is None:
        base = name_prefix if name_prefix else "param"
        name = unique_name.generate(base + (".b" if is_bias else ".w"))
    from .. import in_dynamic_mode, no_grad
    from .initializer.lazy_init import lazy_init_enabled
    from .param_attr import WeightNormParamAttr
    static = not in_dynamic_mode()
    if isinstance(attr, WeightNormParamAttr):
        return _weight_norm_parameter(shape, attr, dtype, init, name, static)
    lazy = not static and lazy_init_enabled()
    if static:  # zeros now; the startup program writes the initializer's value
        from ..static.program import outside_programs
        from .. import zeros
        with outside_programs():
            value = zeros(shape, dtype)
    elif lazy:  # paddle.LazyGuard: shape and dtype only, initialize() draws the value
        from .. import _C
        with no_grad():
            value = _C.ops.expand(_C.ops.zeros([], dtype), shape)
    else:
        with no_grad():
            value = init._value(shape, dtype)
    param = _param_of(value, name, attr)
    if lazy:
        param._lazy_init = lambda: init._value(shape, dtype)
    if static:
        from ..static.persistent import record_initializer
        from ..static.program import default_main_program
        record_initializer(param, lambda: init._value(shape, dtype))
        default_main_program()._params.append(param)
    return param


def _norm_except(v, dim):
    """||v||_2 over every axis but `dim` (all axes for None), kept as size-1 axes."""
    from .. import _C
    axes = [a for a in range(len(v.shape)) if a != dim]
    return _C.ops.sqrt(_C.ops.sum(_C.ops.multiply(v, v), axes, None, True))


def _weight_norm_parameter(shape, attr, dtype, init, name, static):
    """Paddle's WeightNormParamAttr: parameters name_v (shape) and name_g (1 on every axis but
    `dim`), g starting at ||v_0|| (the startup program draws v_0 once, then its norm), and the
    weight g * v / ||v|| computed in the main program, so both get gradients."""
    if not static:
        raise NotImplementedError(
            "(Unimplemented) WeightNormParamAttr: works in static graph mode only "
            "(paddle.enable_static()); in dynamic mode use paddle.nn.utils.weight_norm")
    dim = attr.dim
    rank = len(shape)
    if dim is not None:
        if isinstance(dim, bool) or not isinstance(dim, int) or not -rank <= dim < rank:
            raise ValueError(f"(InvalidArgument) WeightNormParamAttr: argument 'dim' expected "
                             f"None or an int in [{-rank}, {rank}), got {dim!r}")
        dim %= rank
    g_shape = [shape[a] if a == dim else 1 for a in range(rank)]
    from .. import _C, zeros
    from ..static.persistent import record_initializer
    from ..static.program import default_main_program, outside_programs
    params = []
    for suffix, shp in (("_v", shape), ("_g", g_shape)):
        with outside_programs():
            value = zeros(shp, dtype)
        params.append(_param_of(value, name + suffix, attr))
    v, g = params

    def v0_and_its_norm():
        v0 = init._value(shape, dtype)
        return v0, _norm_except(v0, dim)

    record_initializer(params, v0_and_its_norm)
    default_main_program()._params.extend(params)
    w = _C.ops.multiply(v, _C.ops.divide(g, _norm_except(v, dim)))
    w.name = name
    return w


def create_parameter(shape, dtype, name=None, attr=None, is_bias=False, default_initializer=None):
    """Paddle's paddle.create_parameter."""
    from .param_attr import ParamAttr
    attr = ParamAttr._to_attr(attr)
    if attr is False:
        raise ValueError("create_parameter: argument 'attr' must not be False")
    if name is not None and attr.name is None:
        attr.name = name
    return make_parameter(shape, attr, dtype, is_bias, default_initializer,
                          name_prefix="create_parameter")
