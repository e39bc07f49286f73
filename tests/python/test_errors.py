"""C++ errors reach Python as the exception Paddle raises for their error class, with the same
message; Python-side argument errors name the function and the argument."""
import pytest

import skiff


@pytest.mark.parametrize("code,exc", [(0, ValueError), (1, TypeError), (2, IndexError),
                                      (3, RuntimeError), (4, NotImplementedError),
                                      (5, MemoryError), (6, RuntimeError), (7, SystemError),
                                      (8, OSError)])
def test_error_code_mapping(code, exc):
    with pytest.raises(exc, match=r"^\(\w+\) test: argument 'arg' expected boom"):
        skiff._C._raise(code, "boom")


def test_shape_errors_are_value_errors_with_the_op_message():
    with pytest.raises(ValueError, match="matmul"):
        skiff.matmul(skiff.ones([2, 3]), skiff.ones([2, 3]))
    with pytest.raises(ValueError, match="add"):
        skiff.ones([2, 3]) + skiff.ones([4])


def test_axis_errors_are_index_errors():
    with pytest.raises(IndexError, match="sum"):
        skiff.sum(skiff.ones([2]), axis=3)


def test_argument_type_errors():
    with pytest.raises(TypeError, match=r"sum: argument 'axis' expected an int, got str"):
        skiff.sum(skiff.ones([2]), axis=["a"])
    with pytest.raises(TypeError, match=r"reshape: argument 'shape' expected an int, a list"):
        skiff.reshape(skiff.ones([2]), "x")
    with pytest.raises(TypeError, match=r"cast: argument 'dtype' expected a dtype"):
        skiff.cast(skiff.ones([2]), "float33")
    with pytest.raises(TypeError, match=r"concat: argument 'x' expected a list or tuple"):
        skiff.concat(skiff.ones([2]))
    with pytest.raises(TypeError, match=r"add: argument 'x' expected a Tensor, got NoneType"):
        skiff.add(None, skiff.ones([1]))
    with pytest.raises(TypeError, match=r"to_tensor: argument 'data' expected numbers"):
        skiff.to_tensor(["a", "b"])
    with pytest.raises(TypeError):
        skiff.sum(skiff.ones([2]), bogus=1)


def test_dtype_errors_are_type_errors():
    with pytest.raises((TypeError, NotImplementedError), match="sin"):
        skiff.sin(skiff.to_tensor([True]))


def test_kernel_not_found_is_paddles_not_found():
    with pytest.raises(RuntimeError, match=r"\(NotFound\) sort: argument 'kernel' expected one "
                                           "of the registered kernels"):
        skiff.sort(skiff.to_tensor([True, False]))


def test_unsupported_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="matmul: argument 'x' expected a floating dtype"):
        skiff.matmul(skiff.ones([2, 2], "int8"), skiff.ones([2, 2], "int8"))


def test_python_side_argument_errors():
    x = skiff.ones([2])
    with pytest.raises(ValueError, match="meshgrid: argument 0 expected a 1-D tensor"):
        skiff.meshgrid(skiff.ones([2, 2]), x)
    with pytest.raises(ValueError, match="normal: argument 'shape' expected a shape"):
        skiff.normal(0.0, 1.0)
    with pytest.raises(TypeError, match="__index__: argument 'self' expected an integer tensor"):
        [1, 2][skiff.to_tensor(1.0)]
    with pytest.raises(ValueError, match="grad: argument 'grad_outputs' expected 1 entries"):
        skiff.grad([x], [x], grad_outputs=[x, x])
    with pytest.raises(ValueError, match="backward: argument 'tensors' expected at least one"):
        skiff.autograd.backward([])
    leaf = skiff.ones([2])
    leaf.stop_gradient = False
    with pytest.raises(TypeError, match="grad: argument 'no_grad_vars'"):
        skiff.grad([leaf * 2], [leaf], no_grad_vars=[1.5])
    with pytest.raises(TypeError, match="set_default_dtype: argument 'd' expected float16"):
        skiff.set_default_dtype("int32")
    with pytest.raises(ValueError, match="Place"):
        skiff.to_tensor([1.0], place="gpu:x")
    with pytest.raises(TypeError, match="to_tensor: argument 'place' expected a Place"):
        skiff.to_tensor([1.0], place=3)
    with pytest.raises(TypeError, match="sum: argument 'keepdim' expected a bool, got str"):
        skiff.sum(x, keepdim="yes")
    with pytest.raises(TypeError, match="scale: argument 'scale' expected a number"):
        skiff.scale(x, "2")
    with pytest.raises(TypeError, match="matmul: argument 'transpose_x' expected a bool"):
        skiff.matmul(x, x, transpose_x=1.5)
    with pytest.raises(ValueError, match="a number or a 1-element tensor"):
        skiff.full([2], skiff.ones([3]))
    with pytest.raises(RuntimeError, match="initialized tensor"):
        skiff.add(skiff.Tensor(), x)
