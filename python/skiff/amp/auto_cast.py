"""auto_cast / amp_guard and decorate (Paddle's python/paddle/amp/auto_cast.py)."""
import contextlib

from .. import _C

__all__ = ["auto_cast", "amp_guard", "decorate", "amp_decorate", "white_list", "black_list",
           "is_float16_supported", "is_bfloat16_supported"]

# Paddle's legacy (fluid) op names users put in custom lists, and the records' names.
_LEGACY_NAMES = {
    "matmul_v2": "matmul", "mul": "matmul", "lookup_table": "embedding",
    "lookup_table_v2": "embedding", "elementwise_add": "add", "elementwise_sub": "subtract",
    "elementwise_mul": "multiply", "elementwise_div": "divide", "reduce_sum": "sum",
    "reduce_mean": "mean", "softmax_with_cross_entropy": "cross_entropy_with_softmax",
}


def _op_names(names, arg):
    if names is None:
        return []
    if isinstance(names, str):
        raise TypeError(f"auto_cast: argument '{arg}' expected a set or list of op names, got "
                        "a str")
    out = []
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"auto_cast: argument '{arg}' expected op names (str), got "
                            f"{type(n).__name__}")
        out.append(_LEGACY_NAMES.get(n, n))
    return out


def _check_dtype(dtype):
    from .. import bfloat16, float16
    if dtype is float16 or str(dtype) in ("float16", "paddle.float16"):
        return "float16"
    if dtype is bfloat16 or str(dtype) in ("bfloat16", "paddle.bfloat16"):
        return "bfloat16"
    raise ValueError("If enable amp, dtype should be 'float16' or 'bfloat16'.")


@contextlib.contextmanager
def amp_guard(enable=True, custom_white_list=None, custom_black_list=None, level='O1',
              dtype='float16', use_promote=True):
    """Runs the block under mixed precision on this thread (see auto_cast)."""
    if level not in ("O0", "OD", "O1", "O2"):
        raise ValueError("level should be O0, OD, O1 or O2.")
    dtype = _check_dtype(dtype)
    white = _op_names(custom_white_list, "custom_white_list")
    black = _op_names(custom_black_list, "custom_black_list")
    if set(white) & set(black):
        raise ValueError("Custom white list overlap custom black list")
    if not enable:
        level = "O0"
    previous = _C.amp.set_state(level, dtype, bool(use_promote), white, black)
    try:
        yield
    finally:
        _C.amp.set_state(*previous)


def auto_cast(enable=True, custom_white_list=None, custom_black_list=None, level='O1',
              dtype='float16', use_promote=True):
    """Paddle's paddle.amp.auto_cast: a context manager (or decorator) under which ops run in
    mixed precision. O1: white-list ops (matmul, linear, conv2d) run in `dtype`, black-list ops
    in float32, the others in float32 when some floating input is float32, else in `dtype`.
    O2: as O1 with the parameters decorate() cast to `dtype`; use_promote=False runs every op
    but the black-list ones in `dtype`. OD: only white-list ops in `dtype`. The custom lists
    (op names) override the records' lists. Casts are recorded by autograd, so gradients
    reach each tensor in its own dtype."""
    return amp_guard(enable, custom_white_list, custom_black_list, level, dtype, use_promote)


def white_list():
    """The records' white lists: {dtype: {'OD'|'O1'|'O2': set of op names}}."""
    out = {}
    for d in ("float16", "bfloat16"):
        white, _ = _C.amp.op_lists(d)
        out[d] = {"OD": set(white), "O1": set(white), "O2": set(white)}
    return out


def black_list():
    """The records' black lists: {dtype: {'OD'|'O1'|'O2': set of op names}}."""
    out = {}
    for d in ("float16", "bfloat16"):
        _, black = _C.amp.op_lists(d)
        out[d] = {"OD": set(), "O1": set(black), "O2": set(black)}
    return out


def _device_is_cpu(device):
    if device is None:
        from ..device import get_device
        device = get_device()
    dev = str(device).lower()
    return dev.startswith("cpu")


def is_float16_supported(device=None):
    """Whether AMP can run in float16 on `device` (None: the current device). The CPU kernels
    take float16 (stored in 16 bits, accumulated in float32)."""
    return _device_is_cpu(device)


def is_bfloat16_supported(device=None):
    """Whether AMP can run in bfloat16 on `device` (None: the current device). The CPU kernels
    take bfloat16 (stored in 16 bits, accumulated in float32)."""
    return _device_is_cpu(device)


_KEEP_FP32 = ("BatchNorm", "BatchNorm1D", "BatchNorm2D", "BatchNorm3D", "SyncBatchNorm",
              "LayerNorm", "InstanceNorm1D", "InstanceNorm2D", "InstanceNorm3D", "GroupNorm",
              "RMSNorm")


def _keeps_fp32(layer, excluded):
    from .. import nn
    kinds = tuple(getattr(nn, n) for n in _KEEP_FP32 if hasattr(nn, n))
    if isinstance(layer, kinds):
        return True
    for e in excluded:
        if (isinstance(e, type) and isinstance(layer, e)) or e is layer:
            return True
    return False


def _cast_params(model, dtype, excluded):
    """Casts the floating float32 parameters of `model`'s layers to `dtype` except normalization
    layers and `excluded` (layers or Layer classes); returns {id(old): new}."""
    from .. import no_grad
    from ..nn.parameter import EagerParamBase
    remap = {}
    with no_grad():
        for layer in model.sublayers(include_self=True):
            if _keeps_fp32(layer, excluded):
                continue
            for name, p in list(layer._parameters.items()):
                if p is None or str(p.dtype) != "paddle.float32":
                    continue
                new = EagerParamBase(_C.ops.cast(p.detach(), dtype), name=p.name,
                                     trainable=p.trainable, optimize_attr=p.optimize_attr,
                                     regularizer=p.regularizer,
                                     do_model_average=p.do_model_average, need_clip=p.need_clip)
                new.stop_gradient = p.stop_gradient
                layer._parameters[name] = new
                remap[id(p)] = new
    return remap


def _rebind_optimizer(opt, remap):
    for g in opt._param_groups:
        g["params"] = [remap.get(id(p), p) for p in g["params"]]
    opt._parameter_list = [p for g in opt._param_groups for p in g["params"]]


def _save_dtype_hook(save_dtype):
    def hook(state_dict):
        for k, v in list(state_dict.items()):
            if hasattr(v, "dtype") and str(v.dtype) in ("paddle.float16", "paddle.bfloat16",
                                                        "paddle.float32", "paddle.float64"):
                state_dict[k] = _C.ops.cast(v, save_dtype)
        return state_dict
    return hook


def amp_decorate(models, optimizers=None, level='O1', dtype='float16', master_weight=None,
                 save_dtype=None, master_grad=False, excluded_layers=None):
    """See decorate."""
    from ..nn import Layer
    from ..optimizer import Optimizer
    if level not in ("O1", "O2"):
        raise ValueError("level should be O1 or O2, O1 represent mix precision, O2 represent "
                         "pure fp16 or bf16.")
    dtype = _check_dtype(dtype)
    if save_dtype is not None and save_dtype not in ("float16", "bfloat16", "float32",
                                                     "float64"):
        raise ValueError("save_dtype can only be float16 float32 or float64, but your input "
                         f"save_dtype is {save_dtype}.")
    single_model = isinstance(models, Layer)
    model_list = [models] if single_model else list(models) if isinstance(models, (list, tuple)) \
        else None
    if model_list is None or not all(isinstance(m, Layer) for m in model_list):
        raise TypeError("models must be either a single model or a list of models.")
    single_opt = optimizers is None or isinstance(optimizers, Optimizer)
    opt_list = [] if optimizers is None else [optimizers] if single_opt else list(optimizers)
    if not all(isinstance(o, Optimizer) for o in opt_list):
        raise TypeError("optimizers must be either a single optimizer or a list of optimizers.")
    if excluded_layers is None:
        excluded = []
    elif isinstance(excluded_layers, (list, tuple)):
        excluded = list(excluded_layers)
    else:
        excluded = [excluded_layers]
    if level == "O2":
        remap = {}
        for m in model_list:
            remap.update(_cast_params(m, dtype, excluded))
        for o in opt_list:
            _rebind_optimizer(o, remap)
            if master_weight is not False:
                o._multi_precision = True
    if save_dtype is not None:
        for m in model_list:
            m.register_state_dict_hook(_save_dtype_hook(save_dtype))
    out_models = models if single_model else model_list
    if optimizers is None:
        return out_models
    return out_models, (optimizers if single_opt else opt_list)


def decorate(models, optimizers=None, level='O1', dtype='float16', master_weight=None,
             save_dtype=None, master_grad=False, excluded_layers=None):
    """Paddle's paddle.amp.decorate. O1 returns the models and optimizers unchanged. O2 casts
    the float32 parameters of every layer but normalization layers (and `excluded_layers`) to
    `dtype` and, unless master_weight is False, makes the optimizers keep float32 master
    weights that they update and copy back. save_dtype casts what state_dict() returns.
    Returns the models, or (models, optimizers) when optimizers are given."""
    return amp_decorate(models, optimizers, level, dtype, master_weight, save_dtype,
                        master_grad, excluded_layers)
