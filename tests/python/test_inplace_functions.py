"""Paddle's in-place variants composed in Python (python/skiff/tensor/inplace_functions.py):
values against torch, the object returned is x itself, x's memory is written (views see it),
the inplace version goes up by one, gradients through the rebased history, and the refusals
(a leaf that requires grad, a broadcast that would grow x, a dtype that cannot change)."""
import numpy as np
import pytest
import torch

import skiff as paddle

RNG = np.random.default_rng(0)
A = RNG.standard_normal((3, 4)).astype("float32")
I1 = RNG.integers(-8, 8, (3, 4)).astype("int32")
I2 = RNG.integers(-8, 8, (3, 4)).astype("int32")
I2[I2 == 0] = 3

SAME = [  # name, paddle args after x, torch function of (x, *args)
    ("bitwise_and_", I1, [I2], torch.bitwise_and),
    ("bitwise_or_", I1, [I2], torch.bitwise_or),
    ("bitwise_xor_", I1, [I2], torch.bitwise_xor),
    ("floor_mod_", I1, [I2], torch.remainder),
    ("mod_", I1, [I2], torch.remainder),
    ("bitwise_not_", I1, [], torch.bitwise_not),
    ("log10_", np.abs(A) + 0.5, [], torch.log10),
    ("cumsum_", A, [1], lambda x, a: torch.cumsum(x, a)),
    ("cumprod_", A, [0], lambda x, a: torch.cumprod(x, a)),
]


def _arg(a):
    return paddle.to_tensor(a) if isinstance(a, np.ndarray) else a


def _targ(a):
    return torch.from_numpy(a) if isinstance(a, np.ndarray) else a


@pytest.mark.parametrize("name,x0,args,ref", SAME, ids=[s[0] for s in SAME])
def test_same_shape_inplace_writes_x_memory(name, x0, args, ref):
    x = paddle.to_tensor(x0)
    view = x[1]  # a view of x's memory sees the write
    v0 = x._inplace_version()
    out = getattr(x, name)(*[_arg(a) for a in args])
    assert out is x
    assert x._inplace_version() == v0 + 1
    want = ref(torch.from_numpy(x0.copy()), *[_targ(a) for a in args]).numpy()
    np.testing.assert_allclose(x.numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(view.numpy(), want[1], rtol=1e-6)
    # the function form is the same
    y = paddle.to_tensor(x0)
    assert getattr(paddle, name)(y, *[_arg(a) for a in args]) is y
    np.testing.assert_allclose(y.numpy(), want, rtol=1e-6)


COMPARE = ["equal_", "not_equal_", "less_than_", "less_equal_", "greater_than_",
           "greater_equal_", "logical_and_", "logical_or_", "logical_xor_"]
TORCH_COMPARE = [torch.eq, torch.ne, torch.lt, torch.le, torch.gt, torch.ge, torch.logical_and,
                 torch.logical_or, torch.logical_xor]


@pytest.mark.parametrize("name,ref", list(zip(COMPARE, TORCH_COMPARE)), ids=COMPARE)
def test_compare_and_logical_inplace_retype_x_to_bool(name, ref):
    # Paddle's in-place comparison kernels set x's dtype to bool
    x = paddle.to_tensor(I1)
    out = getattr(paddle, name)(x, paddle.to_tensor(I2))
    assert out is x and x.dtype == paddle.bool and x._inplace_version() == 1
    np.testing.assert_array_equal(x.numpy(), ref(torch.from_numpy(I1), torch.from_numpy(I2)).numpy())
    y = paddle.to_tensor(I1)
    getattr(y, name)(paddle.to_tensor(I2[0]))  # y broadcasts into x's shape
    np.testing.assert_array_equal(y.numpy(), ref(torch.from_numpy(I1), torch.from_numpy(I2[0])).numpy())


def test_logical_not_():
    x = paddle.to_tensor([0, 2, 0])
    assert x.logical_not_() is x
    assert x.dtype == paddle.bool
    np.testing.assert_array_equal(x.numpy(), [True, False, True])


def test_broadcast_that_grows_x_is_refused():
    x = paddle.to_tensor(I1[0])
    with pytest.raises(ValueError, match=r"equal_: the shape of broadcast output \[3, 4\] is "
                                         r"different from that of inplace tensor \[4\]"):
        x.equal_(paddle.to_tensor(I2))
    with pytest.raises(ValueError, match="bitwise_and_: the shape of broadcast output"):
        x.bitwise_and_(paddle.to_tensor(I2))
    assert x.dtype == paddle.int32 and x._inplace_version() == 0


def test_dtype_that_cannot_change_is_refused():
    x = paddle.to_tensor([1, 10, 100])
    with pytest.raises(TypeError, match=r"\(InvalidType\) log10_: argument 'x' expected the "
                                        r"result's dtype float32 \(in place, the dtype cannot "
                                        r"change\), got int64"):
        x.log10_()


def test_leaf_that_requires_grad_is_refused():
    for name, args in [("cumsum_", [0]), ("reshape_", [[12]]), ("cast_", ["float64"]),
                       ("equal_", [paddle.to_tensor(A)]), ("t_", [])]:
        x = paddle.to_tensor(A if name != "t_" else A[:, :2].copy(), stop_gradient=False)
        with pytest.raises(RuntimeError, match=rf"\(PreconditionNotMet\) {name}: argument 'x' "
                                               r"expected a tensor that is not a leaf requiring "
                                               r"grad"):
            getattr(x, name)(*args)
        with paddle.no_grad():  # what optimizers do: allowed without autograd
            getattr(x, name)(*args)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_cumsum_cumprod_gradients_through_rebased_history(dtype):
    a = A.astype(dtype)
    for name, tname in [("cumsum_", torch.cumsum), ("cumprod_", torch.cumprod)]:
        x = paddle.to_tensor(a, stop_gradient=False)
        y = x * 2.0
        getattr(y, name)(1)
        (y * y).sum().backward()
        tx = torch.tensor(a, requires_grad=True)
        ty = tname(tx * 2.0, 1)
        (ty * ty).sum().backward()
        np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=1e-5)
        np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-4)


def test_cumsum_axis_none_flattens_x_and_dtype_retypes_it():
    x = paddle.to_tensor(I1)
    x.cumsum_()
    assert x.shape == [12] and x._inplace_version() == 1
    np.testing.assert_array_equal(x.numpy(), np.cumsum(I1))
    y = paddle.to_tensor(I1)
    y.cumsum_(0, "int64")
    assert y.dtype == paddle.int64
    np.testing.assert_array_equal(y.numpy(), np.cumsum(I1, 0))


VIEWS = [  # name, args, torch reference of x
    ("reshape_", [[4, 3]], lambda t: t.reshape(4, 3)),
    ("squeeze_", [], lambda t: t.squeeze()),
    ("unsqueeze_", [0], lambda t: t.unsqueeze(0)),
    ("flatten_", [], lambda t: t.flatten()),
    ("transpose_", [[1, 0, 2]], lambda t: t.permute(1, 0, 2)),
]


@pytest.mark.parametrize("name,args,ref", VIEWS, ids=[v[0] for v in VIEWS])
def test_view_inplace_reshapes_x_sharing_its_memory(name, args, ref):
    a = A.reshape(3, 1, 4) if name != "reshape_" else A
    x = paddle.to_tensor(a)
    keep = paddle.Tensor(x)  # another handle to x's old memory
    out = getattr(x, name)(*args)
    assert out is x and x._inplace_version() == 1
    np.testing.assert_array_equal(x.numpy(), ref(torch.from_numpy(a)).numpy())
    assert x._share_memory_with(keep)
    with paddle.no_grad():
        x.scale_(2.0)
    np.testing.assert_array_equal(keep.numpy(), 2 * a)


def test_t_():
    x = paddle.to_tensor([[1, 2, 3], [4, 5, 6]])
    assert paddle.t_(x) is x
    np.testing.assert_array_equal(x.numpy(), [[1, 4], [2, 5], [3, 6]])
    with pytest.raises(ValueError):
        paddle.to_tensor(np.zeros((2, 2, 2))).t_()


def test_view_inplace_gradient_and_later_inplace_write():
    x = paddle.to_tensor(A, stop_gradient=False)
    y = x * 3.0
    y.reshape_([12])
    y.exp_()  # an in-place write through the reshaped tensor rebases its history again
    y.sum().backward()
    tx = torch.tensor(A, requires_grad=True)
    torch.exp((tx * 3.0).reshape(12)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-5)


def test_cast_():
    x = paddle.to_tensor([1.5, -2.5, 3.0])
    assert paddle.cast_(x, "int32") is x
    assert x.dtype == paddle.int32 and x._inplace_version() == 1
    np.testing.assert_array_equal(x.numpy(), [1, -2, 3])
    p = paddle.to_tensor(A, stop_gradient=False)
    y = p * 1.0
    y.cast_("float64")
    (y * y).sum().backward()
    np.testing.assert_allclose(p.grad.numpy(), 2 * A, rtol=1e-6)
    with paddle.no_grad():
        p.cast_("float64")
    assert p.dtype == paddle.float64 and not p.stop_gradient


def test_addmm_():
    inp = RNG.standard_normal((2, 3)).astype("float32")
    a = RNG.standard_normal((2, 4)).astype("float32")
    b = RNG.standard_normal((4, 3)).astype("float32")
    x = paddle.to_tensor(inp)
    assert paddle.addmm_(x, paddle.to_tensor(a), paddle.to_tensor(b), beta=0.5, alpha=2.0) is x
    want = torch.addmm(torch.from_numpy(inp), torch.from_numpy(a), torch.from_numpy(b), beta=0.5,
                       alpha=2.0)
    np.testing.assert_allclose(x.numpy(), want.numpy(), rtol=1e-5)
    x = paddle.to_tensor(inp[0])
    with pytest.raises(ValueError, match=r"addmm_: argument 'x' expected the result's shape "
                                         r"\[2, 3\]"):
        x.addmm_(paddle.to_tensor(a), paddle.to_tensor(b))


def test_not_a_tensor_is_refused():
    with pytest.raises(TypeError, match=r"\(InvalidType\) cumsum_: argument 'x' expected a "
                                        r"Tensor, got list"):
        paddle.cumsum_([1, 2])
