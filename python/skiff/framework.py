"""Framework state: dtypes, the default dtype, seeding, places and the dynamic/static switch.

The dtype objects are `skiff._C.dtype` values; they print as `paddle.float32` (Paddle's
spelling, which user code compares against) and compare equal to their names and numpy dtypes.
"""
import builtins

from . import _C

dtype = _C.dtype
bool = _C.dtype.bool  # noqa: A001  (Paddle's name)
int8 = _C.dtype.int8
uint8 = _C.dtype.uint8
int16 = _C.dtype.int16
int32 = _C.dtype.int32
int64 = _C.dtype.int64
float16 = _C.dtype.float16
bfloat16 = _C.dtype.bfloat16
float32 = _C.dtype.float32
float64 = _C.dtype.float64
complex64 = _C.dtype.complex64
complex128 = _C.dtype.complex128

Tensor = _C.Tensor
Place = _C.Place
# Classes, as in Paddle (isinstance works); equal by value; Tensor.place is one of them.
CPUPlace = _C.CPUPlace
CUDAPlace = _C.CUDAPlace
CustomPlace = _C.CustomPlace
XPUPlace = _C.XPUPlace
CUDAPinnedPlace = _C.CUDAPinnedPlace


def is_compiled_with_cuda():
    """True when this build of Skiff has CUDA."""
    return _C.is_compiled_with_cuda()


_static_mode = False


def get_default_dtype():
    """The dtype Python floats and float creation ops use, as a string ('float32')."""
    return _C.get_default_dtype().name


def set_default_dtype(d):
    """Sets the default float dtype: float16, bfloat16, float32 or float64 (name or dtype)."""
    _C.set_default_dtype(d)


def seed(seed):
    """Seeds the random generators of every device (paddle.seed)."""
    if not isinstance(seed, builtins.int) or isinstance(seed, builtins.bool):
        raise TypeError(f"seed: argument 'seed' expected an int, got {type(seed).__name__}")
    _C.seed(seed % (1 << 64))
    from .static import program
    program._on_seed(seed)


def in_dynamic_mode():
    return not _static_mode


def enable_static():
    """Static graph mode: ops on program inputs append to the default main program (or the
    program_guard's), layers' parameters are initialized by the startup program
    (skiff.static)."""
    global _static_mode
    from .static import program
    _static_mode = True
    program._enter_static()


def disable_static(place=None):
    global _static_mode
    from .static import program
    program._leave_static()
    _static_mode = False
    if place is not None:
        _C.set_device(place)


def is_tensor(x):
    return isinstance(x, Tensor)


def is_floating_point(x):
    return x.dtype.is_floating_point


def get_rng_state(device=None):
    """The state of the CPU random generator, as a list (Paddle returns one per device)."""
    return [_C.get_rng_state()]


def set_rng_state(state_list, device=None):
    """Restores a state from get_rng_state (random ops then repeat the same values)."""
    seed_, offset = state_list[0]
    _C.set_rng_state(seed_, offset)


def set_printoptions(precision=None, threshold=None, edgeitems=None, sci_mode=None,
                     linewidth=None):
    """How tensors print (Paddle's paddle.set_printoptions)."""
    from .tensor import methods
    for key, value in (("precision", precision), ("threshold", threshold),
                       ("edgeitems", edgeitems), ("linewidth", linewidth)):
        if value is not None:
            methods.PRINT_OPTIONS[key] = value
    if sci_mode is not None:
        methods.PRINT_OPTIONS["suppress"] = not sci_mode
