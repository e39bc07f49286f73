"""Skiff: a deep learning framework with PaddlePaddle 2.x's Python API (`import skiff as paddle`).

Module layout:
  skiff            dtypes, Tensor, creation, every top-level function, grad/no_grad, seed, ...
  skiff.linalg     norms, multi_dot, matmul, the LAPACK ops (inv, det, slogdet, solve, cholesky,
                   lu, qr, svd, eigh, lstsq, ...) and their compositions (pinv, cond, cov, ...)
  skiff.autograd   backward, grad, no_grad, enable_grad, set_grad_enabled, is_grad_enabled
  skiff.device     set_device, get_device, is_compiled_with_cuda
  skiff._C         the C++ extension; skiff._C.ops.<op> is every op record, record signatures
"""
import os as _os

# A sanitizer build (ASan, TSan) writes its extension into its own build tree, so it never
# replaces the normal build's next to these sources; SKIFF_EXTENSION_DIR names that directory.
if _os.environ.get("SKIFF_EXTENSION_DIR"):
    __path__.insert(0, _os.environ["SKIFF_EXTENSION_DIR"])
from . import _C
from .framework import (  # noqa: F401
    CPUPlace, CUDAPinnedPlace, CUDAPlace, Place, XPUPlace, Tensor, bfloat16, bool, disable_static, dtype, enable_static,
    float16, float32, float64, get_default_dtype, in_dynamic_mode, int8, int16, int32, int64,
    is_compiled_with_cuda, is_floating_point, is_tensor, seed, set_default_dtype, uint8,
    get_rng_state, set_rng_state, set_printoptions, complex64, complex128)
from .tensor import *  # noqa: F401,F403
from .tensor import methods as _methods
from . import autograd, device, fft, linalg, version  # noqa: F401
from .autograd import enable_grad, grad, is_grad_enabled, no_grad, set_grad_enabled  # noqa: F401
from .device import get_device, set_device  # noqa: F401
from .device import CustomPlace, is_compiled_with_custom_device  # noqa: F401
from .linalg import norm  # noqa: F401
from .linalg import (  # noqa: F401 (Paddle's top-level names of paddle.linalg functions)
    cholesky, cholesky_solve, corrcoef, cov, eigvalsh, inverse, lu, lu_unpack, matrix_power, qr,
    solve, triangular_solve)

_methods.install()
__version__ = version.full_version

# --- skiff.nn, optimizer, io, save/load, summary (branch pynn) ---
from . import io, nn, optimizer, regularizer  # noqa: F401,E402
from .hapi import flops, summary  # noqa: F401,E402
from .flags import get_flags, set_flags  # noqa: F401,E402
from ._signal_handler import disable_signal_handler  # noqa: F401,E402
from .nn import ParamAttr  # noqa: F401,E402
from .nn.parameter import create_parameter  # noqa: F401,E402
Tensor.create_parameter = create_parameter  # listed among Paddle's Tensor methods
from .nn.initializer import LazyGuard  # noqa: F401,E402
from . import utils  # noqa: F401,E402
from .batch import batch  # noqa: F401,E402
from .check_shape import check_shape  # noqa: F401,E402
from .save_load import load, save  # noqa: F401,E402
from . import jit, static  # noqa: F401,E402
from . import inference  # noqa: F401,E402

# --- paddle.Model, metric, callbacks, vision (branch hapi) ---
from . import callbacks, metric, vision  # noqa: F401,E402
from .hapi import Model  # noqa: F401,E402
from . import distributed  # noqa: E402
from .distributed import DataParallel  # noqa: F401,E402
from . import profiler  # noqa: F401,E402
from . import incubate  # noqa: F401,E402
from . import amp  # noqa: F401,E402

# --- crash handlers and FLAGS_* from the environment (skiff._signal_handler, skiff.flags) ---
from . import _signal_handler as _sh  # noqa: E402
from . import flags as _flags  # noqa: E402
_sh._install()
_flags._read_environment()
