"""paddle.fft: discrete Fourier transforms with Paddle 3.0's names, signatures and checks.

Every transform is one of three ops (skiff/ops/yaml/fft.yaml, kissfft kernels): fft_c2c for
complex input, fft_r2c for real input (onesided: the n/2 + 1 non-negative frequencies of the last
axis) and fft_c2r for Hermitian input with a real result. As in Paddle, integer input is cast to
the default dtype's complex type, real input to complex where a complex transform is asked for,
the input is cropped or zero-padded to `n`/`s` first, and the axes of an n-d transform are sorted
(r2c/c2r keep the last one last). Gradients flow through all of them (fft_grads.cc).
"""
import builtins
from collections.abc import Sequence

from . import _C, _errors
from . import framework as _fw

_ops = _C.ops
_T = _C.Tensor
_D = _C.dtype
_INTEGER = (_D.bool, _D.uint8, _D.int8, _D.int16, _D.int32, _D.int64)
_COMPLEX = (_D.complex64, _D.complex128)

__all__ = ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
           "hfft2", "ihfft2", "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq",
           "rfftfreq", "fftshift", "ifftshift"]


# Checks (Paddle's messages, with the error class in front) --------------------------------------
def _check_tensor(op, x):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument 'x' expected a Tensor, got {type(x).__name__}")


def _check_norm(norm):
    if norm not in ("forward", "backward", "ortho"):
        raise _errors.InvalidArgument(
            f"Unexpected norm: {norm}. Norm should be forward, backward or ortho")


def _check_n(n):
    if not isinstance(n, int) or isinstance(n, bool):
        raise _errors.InvalidArgument(f"Invalid FFT argument n({n}), it should be an integer.")
    if n <= 0:
        raise _errors.InvalidArgument(f"Invalid FFT argument n({n}), it should be positive.")


def _check_axis(x, axis):
    ndim = x.ndim
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise _errors.InvalidArgument(f"Invalid FFT axis ({axis}), it should be an integer.")
    if axis < -ndim or axis >= ndim:
        raise _errors.InvalidArgument(
            f"Invalid FFT axis ({axis}), it should be in range [-{ndim}, {ndim})")


def _check_shape(x, s):
    if not isinstance(s, Sequence):
        raise _errors.InvalidArgument(
            f"Invalid FFT argument s({s}), it should be a sequence of integers.")
    if len(s) > x.ndim:
        raise _errors.InvalidArgument(
            "Length of FFT argument s should not be larger than the rank of input. "
            f"Received s: {s}, rank of x: {x.ndim}")
    for size in s:
        if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
            raise _errors.InvalidArgument(f"FFT sizes {s} contains invalid value ({size})")


def _check_axes(x, axes):
    ndim = x.ndim
    if not isinstance(axes, Sequence):
        raise _errors.InvalidArgument(
            f"Invalid FFT axes ({axes}), it should be a sequence of integers.")
    if len(axes) > ndim:
        raise _errors.InvalidArgument(
            "Length of fft axes should not be larger than the rank of input. "
            f"Received, len of axes: {len(axes)}, rank of x: {ndim}")
    for axis in axes:
        if not isinstance(axis, int) or isinstance(axis, bool) or axis < -ndim or axis >= ndim:
            raise _errors.InvalidArgument(
                f"FFT axes {axes} contains invalid value ({axis}), it should be in range "
                f"[-{ndim}, {ndim})")
    if len({a % ndim for a in axes}) != len(axes):
        raise _errors.InvalidArgument(f"FFT axes {axes} contains a repeated axis")


def _check_rank(x, rank):
    if x.ndim < rank:
        raise _errors.InvalidArgument(f"The rank of the input ({x.ndim}) should >= {rank}")


def _check_pair(op, s, axes):
    if s is not None and (not isinstance(s, Sequence) or len(s) != 2):
        raise _errors.InvalidArgument(
            f"Invalid FFT argument s ({s}), it should be a sequence of 2 integers.")
    if axes is not None and (not isinstance(axes, Sequence) or len(axes) != 2):
        raise _errors.InvalidArgument(
            f"Invalid FFT argument axes ({axes}), it should be a sequence of 2 integers.")


# Dtypes and sizes --------------------------------------------------------------------------------
def _default_complex():
    return _D.complex128 if _fw.get_default_dtype() == "float64" else _D.complex64


def _as_complex(x):
    if x.dtype in _COMPLEX:
        return x
    if x.dtype in _INTEGER:
        return _ops.cast(x, _default_complex())
    return _ops.cast(x, _D.complex128 if x.dtype == _D.float64 else _D.complex64)


def _as_real(op, x):
    if x.dtype in _COMPLEX:
        raise _errors.InvalidType(
            f"{op}: argument 'x' expected a real tensor (float32, float64 or an integer dtype), "
            f"got {x.dtype.name}; use fft/fftn for complex input")
    if x.dtype in _INTEGER:
        return _ops.cast(x, _fw.get_default_dtype())
    if x.dtype not in (_D.float32, _D.float64):
        raise _errors.InvalidType(
            f"{op}: argument 'x' expected a float32 or float64 tensor, got {x.dtype.name}")
    return x


def _resize(x, sizes, axes):
    """x cropped (slice) or zero-padded (concat) to sizes[i] along axes[i]."""
    for size, axis in zip(sizes, axes):
        cur = x.shape[axis]
        if cur > size:
            x = _ops.slice(x, [axis], [0], [size])
        elif cur < size:
            shape = list(x.shape)
            shape[axis] = size - cur
            x = _ops.concat([x, _ops.zeros(shape, x.dtype)], axis)
    return x


def _nd_axes(x, s, axes, keep_last):
    """Paddle's defaults and order: all axes (or the last len(s)); sorted, except that r2c/c2r
    keep the given last axis last."""
    if s is not None:
        _check_shape(x, s)
        s = list(s)
    rank = x.ndim
    if axes is None:
        axes = list(range(rank)) if s is None else list(range(rank - len(s), rank))
        return s, axes
    _check_axes(x, axes)
    axes = [a % rank for a in axes]
    if s is not None and len(s) != len(axes):
        raise _errors.InvalidArgument(
            f"Length of s ({len(s)}) and length of axes ({len(axes)}) does not match.")
    head = len(axes) - 1 if keep_last else len(axes)
    order = sorted(range(head), key=lambda i: axes[i]) + list(range(head, len(axes)))
    axes = [axes[i] for i in order]
    if s is not None:
        s = [s[i] for i in order]
    return s, axes


# The three transforms ----------------------------------------------------------------------------
def _c2c(op, x, s, axes, norm, forward):
    _check_tensor(op, x)
    x = _as_complex(x)
    _check_norm(norm)
    if s is not None:
        x = _resize(x, s, axes)
    if not axes:
        return x
    return _ops.fft_c2c(x, axes, norm, forward)


def _r2c(op, x, s, axes, norm, forward, onesided):
    _check_tensor(op, x)
    x = _as_real(op, x)
    _check_norm(norm)
    if s is not None:
        x = _resize(x, s, axes)
    if not axes:
        return _ops.cast(x, _D.complex128 if x.dtype == _D.float64 else _D.complex64)
    return _ops.fft_r2c(x, axes, norm, forward, onesided)


def _c2r(op, x, s, axes, norm, forward):
    _check_tensor(op, x)
    x = _as_complex(x)
    _check_norm(norm)
    last = 0
    if s is not None:
        last = s[-1]
        x = _resize(x, s[:-1] + [last // 2 + 1], axes)
    if not axes:
        return _ops.real(x)
    if last == 0 and x.shape[axes[-1]] == 1:
        raise _errors.InvalidArgument(
            f"Invalid number of FFT data points ({2 * (x.shape[axes[-1]] - 1)}) specified: "
            "an input of length 1 along the last axis needs n")
    return _ops.fft_c2r(x, axes, norm, forward, last)


def _one_axis(x, n, axis):
    _check_axis(x, axis)
    return (None if n is None else [n]), [axis % x.ndim]


def _checked_n(n):
    if n is not None:
        _check_n(n)
    return n


# 1-D ----------------------------------------------------------------------------------------------
def fft(x, n=None, axis=-1, norm="backward", name=None):
    """The 1-D discrete Fourier transform of x along `axis` (complex result)."""
    _check_tensor("fft", x)
    s, axes = _one_axis(x, _checked_n(n), axis)
    if x.dtype in _COMPLEX:
        return _c2c("fft", x, s, axes, norm, True)
    return _r2c("fft", x, s, axes, norm, True, False)


def ifft(x, n=None, axis=-1, norm="backward", name=None):
    """The inverse of fft: ifft(fft(x)) == x."""
    _check_tensor("ifft", x)
    s, axes = _one_axis(x, _checked_n(n), axis)
    if x.dtype in _COMPLEX:
        return _c2c("ifft", x, s, axes, norm, False)
    return _r2c("ifft", x, s, axes, norm, False, False)


def rfft(x, n=None, axis=-1, norm="backward", name=None):
    """The FFT of real x: its n//2 + 1 non-negative frequencies."""
    _check_tensor("rfft", x)
    s, axes = _one_axis(x, _checked_n(n), axis)
    return _r2c("rfft", x, s, axes, norm, True, True)


def irfft(x, n=None, axis=-1, norm="backward", name=None):
    """The inverse of rfft: a real signal of length n (default 2 * (k - 1))."""
    _check_tensor("irfft", x)
    s, axes = _one_axis(x, _checked_n(n), axis)
    return _c2r("irfft", x, s, axes, norm, False)


def hfft(x, n=None, axis=-1, norm="backward", name=None):
    """The FFT of a Hermitian-symmetric signal given by its first half: a real spectrum."""
    _check_tensor("hfft", x)
    s, axes = _one_axis(x, _checked_n(n), axis)
    return _c2r("hfft", x, s, axes, norm, True)


def ihfft(x, n=None, axis=-1, norm="backward", name=None):
    """The inverse of hfft: the n//2 + 1 first entries of the inverse FFT of real x."""
    _check_tensor("ihfft", x)
    s, axes = _one_axis(x, _checked_n(n), axis)
    return _r2c("ihfft", x, s, axes, norm, False, True)


# N-D ----------------------------------------------------------------------------------------------
def _complex_nd(op, x, s, axes, norm, forward):
    """fftn/ifftn: complex input transforms as c2c; real input as r2c with both halves."""
    _check_tensor(op, x)
    if x.dtype not in _COMPLEX:
        s, axes = _nd_axes(x, s, axes, True)
        return _r2c(op, x, s, axes, norm, forward, False)
    s, axes = _nd_axes(x, s, axes, False)
    return _c2c(op, x, s, axes, norm, forward)


def _real_nd(op, x, s, axes, norm, forward):
    """rfftn (forward) and ihfftn (inverse): real input, onesided along the last axis."""
    _check_tensor(op, x)
    s, axes = _nd_axes(x, s, axes, True)
    return _r2c(op, x, s, axes, norm, forward, True)


def _hermitian_nd(op, x, s, axes, norm, forward):
    """irfftn (inverse) and hfftn (forward): Hermitian input, real result."""
    _check_tensor(op, x)
    s, axes = _nd_axes(x, s, axes, True)
    return _c2r(op, x, s, axes, norm, forward)


def fftn(x, s=None, axes=None, norm="backward", name=None):
    """The N-D FFT over `axes` (all by default, or the last len(s))."""
    return _complex_nd("fftn", x, s, axes, norm, True)


def ifftn(x, s=None, axes=None, norm="backward", name=None):
    """The inverse of fftn."""
    return _complex_nd("ifftn", x, s, axes, norm, False)


def rfftn(x, s=None, axes=None, norm="backward", name=None):
    """The N-D FFT of real x, onesided along the last axis."""
    return _real_nd("rfftn", x, s, axes, norm, True)


def irfftn(x, s=None, axes=None, norm="backward", name=None):
    """The inverse of rfftn: real, of sizes s (the last default 2 * (k - 1))."""
    return _hermitian_nd("irfftn", x, s, axes, norm, False)


def hfftn(x, s=None, axes=None, norm="backward", name=None):
    """The N-D FFT of a Hermitian-symmetric signal: a real result."""
    return _hermitian_nd("hfftn", x, s, axes, norm, True)


def ihfftn(x, s=None, axes=None, norm="backward", name=None):
    """The inverse of hfftn: onesided along the last axis."""
    return _real_nd("ihfftn", x, s, axes, norm, False)


def _two(impl, op, x, s, axes, norm, forward):
    _check_tensor(op, x)
    _check_rank(x, 2)
    _check_pair(op, s, axes)
    return impl(op, x, s, axes, norm, forward)


def fft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    """The 2-D FFT over `axes`."""
    return _two(_complex_nd, "fft2", x, s, axes, norm, True)


def ifft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    return _two(_complex_nd, "ifft2", x, s, axes, norm, False)


def rfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    return _two(_real_nd, "rfft2", x, s, axes, norm, True)


def irfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    return _two(_hermitian_nd, "irfft2", x, s, axes, norm, False)


def hfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    return _two(_hermitian_nd, "hfft2", x, s, axes, norm, True)


def ihfft2(x, s=None, axes=(-2, -1), norm="backward", name=None):
    return _two(_real_nd, "ihfft2", x, s, axes, norm, False)


# Frequencies and shifts ---------------------------------------------------------------------------
def _freq_dtype(op, dtype):
    d = _fw.get_default_dtype() if dtype is None else dtype
    d = _D.__members__[d] if isinstance(d, str) and d in _D.__members__ else d
    if d not in (_D.float16, _D.bfloat16, _D.float32, _D.float64):
        raise _errors.InvalidType(f"{op}: argument 'dtype' expected a floating dtype, got {d}")
    return d


def _check_freq_args(op, n, d):
    if not isinstance(n, int) or isinstance(n, bool):
        raise _errors.InvalidType(f"{op}: argument 'n' expected an int, got {type(n).__name__}")
    if d * n == 0:
        raise _errors.InvalidArgument("d or n should not be 0.")
    if n < 0:
        raise _errors.InvalidArgument(f"{op}: argument 'n' expected a positive int, got {n}")


def fftfreq(n, d=1.0, dtype=None, name=None):
    """The sample frequencies [0, 1, ..., -(n//2), ..., -1] / (d * n) of an n-point DFT."""
    _check_freq_args("fftfreq", n, d)
    dt = _freq_dtype("fftfreq", dtype)
    k = [i if i < (n + 1) // 2 else i - n for i in range(n)]
    return _ops.scale(_C.to_tensor(k, dtype="float64"), 1.0 / (n * d), 0.0, True).astype(dt)


def rfftfreq(n, d=1.0, dtype=None, name=None):
    """The n//2 + 1 non-negative sample frequencies [0, 1, ..., n//2] / (d * n)."""
    _check_freq_args("rfftfreq", n, d)
    dt = _freq_dtype("rfftfreq", dtype)
    k = list(range(n // 2 + 1))
    return _ops.scale(_C.to_tensor(k, dtype="float64"), 1.0 / (n * d), 0.0, True).astype(dt)


def _shift(op, x, axes, inverse):
    _check_tensor(op, x)
    if axes is None:
        axes = list(range(x.ndim))
    elif isinstance(axes, int):
        axes = [axes]
    else:
        axes = list(axes)
    for a in axes:
        if not isinstance(a, int) or not -x.ndim <= a < builtins.max(x.ndim, 1):
            raise _errors.OutOfRange(
                f"{op}: argument 'axes' expected axes in [-{x.ndim}, {x.ndim}), got {a}")
    if not axes:
        return x
    shifts = [(x.shape[a] + 1) // 2 if inverse else x.shape[a] // 2 for a in axes]
    return _ops.roll(x, shifts, axes)


def fftshift(x, axes=None, name=None):
    """x rolled so the zero frequency is in the middle (along `axes`, all by default)."""
    return _shift("fftshift", x, axes, False)


def ifftshift(x, axes=None, name=None):
    """The inverse of fftshift."""
    return _shift("ifftshift", x, axes, True)
