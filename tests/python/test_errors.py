"""C++ errors reach Python as the built-in exception of their code, with the same message;
Python-side argument errors name the function and the argument."""
import pytest

import skiff


@pytest.mark.parametrize("code,exc", [(0, ValueError), (1, TypeError), (2, IndexError),
                                      (3, NotImplementedError), (4, NotImplementedError),
                                      (5, MemoryError), (6, RuntimeError), (7, RuntimeError),
                                      (8, OSError)])
def test_error_code_mapping(code, exc):
    with pytest.raises(exc, match="test: argument 'arg' expected boom"):
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


def test_kernel_not_found_is_not_implemented():
    with pytest.raises(NotImplementedError, match="sort: argument 'kernel' expected one of the "
                                                  "registered kernels"):
        skiff.sort(skiff.to_tensor([True, False]))


def test_unsupported_dtype_is_a_type_error():
    with pytest.raises(TypeError, match="matmul: argument 'x' expected a floating dtype"):
        skiff.matmul(skiff.ones([2, 2], "int8"), skiff.ones([2, 2], "int8"))
