"""Paddle 3.0's diagonal, product and difference functions as compositions of differentiable ops:
diag, diagflat, diag_embed, mv, kron, cross, trace, tensordot, einsum, cdist, rot90, diff, renorm;
and the Python signatures of the math_functions.yaml records (frac, logit, heaviside, gcd, lcm,
as_strided).

Each is written over the op bindings (skiff._C.ops), so autograd, create_graph and to_static
capture come from the ops it calls. Contractions (tensordot, einsum, mv) end in one matmul of
[batch, M, K] x [batch, K, N] after transposes and reshapes; integer dtypes, which matmul has no
kernel for, multiply and sum instead. Bad arguments raise Paddle's error classes
(`(InvalidArgument) einsum: ...` as ValueError) before any op runs.
"""
import builtins
import math

from .. import _C, _errors

_ops = _C.ops
_T = _C.Tensor

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _shape_str(x):
    return str(list(x.shape))


def _check_tensor(op, arg, x):
    if not isinstance(x, _T):
        raise _errors.InvalidType(f"{op}: argument '{arg}' expected a Tensor, got {type(x).__name__}")


def _reshape(x, shape):
    """reshape to literal sizes. Paddle's reshape reads a 0 as "keep this dim", so a zero-size
    target is made by flatten + unsqueeze + expand instead (still recorded by autograd)."""
    shape = [int(s) for s in shape]
    if 0 not in shape:
        return _ops.reshape(x, shape)
    flat = _ops.flatten(x, 0, -1)  # x has no elements, so rank >= 1
    j = shape.index(0)
    axes = [i for i in range(len(shape)) if i != j]
    return _ops.expand(_ops.unsqueeze(flat, axes), shape) if axes else flat


def _norm_axis(op, arg, axis, rank):
    if not isinstance(axis, int) or isinstance(axis, bool):
        raise _errors.InvalidType(f"{op}: argument '{arg}' expected an int, got {axis!r}")
    if not -rank <= axis < rank:
        raise _errors.InvalidArgument(
            f"{op}: argument '{arg}' expected an axis in [{-rank}, {rank - 1}], got {axis}")
    return axis + rank if axis < 0 else axis


# Diagonals ------------------------------------------------------------------------------------
def diag_embed(input, offset=0, dim1=-2, dim2=-1):  # noqa: A002
    """A tensor whose diagonals (`offset` of the planes of dims dim1 and dim2) are input's last
    dim: out[..., i, i + offset] = input[..., i]; the other elements are zero."""
    _check_tensor("diag_embed", "input", input)
    if input.ndim < 1:
        raise _errors.InvalidArgument(
            f"diag_embed: argument 'input' expected a tensor of rank >= 1, got shape {_shape_str(input)}")
    rank = input.ndim + 1
    d1 = _norm_axis("diag_embed", "dim1", dim1, rank)
    d2 = _norm_axis("diag_embed", "dim2", dim2, rank)
    if d1 == d2:
        raise _errors.InvalidArgument(
            f"diag_embed: argument 'dim2' expected a dim other than dim1 ({dim1}), got {dim2}")
    n = input.shape[-1]
    k = builtins.abs(int(offset))
    eye = _ops.eye(n, n, input.dtype) if input.dtype.name != "bool" else \
        _ops.cast(_ops.eye(n, n, "int32"), "bool")
    mat = _ops.multiply(_ops.unsqueeze(input, [-1]), eye)  # [..., n, n]: input on the diagonal
    if k:
        pads = [0, 0] * (rank - 2)
        pads += [0, k, k, 0] if offset > 0 else [k, 0, 0, k]
        mat = _ops.pad(mat, pads, "constant", 0.0)
    if (d1, d2) == (rank - 2, rank - 1):
        return mat
    from .functions import moveaxis
    return moveaxis(mat, [rank - 2, rank - 1], [d1, d2])


def diag(x, offset=0, padding_value=0, name=None):
    """A 1-D (or 0-D) x: the square matrix with x on diagonal `offset` and padding_value
    elsewhere. A 2-D x: its diagonal `offset` as a 1-D tensor."""
    _check_tensor("diag", "x", x)
    if x.ndim <= 1:
        v = _ops.reshape(x, [1]) if x.ndim == 0 else x
        out = diag_embed(v, offset)
        if padding_value == 0:
            return out
        mask = _ops.cast(diag_embed(_ops.ones_like(v, "int32"), offset), "bool")
        return _ops.where(mask, out, _ops.full([], padding_value, x.dtype))
    if x.ndim == 2:
        return _ops.diagonal(x, offset, 0, 1)
    raise _errors.InvalidArgument(
        f"diag: argument 'x' expected a 0-D, 1-D or 2-D tensor, got shape {_shape_str(x)}")


def diagflat(x, offset=0, name=None):
    """The square matrix with the flattened x on diagonal `offset`."""
    _check_tensor("diagflat", "x", x)
    return diag_embed(_ops.reshape(x, [-1]), offset)


def trace(x, offset=0, axis1=0, axis2=1, name=None):
    """Sum of diagonal `offset` of the planes of dims axis1 and axis2 (0 where it is empty)."""
    _check_tensor("trace", "x", x)
    if x.ndim < 2:
        raise _errors.InvalidArgument(
            f"trace: argument 'x' expected a tensor of rank >= 2, got shape {_shape_str(x)}")
    a1 = _norm_axis("trace", "axis1", axis1, x.ndim)
    a2 = _norm_axis("trace", "axis2", axis2, x.ndim)
    if a1 == a2:
        raise _errors.InvalidArgument(
            f"trace: argument 'axis2' expected an axis other than axis1 ({axis1}), got {axis2}")
    return _ops.sum(_ops.diagonal(x, offset, a1, a2), [-1], None, False)


# Products -------------------------------------------------------------------------------------
def _bmm(a, b):
    """[B, M, K] x [B, K, N] -> [B, M, N]; integer dtypes by multiply and sum."""
    if a.dtype.name in _FLOATS and b.dtype.name in _FLOATS:
        return _ops.matmul(a, b)
    prod = _ops.multiply(_ops.unsqueeze(a, [-1]), _ops.unsqueeze(b, [1]))  # [B, M, K, N]
    return _ops.sum(prod, [2], None, False)


def _prod(sizes):
    p = 1
    for s in sizes:
        p *= s
    return p


def _contract(a, la, b, lb, keep):
    """Contracts a (dims labelled la) with b (labels lb): labels in both and in `keep` are batch
    dims, labels in both and not kept are summed, the rest stay. A shared label whose size is 1
    on one side broadcasts. Returns (result, its labels: batch + a's own + b's own)."""
    la, lb = list(la), list(lb)
    for lab in [lab for lab in la if lab in lb]:
        ia, ib = la.index(lab), lb.index(lab)
        sa, sb = a.shape[ia], b.shape[ib]
        if sa == sb:
            continue
        if lab in keep:  # a batch dim: expand the side of size 1
            if sa == 1:
                a = _ops.expand(a, [sb if i == ia else -1 for i in range(a.ndim)])
            else:
                b = _ops.expand(b, [sa if i == ib else -1 for i in range(b.ndim)])
            continue
        # summed over with size 1 on one side: sum the other side alone
        if sa == 1:
            a, b = _ops.squeeze(a, [ia]), _ops.sum(b, [ib], None, False)
        else:
            a, b = _ops.sum(a, [ia], None, False), _ops.squeeze(b, [ib])
        la.pop(ia)
        lb.pop(ib)
    for labels, side in ((la, "a"), (lb, "b")):  # labels of one side needed nowhere else
        other = lb if side == "a" else la
        gone = [i for i, lab in enumerate(labels) if lab not in other and lab not in keep]
        if gone:
            t = a if side == "a" else b
            t = _ops.sum(t, gone, None, False)
            for i in reversed(gone):
                labels.pop(i)
            if side == "a":
                a = t
            else:
                b = t
    batch = [lab for lab in la if lab in lb and lab in keep]
    summed = [lab for lab in la if lab in lb and lab not in keep]
    a_own = [lab for lab in la if lab not in lb]
    b_own = [lab for lab in lb if lab not in la]
    size = dict(zip(la, a.shape))
    size.update(zip(lb, b.shape))
    at = _ops.transpose(a, [la.index(lab) for lab in batch + a_own + summed])
    bt = _ops.transpose(b, [lb.index(lab) for lab in batch + summed + b_own])
    nb, m, k, n = (_prod(size[lab] for lab in g) for g in (batch, a_own, summed, b_own))
    out = _bmm(_reshape(at, [nb, m, k]), _reshape(bt, [nb, k, n]))
    labels = batch + a_own + b_own
    return _reshape(out, [size[lab] for lab in labels]), labels


def mv(x, vec, name=None):
    """Matrix-vector product of a [M, N] x and a [N] vec: [M]."""
    _check_tensor("mv", "x", x)
    _check_tensor("mv", "vec", vec)
    if x.ndim != 2:
        raise _errors.InvalidArgument(
            f"mv: argument 'x' expected a 2-D tensor, got shape {_shape_str(x)}")
    if vec.ndim != 1:
        raise _errors.InvalidArgument(
            f"mv: argument 'vec' expected a 1-D tensor, got shape {_shape_str(vec)}")
    if x.shape[1] != vec.shape[0]:
        raise _errors.InvalidArgument(
            f"mv: argument 'vec' expected {x.shape[1]} elements (x's columns, x of shape "
            f"{_shape_str(x)}), got shape {_shape_str(vec)}")
    out, _ = _contract(x, "mn", vec, "n", {"m"})
    return out


def kron(x, y, name=None):
    """Kronecker product: out[i * y.shape + j] = x[i] * y[j] per dim (the lower rank padded
    with leading 1s)."""
    _check_tensor("kron", "x", x)
    _check_tensor("kron", "y", y)
    r = builtins.max(x.ndim, y.ndim)
    xs = [1] * (r - x.ndim) + list(x.shape)
    ys = [1] * (r - y.ndim) + list(y.shape)
    xr = _reshape(x, [d for s in xs for d in (s, 1)])
    yr = _reshape(y, [d for s in ys for d in (1, s)])
    return _reshape(_ops.multiply(xr, yr), [a * b for a, b in zip(xs, ys)])


def cross(x, y, axis=9, name=None):
    """Cross product of 3-vectors along `axis` (9, Paddle's default: the first dim of size 3)."""
    _check_tensor("cross", "x", x)
    _check_tensor("cross", "y", y)
    if x.shape != y.shape:
        raise _errors.InvalidArgument(
            f"cross: argument 'y' expected x's shape {_shape_str(x)}, got {_shape_str(y)}")
    if axis == 9 or axis is None:
        axes = [i for i, s in enumerate(x.shape) if s == 3]
        if not axes:
            raise _errors.InvalidArgument(
                f"cross: argument 'x' expected a dim of size 3, got shape {_shape_str(x)}")
        ax = axes[0]
    else:
        ax = _norm_axis("cross", "axis", axis, x.ndim)
        if x.shape[ax] != 3:
            raise _errors.InvalidArgument(
                f"cross: argument 'axis' expected a dim of size 3, got dim {axis} of size "
                f"{x.shape[ax]} (shape {_shape_str(x)})")
    # component i: x[i+1] y[i+2] - x[i+2] y[i+1]
    x1, x2 = _ops.roll(x, [-1], [ax]), _ops.roll(x, [-2], [ax])
    y1, y2 = _ops.roll(y, [-1], [ax]), _ops.roll(y, [-2], [ax])
    return _ops.subtract(_ops.multiply(x1, y2), _ops.multiply(x2, y1))


def _axes_list(op, v):
    if isinstance(v, _T):
        v = v.tolist()
    if isinstance(v, int):
        return [v]
    return [int(a) for a in v]


def tensordot(x, y, axes=2, name=None):
    """Sum of products over the axes pairs `axes` names (Paddle's four forms: an int n, one axis
    list for both, one or two lists in a list, a Tensor); a shorter axis list is extended with the
    longer one's tail; contracted dims of size 1 broadcast."""
    _check_tensor("tensordot", "x", x)
    _check_tensor("tensordot", "y", y)
    if isinstance(axes, _T):
        axes = axes.tolist()
    if isinstance(axes, int) and not isinstance(axes, bool):
        if axes < 0 or axes > builtins.min(x.ndim, y.ndim):
            raise _errors.InvalidArgument(
                f"tensordot: argument 'axes' expected an int in [0, {builtins.min(x.ndim, y.ndim)}] "
                f"(x of rank {x.ndim}, y of rank {y.ndim}), got {axes}")
        ax_x = list(range(x.ndim - axes, x.ndim))
        ax_y = list(range(axes))
    elif isinstance(axes, (list, tuple)):
        seqs = list(axes)
        if not seqs or all(isinstance(a, int) for a in seqs):
            ax_x = ax_y = _axes_list("tensordot", seqs)
        else:
            ax_x = _axes_list("tensordot", seqs[0])
            ax_y = _axes_list("tensordot", seqs[1]) if len(seqs) > 1 else list(ax_x)
    else:
        raise _errors.InvalidType(
            f"tensordot: argument 'axes' expected an int, a list/tuple or a Tensor, got "
            f"{type(axes).__name__}")
    if len(ax_x) < len(ax_y):
        ax_x = ax_x + ax_y[len(ax_x):]
    elif len(ax_y) < len(ax_x):
        ax_y = ax_y + ax_x[len(ax_y):]
    ax_x = [_norm_axis("tensordot", "axes", a, x.ndim) for a in ax_x]
    ax_y = [_norm_axis("tensordot", "axes", a, y.ndim) for a in ax_y]
    if len(set(ax_x)) != len(ax_x) or len(set(ax_y)) != len(ax_y):
        raise _errors.InvalidArgument(
            f"tensordot: argument 'axes' expected distinct axes per tensor, got {ax_x} for x and "
            f"{ax_y} for y")
    for a, b in zip(ax_x, ax_y):
        sa, sb = x.shape[a], y.shape[b]
        if sa != sb and sa != 1 and sb != 1:
            raise _errors.InvalidArgument(
                f"tensordot: argument 'axes' expected contracted dims of equal size (or 1), got "
                f"x dim {a} of size {sa} and y dim {b} of size {sb}")
    # labels: x's dims 0..rx-1; y's contracted dims take x's labels, its others fresh ones
    lx = list(range(x.ndim))
    ly = [None] * y.ndim
    for a, b in zip(ax_x, ax_y):
        ly[b] = a
    fresh = iter(range(x.ndim, x.ndim + y.ndim))
    ly = [lab if lab is not None else next(fresh) for lab in ly]
    keep = {lab for lab in lx if lab not in ax_x} | {lab for lab in ly if lab not in ax_x}
    out, labels = _contract(x, lx, y, ly, keep)
    order = [lab for lab in lx if lab in keep] + [lab for lab in ly if lab in keep]
    return _ops.transpose(out, [labels.index(lab) for lab in order])


# einsum ---------------------------------------------------------------------------------------
def _einsum_error(equation, what):
    return _errors.InvalidArgument(f"einsum: argument 'equation' {what}, got '{equation}'")


def _parse_term(equation, term):
    """Labels of one subscript term: letters, and the string '...' once at most."""
    labels, i = [], 0
    while i < len(term):
        c = term[i]
        if c == ".":
            if term[i:i + 3] != "..." or "..." in labels:
                raise _einsum_error(equation, "expected '...' at most once per term and no other '.'")
            labels.append("...")
            i += 3
            continue
        if not ("a" <= c <= "z" or "A" <= c <= "Z"):
            raise _einsum_error(equation, f"expected letters, ',' '->' and '...' only (found {c!r})")
        labels.append(c)
        i += 1
    return labels


def _einsum_parse(equation, operands):
    eq = equation.replace(" ", "")
    if eq.count("->") > 1:
        raise _einsum_error(equation, "expected '->' at most once")
    lhs, rhs = eq.split("->") if "->" in eq else (eq, None)
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise _einsum_error(equation, f"expected one term per operand ({len(operands)} operands, "
                                      f"{len(terms)} terms)")
    parsed = [_parse_term(equation, t) for t in terms]
    n_ell = []
    for k, (labels, x) in enumerate(zip(parsed, operands)):
        named = len(labels) - ("..." in labels)
        extra = x.ndim - named
        if extra < 0 or (extra > 0 and "..." not in labels):
            raise _einsum_error(equation, f"expected term {k} ('{terms[k]}') to name the {x.ndim} "
                                          f"dims of operand {k} (shape {_shape_str(x)})")
        n_ell.append(extra if "..." in labels else 0)
    ell = builtins.max(n_ell) if n_ell else 0
    # the ellipsis dims get labels 0 .. ell-1, right-aligned across operands (broadcasting)
    expanded = []
    for labels, ne in zip(parsed, n_ell):
        out = []
        for lab in labels:
            out.extend(range(ell - ne, ell) if lab == "..." else [lab])
        expanded.append(out)
    letters = [lab for labels in expanded for lab in labels if isinstance(lab, str)]
    if rhs is None:
        once = sorted({c for c in letters if letters.count(c) == 1})
        out_labels = list(range(ell)) + once
    else:
        out_terms = _parse_term(equation, rhs)
        if ell > 0 and "..." not in out_terms:
            raise _einsum_error(equation, "expected '...' in the output where the operands' "
                                          "'...' stand for dims")
        out_labels = []
        for lab in out_terms:
            if lab == "...":
                out_labels.extend(range(ell))
                continue
            if lab not in letters:
                raise _einsum_error(equation, f"expected output labels that name input dims "
                                              f"('{lab}' names none)")
            if lab in out_labels:
                raise _einsum_error(equation, f"expected each output label once ('{lab}' repeats)")
            out_labels.append(lab)
    return expanded, out_labels


def _einsum_sizes(equation, expanded, operands):
    size = {}
    for labels, x in zip(expanded, operands):
        for lab, s in zip(labels, x.shape):
            if lab not in size or size[lab] == 1:
                size[lab] = s
            elif s != 1 and s != size[lab]:
                name = "..." if isinstance(lab, int) else f"'{lab}'"
                raise _errors.InvalidArgument(
                    f"einsum: argument 'operands' expected equal sizes (or 1) for label {name}, "
                    f"got {size[lab]} and {s} in '{equation}'")
    return size


def _take_diagonals(equation, x, labels):
    """x with each label repeated within its term reduced to the diagonal (one dim)."""
    labels = list(labels)
    while True:
        dup = next((lab for lab in labels if labels.count(lab) > 1), None)
        if dup is None:
            return x, labels
        i = labels.index(dup)
        j = labels.index(dup, i + 1)
        if x.shape[i] != x.shape[j]:
            raise _errors.InvalidArgument(
                f"einsum: argument 'operands' expected equal sizes for the repeated label "
                f"'{dup}', got {x.shape[i]} and {x.shape[j]} in '{equation}'")
        x = _ops.diagonal(x, 0, i, j)  # the diagonal becomes the last dim
        labels = [lab for k, lab in enumerate(labels) if k not in (i, j)] + [dup]


def _cheapest_pair(ops, out_labels, size):
    """The operand pair (i < j) whose contraction result is smallest (the first such pair on
    ties, so two operands, or a chain, go left to right), and the labels it must keep."""
    best = None
    for i in range(len(ops)):
        for j in range(i + 1, len(ops)):
            keep = set(out_labels).union(*[set(lb) for k, (_, lb) in enumerate(ops) if k not in (i, j)])
            labels = {lab for lab in list(ops[i][1]) + list(ops[j][1]) if lab in keep}
            cost = _prod(size[lab] for lab in labels)
            if best is None or cost < best[0]:
                best = (cost, i, j, keep)
    return best[1], best[2], best[3]


def einsum(equation, *operands):
    """Einstein summation over the operands (numpy's subscripts: implicit output, '->', '...'
    broadcasting, repeated labels for diagonals, labels summed where the output lacks them).
    Operands are contracted pairwise, each pair in one matmul, the pair with the smallest result
    first (greedy), so no needless outer product is formed."""
    if not isinstance(equation, str):
        raise _errors.InvalidType(f"einsum: argument 'equation' expected a str, got "
                                  f"{type(equation).__name__}")
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    if not operands:
        raise _errors.InvalidArgument("einsum: argument 'operands' expected at least one Tensor, "
                                      "got none")
    for k, x in enumerate(operands):
        _check_tensor("einsum", f"operands[{k}]", x)
    expanded, out_labels = _einsum_parse(equation, operands)
    size = _einsum_sizes(equation, expanded, operands)
    ops = []
    for k, (x, labels) in enumerate(zip(operands, expanded)):
        x, labels = _take_diagonals(equation, x, labels)
        later = set(out_labels).union(*[set(e) for i, e in enumerate(expanded) if i != k])
        gone = [i for i, lab in enumerate(labels) if lab not in later]
        if gone:  # labels of this operand alone, summed over now
            x = _ops.sum(x, gone, None, False)
            labels = [lab for i, lab in enumerate(labels) if i not in gone]
        ops.append((x, labels))
    while len(ops) > 1:
        i, j, keep = _cheapest_pair(ops, out_labels, size)
        merged = _contract(ops[i][0], ops[i][1], ops[j][0], ops[j][1], keep)
        ops = ops[:i] + [merged] + ops[i + 1:j] + ops[j + 1:]
    acc, la = ops[0]
    gone = [i for i, lab in enumerate(la) if lab not in out_labels]
    if gone:
        acc = _ops.sum(acc, gone, None, False)
        la = [lab for i, lab in enumerate(la) if i not in gone]
    perm = [la.index(lab) for lab in out_labels]
    if perm != list(range(len(perm))):
        acc = _ops.transpose(acc, perm)
    return acc


# Distances, rotation, differences --------------------------------------------------------------
_CDIST_MODES = ("use_mm_for_euclid_dist_if_necessary", "use_mm_for_euclid_dist",
                "donot_use_mm_for_euclid_dist")


def _safe_root(s, p):
    """s ** (1/p) with a zero gradient where s is 0 (distance 0), as torch's cdist."""
    zero = _ops.equal(s, _ops.zeros_like(s))
    safe = _ops.where(zero, _ops.ones_like(s), s)
    root = _ops.sqrt(safe) if p == 2.0 else _ops.pow(safe, 1.0 / p)
    return _ops.where(zero, _ops.zeros_like(s), root)


def cdist(x, y, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary", name=None):
    """p-norm distances between the rows of x [*, P, M] and y [*, R, M]: [*, P, R] (batch dims
    broadcast). For p = 2 with more than 25 rows (or 'use_mm_for_euclid_dist') the squared
    distances come from one matmul: |x|^2 + |y|^2 - 2 x y^T, clipped at 0."""
    _check_tensor("cdist", "x", x)
    _check_tensor("cdist", "y", y)
    if x.ndim < 2 or y.ndim < 2:
        bad, t = ("x", x) if x.ndim < 2 else ("y", y)
        raise _errors.InvalidArgument(
            f"cdist: argument '{bad}' expected a tensor of rank >= 2, got shape {_shape_str(t)}")
    if x.shape[-1] != y.shape[-1]:
        raise _errors.InvalidArgument(
            f"cdist: argument 'y' expected {x.shape[-1]} columns (x's, shape {_shape_str(x)}), got "
            f"shape {_shape_str(y)}")
    if not isinstance(p, (int, float)) or isinstance(p, bool) or p < 0 or math.isnan(p):
        raise _errors.InvalidArgument(f"cdist: argument 'p' expected a number >= 0, got {p!r}")
    if compute_mode not in _CDIST_MODES:
        raise _errors.InvalidArgument(
            f"cdist: argument 'compute_mode' expected one of {', '.join(_CDIST_MODES)}, got "
            f"{compute_mode!r}")
    from .creation import _broadcast_shape
    batch = _broadcast_shape(list(x.shape[:-2]), list(y.shape[:-2]))
    r1, r2, c = x.shape[-2], y.shape[-2], x.shape[-1]
    x = _ops.expand(x, batch + [r1, c]) if list(x.shape[:-2]) != batch else x
    y = _ops.expand(y, batch + [r2, c]) if list(y.shape[:-2]) != batch else y
    p = float(p)
    use_mm = p == 2.0 and (compute_mode == _CDIST_MODES[1] or
                           (compute_mode == _CDIST_MODES[0] and (r1 > 25 or r2 > 25)))
    if use_mm and c > 0 and x.dtype.name in _FLOATS:
        xn = _ops.sum(_ops.square(x), [-1], None, True)                   # [*, P, 1]
        yn = _ops.sum(_ops.square(y), [-1], None, True)                   # [*, R, 1]
        xy = _ops.matmul(x, y, False, True)                               # [*, P, R]
        sq = _ops.add(_ops.add(_ops.scale(xy, -2.0, 0.0, True), xn),
                      _ops.transpose(yn, list(range(yn.ndim - 2)) + [yn.ndim - 1, yn.ndim - 2]))
        return _safe_root(_ops.maximum(sq, _ops.zeros_like(sq)), 2.0)
    d = _ops.abs(_ops.subtract(_ops.unsqueeze(x, [-2]), _ops.unsqueeze(y, [-3])))  # [*, P, R, M]
    if math.isinf(p):
        if c == 0:
            return _ops.sum(d, [-1], None, False)
        return _ops.amax(d, [-1], False)
    if p == 0.0:
        return _ops.sum(_ops.cast(_ops.not_equal(d, _ops.zeros_like(d)), d.dtype), [-1], None, False)
    if p == 1.0:
        return _ops.sum(d, [-1], None, False)
    s = _ops.sum(_ops.square(d) if p == 2.0 else _ops.pow(d, p), [-1], None, False)
    return _safe_root(s, p)


def rot90(x, k=1, axes=[0, 1], name=None):  # noqa: B006 (Paddle's default)
    """x rotated by k * 90 degrees in the plane of `axes`, from axes[0] towards axes[1]."""
    _check_tensor("rot90", "x", x)
    axes = list(axes)
    if len(axes) != 2:
        raise _errors.InvalidArgument(
            f"rot90: argument 'axes' expected 2 axes, got {axes}")
    if x.ndim < 2:
        raise _errors.InvalidArgument(
            f"rot90: argument 'x' expected a tensor of rank >= 2, got shape {_shape_str(x)}")
    a0 = _norm_axis("rot90", "axes", axes[0], x.ndim)
    a1 = _norm_axis("rot90", "axes", axes[1], x.ndim)
    if a0 == a1:
        raise _errors.InvalidArgument(
            f"rot90: argument 'axes' expected two different axes, got {axes}")
    k = int(k) % 4
    if k == 0:
        return x
    if k == 2:
        return _ops.flip(x, [a0, a1])
    perm = list(range(x.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return _ops.transpose(_ops.flip(x, [a1]), perm)
    return _ops.flip(_ops.transpose(x, perm), [a1])


def diff(x, n=1, axis=-1, prepend=None, append=None, name=None):
    """The n-th forward difference along `axis`: out[i] = x[i + 1] - x[i], applied n times, after
    prepend and append are concatenated to x along `axis` (bool: logical_xor)."""
    _check_tensor("diff", "x", x)
    if x.ndim < 1:
        raise _errors.InvalidArgument(
            f"diff: argument 'x' expected a tensor of rank >= 1, got shape {_shape_str(x)}")
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise _errors.InvalidArgument(f"diff: argument 'n' expected an int >= 0, got {n!r}")
    ax = _norm_axis("diff", "axis", axis, x.ndim)
    parts = []
    for arg, t in (("prepend", prepend), (None, x), ("append", append)):
        if t is None:
            continue
        if arg is not None:
            _check_tensor("diff", arg, t)
            if t.ndim != x.ndim:
                raise _errors.InvalidArgument(
                    f"diff: argument '{arg}' expected x's rank {x.ndim}, got shape {_shape_str(t)}")
            if t.dtype != x.dtype:
                t = _ops.cast(t, x.dtype)
        parts.append(t)
    out = _ops.concat(parts, ax) if len(parts) > 1 else x
    is_bool = out.dtype.name == "bool"
    for _ in range(n):
        length = out.shape[ax]
        if length == 0:
            break
        hi = _ops.slice(out, [ax], [1], [length], [])
        lo = _ops.slice(out, [ax], [0], [length - 1], [])
        out = _ops.logical_xor(hi, lo) if is_bool else _ops.subtract(hi, lo)
    return out


def _renorm_factor(x, p, axis, max_norm, op):
    """Per slice along `axis`: max_norm / norm where the p-norm exceeds max_norm, else 1 (dims
    kept, so it broadcasts against x)."""
    _check_tensor(op, "x", x)
    ax = _norm_axis(op, "axis", axis, x.ndim)
    if not isinstance(p, (int, float)) or isinstance(p, bool) or not p > 0:
        raise _errors.InvalidArgument(f"{op}: argument 'p' expected a number > 0, got {p!r}")
    if not isinstance(max_norm, (int, float)) or isinstance(max_norm, bool) or not max_norm >= 0:
        raise _errors.InvalidArgument(
            f"{op}: argument 'max_norm' expected a number >= 0, got {max_norm!r}")
    p = float(p)
    others = [d for d in range(x.ndim) if d != ax]
    a = _ops.abs(x)
    if math.isinf(p):
        norm = _ops.amax(a, others, True) if others else a
    else:
        powered = a if p == 1.0 else _ops.pow(a, p)
        norm = _safe_root(_ops.sum(powered, others, None, True) if others else powered, p)
    over = _ops.greater_than(norm, _ops.full([], max_norm, norm.dtype))
    denom = _ops.where(over, norm, _ops.ones_like(norm))
    return _ops.where(over, _ops.divide(_ops.full([], max_norm, norm.dtype), denom),
                      _ops.ones_like(norm))


def renorm(x, p, axis, max_norm):
    """Each slice of x along `axis` whose p-norm exceeds max_norm, scaled to norm max_norm."""
    return _ops.multiply(x, _renorm_factor(x, p, axis, max_norm, "renorm"))


def renorm_(x, p, axis, max_norm):
    """renorm written into x. The factor is computed from a copy of x, so the in-place multiply
    leaves the factor's saved inputs intact and the gradient flows through both."""
    _check_tensor("renorm_", "x", x)
    return _ops.multiply_(x, _renorm_factor(_ops.assign(x), p, axis, max_norm, "renorm_"))


# Python signatures of the math_functions.yaml records -----------------------------------------
from .. import _op_functions as _f  # noqa: E402

frac = _f.frac
heaviside = _f.heaviside
gcd = _f.gcd
lcm = _f.lcm


def logit(x, eps=None, name=None):
    """log(z / (1 - z)) with z = x clamped to [eps, 1 - eps] (not clamped when eps is None)."""
    return _ops.logit(x, 0.0 if eps is None else eps)


def logit_(x, eps=None, name=None):
    """logit written into x."""
    return _ops.logit_(x, 0.0 if eps is None else eps)


def as_strided(x, shape, stride, offset=0, name=None):
    """A view of x's elements (row-major from its first one) with dims `shape`, element strides
    `stride` and element `offset`; every position must lie inside x."""
    _check_tensor("as_strided", "x", x)
    return _ops.as_strided(x, list(shape), list(stride), offset)


_METHODS = ["diag", "diagflat", "diag_embed", "mv", "kron", "cross", "trace", "tensordot",
            "cdist", "rot90", "diff", "renorm", "renorm_", "frac", "logit", "logit_", "heaviside", "gcd",
            "lcm", "as_strided"]

__all__ = _METHODS + ["einsum"]
