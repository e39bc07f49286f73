"""paddle.linalg.svd_lowrank and pca_lowrank: a rank-q SVD by randomized range finding (Halko,
Martinsson and Tropp 2009, Algorithm 4.4): Q spans (A A^T)^niter A G for a Gaussian G [n, q],
re-orthonormalized by QR after each product; then the exact SVD of the small Q^T A gives
U = Q U_b, S and V. With M (pca_lowrank's column means) the decomposed matrix is A - M, M
broadcast, never formed. Exact when A - M has rank <= q; the draws come from paddle.seed's
generator. Every step is a differentiable op (matmul, qr, svd)."""
from . import _C, _errors

_ops = _C.ops
_T = _C.Tensor


def _mT(t):
    perm = list(range(t.ndim))
    perm[-2], perm[-1] = perm[-1], perm[-2]
    return _ops.transpose(t, perm)


def _orthonormal(x):
    return _ops.qr(x, "reduced")[0]


def _check(op, x, q, niter):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument 'x' expected a Tensor, got {type(x).__name__}")
    if x.ndim < 2 or not x.dtype.is_floating_point:
        raise _errors.InvalidArgument(f"{op}: argument 'x' expected a float tensor [*, m, n], got "
                                      f"{x.dtype.name} of shape {x.shape}")
    m, n = x.shape[-2:]
    q = min(6, m, n) if q is None else q
    if not isinstance(q, int) or q < 0 or q > min(m, n):
        raise _errors.InvalidArgument(f"{op}: argument 'q' expected a non-negative integer not "
                                      f"greater than min(m, n) = {min(m, n)}, got {q}")
    if not isinstance(niter, int) or niter < 0:
        raise _errors.InvalidArgument(f"{op}: argument 'niter' expected a non-negative integer, "
                                      f"got {niter}")
    return q


def _lowrank(x, q, niter, mean):
    a_t = _mT(x)

    def times(r):  # (A - M) r
        out = _ops.matmul(x, r, False, False)
        return out if mean is None else _ops.subtract(out, _ops.matmul(mean, r, False, False))

    def t_times(r):  # (A - M)^T r; a one-row M stands for its rows broadcast: M^T (1^T r)
        out = _ops.matmul(a_t, r, False, False)
        if mean is None:
            return out
        if mean.shape[-2] != x.shape[-2]:
            r = _ops.sum(r, [-2], None, True)
        return _ops.subtract(out, _ops.matmul(_mT(mean), r, False, False))

    n = x.shape[-1]
    g = _ops.gaussian(list(x.shape[:-2]) + [n, q], 0.0, 1.0, 0, x.dtype)
    basis = _orthonormal(times(g))
    for _ in range(niter):
        basis = _orthonormal(times(_orthonormal(t_times(basis))))
    b = _mT(t_times(basis))  # Q^T (A - M): [*, q, n]
    u_b, s, vh = _ops.svd(b, False)
    return _ops.matmul(basis, u_b, False, False), s, _mT(vh)


def svd_lowrank(x, q=None, niter=2, M=None, name=None):
    """(U [*, m, q], S [*, q], V [*, n, q]) with x - M ~ U diag(S) V^T; q defaults to
    min(6, m, n)."""
    q = _check("svd_lowrank", x, q, niter)
    if M is not None and not isinstance(M, _T):
        raise _errors.InvalidType(f"svd_lowrank: argument 'M' expected a Tensor, got "
                                  f"{type(M).__name__}")
    return _lowrank(x, q, niter, M)


def pca_lowrank(x, q=None, center=True, niter=2, name=None):
    """svd_lowrank of x with its column means removed (center=True): the principal directions
    are V's columns, the variances S^2 / (m - 1)."""
    q = _check("pca_lowrank", x, q, niter)
    mean = _ops.mean(x, [-2], True) if center else None
    return _lowrank(x, q, niter, mean)
