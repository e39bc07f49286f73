"""skiff.linalg (Paddle's paddle.linalg): norms over the p_norm op (Paddle lowers linalg.norm with
a numeric p to it), the LAPACK ops of skiff/ops/yaml/lapack.yaml (inverse, det, slogdet, solve,
triangular_solve, cholesky, cholesky_solve, lu, qr, svd, eigh, eig, lstsq) with Paddle's Python
signatures and return conventions, and Paddle's compositions over them (lu_unpack, eigvalsh,
svdvals, pinv, matrix_power, matrix_rank, cond, cov, corrcoef, matrix_exp by scaling and
squaring) and the checks in front of householder_product and ormqr (orgqr / ormqr records).
eig and eigvals are the eig record (LAPACK geev, complex results)."""
import math

import numpy as np

from . import _C

_ops = _C.ops
from ._op_functions import matmul  # noqa: E402,F401


def vector_norm(x, p=2.0, axis=None, keepdim=False, name=None):
    """The p-norm over `axis` (an int, a list of ints, or None: every element)."""
    p = float(p)
    if axis is None:
        out = _ops.p_norm(x, p, -1, 1e-12, False, True)
        return _ops.reshape(out, [1] * x.ndim) if keepdim else out
    axes = [axis] if isinstance(axis, int) else list(axis)
    if len(axes) == 1:
        return _ops.p_norm(x, p, axes[0], 1e-12, keepdim, False)
    return _norm_over(x, p, axes, keepdim)


def _norm_over(x, p, axes, keepdim):
    a = _ops.abs(x)
    if math.isinf(p):
        return (_ops.amax if p > 0 else _ops.amin)(a, axes, keepdim)
    if p == 0:
        return _ops.sum(_ops.cast(_ops.not_equal(a, _ops.zeros_like(a)), x.dtype), axes, None, keepdim)
    return _ops.pow(_ops.sum(_ops.pow(a, p), axes, None, keepdim), 1.0 / p)


def matrix_norm(x, p="fro", axis=[-2, -1], keepdim=False, name=None):  # noqa: B006
    """Paddle 3.0's matrix norms over the two `axis` dims: 'fro', 'nuc' (sum of singular
    values), 2 / -2 (largest / smallest singular value), 1 / -1 (max / min column sum of |x|),
    inf / -inf (max / min row sum)."""
    axis = list(axis) if isinstance(axis, (list, tuple)) else axis
    if not isinstance(axis, list) or len(axis) != 2:
        raise ValueError(f"(InvalidArgument) matrix_norm: argument 'axis' expected a list of two "
                         f"ints, got {axis!r}")
    row, col = (a + x.ndim if a < 0 else a for a in axis)
    if p == "fro":
        return _ops.sqrt(_ops.sum(_ops.square(x), [row, col], None, keepdim))
    if p in ("nuc", 2, -2):
        perm = [d for d in range(x.ndim) if d not in (row, col)] + [row, col]
        s = _ops.svd(_ops.transpose(x, perm), False)[1]
        red = _ops.sum(s, [-1], None, False) if p == "nuc" else \
            (_ops.amax if p == 2 else _ops.amin)(s, [-1], False)
        if not keepdim:
            return red
        return _ops.unsqueeze(red, sorted([row, col]))
    if p in (1, -1, float("inf"), float("-inf")):
        # 1: largest column sum (sum over rows, then max over columns); inf: largest row sum.
        first, second = (row, col) if abs(p) == 1 else (col, row)
        red = _ops.amax if p > 0 else _ops.amin
        out = red(_ops.sum(_ops.abs(x), [first], None, True), [second], True)
        return out if keepdim else _ops.squeeze(out, [row, col])
    raise ValueError(f"(InvalidArgument) matrix_norm: argument 'p' expected one of 'fro', 'nuc', "
                     f"1, -1, 2, -2, inf, -inf for a matrix norm, got {p!r}")


def norm(x, p=None, axis=None, keepdim=False, name=None):
    """paddle.linalg.norm (Paddle 3.0): axis None (every element) or one axis gives a vector
    norm (p None or 'fro' is 2); two axes give a matrix norm (p None is 'fro')."""
    if isinstance(axis, tuple):
        axis = list(axis)
    if isinstance(axis, list) and len(axis) == 1:
        axis = axis[0]
    if axis is None or isinstance(axis, int):
        if p is None or p == "fro":
            p = 2.0
        if isinstance(p, str) or not isinstance(p, (int, float)):
            raise ValueError(f"(InvalidArgument) norm: argument 'p' expected a number for a vector "
                             f"norm (axis None or one axis), got {p!r}")
        return vector_norm(x, p, axis, keepdim)
    if isinstance(axis, list) and len(axis) == 2:
        return matrix_norm(x, "fro" if p is None else p, axis, keepdim)
    raise ValueError(f"(InvalidArgument) norm: argument 'axis' expected None, an int or a list of "
                     f"one or two ints, got {axis!r}")


def multi_dot(x, name=None):
    if len(x) < 2:
        raise ValueError(f"multi_dot: argument 'x' expected at least 2 tensors, got {len(x)}")
    out = x[0]
    for m in x[1:]:
        out = _ops.matmul(out, m)
    return out


# --- LAPACK ops (skiff/ops/yaml/lapack.yaml) ------------------------------------------------------

def _mT(x):
    perm = list(range(x.ndim))
    perm[-1], perm[-2] = perm[-2], perm[-1]
    return _ops.transpose(x, perm)


def _invalid(op, arg, expected, got):
    return ValueError(f"(InvalidArgument) {op}: argument '{arg}' expected {expected}, got {got}")


def inv(x, name=None):
    """The inverse of each square matrix of x [*, N, N] (getrf + getri)."""
    return _ops.inverse(x)


inverse = inv


def det(x, name=None):
    return _ops.det(x)


def slogdet(x, name=None):
    """One tensor [2, *]: the sign of each determinant in row 0, log|det| in row 1."""
    return _ops.slogdet(x)


def solve(x, y, left=True, name=None):
    """x @ out = y (left) or out @ x = y; y may be a vector when left."""
    if left:
        return _ops.solve(x, y)
    if y.ndim < 2 or x.shape[-2] != y.shape[-1]:
        raise _invalid("solve", "y", f"[*, K, {x.shape[-2]}] for out @ x = y with x {list(x.shape)}",
                       list(y.shape))
    return _mT(_ops.solve(_mT(x), _mT(y)))


def triangular_solve(x, y, upper=True, transpose=False, unitriangular=False, name=None):
    return _ops.triangular_solve(x, y, upper, transpose, unitriangular)


def cholesky(x, upper=False, name=None):
    return _ops.cholesky(x, upper)


def cholesky_solve(x, y, upper=False, name=None):
    """A @ out = x, where y is the Cholesky factor of A (lower unless upper)."""
    return _ops.cholesky_solve(x, y, upper)


def lu(x, pivot=True, get_infos=False, name=None):
    """(LU, pivots) or (LU, pivots, infos); pivots are int32 and 1-based, as LAPACK's."""
    out, pivots, infos = _ops.lu(x, pivot)
    return (out, pivots, infos) if get_infos else (out, pivots)


def lu_unpack(x, y, unpack_ludata=True, unpack_pivots=True, name=None):
    """(P, L, U) with x = P @ L @ U from lu's packed factors x and pivots y; a part not unpacked
    is an empty tensor."""
    if x.ndim < 2:
        raise _invalid("lu_unpack", "x", "a tensor of shape [*, M, N]", list(x.shape))
    if y.ndim < 1:
        raise _invalid("lu_unpack", "y", "pivots of shape [*, K]", list(y.shape))
    m, n = x.shape[-2], x.shape[-1]
    k = min(m, n)
    empty = _ops.zeros([0], x.dtype)
    lower = upper = empty
    if unpack_ludata:
        r = x.ndim
        lower = _ops.add(_ops.tril(_ops.slice(x, [r - 1], [0], [k]), -1), _ops.eye(m, k, x.dtype))
        upper = _ops.triu(_ops.slice(x, [r - 2], [0], [k]))
    perm_matrix = empty
    if unpack_pivots:
        piv = np.asarray(y.numpy()).reshape(-1, y.shape[-1]).astype(np.int64)
        mats = np.zeros((piv.shape[0], m, m))
        for b, row in enumerate(piv):
            perm = np.arange(m)
            for i, p in enumerate(row):  # LAPACK's swaps, in order
                perm[i], perm[p - 1] = perm[p - 1], perm[i]
            mats[b, perm, np.arange(m)] = 1.0
        from .tensor.creation import to_tensor
        perm_matrix = to_tensor(mats.reshape(list(y.shape[:-1]) + [m, m]), dtype=x.dtype)
    return perm_matrix, lower, upper


def qr(x, mode="reduced", name=None):
    """(Q, R) for mode 'reduced' or 'complete'; R alone for mode 'r'."""
    q, r = _ops.qr(x, mode)
    return r if mode == "r" else (q, r)


def svd(x, full_matrices=False, name=None):
    """(U, S, VH) with x = U @ diag(S) @ VH, S descending."""
    return _ops.svd(x, full_matrices)


def svdvals(x, name=None):
    return _ops.svd(x, False)[1]


def eigh(x, UPLO="L", name=None):  # noqa: N803 (Paddle's name)
    """(eigenvalues ascending, eigenvectors as columns) of the symmetric x, from its UPLO
    triangle."""
    return _ops.eigh(x, UPLO)


def eigvalsh(x, UPLO="L", name=None):  # noqa: N803
    return _ops.eigh(x, UPLO)[0]


def eig(x, name=None):
    """(eigenvalues [*, N], eigenvectors [*, N, N] as columns) of the general square x, complex
    (float32 -> complex64), in LAPACK geev's order, each vector of unit norm with its largest
    component real. Differentiable (Paddle's eig_grad)."""
    return _ops.eig(x)


def eigvals(x, name=None):
    """The eigenvalues of eig(x), unsorted; differentiable through eig (Paddle's eigvals has no
    gradient)."""
    return _ops.eig(x)[0]


def lstsq(x, y, rcond=None, driver=None, name=None):
    """(solution, residuals, rank, singular_values), Paddle's CPU conventions: driver None is
    'gelsy'; rcond None is machine precision times max(M, N)."""
    if driver not in (None, "gels", "gelsy", "gelsd", "gelss"):
        raise _invalid("lstsq", "driver", "one of 'gels', 'gelsy', 'gelsd', 'gelss' or None",
                       repr(driver))
    driver = "gelsy" if driver is None else driver
    if x.dtype != y.dtype:
        raise _invalid("lstsq", "y", f"dtype {x.dtype} (as x)", y.dtype)
    if rcond is None:
        eps = 1e-7 if x.dtype == _C.dtype.float32 else 1e-15
        rcond = eps * max(x.shape[-2], x.shape[-1]) if x.ndim >= 2 else eps
    return tuple(_ops.lstsq(x, y, float(rcond), driver))


# --- Compositions ---------------------------------------------------------------------------------

def _square(op, x):
    if x.ndim < 2 or x.shape[-1] != x.shape[-2]:
        raise _invalid(op, "x", "square matrices [*, N, N]", list(x.shape))


def cholesky_inverse(x, upper=False, name=None):
    """The inverse of A = L L^T (U^T U when upper) from its Cholesky factor x [*, N, N] (zeros
    in the other triangle, as cholesky returns it): inverse of the product, whose gradient is
    the full-matrix one torch gives (a solve would only reach x's triangle)."""
    _square("cholesky_inverse", x)
    return _ops.inverse(_ops.matmul(x, x, upper, not upper))


def matrix_power(x, n, name=None):
    """x^n by repeated squaring (matmul); n < 0 inverts first, n == 0 gives identities."""
    _square("matrix_power", x)
    if not isinstance(n, (int, np.integer)) or isinstance(n, bool):
        raise _invalid("matrix_power", "n", "an int", repr(n))
    n = int(n)
    if n == 0:
        return _ops.broadcast_to(_ops.eye(x.shape[-1], x.shape[-1], x.dtype), list(x.shape))
    base = inv(x) if n < 0 else x
    n = abs(n)
    out = None
    while n:
        if n & 1:
            out = base if out is None else _ops.matmul(out, base)
        n >>= 1
        if n:
            base = _ops.matmul(base, base)
    return out


def _eps(dtype):
    return float(np.finfo(np.float32 if dtype == _C.dtype.float32 else np.float64).eps)


def _as_tensor_like(v, x):
    from .tensor.creation import to_tensor
    return v if isinstance(v, _C.Tensor) else to_tensor(float(v), dtype=x.dtype)


def matrix_rank(x, tol=None, hermitian=False, atol=None, rtol=None, name=None):
    """The number of singular values (|eigenvalues| when hermitian) above the tolerance, int32
    [*]: tol alone, or max(atol, rtol * sigma_max) (Paddle's rules for the defaults)."""
    if x.ndim < 2:
        raise _invalid("matrix_rank", "x", "a tensor of rank >= 2", list(x.shape))
    if tol is not None and (atol is not None or rtol is not None):
        raise _invalid("matrix_rank", "tol", "tol alone or atol and rtol without tol",
                       "tol together with atol/rtol")
    if 0 in x.shape[-2:]:
        return _ops.zeros(list(x.shape[:-2]), _C.dtype.int32)
    s = _ops.abs(eigvalsh(x)) if hermitian else svdvals(x)
    smax = _ops.amax(s, [-1], True)
    m, n = x.shape[-2], x.shape[-1]
    if atol is not None or rtol is not None:
        a = _as_tensor_like(0.0 if atol is None else atol, x)
        if rtol is None:
            positive_atol = atol is not None and float(_ops.amax(_ops.reshape(a, [-1]), [], False)) > 0
            r = 0.0 if positive_atol else max(m, n) * _eps(x.dtype)
        else:
            r = rtol
        r = _as_tensor_like(r, x)
        cut = _ops.maximum(_ops.unsqueeze(a, [-1]) if a.ndim else a,
                           _ops.multiply(smax, _ops.unsqueeze(r, [-1]) if r.ndim else r))
    elif tol is None:
        cut = _ops.scale(smax, max(m, n) * _eps(x.dtype), 0.0, True)
    else:
        t = _as_tensor_like(tol, x)
        cut = _ops.unsqueeze(t, [-1]) if t.ndim else t
    above = _ops.greater_than(s, cut)
    return _ops.sum(_ops.cast(above, _C.dtype.int32), [-1], _C.dtype.int32, False)


def pinv(x, rcond=1e-15, hermitian=False, name=None):
    """The pseudo-inverse through svd (eigh when hermitian): singular values at most
    rcond * sigma_max count as zero."""
    if x.ndim < 2:
        raise _invalid("pinv", "x", "a tensor of rank >= 2", list(x.shape))
    if 0 in x.shape:  # an empty matrix (or batch): the transposed empty shape, as numpy
        return _ops.zeros(list(x.shape[:-2]) + [x.shape[-1], x.shape[-2]], x.dtype)
    if hermitian:
        s, u = eigh(x)
        mag = _ops.abs(s)
    else:
        u, s, vh = svd(x, False)
        mag = s
    cut = _ops.multiply(_ops.amax(mag, [-1], True), _as_tensor_like(rcond, x))
    keep = _ops.greater_than(mag, cut)
    safe = _ops.where(keep, s, _ops.ones_like(s))  # no 1/0 even in the branch not taken
    inv_s = _ops.unsqueeze(_ops.where(keep, _ops.reciprocal(safe), _ops.zeros_like(s)), [-2])
    left = _ops.multiply(u, inv_s) if hermitian else _ops.multiply(_mT(vh), inv_s)
    return _ops.matmul(left, u, False, True)


def cond(x, p=None, name=None):
    """The condition number: sigma_max / sigma_min (p None or 2), its inverse (p -2), else
    norm(x, p) * norm(inv(x), p) for 'fro', 'nuc', 1, -1, inf, -inf."""
    if x.ndim < 2:
        raise _invalid("cond", "x", "a tensor of rank >= 2", list(x.shape))
    if p is None or p in (2, -2):
        s = svdvals(x)
        big, small = _ops.amax(s, [-1], False), _ops.amin(s, [-1], False)
        return _ops.divide(small, big) if p == -2 else _ops.divide(big, small)
    if p not in ("fro", "nuc", 1, -1, float("inf"), float("-inf")):
        raise _invalid("cond", "p", "None, 'fro', 'nuc', 1, -1, 2, -2, inf or -inf", repr(p))
    _square("cond", x)

    def mnorm(a):
        if p == "nuc":
            return _ops.sum(svdvals(a), [-1], None, False)
        return matrix_norm(a, p, [-2, -1], False)
    return _ops.multiply(mnorm(x), mnorm(inv(x)))


def cov(x, rowvar=True, ddof=True, fweights=None, aweights=None, name=None):
    """numpy.cov: variables in rows (rowvar) or columns; ddof True divides by N - 1; fweights
    (integer) and aweights weight the observations."""
    if x.ndim > 2:
        raise _invalid("cov", "x", "a tensor of rank <= 2", list(x.shape))
    nx = _ops.reshape(x, [1, -1]) if x.ndim < 2 else x
    if not rowvar and nx.shape[0] != 1:
        nx = _mT(nx)
    obs = nx.shape[1]
    w = None
    if fweights is not None:
        if fweights.ndim > 1 or fweights.shape[0] != obs:
            raise _invalid("cov", "fweights", f"a 1-D tensor of {obs} elements", list(fweights.shape))
        if fweights.dtype not in (_C.dtype.int32, _C.dtype.int64):
            raise _invalid("cov", "fweights", "an integer tensor", fweights.dtype)
        if bool(_ops.any(_ops.less_than(fweights, _ops.zeros_like(fweights)), [], False)):
            raise _invalid("cov", "fweights", "non-negative weights", "a negative weight")
        w = _ops.cast(fweights, nx.dtype)
    if aweights is not None:
        if aweights.ndim > 1 or aweights.shape[0] != obs:
            raise _invalid("cov", "aweights", f"a 1-D tensor of {obs} elements", list(aweights.shape))
        aw = _ops.cast(aweights, nx.dtype)
        if bool(_ops.any(_ops.less_than(aw, _ops.zeros_like(aw)), [], False)):
            raise _invalid("cov", "aweights", "non-negative weights", "a negative weight")
        w = aw if w is None else _ops.multiply(w, aw)
    if w is None:
        avg = _ops.mean(nx, [1], False)
        w_sum = float(obs)
        fact = w_sum - int(ddof)
    else:
        w_sum_t = _ops.sum(w, [], None, False)
        w_sum = float(w_sum_t)
        if w_sum == 0:
            raise _invalid("cov", "fweights/aweights", "weights with a non-zero sum", 0.0)
        avg = _ops.divide(_ops.sum(_ops.multiply(nx, w), [1], None, False), w_sum_t)
        if ddof and aweights is not None:
            fact = w_sum - float(_ops.sum(_ops.multiply(w, aw), [], None, False)) / w_sum
        else:
            fact = w_sum - int(ddof)
    fact = max(fact, 0.0)
    xm = _ops.subtract(nx, _ops.unsqueeze(avg, [1]))
    xw = xm if w is None else _ops.multiply(xm, w)
    c = _ops.scale(_ops.matmul(xm, xw, False, True), 1.0 / fact if fact else float("inf"), 0.0, True)
    return _ops.squeeze(c, [])


def corrcoef(x, rowvar=True, name=None):
    """The correlation coefficients cov_ij / sqrt(cov_ii cov_jj), clipped to [-1, 1]."""
    if x.ndim > 2 or x.ndim < 1:
        raise _invalid("corrcoef", "x", "a tensor of rank 1 or 2", list(x.shape))
    c = cov(x, rowvar)
    if c.ndim == 0:
        return _ops.divide(c, c)
    std = _ops.sqrt(_ops.diagonal(c, 0, 0, 1))
    c = _ops.divide(_ops.divide(c, _ops.unsqueeze(std, [1])), _ops.unsqueeze(std, [0]))
    return _ops.clip(c, -1.0, 1.0)


# Higham (2005), "The scaling and squaring method for the matrix exponential revisited": the
# Pade degrees, their 1-norm bounds theta_m (float64 values; float32 uses them too, which only
# picks a higher degree than needed) and the [m/m] numerator coefficients b_0..b_m.
_PADE = [
    (3, 1.495585217958292e-2, [120.0, 60.0, 12.0, 1.0]),
    (5, 2.539398330063230e-1, [30240.0, 15120.0, 3360.0, 420.0, 30.0, 1.0]),
    (7, 9.504178996162932e-1, [17297280.0, 8648640.0, 1995840.0, 277200.0, 25200.0, 1512.0, 56.0,
                               1.0]),
    (9, 2.097847961257068e0, [17643225600.0, 8821612800.0, 2075673600.0, 302702400.0,
                              30270240.0, 2162160.0, 110880.0, 3960.0, 90.0, 1.0]),
]
_THETA13 = 5.371920351148152e0
_B13 = [64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
        129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
        40840800.0, 960960.0, 16380.0, 182.0, 1.0]


def _lin(terms, eye):
    """sum of c * M over (c, M) pairs, M = None standing for the identity."""
    out = None
    for c, m in terms:
        t = _ops.scale(eye if m is None else m, c, 0.0, True)
        out = t if out is None else _ops.add(out, t)
    return out


def _pade(a, eye, m, b):
    """(U, V) of the degree-m Pade approximant: exp(a) ~ (V - U)^-1 (V + U)."""
    if m == 13:
        a2 = _ops.matmul(a, a)
        a4 = _ops.matmul(a2, a2)
        a6 = _ops.matmul(a4, a2)
        u = _ops.add(_ops.matmul(a6, _lin([(b[13], a6), (b[11], a4), (b[9], a2)], eye)),
                     _lin([(b[7], a6), (b[5], a4), (b[3], a2), (b[1], None)], eye))
        v = _ops.add(_ops.matmul(a6, _lin([(b[12], a6), (b[10], a4), (b[8], a2)], eye)),
                     _lin([(b[6], a6), (b[4], a4), (b[2], a2), (b[0], None)], eye))
        return _ops.matmul(a, u), v
    powers = [None]  # a^0, a^2, a^4, ...
    a2 = _ops.matmul(a, a)
    for _ in range(m // 2):
        powers.append(a2 if powers[-1] is None else _ops.matmul(powers[-1], a2))
    u = _lin([(b[2 * j + 1], powers[j]) for j in range(m // 2 + 1)], eye)
    v = _lin([(b[2 * j], powers[j]) for j in range(m // 2 + 1)], eye)
    return _ops.matmul(a, u), v


def matrix_exp(x, name=None):
    """exp of each square matrix of x [*, N, N]: scaling and squaring with a Pade approximant
    (Higham 2005), the degree and the number of squarings chosen from the largest 1-norm of the
    batch. A composition of matmul and solve, so autograd differentiates it (any order)."""
    if not isinstance(x, _C.Tensor):
        raise TypeError(f"(InvalidType) matrix_exp: argument 'x' expected a Tensor, got "
                        f"{type(x).__name__}")
    if x.dtype not in (_C.dtype.float32, _C.dtype.float64):
        raise TypeError(f"(InvalidType) matrix_exp: argument 'x' expected float32 or float64, got "
                        f"{x.dtype}")
    _square("matrix_exp", x)
    if x.size == 0:
        return _ops.assign(x)
    n = x.shape[-1]
    eye = _ops.eye(n, n, x.dtype)
    norm1 = float(_ops.max(_ops.sum(_ops.abs(x), [-2], None, False)).item())
    if not math.isfinite(norm1):
        raise _invalid("matrix_exp", "x", "finite values", "inf or nan")
    for m, theta, b in _PADE:
        if norm1 <= theta:
            u, v = _pade(x, eye, m, b)
            return _ops.solve(_ops.subtract(v, u), _ops.add(v, u))
    s = max(0, int(math.ceil(math.log2(norm1 / _THETA13)))) if norm1 > 0 else 0
    a = _ops.scale(x, 0.5 ** s, 0.0, True) if s else x
    u, v = _pade(a, eye, 13, _B13)
    out = _ops.solve(_ops.subtract(v, u), _ops.add(v, u))
    for _ in range(s):
        out = _ops.matmul(out, out)
    return out


def _householder_checks(op, x, tau):
    for arg, t in (("x", x), ("tau", tau)):
        if not isinstance(t, _C.Tensor):
            raise TypeError(f"(InvalidType) {op}: argument '{arg}' expected a Tensor, got "
                            f"{type(t).__name__}")
        if t.dtype not in (_C.dtype.float32, _C.dtype.float64):
            raise TypeError(f"(InvalidType) {op}: argument '{arg}' expected float32 or float64, got "
                            f"{t.dtype}")
    if tau.dtype != x.dtype:
        raise _invalid(op, "tau", f"dtype {x.dtype} (as x)", tau.dtype)
    if x.ndim < 2:
        raise _invalid(op, "x", "a tensor of shape [*, M, N]", list(x.shape))
    if tau.ndim != x.ndim - 1 or list(tau.shape[:-1]) != list(x.shape[:-2]):
        raise _invalid(op, "tau", f"shape [*, K] with the batch dims {list(x.shape[:-2])} of x",
                       list(tau.shape))


def householder_product(x, tau, name=None):
    """The first N columns of the product H_1 H_2 ... H_K of the Householder reflectors stored in
    x [*, M, N] (below the diagonal, as geqrf leaves them) and tau [*, K] (M >= N >= K): the Q
    of a QR decomposition (orgqr). Differentiable in x and tau."""
    _householder_checks("householder_product", x, tau)
    m, n, k = x.shape[-2], x.shape[-1], tau.shape[-1]
    if m < n:
        raise _invalid("householder_product", "x", "M >= N (x [*, M, N])", list(x.shape))
    if k > n:
        raise _invalid("householder_product", "tau", f"K <= N = {n} (tau [*, K])", list(tau.shape))
    return _ops.householder_product(x, tau)


def ormqr(x, tau, y, left=True, transpose=False, name=None):
    """op(Q) @ y (left) or y @ op(Q), Q = H_1 ... H_K the [MN, MN] product of the reflectors in
    x [*, MN, K] and tau [*, min(MN, K)]; op(Q) is Q^T when transpose. MN is y's M when left, its
    N otherwise (LAPACK's ormqr). Differentiable in x, tau and y."""
    _householder_checks("ormqr", x, tau)
    if not isinstance(y, _C.Tensor):
        raise TypeError(f"(InvalidType) ormqr: argument 'y' expected a Tensor, got "
                        f"{type(y).__name__}")
    if y.dtype != x.dtype:
        raise _invalid("ormqr", "y", f"dtype {x.dtype} (as x)", y.dtype)
    if y.ndim != x.ndim or list(y.shape[:-2]) != list(x.shape[:-2]):
        raise _invalid("ormqr", "y", f"shape [*, M, N] with the batch dims {list(x.shape[:-2])} of x",
                       list(y.shape))
    mn = x.shape[-2]
    k = tau.shape[-1]
    if k > min(mn, x.shape[-1]):
        raise _invalid("ormqr", "tau", f"at most min(MN, K) = {min(mn, x.shape[-1])} reflectors",
                       list(tau.shape))
    side = y.shape[-2] if left else y.shape[-1]
    if side != mn:
        raise _invalid("ormqr", "y", f"{'M' if left else 'N'} = {mn} (x's rows)", list(y.shape))
    return _ops.ormqr(x, tau, y, left, transpose)


from .linalg_lowrank import pca_lowrank, svd_lowrank  # noqa: E402,F401

# Tensor methods (Paddle's tensor_method_func entries of these functions).
_METHODS = ["inverse", "det", "slogdet", "solve", "triangular_solve", "cholesky",
            "cholesky_solve", "lu", "lu_unpack", "qr", "svd", "eigh", "eigvalsh", "eig", "eigvals",
            "pinv", "lstsq", "cholesky_inverse", "matrix_power", "matrix_rank", "cond", "cov", "corrcoef",
            "matrix_exp", "householder_product", "ormqr", "pca_lowrank"]
