// Python -> C++ argument conversion for the binding. The generated op bindings take every
// argument as a py::handle and convert it here, so each op accepts what Paddle's Python API
// accepts (Python numbers, lists/tuples, numpy arrays and scalars, 1-element tensors where a
// number is expected, dtype names and numpy dtypes) and a bad argument raises a TypeError that
// names the op and the argument.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "skiff/core/scalar.h"
#include "skiff/core/tensor.h"

namespace skiff::python {

namespace py = pybind11;

/// The dtype Python floats become (skiff.get_default_dtype()); float32 unless set.
DType default_dtype();
void set_default_dtype(DType dtype);

/// Called once by the module init with the bound Tensor type (fast isinstance checks).
void set_tensor_type(PyTypeObject* type);
/// True for skiff.Tensor and its Python subclasses.
bool is_tensor(py::handle h);
/// The Tensor inside `h` (no conversion); null if `h` is not a Tensor.
const Tensor* as_tensor_ptr(py::handle h);

/// A Tensor from a Tensor, or from data (numbers, lists, numpy arrays) with the inferred dtype.
Tensor tensor_arg(py::handle h, const char* op, const char* arg);
/// Like tensor_arg, but a Python number takes the dtype Paddle's scalar promotion gives it with
/// `ref` (int tensor + 2.5 -> default float dtype; float16 tensor + 2 -> float16).
Tensor operand_arg(py::handle h, const Tensor* ref, const char* op, const char* arg);
std::optional<Tensor> optional_tensor_arg(py::handle h, const char* op, const char* arg);
std::vector<Tensor> tensor_list_arg(py::handle h, const char* op, const char* arg);
/// None -> no tensors; a Tensor -> one; a list/tuple -> its items (None items stay undefined).
std::vector<Tensor> tensors_or_none_arg(py::handle h, const char* op, const char* arg);

bool bool_arg(py::handle h, const char* op, const char* arg);
int64_t int_arg(py::handle h, const char* op, const char* arg);
double float_arg(py::handle h, const char* op, const char* arg);
std::string str_arg(py::handle h, const char* op, const char* arg);
Scalar scalar_arg(py::handle h, const char* op, const char* arg);
/// An int, a list/tuple of ints (elements may be 1-element tensors) or a 1-D integer tensor.
std::vector<int64_t> int_array_arg(py::handle h, const char* op, const char* arg);
std::vector<double> float_array_arg(py::handle h, const char* op, const char* arg);
/// skiff.float32, 'float32', numpy dtypes and types (np.float32); None -> kUndefined.
DType dtype_arg(py::handle h, const char* op, const char* arg);
/// skiff.CPUPlace(), a Place, 'cpu', 'gpu:0'; None -> the default place.
Place place_arg(py::handle h, const char* op, const char* arg);

/// Tensor from Python data (Paddle's to_tensor): `dtype` kUndefined infers it (Python floats
/// -> default dtype, ints -> int64, bools -> bool, numpy arrays keep theirs). Shares the memory
/// of a read-only, C-contiguous, aligned numpy array of the target dtype; copies otherwise.
Tensor tensor_from_data(py::handle data, DType dtype, const Place& place, const char* op);
/// `d` converted to `dtype` (the cast op on a history-free handle: nothing is recorded).
DenseTensor cast_data(const DenseTensor& d, DType dtype);

/// A 0-d tensor holding `value`.
Tensor scalar_tensor(const Scalar& value, DType dtype);

/// numpy dtype of a skiff dtype (bfloat16 has none: float32 is used).
py::dtype numpy_dtype(DType dtype);
/// skiff dtype of a numpy dtype; throws TypeError naming op/arg for unsupported ones.
DType from_numpy_dtype(const py::dtype& dt, const char* op, const char* arg);

/// Raises TypeError "op: argument 'arg' expected ..., got <type>".
[[noreturn]] void throw_arg_type_error(const char* op, const char* arg, const char* expected,
                                       py::handle got);

}  // namespace skiff::python
