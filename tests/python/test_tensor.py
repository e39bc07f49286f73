"""skiff.Tensor: properties, numpy interop, operators, methods, printing, conversions."""
import math

import numpy as np
import pytest

import skiff

try:
    import torch
except ImportError:
    torch = None


def test_properties():
    x = skiff.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.shape == [2, 3]
    assert x.dtype == skiff.float32
    assert str(x.dtype) == "paddle.float32"
    assert x.place == skiff.CPUPlace()
    assert repr(x.place) == "Place(cpu)"
    assert x.ndim == 2 and x.dim() == 2 and x.size == 6
    assert int(x.numel()) == 6
    assert x.stop_gradient and x.is_leaf and x.grad is None
    assert len(x) == 2
    assert x.T.shape == [3, 2]


def test_dtype_inference_and_default_dtype():
    assert skiff.to_tensor(1.5).dtype == skiff.float32
    assert skiff.to_tensor(3).dtype == skiff.int64
    assert skiff.to_tensor(True).dtype == skiff.bool
    assert skiff.to_tensor(np.zeros(3)).dtype == skiff.float64  # numpy keeps its dtype
    assert skiff.to_tensor([1, 2], dtype="float64").dtype == skiff.float64
    assert skiff.to_tensor([1, 2], dtype=np.float16).dtype == skiff.float16
    skiff.set_default_dtype("float64")
    try:
        assert skiff.get_default_dtype() == "float64"
        assert skiff.to_tensor([1.0]).dtype == skiff.float64
        assert skiff.zeros([2]).dtype == skiff.float64
        assert skiff.rand([2]).dtype == skiff.float64
    finally:
        skiff.set_default_dtype("float32")
    assert skiff.zeros([2]).dtype == skiff.float32


def test_dtype_objects():
    assert skiff.float32 == "float32" and skiff.float32 == np.float32
    assert skiff.float32 != skiff.float64
    assert skiff.bfloat16.name == "bfloat16" and skiff.int64.itemsize == 8
    assert len({skiff.float32, skiff.float32, skiff.int8}) == 2


def test_numpy_roundtrip_and_sharing():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    t = skiff.to_tensor(a)
    a[0, 0] = 100.0  # to_tensor copied the writable array
    assert t.numpy()[0, 0] == 0.0
    c = t.numpy()  # Paddle's numpy(): an array of its own, writable
    assert c.flags.writeable
    c[0, 0] = 7.0
    assert t.numpy()[0, 0] == 0.0
    v = np.asarray(t)  # __array__: a read-only view of the tensor's memory, no copy
    assert not v.flags.writeable
    assert np.shares_memory(v, np.asarray(t))
    assert not np.shares_memory(v, t.numpy())
    w = np.array(t)  # __array__ + np.array's copy: writable
    w[0, 0] = 5
    assert t.numpy()[0, 0] == 0.0
    back = skiff.to_tensor(v)  # read-only array of the right dtype: shared, no copy
    assert back.data_ptr() == t.data_ptr()
    tt = t.transpose([1, 0])  # a strided view: numpy() copies it (writable)
    np.testing.assert_array_equal(tt.numpy(), np.arange(6, dtype=np.float32).reshape(2, 3).T)
    assert tt.numpy().flags.writeable


def test_numpy_dtypes():
    for dt in [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.int64, np.float16, np.float32,
               np.float64]:
        a = (np.arange(6) % 2).astype(dt).reshape(2, 3)
        t = skiff.to_tensor(a)
        assert t.numpy().dtype == dt
        np.testing.assert_array_equal(t.numpy(), a)
    b = skiff.to_tensor([1.5, 2.25], dtype="bfloat16")
    assert b.dtype == skiff.bfloat16
    np.testing.assert_array_equal(b.numpy(), np.array([1.5, 2.25], np.float32))
    nc = np.arange(12.0).reshape(3, 4)[:, ::2]  # strided input is copied correctly
    np.testing.assert_array_equal(skiff.to_tensor(nc).numpy(), nc)
    with pytest.raises(TypeError, match="uint32"):
        skiff.to_tensor(np.zeros(2, np.uint32))
    assert skiff.to_tensor(np.zeros(2, np.complex128)).dtype == skiff.complex128


def test_item_tolist_conversions():
    x = skiff.to_tensor([[1, 2], [3, 4]])
    assert x.tolist() == [[1, 2], [3, 4]]
    assert x[1, 0].item() == 3
    assert x.item(3) == 4
    s = skiff.to_tensor(2.5)
    assert float(s) == 2.5 and int(s) == 2 and bool(s)
    assert [1, 2, 3][skiff.to_tensor(1)] == 2  # __index__
    with pytest.raises(ValueError, match="exactly one element"):
        bool(x)
    with pytest.raises(TypeError, match="0-D"):
        len(s)
    assert [r.tolist() for r in x] == [[1, 2], [3, 4]]
    assert f"{s:.2f}" == "2.50"


def test_repr_paddle_form():
    x = skiff.to_tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert repr(x) == ("Tensor(shape=[2, 3], dtype=float32, place=Place(cpu), stop_gradient=True,\n"
                       "       [[1., 2., 3.],\n"
                       "        [4., 5., 6.]])")
    s = skiff.to_tensor(7, dtype="int32")
    s2 = skiff.to_tensor([1.0])
    s2.stop_gradient = False
    assert repr(s) == "Tensor(shape=[], dtype=int32, place=Place(cpu), stop_gradient=True,\n       7)"
    assert "stop_gradient=False" in str(s2)


def _np(t):
    return t.numpy() if isinstance(t, skiff.Tensor) else t


OPERATORS = [
    ("+", lambda a, b: a + b), ("-", lambda a, b: a - b), ("*", lambda a, b: a * b),
    ("/", lambda a, b: a / b), ("//", lambda a, b: a // b), ("%", lambda a, b: a % b),
    ("**", lambda a, b: a ** b), ("==", lambda a, b: a == b), ("!=", lambda a, b: a != b),
    ("<", lambda a, b: a < b), ("<=", lambda a, b: a <= b), (">", lambda a, b: a > b),
    (">=", lambda a, b: a >= b),
]


@pytest.mark.parametrize("name,op", OPERATORS, ids=[o[0] for o in OPERATORS])
def test_binary_operators(name, op):
    a = np.array([[1.5, 2.0, 3.0], [4.0, 5.5, 6.0]], np.float32)
    b = np.array([2.0, 0.5, 4.0], np.float32)
    ta, tb = skiff.to_tensor(a), skiff.to_tensor(b)
    np.testing.assert_allclose(_np(op(ta, tb)), op(a, b), rtol=1e-6)
    np.testing.assert_allclose(_np(op(ta, 2.0)), op(a, np.float32(2.0)), rtol=1e-6)  # scalar
    np.testing.assert_allclose(_np(op(3.0, tb)), op(np.float32(3.0), b), rtol=1e-6)  # reflected


def test_scalar_promotion_follows_paddle():
    i = skiff.to_tensor([1, 2, 3])
    assert (i + 1).dtype == skiff.int64
    assert (i + 1.5).dtype == skiff.float32  # int tensor with a float scalar: default float
    assert (i / 2).dtype == skiff.float32  # true division
    h = skiff.to_tensor([1.0], dtype="float16")
    assert (h * 2.0).dtype == skiff.float16  # a scalar does not widen a float tensor
    assert (h + skiff.to_tensor([1.0])).dtype == skiff.float32  # tensors promote
    assert (2 ** skiff.to_tensor([1.0, 2.0])).numpy().tolist() == [2.0, 4.0]


def test_unary_logic_matmul_operators():
    a = skiff.to_tensor([[1.0, -2.0], [3.0, -4.0]])
    np.testing.assert_array_equal((-a).numpy(), -a.numpy())
    np.testing.assert_array_equal(abs(a).numpy(), np.abs(a.numpy()))
    np.testing.assert_allclose((a @ a).numpy(), a.numpy() @ a.numpy())
    m = a > 0
    assert (~m).numpy().tolist() == [[False, True], [False, True]]
    assert (m & (a < 2)).numpy().tolist() == [[True, False], [False, False]]
    assert (m | (a < -3)).numpy().tolist() == [[True, False], [True, True]]
    i = skiff.to_tensor([6, 3])
    assert (i & 5).numpy().tolist() == [4, 1] and (~i).numpy().tolist() == [-7, -4]
    assert (a == None) is False  # noqa: E711


def test_methods_mirror_functions():
    x = skiff.to_tensor(np.arange(12.0).reshape(3, 4))
    np.testing.assert_array_equal(x.sum().numpy(), 66.0)
    np.testing.assert_array_equal(x.sum(axis=1).numpy(), [6.0, 22.0, 38.0])
    np.testing.assert_array_equal(x.mean(1, keepdim=True).numpy(), [[1.5], [5.5], [9.5]])
    assert x.reshape([4, 3]).shape == [4, 3]
    assert x.transpose([1, 0]).shape == [4, 3]
    assert x.unsqueeze(0).shape == [1, 3, 4]
    assert x.astype("int32").dtype == skiff.int32
    assert x.cast(skiff.float16).dtype == skiff.float16
    assert x.max().item() == 11.0 and x.argmax().item() == 11
    assert x.argmax(axis=0).numpy().tolist() == [2, 2, 2, 2]
    v, i = x.topk(2)
    assert i.numpy().tolist() == [[3, 2], [3, 2], [3, 2]]
    assert [p.shape for p in x.split(2, axis=1)] == [[3, 2], [3, 2]]
    assert [p.shape for p in x.split([1, -1], axis=0)] == [[1, 4], [2, 4]]
    np.testing.assert_array_equal(x.clip(2, 5).numpy(), np.clip(x.numpy(), 2, 5))
    np.testing.assert_array_equal(x.clip(max=3).numpy(), np.minimum(x.numpy(), 3))
    np.testing.assert_array_equal(x.pow(2).numpy(), x.numpy() ** 2)
    assert x.sum(name="s").shape == []  # name= is accepted everywhere


def test_detach_clone_set_value():
    x = skiff.to_tensor([1.0, 2.0])
    x.stop_gradient = False
    d = x.detach()
    assert d.stop_gradient and d._share_memory_with(x)
    c = x.clone()
    assert not c.stop_gradient and not c._share_memory_with(x)
    y = skiff.zeros([2])
    y.set_value(np.array([3.0, 4.0], np.float32))
    assert y.numpy().tolist() == [3.0, 4.0]
    with pytest.raises(ValueError, match="set_value"):
        y.set_value(np.zeros(3, np.float32))
    y.fill_(7)
    assert y.numpy().tolist() == [7.0, 7.0]
    y.zero_()
    assert y.numpy().tolist() == [0.0, 0.0]


def test_subclass_keeps_attributes():
    class Param(skiff.Tensor):
        def __init__(self, value, name):
            super().__init__(value)
            self.name = name
            self.trainable = True

    base = skiff.ones([2, 2])
    p = Param(base, "w")
    assert p.name == "w" and p.trainable and isinstance(p, skiff.Tensor)
    assert p._is_same(base)  # Tensor(t) is another handle to t
    p.stop_gradient = False
    y = skiff.matmul(p, p)  # ops accept subclasses
    y.sum().backward()
    np.testing.assert_array_equal(p.grad.numpy(), np.full((2, 2), 4.0))
    p.extra = 3
    assert p.extra == 3
    t = skiff.ones([1])
    assert t.name.startswith("generated_tensor_")
    assert t.persistable is False


def test_to_and_device():
    x = skiff.to_tensor([1, 2])
    assert x.to("float32").dtype == skiff.float32
    assert x.to(dtype="float64").dtype == skiff.float64
    assert x.to("cpu").place == skiff.CPUPlace()
    assert x.cpu().place.is_cpu_place()
    assert skiff.device.get_device() == "cpu"
    assert skiff.is_compiled_with_cuda() in (True, False)


def test_numpy_interop_operators():
    x = skiff.to_tensor([1.0, 2.0])
    y = np.float32(2.0) * x
    assert isinstance(y, skiff.Tensor) and y.numpy().tolist() == [2.0, 4.0]
    assert np.asarray(x).tolist() == [1.0, 2.0]


@pytest.mark.skipif(torch is None, reason="torch is not installed")
def test_matches_torch_composite():
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 5))
    x = skiff.to_tensor(a)
    t = torch.from_numpy(a)
    np.testing.assert_allclose(((x * 2 + 1).exp().sum(1) / 3).numpy(),
                               ((t * 2 + 1).exp().sum(1) / 3).numpy(), rtol=1e-12)
    np.testing.assert_allclose(skiff.linalg.norm(x).numpy(), torch.linalg.norm(t).numpy())
    np.testing.assert_allclose(skiff.linalg.norm(x, p=1, axis=1).numpy(),
                               torch.linalg.vector_norm(t, 1, dim=1).numpy())
    np.testing.assert_allclose(skiff.linalg.matrix_norm(x, p=1).numpy(),
                               torch.linalg.matrix_norm(t, 1).numpy())
    np.testing.assert_allclose(skiff.linalg.matrix_norm(x, p=math.inf).numpy(),
                               torch.linalg.matrix_norm(t, math.inf).numpy())


def test_set_printoptions():
    x = skiff.to_tensor([1.0 / 3.0])
    try:
        skiff.set_printoptions(precision=2)
        assert "0.33]" in repr(x)
    finally:
        skiff.set_printoptions(precision=8)
    assert "0.33333334]" in repr(x)


def test_inplace_methods_and_operators():
    x = skiff.to_tensor([1.0, 4.0])
    y = x.add_(skiff.to_tensor([1.0, 1.0]))
    assert y is x and x.numpy().tolist() == [2.0, 5.0]
    x.sqrt_()
    np.testing.assert_allclose(x.numpy(), np.sqrt([2.0, 5.0]), rtol=1e-6)
    z = skiff.to_tensor([1.0, 2.0])
    ident = id(z)
    v0 = z._inplace_version()
    z += 1
    z *= skiff.to_tensor([2.0, 3.0])
    z -= 1.0
    z /= 2
    assert id(z) == ident and z.numpy().tolist() == [1.5, 4.0]
    assert z._inplace_version() > v0
    assert skiff.exp_(skiff.zeros([2])).numpy().tolist() == [1.0, 1.0]
    assert "add_" in skiff._C.inplace_names()


def test_inplace_autograd_rules():
    w = skiff.to_tensor([1.0, 2.0], stop_gradient=False)
    with pytest.raises(RuntimeError):
        w += 1  # a leaf that requires grad cannot be modified in place
    with skiff.no_grad():
        w += 1  # what optimizers do
    h = w * 2
    h += 1  # a non-leaf: h takes the history of the in-place op
    h.sum().backward()
    assert w.grad.numpy().tolist() == [2.0, 2.0]


def test_pickle_and_deepcopy():
    import copy
    import pickle

    class Param(skiff.Tensor):
        pass

    x = skiff.to_tensor([[1.0, 2.0]], dtype="bfloat16")
    x.stop_gradient = False
    x.tag = "w"
    y = pickle.loads(pickle.dumps(x))
    assert y.dtype == skiff.bfloat16 and y.numpy().tolist() == [[1.0, 2.0]]
    assert not y.stop_gradient and y.tag == "w"
    p = Param(skiff.ones([2]))
    p.name = "p0"
    q = copy.deepcopy(p)
    assert type(q) is Param and q.name == "p0" and not q._share_memory_with(p)
    r = copy.deepcopy(skiff.ones([2]))
    assert r.numpy().tolist() == [1.0, 1.0]
    assert pickle.loads(pickle.dumps(skiff.to_tensor(3))).item() == 3


def test_data_property_and_norm_method():
    x = skiff.to_tensor([3.0, 4.0])
    assert x.data is x
    x.data = np.array([6.0, 8.0], np.float32)
    assert x.numpy().tolist() == [6.0, 8.0]
    assert float(x.norm()) == 10.0
